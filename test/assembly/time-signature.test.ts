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

  it('reads three or six quarters as 6/8 or 12/8 where beams join notes by dotted quarters', () => {
    const voices = (length: Fraction, ...groups: Fraction[][]) => groups.map((g) => ({ length, groups: g }));
    const dotted = [frac(3, 2), frac(3, 2)];
    expect(inferTimeSignature([frac(3), frac(3)], voices(frac(3), dotted, dotted))).toEqual(t(6, 8));
    expect(inferTimeSignature([frac(6), frac(6)], voices(frac(6), [...dotted, ...dotted]))).toEqual(t(12, 8));
    expect(inferTimeSignature([frac(3), frac(3)], voices(frac(3), dotted, dotted, [frac(1), frac(1), frac(1)], [frac(1), frac(2)]))).toEqual(t(3, 4));
    expect(inferTimeSignature([frac(3), frac(3)], voices(frac(3), [frac(3, 2)], [frac(2), frac(1, 2)]))).toEqual(t(3, 4));
    expect(inferTimeSignature([frac(2), frac(2)], voices(frac(2), dotted, dotted))).toEqual(t(2, 4));
  });

  it('takes no metre from groups of three eighths in a voice that overfills its measure (triplets left unmarked)', () => {
    const triplets = [{ length: frac(9, 2), groups: [frac(3, 2), frac(3, 2), frac(3, 2)] }];
    expect(inferTimeSignature([frac(3), frac(3), frac(9, 2)], [...triplets, ...triplets])).toEqual(t(3, 4));
  });

  it('gives nothing on no shared evidence', () => {
    expect(inferTimeSignature([frac(3), frac(2)])).toBeUndefined();
  });
});
