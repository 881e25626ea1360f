/**
 * Spelling MIDI key numbers as written pitches, and keys for transposing
 * parts.
 *
 * A MIDI key number says 61, not whether that is C♯ or D♭. Pitches are
 * placed on the line of fifths (… B♭ F C G D A E B F♯ C♯ …), where a key's
 * seven notes are neighbours; each key number takes the spelling nearest the
 * middle of the key (for minor keys, of its notes with the raised sixth and
 * seventh). In C major that gives F♯, C♯ and G♯ but B♭ and E♭; in A minor
 * G♯ and D♯; in F♯ major, E♯.
 */
import type { Pitch, Step, Transposition } from '../../score/model.js';

/** Steps in line-of-fifths order from F, which sits at position -1 (C at 0). */
const FIFTHS_STEPS: readonly Step[] = ['F', 'C', 'G', 'D', 'A', 'E', 'B'];

/**
 * Written pitch of a key number in a key (`fifths` -7…7). Keys 12–127 always
 * spell within octaves 0–9, as MusicXML requires: a B♯ or C♭ that would
 * cross out of them gives way to the plain note.
 */
export function spell(midi: number, fifths: number, mode?: string): Pitch {
  const position = mod(mod(midi, 12) * 7, 12); // C 0, G 1 … F♯ 6 … E♯ 11
  const centre = fifths + (mode === 'minor' ? 3.5 : 2);
  // On a tie, fewer accidentals, then the key's own side: sharps in sharp keys, flats in flat ones.
  const side = fifths >= 0 ? -1 : 1;
  const spellings = [position - 12, position, position + 12]
    // Single sharps and flats only, F♭ (-8) to B♯ (12): a remote key's chromatic notes read better as naturals than as double flats.
    .filter((p) => p >= -8 && p <= 12)
    .map((p) => ({ p, pitch: pitchAt(midi, p) }))
    .sort((a, b) => Math.abs(a.p - centre) - Math.abs(b.p - centre) || Math.abs(a.pitch.alter) - Math.abs(b.pitch.alter) || side * (a.p - b.p))
    .map((s) => s.pitch);
  return spellings.find((p) => p.octave >= 0 && p.octave <= 9) ?? spellings[0]!;
}

/** The pitch of a key number spelled at a line-of-fifths position. */
function pitchAt(midi: number, position: number): Pitch {
  const alter = Math.floor((position + 1) / 7);
  return { step: FIFTHS_STEPS[mod(position + 1, 7)]!, alter, octave: Math.floor((midi - alter) / 12) - 1 };
}

/**
 * The written key of a transposing part from the sounding key: a B♭
 * instrument (written a major second above sounding) reads two sharps more.
 * Keys beyond seven sharps or flats are written as their enharmonic twin.
 */
export function writtenFifths(soundingFifths: number, transposition: Transposition | undefined): number {
  if (!transposition) return soundingFifths;
  // An interval of d steps and c semitones moves a key by 7c - 12d fifths.
  let fifths = soundingFifths - (7 * transposition.chromatic - 12 * transposition.diatonic);
  while (fifths > 7) fifths -= 12;
  while (fifths < -7) fifths += 12;
  return fifths;
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}
