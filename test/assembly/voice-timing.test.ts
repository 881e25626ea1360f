import { describe, expect, it } from 'vitest';
import { frac } from '../../src/score/fraction.js';
import { gapsByPlace, timeGrid, type PlacedItem } from '../../src/assembly/voice-timing.js';
import type { Stroke } from '../../src/assembly/strokes.js';

const SPACE = 12;

/** An item at x lasting n/d quarters (its source stroke matters only for its kind). */
function item(x: number, n: number, d = 1): PlacedItem {
  const source = { kind: 'chord', x } as unknown as Stroke;
  return { x, type: d === 2 ? 'eighth' : 'quarter', dots: 0, isRest: false, duration: frac(n, d), source };
}

describe('voice timing', () => {
  it('places a voice of off-beat eighths between the notes of a complete voice on another staff', () => {
    // 4/4: the other staff plays quarters at x 100, 160, 220, 280; the barline stands at 340.
    const grid = timeGrid([[item(100, 1), item(160, 1), item(220, 1), item(280, 1)]], frac(4), 340);
    const offbeats = [item(130, 1, 2), item(190, 1, 2), item(250, 1, 2), item(310, 1, 2)];
    const gaps = gapsByPlace(offbeats, grid, frac(4), SPACE);
    expect(gaps?.map((g) => g.n / g.d)).toEqual([0.5, 0.5, 0.5, 0.5, 0]);
  });

  it('leaves a voice alone whose places fall off its beat grid or overlap', () => {
    const grid = timeGrid([[item(100, 1), item(160, 1), item(220, 1), item(280, 1)]], frac(4), 340);
    // An eighth a fifth of the way between two quarters is on no eighth.
    expect(gapsByPlace([item(112, 1, 2), item(190, 1, 2)], grid, frac(4), SPACE)).toBeUndefined();
    // Two quarters a beat apart cannot start half a beat apart.
    expect(gapsByPlace([item(100, 2), item(130, 1)], grid, frac(4), SPACE)).toBeUndefined();
  });

  it('takes no time from a voice that does not fill its measure', () => {
    expect(timeGrid([[item(100, 1), item(160, 1)]], frac(4), 340)).toEqual([{ x: 340, onset: frac(4) }]);
  });
});
