/** Pitch arithmetic shared by the reader, recognition and the writers. */
import type { Pitch, Step, Transposition } from './model.js';

export const STEPS: readonly Step[] = ['C', 'D', 'E', 'F', 'G', 'A', 'B'];

const STEP_SEMITONES: Record<Step, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

/** Order in which a key signature adds sharps; flats come in the reverse order. */
const SHARP_ORDER: readonly Step[] = ['F', 'C', 'G', 'D', 'A', 'E', 'B'];

/** MIDI note number of a written pitch (middle C, C4, is 60), rounding quarter tones down. */
export function midiNumber(pitch: Pitch): number {
  return (pitch.octave + 1) * 12 + STEP_SEMITONES[pitch.step] + Math.floor(pitch.alter);
}

/** Sounding MIDI note number of a written pitch in a part with the given transposition. */
export function soundingMidiNumber(pitch: Pitch, transposition?: Transposition): number {
  if (!transposition) return midiNumber(pitch);
  return midiNumber(pitch) + transposition.chromatic + 12 * (transposition.octaveChange ?? 0);
}

/** The alteration a key signature gives to a step: +1, -1 or 0. */
export function keyAlter(fifths: number, step: Step): number {
  if (fifths > 0) return SHARP_ORDER.indexOf(step) < fifths ? 1 : 0;
  if (fifths < 0) return SHARP_ORDER.length - 1 - SHARP_ORDER.indexOf(step) < -fifths ? -1 : 0;
  return 0;
}

/** Diatonic step number (C0 = 0, D0 = 1, …), used for staff positions. */
export function diatonicIndex(pitch: Pick<Pitch, 'step' | 'octave'>): number {
  return pitch.octave * 7 + STEPS.indexOf(pitch.step);
}

export function isStep(value: string): value is Step {
  return (STEPS as readonly string[]).includes(value);
}
