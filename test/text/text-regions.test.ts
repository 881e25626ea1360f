/**
 * Text regions on a committed page (bench/text-set/text-abendlied: MuseScore 3,
 * a title, composer and lyricist credits, part names of a voice and a piano,
 * two verses under the voice), found and classified without reading them.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodePages } from '../../src/input/decode-pages.js';
import { CANONICAL_STAFF_SPACE, preparePage } from '../../src/preparation/prepare-page.js';
import { RECOGNITION_PDF_DPI } from '../../src/recognize/recognize-score.js';
import { detectStaves } from '../../src/staves/detect-staves.js';
import { groupSystems } from '../../src/staves/systems.js';
import { segmentSymbols } from '../../src/symbols/segment.js';
import { findTextRegions, type TextLine, type TextPageInput } from '../../src/text/text-regions.js';

const PDF = new URL('../../bench/text-set/text-abendlied/score.pdf', import.meta.url);

describe('findTextRegions', () => {
  let input: TextPageInput;
  let lines: TextLine[];
  beforeAll(async () => {
    for await (const { raster } of decodePages([{ filename: 'score.pdf', data: new Uint8Array(readFileSync(PDF)) }], { dpi: RECOGNITION_PDF_DPI })) {
      const prepared = preparePage(raster);
      const staves = detectStaves(prepared.ink, { staffSpace: CANONICAL_STAFF_SPACE });
      input = { gray: prepared.gray, ink: prepared.ink, staves, systems: groupSystems(staves, prepared.ink), map: await segmentSymbols(prepared.gray, staves), space: CANONICAL_STAFF_SPACE, page: 0 };
      lines = findTextRegions(input).lines;
    }
  }, 60_000);

  const of = (kind: TextLine['kind']) => lines.filter((l) => l.kind === kind);

  it('finds the title block: one large centred title, the composer right, the lyricist left', () => {
    const [title] = of('title');
    expect(of('title')).toHaveLength(1);
    expect(title!.size).toBeGreaterThan(Math.max(...lines.filter((l) => l !== title).map((l) => l.size)));
    const centre = input.gray.width / 2;
    expect(Math.abs((title!.x0 + title!.x1) / 2 - centre)).toBeLessThan(CANONICAL_STAFF_SPACE * 2);
    expect(of('composer')).toHaveLength(1);
    expect(of('lyricist')).toHaveLength(1);
    expect(of('composer')[0]!.x0).toBeGreaterThan(centre);
    expect(of('lyricist')[0]!.x1).toBeLessThan(centre);
    for (const credit of [...of('composer'), ...of('lyricist')]) expect(credit.y0).toBeGreaterThan(title!.y1);
  });

  it('on a later page, reads no title block: a centred line over the music may head a movement, the rest is not read', () => {
    const later = findTextRegions({ ...input, page: 1 }).lines;
    const [title] = of('title');
    const heading = later.filter((l) => l.kind === 'heading');
    expect(heading).toHaveLength(1);
    expect([heading[0]!.x0, heading[0]!.y0, heading[0]!.staff]).toEqual([title!.x0, title!.y0, input.systems[0]!.staves[0]]);
    for (const kind of ['title', 'subtitle', 'composer', 'lyricist'] as const) expect(later.filter((l) => l.kind === kind)).toHaveLength(0);
  });

  it('names the voice and the piano left of the first system, and abbreviates nothing on the one page', () => {
    const names = of('partName').sort((a, b) => a.y0 - b.y0);
    expect(names).toHaveLength(2);
    expect(names.map((n) => n.staff)).toEqual([0, expect.any(Number)]);
    // The piano's name stands between its two braced staves.
    expect([1, 2]).toContain(names[1]!.staff);
    for (const name of names) expect(name.x1).toBeLessThanOrEqual(input.staves[name.staff!]!.x0);
  });

  it('finds two verses of lyrics under the voice of each system, numbered from the top', () => {
    const voiceStaves = input.systems.map((s) => s.staves[0]!);
    const lyrics = of('lyrics');
    expect(lyrics.length).toBe(voiceStaves.length * 2);
    for (const staff of voiceStaves) {
      const verses = lyrics.filter((l) => l.staff === staff).sort((a, b) => a.y0 - b.y0);
      expect(verses.map((v) => v.verse)).toEqual([1, 2]);
      expect(verses[0]!.y0).toBeGreaterThan(Math.max(...input.staves[staff]!.lines[4]!));
      // A verse spans the music, and its ink is several words.
      expect(verses[0]!.x1 - verses[0]!.x0).toBeGreaterThan((input.staves[staff]!.x1 - input.staves[staff]!.x0) * 0.35);
      expect(verses[0]!.spans.length).toBeGreaterThan(5);
    }
    // No lyrics under the piano.
    expect(lyrics.every((l) => voiceStaves.includes(l.staff!))).toBe(true);
  });

  it('finds the measure number over the start of every system after the first, and nothing else there', () => {
    const numbers = of('measureNumber').sort((a, b) => a.y0 - b.y0);
    const systems = input.systems.slice(1);
    expect(systems.length).toBeGreaterThanOrEqual(1);
    expect(numbers.map((n) => n.staff)).toEqual(systems.map((s) => s.staves[0]));
    for (const n of numbers) {
      const staff = input.staves[n.staff!]!;
      expect(n.y1).toBeLessThan(Math.min(...staff.lines[0]!));
      expect(Math.abs(n.x0 - staff.x0)).toBeLessThan(CANONICAL_STAFF_SPACE * 2);
      expect(n.otherwise).toBe('tempo');
    }
  });

  it('leaves the music out: no text line crosses a staff', () => {
    for (const line of lines) {
      for (const staff of input.staves) {
        const top = Math.min(...staff.lines[0]!);
        const bottom = Math.max(...staff.lines[4]!);
        const inside = line.y0 > top && line.y1 < bottom && line.x0 > staff.x0 && line.x1 < staff.x1;
        expect(inside).toBe(false);
      }
    }
  });
});
