import { describe, expect, it } from 'vitest';
import type { Stroke } from '../../src/assembly/strokes.js';
import { splitVoices } from '../../src/assembly/voices.js';
import type { Head } from '../../src/symbols/read-symbols.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;
const TOP = 100;
const staff = straightStaff(TOP, SPACE);

function chord(x: number, position: number, kind: Head['kind'], up?: boolean): Stroke {
  const y = TOP + (position * SPACE) / 2;
  const head: Head = { x0: x - 7, x1: x + 7, y0: y - 6, y1: y + 6, x, y, staff: 0, confidence: 1, kind, position, small: false };
  // Up-stems stand at the head's right, down-stems at its left.
  const stem = up === undefined ? {} : { stem: { x: up ? x + 7 : x - 7, x0: x - 8, x1: x + 8, y0: up ? y - 40 : y, y1: up ? y : y + 40, staff: 0, confidence: 1 } };
  return { kind: 'chord', staff: 0, heads: [head], ...stem, ...(up === undefined ? {} : { up }), hooks: 0, beams: 0, grace: false, dots: 0, x, x0: x - 7, x1: x + 7, y0: y - 6, y1: y + 6, confidence: 1 };
}

describe('splitVoices', () => {
  it('keeps one voice where stems go both ways one after another', () => {
    const items = [chord(100, 8, 'black', true), chord(150, 2, 'black', false)];
    expect(splitVoices(items, staff, SPACE)).toEqual([items]);
  });

  it('keeps a kneed beam’s strokes, down-stems too, in the upper voice of a two-voice measure', () => {
    const kneed = [chord(40, 2, 'black', false), chord(70, 6, 'black', true)].map((s) => ({ ...s, kneed: true }));
    const up = chord(130, 5, 'black', true);
    const down = chord(130, 5, 'black', false);
    expect(splitVoices([...kneed, up, down], staff, SPACE)).toEqual([[...kneed, up], [down]]);
  });

  it('gives a whole note moved aside by an up-stem chord a second above it to the lower voice', () => {
    const upper = [chord(100, 8, 'black', true), chord(150, 7, 'half', true)];
    const whole = chord(130, 9, 'whole');
    expect(splitVoices([...upper, whole], staff, SPACE)).toEqual([upper, [whole]]);
  });

  it('splits a unison printed side by side, up-stem head first, the two stems all but touching', () => {
    // A quarter of the upper voice and a dotted quarter of the lower on one A, heads 1.5 spaces apart.
    const before = chord(40, 5, 'black', true);
    const up = chord(100, 5, 'black', true);
    const down = chord(118, 5, 'black', false);
    expect(splitVoices([before, up, down], staff, SPACE)).toEqual([[before, up], [down]]);
    // The same heads a second apart are a grace note against its main note, not two voices.
    const grace = chord(118, 4, 'black', false);
    expect(splitVoices([before, up, grace], staff, SPACE)).toEqual([[before, up, grace]]);
  });
});
