/**
 * Pedal marks read by their own model (read-pedals.ts): on a committed
 * LilyPond song page (bench/dev-set/piano-sur-la-plage) whose Ped. marks
 * tesseract reads as "Reo." or "QOD.", the marks come out as pedal marks
 * whatever the OCR says, and the words beside them ("cresc.") stay words.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodePages } from '../../src/input/decode-pages.js';
import { CANONICAL_STAFF_SPACE, preparePage } from '../../src/preparation/prepare-page.js';
import { RECOGNITION_PDF_DPI } from '../../src/recognize/recognize-score.js';
import { detectStaves } from '../../src/staves/detect-staves.js';
import { groupSystems } from '../../src/staves/systems.js';
import { segmentSymbols } from '../../src/symbols/segment.js';
import type { OcrReader } from '../../src/text/ocr.js';
import { readPageText } from '../../src/text/page-text.js';
import { lineWords } from '../../src/text/read-pedals.js';

/** An OCR that reads every line as "Reo.", as tesseract reads a Ped. mark. */
const misreader: OcrReader = {
  languages: ['eng'],
  fallbacks: [],
  readLine: async (image) => [{ text: 'Reo.', confidence: 90, x0: 0, y0: 0, x1: image.width, y1: 10, symbols: [] }],
  close: async () => {},
};

describe('readPedalMarks', () => {
  it('reads the Ped. marks of a song page as pedal starts, between the staves, and takes them out of their lines', async () => {
    const pdf = new URL('../../bench/dev-set/piano-sur-la-plage/score.pdf', import.meta.url);
    for await (const { raster } of decodePages([{ filename: 'score.pdf', data: new Uint8Array(readFileSync(pdf)) }], { dpi: RECOGNITION_PDF_DPI, pages: new Set([0]) })) {
      const prepared = preparePage(raster);
      const staves = detectStaves(prepared.ink, { staffSpace: CANONICAL_STAFF_SPACE });
      const found = { gray: prepared.gray, ink: prepared.ink, staves, systems: groupSystems(staves, prepared.ink), space: CANONICAL_STAFF_SPACE, page: 0, transform: prepared.transform };
      const read = await readPageText({ ...found, map: await segmentSymbols(prepared.gray, staves) }, misreader);
      const pedals = read.lines.filter((l) => l.kind === 'pedal');
      // The page prints 11 Ped. marks and one ✻ (a release just before a Ped.).
      expect(pedals.filter((p) => p.text === 'start').length).toBeGreaterThanOrEqual(6);
      expect(pedals.filter((p) => p.text === 'stop').length).toBeLessThanOrEqual(1);
      // Each between the two staves of its system (under the right hand, as LilyPond set them).
      for (const p of pedals) {
        const [upper, lower] = p.staff! % 2 ? [staves[p.staff! - 1]!, staves[p.staff!]!] : [staves[p.staff!]!, staves[p.staff! + 1]!];
        expect(p.y0).toBeGreaterThan(upper.lines[4]![0]!);
        expect(p.y1).toBeLessThan(lower.lines[0]![0]!);
      }
      // The lines they were read off keep their other words for the OCR, and lose the marks' glyphs.
      for (const p of pedals) {
        const under = read.lines.filter((l) => l.kind !== 'pedal' && l.staff === p.staff && l.x0 < p.x1 && l.x1 > p.x0 && l.y0 < p.y1 && l.y1 > p.y0);
        expect(under).toEqual([]);
      }
      return;
    }
    throw new Error('no page');
  }, 60_000);
});

describe('lineWords', () => {
  it('groups ink spans closer than half a staff space into one word', () => {
    const line = { x0: 0, y0: 10, x1: 100, y1: 30, glyphs: [], space: 12, spans: [[0, 10], [12, 20], [21, 30], [40, 50], [56, 60], [70, 100]] as [number, number][] };
    expect(lineWords(line).map((w) => [w.x0, w.x1])).toEqual([[0, 30], [40, 50], [56, 60], [70, 100]]);
  });
});
