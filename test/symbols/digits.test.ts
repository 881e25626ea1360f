/**
 * The time-signature digit reader on engraved signatures: every digit of
 * numerators 1–99 over 1–64, cut and read by the engine's own code.
 */
import { describe, expect, it } from 'vitest';
import { CANONICAL_STAFF_SPACE, preparePage } from '../../src/preparation/prepare-page.js';
import { toPreparedPoint } from '../../src/reading/page-transform.js';
import { frac } from '../../src/score/fraction.js';
import type { Measure, Score } from '../../src/score/model.js';
import { detectStaves, staffLineY } from '../../src/staves/detect-staves.js';
import { nearestStaff } from '../../src/staves/staff-geometry.js';
import { digitCells, readDigits, signatureHalves } from '../../src/symbols/digits.js';
import { renderPages } from '../../training/data/render-pages.js';

const SIGNATURES: [number, number][] = [[3, 4], [6, 8], [12, 8], [5, 4], [7, 16], [9, 8], [2, 2], [10, 4], [13, 32], [1, 64]];

function signatureScore(): Score {
  const measures: Measure[] = SIGNATURES.map(([beats, beatType], i) => ({
    number: String(i + 1),
    time: { beats, beatType },
    clefs: i === 0 ? [{ sign: 'G', line: 2, staff: 1, offset: frac(0) }] : [],
    voices: [{ id: '1', events: [{ kind: 'rest', duration: frac(beats * 4, beatType), dots: 0, staff: 1, measureRest: true }] }],
    directions: [],
  }));
  return { credits: {}, partGroups: [], parts: [{ id: 'P1', name: '', instrumentId: 'keyboard.piano', midiProgram: 0, staves: 1, measures }] };
}

describe('time-signature digits', () => {
  it('reads numerators and denominators digit by digit', { timeout: 60_000 }, async () => {
    const [page] = await renderPages(signatureScore(), { font: 'Leland', pageWidth: 2100, pageHeight: 2970, staffSpacePx: 13, hideEmptyStaves: false });
    const prepared = preparePage(page!.image);
    const staves = detectStaves(prepared.ink, { staffSpace: CANONICAL_STAFF_SPACE });
    const thickness = Math.max(1, prepared.source.lineThickness * prepared.transform.scale);
    const meters = page!.labels.symbols.filter((s) => s.kind === 'meterSig' && s.attrs?.count);
    expect(meters.length).toBe(SIGNATURES.length);
    const read: string[] = [];
    for (const meter of meters) {
      const [x0, y0] = toPreparedPoint(prepared.transform, meter.bbox.x, meter.bbox.y);
      const [x1, y1] = toPreparedPoint(prepared.transform, meter.bbox.x + meter.bbox.width, meter.bbox.y + meter.bbox.height);
      const staff = staves[nearestStaff(staves, (x0 + x1) / 2, (y0 + y1) / 2)]!;
      const lines = [0, 1, 2, 3, 4].map((l) => staffLineY(staff, l, (x0 + x1) / 2));
      const [top, bottom] = signatureHalves(lines, x0, x1, staff.space, thickness).map((r) => digitCells(prepared.gray, r, lines, thickness));
      const digits = await readDigits([...top!, ...bottom!]);
      const text = digits.map((d) => d.digit).join('');
      read.push(`${text.slice(0, top!.length)}/${text.slice(top!.length)}`);
    }
    expect(read).toEqual(SIGNATURES.map(([b, t]) => `${b}/${t}`));
  });
});
