/**
 * What a staff position means under a clef: the diatonic step (C0 = 0, D0 =
 * 1 …) of a note on that line or space. Staff positions count half spaces
 * down from the top line (see staves/staff-geometry.ts).
 */
import type { Clef, Pitch, Step } from '../score/model.js';
import { diatonicIndex } from '../score/pitch.js';

/** Diatonic step of a note at `position` on a staff with this clef. */
export function diatonicAt(clef: Clef, position: number): number {
  return clefDiatonic(clef) + (clefPosition(clef) - position);
}

/** Diatonic index of the pitch on the clef's line (an octave clef moves it by seven). */
function clefDiatonic(clef: Clef): number {
  const reference: Partial<Record<Clef['sign'], Pick<Pitch, 'step' | 'octave'>>> = { G: { step: 'G', octave: 4 }, F: { step: 'F', octave: 3 }, C: { step: 'C', octave: 4 } };
  const pitch = reference[clef.sign] ?? { step: 'B' as Step, octave: 4 };
  return diatonicIndex(pitch) + 7 * (clef.octaveChange ?? 0);
}

/** Staff position of the clef's line; percussion and unknown clefs read like a treble staff's middle line. */
function clefPosition(clef: Clef): number {
  if (clef.sign === 'percussion' || clef.sign === 'none' || clef.sign === 'TAB') return 4;
  return 2 * (5 - clef.line);
}

/** Whether two clefs are one: the same sign on the same line, in the same octave. */
export function sameClef(a: Clef | undefined, b: Clef | undefined): boolean {
  return !!a && !!b && a.sign === b.sign && a.line === b.line && (a.octaveChange ?? 0) === (b.octaveChange ?? 0);
}
