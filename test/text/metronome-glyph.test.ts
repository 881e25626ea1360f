/** The note of a metronome mark, read from its ink (metronome-glyph.ts), and the tempo it sets (apply-text.ts). */
import { describe, expect, it } from 'vitest';
import type { BinaryImage } from '../../src/preparation/binarize.js';
import { quartersPerMinute, readTempoText } from '../../src/text/apply-text.js';
import { readBeat } from '../../src/text/metronome-glyph.js';

/** Digits 14 px tall standing on row 100; the "=" starts at x 140. */
const SIZE = 14;
const FOOT = 100;
const EQUALS = 140;

/** A page of ink with a note glyph whose head's right edge is at x 128: a stem 30 px tall, a head 10 × 8. */
function glyph({ hollow = false, flag = false, dot = false, equalsBars = true } = {}): BinaryImage {
  const ink: BinaryImage = { width: 240, height: 160, data: new Uint8Array(240 * 160) };
  const set = (x: number, y: number) => (ink.data[y * ink.width + x] = 1);
  // The head: an ellipse centred at (123, 96), 10 wide and 8 tall; hollow leaves its middle as paper.
  for (let y = 92; y < 100; y++) {
    for (let x = 118; x < 128; x++) {
      const e = ((x + 0.5 - 123) / 5) ** 2 + ((y + 0.5 - 96) / 4) ** 2;
      if (e <= 1 && !(hollow && e < 0.35)) set(x, y);
    }
  }
  for (let y = 66; y < 96; y++) set(126, y), set(127, y); // the stem, up from the head's right
  if (flag) for (let k = 0; k < 12; k++) set(128 + Math.floor(k / 2), 67 + k), set(129 + Math.floor(k / 2), 67 + k);
  if (dot) for (let y = 94; y < 97; y++) for (let x = 131; x < 134; x++) set(x, y);
  // The "=": two bars, long and flat.
  if (equalsBars) for (const y of [88, 93]) for (let x = EQUALS; x < EQUALS + 9; x++) set(x, y), set(x, y + 1);
  return ink;
}

const line = { size: SIZE, y1: FOOT, words: [{ symbols: [{ text: '=', x0: EQUALS }, { text: '7', x0: 152 }, { text: '6', x0: 160 }] }] };

describe('the note of a metronome mark', () => {
  it('reads a filled head on a stem as a quarter', () => {
    expect(readBeat(glyph(), line)).toEqual({ unit: 'quarter', dots: 0 });
  });

  it('reads a hollow head as a half note', () => {
    expect(readBeat(glyph({ hollow: true }), line)).toEqual({ unit: 'half', dots: 0 });
  });

  it('reads a flag on the stem as an eighth', () => {
    expect(readBeat(glyph({ flag: true }), line)).toEqual({ unit: 'eighth', dots: 0 });
  });

  it('reads a round dot after the head as a dotted beat, and not the bars of the "="', () => {
    expect(readBeat(glyph({ hollow: true, dot: true }), line)).toEqual({ unit: 'half', dots: 1 });
    expect(readBeat(glyph(), { ...line, words: [{ symbols: [{ text: '=', x0: EQUALS + 6 }] }] })).toEqual({ unit: 'quarter', dots: 0 });
  });

  it('reads nothing where the line has no "=" or no glyph stands before it', () => {
    expect(readBeat(glyph(), { ...line, words: [{ symbols: [{ text: '7', x0: 152 }] }] })).toBeUndefined();
    expect(readBeat({ width: 240, height: 160, data: new Uint8Array(240 * 160) }, line)).toBeUndefined();
  });
});

describe('the tempo a metronome mark sets', () => {
  it('takes the note read from the ink over a quarter, and keeps the words before an "=" apart', () => {
    expect(readTempoText('Allegro moderato = 76', { unit: 'half', dots: 0 })).toEqual({ words: 'Allegro moderato', metronome: { beatUnit: 'half', dots: 0, perMinute: 76 } });
    expect(readTempoText('= 168')).toEqual({ metronome: { beatUnit: 'quarter', dots: 0, perMinute: 168 } });
  });

  it('counts quarter notes per minute', () => {
    expect(quartersPerMinute({ beatUnit: 'half', dots: 0, perMinute: 76 })).toBe(152);
    expect(quartersPerMinute({ beatUnit: 'half', dots: 1, perMinute: 60 })).toBe(180);
    expect(quartersPerMinute({ beatUnit: 'eighth', dots: 0, perMinute: 168 })).toBe(84);
    expect(quartersPerMinute({ beatUnit: 'quarter', dots: 1, perMinute: 60 })).toBe(90);
  });
});
