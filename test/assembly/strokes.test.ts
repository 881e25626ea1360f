import { describe, expect, it } from 'vitest';
import { buildStrokes, type Stroke } from '../../src/assembly/strokes.js';
import type { Head, PageSymbols, Stem } from '../../src/symbols/read-symbols.js';

const SPACE = 12;

function symbols(heads: Head[], stems: Stem[]): PageSymbols {
  return { heads, stems, flags: [], rests: [], dots: [], accidentals: [], clefs: [], time: [], barlines: [], tuplets: [], repeatDots: [], braces: [], map: { width: 1, height: 1, data: new Uint8Array(1), confidence: new Uint8Array(1) } };
}

const head = (x: number, y: number, position: number): Head => ({ x0: x - 7, x1: x + 7, y0: y - 6, y1: y + 6, x, y, staff: 0, confidence: 1, kind: 'black', position, small: false });
const stem = (x: number, y0: number, y1: number): Stem => ({ x, x0: x - 1, x1: x + 1, y0, y1, staff: 0, confidence: 1 });
const chords = (items: ReturnType<typeof buildStrokes>) => items.filter((i): i is Stroke => i.kind === 'chord').sort((a, b) => Number(a.up) - Number(b.up));

describe('buildStrokes', () => {
  it('gives a head with an up-stem on its right and a down-stem on its left to both voices', () => {
    const h = head(100, 130, 2);
    const items = chords(buildStrokes(symbols([h], [stem(107, 88, 130), stem(93, 130, 172)]), SPACE));
    expect(items).toHaveLength(2);
    expect(items.map((c) => [c.up, c.heads])).toEqual([[false, [h]], [true, [h]]]);
  });

  it('keeps a lower voice’s down-stem starting at its own head from taking the head a third above it', () => {
    const upper = head(100, 130, 2);
    const lower = head(100, 142, 4);
    const items = chords(buildStrokes(symbols([upper, lower], [stem(107, 88, 130), stem(93, 142, 184)]), SPACE));
    expect(items.map((c) => [c.up, c.heads])).toEqual([[false, [lower]], [true, [upper]]]);
  });
});
