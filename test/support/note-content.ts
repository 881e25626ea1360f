/**
 * The note content of a score as comparable rows: for each part and staff,
 * every note's onset, pitch and duration, sorted. Two scores with the same
 * rows sound and read the same, whatever their encoding.
 */
import { toString } from '../../src/score/fraction.js';
import type { Score } from '../../src/score/model.js';
import { placedNotes } from '../../src/score/timeline.js';

export function noteContent(score: Score): string[] {
  const rows: string[] = [];
  for (const n of placedNotes(score)) {
    const { step, alter, octave } = n.pitch;
    rows.push(
      `p${n.part} s${n.staff} @${toString(n.onset)} ${step}${alter ? (alter > 0 ? '#' : 'b').repeat(Math.abs(alter)) + `(${alter})` : ''}${octave} d${toString(n.duration)}${n.grace ? ' grace' : ''}`,
    );
  }
  return rows.sort();
}
