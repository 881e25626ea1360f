import { describe, expect, it } from 'vitest';
import { inferTimeSignature, settleTimes } from '../../src/assembly/time-signature.js';
import { frac, type Fraction } from '../../src/score/fraction.js';
import type { TimeSignature } from '../../src/score/model.js';

const t = (beats: number, beatType: number): TimeSignature => ({ beats, beatType });
/** n measures of two staves, each `quarters` long. */
const measures = (n: number, quarters: Fraction): Fraction[][] => Array.from({ length: n }, () => [quarters, quarters]);

describe('time signatures settled by the measures', () => {
  it('keeps a signature the measures fill', () => {
    expect(settleTimes([t(3, 4), undefined, undefined], measures(3, frac(3)))).toEqual([t(3, 4), undefined, undefined]);
  });

  it('corrects a misread beat type when the beats fit another', () => {
    expect(settleTimes([t(3, 1), undefined, undefined], measures(3, frac(3)))).toEqual([t(3, 4), undefined, undefined]);
  });

  it('keeps a usual beat type even where merged measures would fit another', () => {
    expect(settleTimes([t(6, 4), undefined], measures(2, frac(12)))).toEqual([t(6, 4), undefined]);
  });

  it('reads a whole-note beat the measures confirm as quarters', () => {
    expect(settleTimes([t(1, 1), undefined], measures(2, frac(4)))).toEqual([t(4, 4), undefined]);
  });

  it('drops a later change the measures do not follow', () => {
    const printed = [t(6, 4), undefined, t(2, 8), t(7, 8), undefined];
    expect(settleTimes(printed, measures(5, frac(6)))).toEqual([t(6, 4), undefined, undefined, undefined, undefined]);
  });

  it('keeps a real change of metre', () => {
    const printed = [t(4, 4), undefined, t(3, 4), undefined];
    const lengths = [...measures(2, frac(4)), ...measures(2, frac(3))];
    expect(settleTimes(printed, lengths)).toEqual(printed);
  });

  it('leaves common and cut time alone', () => {
    const printed: (TimeSignature | undefined)[] = [{ beats: 4, beatType: 4, symbol: 'common' }, undefined];
    expect(settleTimes(printed, measures(2, frac(3)))).toEqual(printed);
  });

  it('trusts the print when the measures agree on nothing', () => {
    expect(settleTimes([t(5, 4)], [[frac(3), frac(2)]])).toEqual([t(5, 4)]);
  });
});

describe('time signature inferred from the measures', () => {
  it('names the most common length', () => {
    expect(inferTimeSignature([frac(3), frac(3), frac(2)])).toEqual(t(3, 4));
    expect(inferTimeSignature([frac(3, 2), frac(3, 2)])).toEqual(t(3, 8));
  });

  it('gives nothing on no shared evidence', () => {
    expect(inferTimeSignature([frac(3), frac(2)])).toBeUndefined();
  });

  it('writes a compound metre where most beamed groups of equal notes are threes', () => {
    const bars = [frac(3), frac(3), frac(3)];
    const g = (value: number, notes: number, times: number) => Array.from({ length: times }, () => ({ value, notes }));
    // Eighths beamed in threes: 6/8, not 3/4; sixteenths in threes: 12/16.
    expect(inferTimeSignature(bars, [...g(0.5, 3, 3), ...g(0.5, 2, 1)])).toEqual(t(6, 8));
    expect(inferTimeSignature(bars, g(0.25, 3, 8))).toEqual(t(12, 16));
    expect(inferTimeSignature([frac(6), frac(6)], g(0.5, 3, 4))).toEqual(t(12, 8));
    // Eighths in pairs and fours, six sixteenths beamed by the half bar, or too few threes: a simple metre.
    expect(inferTimeSignature(bars, [...g(0.5, 2, 3), ...g(0.5, 4, 2), ...g(0.5, 3, 3)])).toEqual(t(3, 4));
    expect(inferTimeSignature(bars, g(0.25, 6, 6))).toEqual(t(3, 4));
    expect(inferTimeSignature(bars, g(0.5, 3, 2))).toEqual(t(3, 4));
    // A measure that is not a whole number of beamed threes stays simple.
    expect(inferTimeSignature([frac(2), frac(2)], g(0.5, 3, 4))).toEqual(t(2, 4));
  });
});
