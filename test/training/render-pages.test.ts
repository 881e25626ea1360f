/** The Verovio training-page renderer: geometry, labels, masks and ground truth agree with the score. */
import { describe, expect, it } from 'vitest';
import { frac } from '../../src/score/fraction.js';
import type { Score } from '../../src/score/model.js';
import { placedNotes } from '../../src/score/timeline.js';
import { renderPages, type RenderedPage } from '../../training/data/render-pages.js';
import { CLASS_INDEX } from '../../training/data/symbol-classes.js';
import { measure, note, numbered, part, rest } from '../support/score-builder.js';

const G = { sign: 'G' as const, line: 2, staff: 1, offset: frac(0) };

function melody(measures: number): Score {
  const bars = Array.from({ length: measures }, (_, i) =>
    measure([note('C5', 'quarter'), note('E4', 'eighth'), note('G4', 'eighth'), note(['F4', 'A4'], 'quarter'), rest('quarter')], i === 0 ? { key: { fifths: 0 }, time: { beats: 4, beatType: 4 }, clefs: [G] } : {}),
  );
  return { credits: { title: 'Test melody' }, parts: [part(numbered(bars), { name: 'Flute', instrumentId: 'wind.flute', midiProgram: 73 })], partGroups: [] };
}

const options = { font: 'Leipzig' as const, pageWidth: 2100, pageHeight: 2970, staffSpacePx: 14, hideEmptyStaves: false };

describe('renderPages', () => {
  let pages: RenderedPage[];
  it('engraves a score into labelled pages', async () => {
    pages = await renderPages(melody(12), options);
    expect(pages.length).toBeGreaterThanOrEqual(1);
    const [page] = pages;
    expect(page!.image.channels).toBe(1);
    expect([page!.mask.width, page!.mask.height]).toEqual([page!.image.width, page!.image.height]);
  });

  it('places five staff lines one staff space apart, at the requested pixel size', () => {
    for (const page of pages) {
      expect(page.labels.staves.length).toBeGreaterThan(0);
      for (const staff of page.labels.staves) {
        const gaps = staff.lines.slice(1).map((y, i) => y - staff.lines[i]!);
        for (const gap of gaps) expect(gap).toBeCloseTo(options.staffSpacePx, 0);
        expect(staff.part).toBe(0);
        expect(staff.staffInPart).toBe(1);
      }
    }
  });

  it('labels every note and its pitch, and the measures add up to the score', () => {
    const notes = pages.flatMap((p) => p.labels.symbols.filter((s) => s.kind === 'note'));
    const expected = [...placedNotes(melody(12))].length;
    expect(notes.length).toBe(expected);
    expect(notes[0]!.attrs).toMatchObject({ pname: 'c', oct: '5' });
    const measures = pages.flatMap((p) => p.labels.measures.map((m) => m.index));
    expect(measures).toEqual(Array.from({ length: 12 }, (_, i) => i));
    const truthMeasures = pages.reduce((sum, p) => sum + p.truth.parts[0]!.measures.length, 0);
    expect(truthMeasures).toBe(12);
  });

  it('paints noteheads into the mask inside their boxes, and staff lines on the lines', () => {
    const page = pages[0]!;
    const { width, data } = page.mask;
    const at = (x: number, y: number) => data[Math.round(y) * width + Math.round(x)]!;
    let inside = 0;
    const notes = page.labels.symbols.filter((s) => s.kind === 'note');
    for (const n of notes) {
      const cx = n.bbox.x + n.bbox.width / 2;
      const cy = n.bbox.y + n.bbox.height / 2;
      if (at(cx, cy) === CLASS_INDEX.noteheadBlack) inside++;
    }
    expect(inside / notes.length).toBeGreaterThan(0.9);
    const staff = page.labels.staves[0]!;
    const x = (staff.x0 + staff.x1) / 2 + 3;
    const onLine = staff.lines.filter((y) => [CLASS_INDEX.staffLine, CLASS_INDEX.noteheadBlack, CLASS_INDEX.stem, CLASS_INDEX.barline].includes(at(x, y))).length;
    expect(onLine).toBeGreaterThanOrEqual(4);
  });

  it('is deterministic', async () => {
    const again = await renderPages(melody(12), options);
    expect(Buffer.from(again[0]!.image.data).equals(Buffer.from(pages[0]!.image.data))).toBe(true);
    expect(Buffer.from(again[0]!.mask.data).equals(Buffer.from(pages[0]!.mask.data))).toBe(true);
  });
});
