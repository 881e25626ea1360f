/**
 * Dynamics read by their own model (read-dynamics.ts): on a committed MuseScore
 * quartet page (bench/dev-set/chamber-haydn104-a) whose bold italic ff and fz
 * tesseract reads as "If" and "Sz", the marks come out right whatever the OCR says.
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
import { trustedReading } from '../../src/text/read-dynamics.js';

/** An OCR that reads every line as "If", as tesseract reads a bold italic ff. */
const misreader: OcrReader = {
  languages: ['eng'],
  fallbacks: [],
  readLine: async (image) => [{ text: 'If', confidence: 90, x0: 0, y0: 0, x1: image.width, y1: 10, symbols: [] }],
  close: async () => {},
};

describe('readDynamicMarks', () => {
  it('reads the first page of a quartet: an ff under each of the four staves at the start, fz and p after, an fz and a p side by side as two', async () => {
    const pdf = new URL('../../bench/dev-set/chamber-haydn104-a/score.pdf', import.meta.url);
    for await (const { raster } of decodePages([{ filename: 'score.pdf', data: new Uint8Array(readFileSync(pdf)) }], { dpi: RECOGNITION_PDF_DPI, pages: new Set([0]) })) {
      const prepared = preparePage(raster);
      const staves = detectStaves(prepared.ink, { staffSpace: CANONICAL_STAFF_SPACE });
      const found = { gray: prepared.gray, ink: prepared.ink, staves, systems: groupSystems(staves, prepared.ink), space: CANONICAL_STAFF_SPACE, page: 0, transform: prepared.transform };
      const read = await readPageText({ ...found, map: await segmentSymbols(prepared.gray, staves) }, misreader);
      const marks = read.lines.filter((l) => l.kind === 'dynamics' && l.text !== 'If');
      const first = Math.min(...marks.map((m) => m.x0));
      // The first system's opening ff, one under each staff.
      const opening = marks.filter((m) => m.x0 < first + CANONICAL_STAFF_SPACE * 2 && m.staff! < 4);
      expect(opening.map((m) => m.text)).toEqual(['ff', 'ff', 'ff', 'ff']);
      expect(new Set(opening.map((m) => m.staff))).toEqual(new Set([0, 1, 2, 3]));
      // Five fz, two of them with a p just after, as close as a mark's own letters: two marks, not an "fzp".
      expect(marks.filter((m) => m.text === 'fz').length).toBeGreaterThanOrEqual(5);
      expect(marks.filter((m) => !['ff', 'fz', 'p', 'pp'].includes(m.text))).toEqual([]);
      for (const fz of marks.filter((m) => m.text === 'fz' && m.staff! >= 5)) {
        const next = marks.find((m) => m.staff === fz.staff && m.x0 > fz.x1 && m.x0 - fz.x1 < CANONICAL_STAFF_SPACE);
        expect(next?.text).toBe('p');
      }
      expect(marks.filter((m) => m.text === 'p').length).toBeGreaterThanOrEqual(6);
      return;
    }
    throw new Error('no page');
  }, 60_000);
});

describe('trustedReading', () => {
  it('trusts sure readings of common marks; leaves to the OCR a rare mark however sure (italic "dim." read as sfpp), an unsure one, and none', () => {
    expect(trustedReading([{ mark: 'fz', probability: 0.95 }, { mark: 'p', probability: 0.9 }])).toBe(true);
    expect(trustedReading([{ mark: 'sfpp', probability: 0.99 }])).toBe(false);
    expect(trustedReading([{ mark: 'f', probability: 0.99 }, { mark: 'rfz', probability: 0.99 }])).toBe(false);
    expect(trustedReading([{ mark: 'ff', probability: 0.6 }])).toBe(false);
    expect(trustedReading([{ mark: 'none', probability: 0.99 }])).toBe(false);
    expect(trustedReading([])).toBe(false);
  });
});
