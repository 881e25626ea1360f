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
  return { kind: 'chord', staff: 0, heads: [head], ...(up === undefined ? {} : { up }), hooks: 0, beams: 0, grace: false, dots: 0, x, x0: x - 7, x1: x + 7, y0: y - 6, y1: y + 6, confidence: 1 };
}

describe('splitVoices', () => {
  it('keeps one voice where stems go both ways one after another', () => {
    const items = [chord(100, 8, 'black', true), chord(150, 2, 'black', false)];
    expect(splitVoices(items, staff, SPACE)).toEqual([items]);
  });

  it('gives a whole note moved aside by an up-stem chord a second above it to the lower voice', () => {
    const upper = [chord(100, 8, 'black', true), chord(150, 7, 'half', true)];
    const whole = chord(130, 9, 'whole');
    expect(splitVoices([...upper, whole], staff, SPACE)).toEqual([upper, [whole]]);
  });
});
