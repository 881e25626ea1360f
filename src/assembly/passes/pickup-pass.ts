/**
 * Pickup: an opening measure shorter than its time signature, followed by a
 * full one, is a pickup (anacrusis): it does not count, so numbering starts
 * at 0.
 *
 * Reads: the parts' measures, the opening time signature.
 * Adds: `implicit` on the first measure of every part, and the numbers shifted down by one.
 */
import { compare, ZERO, type Fraction } from '../../score/fraction.js';
import type { Measure, Part } from '../../score/model.js';
import { timeSignatureLength } from '../../score/timeline.js';
import { voiceDuration } from '../measure-repair.js';
import type { ScorePass } from './reading-state.js';

export const pickupPass: ScorePass = {
  name: 'pickup',
  run({ parts }) {
    markPickup(parts, parts[0]?.measures[0]?.time ? timeSignatureLength(parts[0].measures[0].time) : undefined);
  },
};

function markPickup(parts: Part[], expected: Fraction | undefined): void {
  if (!expected || !parts.length || parts[0]!.measures.length < 2) return;
  const length = (measure: Measure) => measure.voices.reduce((most, v) => (compare(voiceDuration(v.events), most) > 0 ? voiceDuration(v.events) : most), ZERO);
  const short = parts.every((p) => compare(length(p.measures[0]!), expected) < 0 && compare(length(p.measures[0]!), ZERO) > 0);
  const fullNext = parts.some((p) => compare(length(p.measures[1]!), expected) === 0);
  if (!short || !fullNext) return;
  for (const part of parts) {
    part.measures[0]!.implicit = true;
    part.measures.forEach((measure, i) => (measure.number = String(i)));
  }
}
