import { describe, expect, it } from 'vitest';
import { add, compare, div, frac, lcm, mul, sub, toString } from '../../src/score/fraction.js';
import { notatedDuration } from '../../src/score/timeline.js';

describe('fraction', () => {
  it('reduces and normalises sign', () => {
    expect(frac(2, 4)).toEqual({ n: 1, d: 2 });
    expect(frac(3, -6)).toEqual({ n: -1, d: 2 });
    expect(frac(0, -5)).toEqual({ n: 0, d: 1 });
  });
  it('does exact arithmetic', () => {
    expect(add(frac(1, 3), frac(1, 6))).toEqual(frac(1, 2));
    expect(sub(frac(1, 3), frac(1, 2))).toEqual(frac(-1, 6));
    expect(mul(frac(2, 3), frac(3, 4))).toEqual(frac(1, 2));
    expect(div(frac(1, 2), frac(1, 4))).toEqual(frac(2));
    expect(compare(frac(1, 3), frac(1, 2))).toBeLessThan(0);
    expect(toString(frac(6, 4))).toBe('3/2');
    expect(lcm(4, 6)).toBe(12);
  });
  it('rejects bad denominators', () => {
    expect(() => frac(1, 0)).toThrow(RangeError);
    expect(() => frac(0.5, 1)).toThrow(RangeError);
  });
  it('computes notated durations with dots and tuplets', () => {
    expect(notatedDuration('quarter', 1)).toEqual(frac(3, 2));
    expect(notatedDuration('half', 2)).toEqual(frac(7, 2));
    expect(notatedDuration('eighth', 0, { actual: 3, normal: 2 })).toEqual(frac(1, 3));
    expect(notatedDuration('64th')).toEqual(frac(1, 16));
  });
});
