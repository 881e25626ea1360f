/**
 * The measures of an imported MIDI file, from its time signature events.
 *
 * MIDI has no barlines: they follow from the time signatures, counted from
 * the start. A signature takes effect where its event stands; when that is
 * not on a barline (a pickup written as a full measure, a file cut
 * together), the measure it interrupts ends there and is given a signature
 * of its own actual length (3/4 for three beats of a 4/4 bar), so that every
 * measure is full and the file's later barlines are kept. Signature times
 * are snapped to 32nds and measures last whole 64ths, so such a length is
 * always a whole number of 64ths, which a signature can state.
 */
import { OmrError } from '../../errors.js';
import { add, compare, sub, ZERO, type Fraction } from '../../score/fraction.js';
import type { TimeSignature } from '../../score/model.js';
import { timeSignatureLength } from '../../score/timeline.js';

export interface TimeSignatureEvent {
  at: Fraction;
  beats: number;
  beatType: number;
}

export interface MeasureSpan {
  start: Fraction;
  length: Fraction;
  time: TimeSignature;
}

/** A signature MIDI can state and the model can draw: beats 1–255 over a power of two up to 64. */
export function isUsableTimeSignature(beats: number, beatType: number): boolean {
  return Number.isInteger(beats) && beats >= 1 && beats <= 255 && [1, 2, 4, 8, 16, 32, 64].includes(beatType);
}

const COMMON_TIME: TimeSignature = { beats: 4, beatType: 4 };

/**
 * Measures from the start until `end` (at least one), with the time
 * signature of each. Throws FILE_TOO_LARGE past `maxMeasures`.
 */
export function layoutMeasures(events: readonly TimeSignatureEvent[], end: Fraction, maxMeasures: number): MeasureSpan[] {
  // Sorted, the last of several at one time winning.
  const changes = [...events].sort((a, b) => compare(a.at, b.at)).filter((e, i, all) => !all[i + 1] || compare(all[i + 1]!.at, e.at) !== 0);
  let time: TimeSignature = COMMON_TIME;
  let next = 0;
  const spans: MeasureSpan[] = [];
  let start = ZERO;
  while (spans.length === 0 || compare(start, end) < 0) {
    while (next < changes.length && compare(changes[next]!.at, start) <= 0) {
      const { beats, beatType } = changes[next++]!;
      time = { beats, beatType };
    }
    let length = timeSignatureLength(time);
    let measureTime = time;
    const change = changes[next];
    if (change && compare(change.at, add(start, length)) < 0) {
      length = sub(change.at, start);
      measureTime = signatureOfLength(length, time.beatType);
    }
    if (spans.length >= maxMeasures) {
      throw new OmrError('FILE_TOO_LARGE', `The MIDI file is too long to import: its music would take more than ${maxMeasures.toLocaleString('en')} measures.`);
    }
    spans.push({ start, length, time: measureTime });
    start = add(start, length);
  }
  return spans;
}

/** A time signature for a measure cut short: over the current beat type when it can be, else over 4, 8 … 64. */
function signatureOfLength(length: Fraction, beatType: number): TimeSignature {
  const beats = (length.n * beatType) / (4 * length.d);
  if (Number.isInteger(beats)) return { beats, beatType };
  const denominator = Math.max(4, 4 * length.d);
  return { beats: (length.n * denominator) / (4 * length.d), beatType: denominator };
}

/** Index of the measure that contains a time (the last one for times past the end). */
export function measureIndexAt(spans: readonly MeasureSpan[], at: Fraction): number {
  let low = 0;
  let high = spans.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (compare(spans[mid]!.start, at) <= 0) low = mid;
    else high = mid - 1;
  }
  return low;
}
