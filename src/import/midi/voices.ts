/**
 * Chords and voices of one staff.
 *
 * Notes that start and end together form a chord. Chords go, in time order
 * (higher first where several start together), into the first voice that is
 * free by then, so the first voice carries the music and a second one opens
 * only where notes of different lengths overlap — a held note under moving
 * ones. A staff has at most {@link MAX_VOICES} voices, as notation programs
 * allow. Music needing more (dense keyboard writing with many independent
 * lengths) is truncated where it overflows: a chord that starts with a
 * chord of the last voices joins it, taking its length; otherwise the voice
 * that frees soonest has its sounding chord cut short where the new one
 * starts. Every onset and pitch is kept; only some lengths shrink.
 */
import { compare, type Fraction } from '../../score/fraction.js';

export const MAX_VOICES = 4;

export interface TimedNote {
  onset: Fraction;
  end: Fraction;
  /** Written key number. */
  key: number;
}

export interface Chord {
  onset: Fraction;
  end: Fraction;
  /** Written key numbers, lowest first. */
  keys: number[];
}

/** The voices of a staff, each a list of chords that follow one another without overlapping. */
export function assignVoices(notes: readonly TimedNote[]): Chord[][] {
  const byTime = new Map<string, Chord>();
  for (const note of notes) {
    const id = `${note.onset.n}/${note.onset.d}-${note.end.n}/${note.end.d}`;
    const chord = byTime.get(id);
    if (chord) chord.keys.push(note.key);
    else byTime.set(id, { onset: note.onset, end: note.end, keys: [note.key] });
  }
  const chords = [...byTime.values()];
  for (const chord of chords) chord.keys.sort((a, b) => a - b);
  chords.sort((a, b) => compare(a.onset, b.onset) || b.keys.at(-1)! - a.keys.at(-1)!);

  const voices: Chord[][] = [];
  for (const chord of chords) {
    const free = voices.find((voice) => compare(voice.at(-1)!.end, chord.onset) <= 0);
    if (free) free.push(chord);
    else if (voices.length < MAX_VOICES) voices.push([chord]);
    else overflow(voices, chord);
  }
  return voices;
}

/** Places a chord when every voice is busy (see the module comment). */
function overflow(voices: Chord[][], chord: Chord): void {
  const last = voices.map((voice) => voice.at(-1)!);
  const together = last.filter((c) => compare(c.onset, chord.onset) === 0);
  if (together.length) {
    const nearest = together.reduce((a, b) => (distance(b, chord) < distance(a, chord) ? b : a));
    nearest.keys = [...nearest.keys, ...chord.keys].sort((a, b) => a - b);
    return;
  }
  const soonest = last.reduce((a, b) => (compare(b.end, a.end) < 0 ? b : a));
  soonest.end = chord.onset;
  voices[last.indexOf(soonest)]!.push(chord);
}

function distance(a: Chord, b: Chord): number {
  return Math.abs(a.end.n / a.end.d - b.end.n / b.end.d);
}
