/**
 * Written values for a stretch of time inside a measure.
 *
 * A note or rest that no single value can write (5/16, or a quarter that
 * starts on the second 16th of a beat) becomes several tied values. The
 * stretch is cut where beats begin, as a reader expects to see them: a
 * stretch from a beat that one value writes (a dotted quarter, a half) is
 * that value; otherwise an off-beat start runs to the next beat on its own,
 * whole beats are written together (a half, a dotted half …), then what is
 * left of the last beat. Within a beat, a length that needs thirds of a
 * quarter is written as triplets (3 in the time of 2); everything else in
 * plain values. Each piece is the longest plain or dotted value that fits,
 * longest first.
 *
 * The beat is a quarter, or a dotted quarter in compound time (6/8, 9/8,
 * 12/8). Quantisation keeps every time a multiple of 1/48 of a quarter, so
 * every length inside a beat is writable this way.
 */
import { add, compare, div, equals, frac, mul, sub, toNumber, type Fraction } from '../../score/fraction.js';
import type { DurationType } from '../../score/model.js';
import { notatedDuration } from '../../score/timeline.js';

export interface NoteValue {
  /** Sounding length in quarter notes (triplet ratio applied). */
  duration: Fraction;
  type: DurationType;
  dots: number;
  /** Written as a triplet, three in the time of two. */
  triplet: boolean;
}

const TYPES: readonly DurationType[] = ['breve', 'whole', 'half', 'quarter', 'eighth', '16th', '32nd', '64th', '128th', '256th'];

/** Every plain and single-dotted value, longest first. */
const VALUES = TYPES.flatMap((type) => [1, 0].map((dots) => ({ type, dots, duration: notatedDuration(type, dots) })));

const TRIPLET_RATIO = frac(2, 3);

/** The beat of a time signature, in quarters: a dotted quarter (or eighth …) in compound time, else a quarter. */
export function beatOf(beats: number, beatType: number): Fraction {
  return beats % 3 === 0 && beatType >= 8 ? frac(12, beatType) : frac(1);
}

/** Written values for the stretch from `start` to `end`, both offsets from the start of the measure. */
export function noteValues(start: Fraction, end: Fraction, beat: Fraction): NoteValue[] {
  const values: NoteValue[] = [];
  let t = start;
  while (compare(t, end) < 0) {
    const beatsIn = div(t, beat);
    const onBeat = beatsIn.d === 1;
    const single = onBeat ? VALUES.find((v) => equals(v.duration, sub(end, t))) : undefined;
    if (single) {
      values.push({ ...single, triplet: false });
      break;
    }
    const wholeBeats = onBeat ? Math.floor(toNumber(div(sub(end, t), beat))) : 0;
    if (wholeBeats >= 1) {
      // Values that are whole beats, so that each tied piece starts on a beat (a dotted half and a dotted quarter in 12/8).
      const span = mul(frac(wholeBeats), beat);
      values.push(...writeLength(span, VALUES.filter((v) => div(v.duration, beat).d === 1)));
      t = add(t, span);
    } else {
      const nextBeat = mul(frac(Math.floor(beatsIn.n / beatsIn.d) + 1), beat);
      const to = compare(end, nextBeat) < 0 ? end : nextBeat;
      values.push(...writeLength(sub(to, t), VALUES));
      t = to;
    }
  }
  return values;
}

/** A length within one beat (or whole beats) as values from `choices`, longest first. */
function writeLength(length: Fraction, choices: readonly (typeof VALUES)[number][]): NoteValue[] {
  const triplet = length.d % 3 === 0;
  let left = triplet ? mul(length, frac(3, 2)) : length;
  const values: NoteValue[] = [];
  while (left.n > 0) {
    const value = choices.find((v) => compare(v.duration, left) <= 0);
    if (!value) throw new Error(`note-values: ${left.n}/${left.d} of a quarter cannot be written`);
    values.push({
      duration: triplet ? mul(value.duration, TRIPLET_RATIO) : value.duration,
      type: value.type,
      dots: value.dots,
      triplet,
    });
    left = sub(left, value.duration);
  }
  return values;
}
