/**
 * Standard MIDI File writer: the score as it sounds, for playback and for
 * checking a recognition by ear.
 *
 * One track per part, at sounding pitch, with tempos and time signatures in
 * the conductor track. Key signatures are left out: @tonejs/midi 2.0.28
 * writes their sharps/flats count off by 14 (Tonejs/Midi#173), and playback
 * does not need them. Repeats and voltas are played as written out
 * (score/playback.ts): recognition marks a repeat only where its dots are
 * seen, so a plain double barline never sends playback back.
 */
import * as tonejsMidi from '@tonejs/midi';
import { add, compare, toNumber, ZERO, type Fraction } from '../score/fraction.js';
import type { Direction, Part, Score } from '../score/model.js';
import { soundingMidiNumber } from '../score/pitch.js';
import { unfoldRepeats } from '../score/playback.js';
import { measureStarts, notatedDuration, placedNotes } from '../score/timeline.js';

/**
 * @tonejs/midi is CommonJS only. Node's ESM loader exposes it as a default
 * export alone (its `main` is a webpack bundle whose names Node cannot
 * detect), while bundlers read its `module` entry, see `__esModule`, and
 * expose the names with no usable default. Take whichever is there.
 */
const { Midi } = 'Midi' in tonejsMidi ? tonejsMidi : (tonejsMidi as unknown as { default: typeof tonejsMidi }).default;

/** Ticks per quarter note: divisible by 2⁵ and 3 × 5, so common tuplets land on whole ticks. */
const PPQ = 480;

/** Tempo when the score sets none at its start: the MIDI default, 120 quarters a minute. */
const DEFAULT_BPM = 120;

/** A MIDI tempo is a 24-bit count of microseconds per quarter; slower marks cannot be written. */
const MIN_BPM = 60_000_000 / 0xffffff;

const PERCUSSION_CHANNEL = 9;

/**
 * Velocity (1–127) of each dynamics level, evenly spaced from ppp to fff as
 * notation programs play them back. Accents (`sfz`, `fp` …) act on one note
 * and leave the level alone.
 */
const DYNAMICS_VELOCITY: ReadonlyMap<string, number> = new Map([
  ['pppp', 8],
  ['ppp', 16],
  ['pp', 33],
  ['p', 49],
  ['mp', 64],
  ['mf', 80],
  ['f', 96],
  ['ff', 112],
  ['fff', 126],
  ['ffff', 127],
]);

/** Unmarked music plays mezzo-forte. */
const DEFAULT_VELOCITY = 80;

/** One note as it goes into the file. */
interface MidiNote {
  midi: number;
  ticks: number;
  durationTicks: number;
  /** 1–127. */
  velocity: number;
}

/** A note of the score before ties are merged, at sounding pitch. */
interface SoundingNote {
  midi: number;
  staff: number;
  voice: string;
  onset: Fraction;
  end: Fraction;
  tieStart: boolean;
  tieStop: boolean;
}

/**
 * Writes the score as a format-1 Standard MIDI File.
 *
 * Grace notes are left out: they have no notated time, so any length given
 * them would be taken from a neighbour and move it. Cue notes are left out
 * because the part does not play them. Tied notes sound as one note.
 * Velocities follow the latest dynamics mark of the part.
 */
export function writeMidi(written: Score): Uint8Array {
  const score = unfoldRepeats(written);
  const midi = new Midi();
  midi.header.name = score.credits.title ?? '';
  midi.header.tempos.push(...tempoMap(score));
  const first = score.parts[0];
  if (first) midi.header.timeSignatures.push(...timeSignatures(first));
  midi.header.update();

  const channels = assignChannels(score.parts);
  const notes = partNotes(score);
  for (const [p, part] of score.parts.entries()) {
    const track = midi.addTrack();
    track.name = part.name;
    track.channel = channels[p]!;
    track.instrument.number = clamp(Math.round(part.midiProgram) || 0, 0, 127);
    for (const note of notes[p]!) {
      track.addNote({
        midi: note.midi,
        ticks: note.ticks,
        durationTicks: note.durationTicks,
        // @tonejs/midi writes floor(velocity × 127); the half step keeps float error from losing one.
        velocity: (note.velocity + 0.5) / 127,
      });
    }
  }
  return midi.toArray();
}

/** Number of notes {@link writeMidi} writes for the score: repeats played, ties merged, without grace and cue notes. */
export function midiNoteCount(score: Score): number {
  return partNotes(unfoldRepeats(score)).reduce((sum, notes) => sum + notes.length, 0);
}

/** The MIDI notes of each part, in the order of `score.parts`. */
function partNotes(score: Score): MidiNote[][] {
  const sounding: SoundingNote[][] = score.parts.map(() => []);
  for (const placed of placedNotes(score)) {
    if (placed.grace || placed.event.cue || compare(placed.duration, ZERO) <= 0) continue;
    const midi = soundingMidiNumber(placed.pitch, score.parts[placed.part]!.transposition);
    if (midi < 0 || midi > 127) continue;
    sounding[placed.part]!.push({
      midi,
      staff: placed.staff,
      voice: placed.voice,
      onset: placed.onset,
      end: add(placed.onset, placed.duration),
      tieStart: !!placed.note.tieStart,
      tieStop: !!placed.note.tieStop,
    });
  }
  return score.parts.map((part, p) => {
    const dynamics = dynamicsLevels(part);
    const notes = mergeTies(sounding[p]!).map((n) => {
      const ticks = toTicks(n.onset);
      return { midi: n.midi, ticks, durationTicks: toTicks(n.end) - ticks, velocity: velocityAt(dynamics, ticks) };
    });
    return resolveOverlaps(notes);
  });
}

/**
 * Joins each tie chain into one note. A tie stop continues an open tie of
 * the same pitch on the same staff that ends exactly where it starts,
 * preferring the same voice (ties may change voice across a barline). A tie
 * start with nothing after it just ends; a tie stop with nothing before it
 * sounds on its own.
 */
function mergeTies(notes: SoundingNote[]): SoundingNote[] {
  const sorted = [...notes].sort((a, b) => compare(a.onset, b.onset));
  const merged: SoundingNote[] = [];
  // Notes whose tie is still waiting for its continuation, by staff and pitch.
  const open = new Map<string, SoundingNote[]>();
  for (const note of sorted) {
    const key = `${note.staff}:${note.midi}`;
    const waiting = open.get(key) ?? [];
    let target: SoundingNote | undefined;
    if (note.tieStop) {
      const candidates = waiting.filter((w) => compare(w.end, note.onset) === 0);
      target = candidates.find((w) => w.voice === note.voice) ?? candidates[0];
    }
    if (target) {
      target.end = note.end;
      target.voice = note.voice;
      if (!note.tieStart) waiting.splice(waiting.indexOf(target), 1);
    } else {
      const copy = { ...note };
      merged.push(copy);
      if (note.tieStart) waiting.push(copy);
    }
    open.set(key, waiting);
  }
  return merged;
}

/**
 * One channel cannot sound the same key twice at once: a second note-on
 * retriggers it and the first note-off silences both. Unisons that start
 * together (two voices sharing a note) become the longer one, and a note is
 * cut where the next one of its pitch starts.
 */
function resolveOverlaps(notes: MidiNote[]): MidiNote[] {
  const sorted = [...notes].sort((a, b) => a.ticks - b.ticks || a.midi - b.midi || b.durationTicks - a.durationTicks);
  const result: MidiNote[] = [];
  const sounding = new Map<number, MidiNote>();
  for (const note of sorted) {
    if (note.durationTicks <= 0) continue;
    const previous = sounding.get(note.midi);
    if (previous && previous.ticks === note.ticks) continue;
    if (previous && previous.ticks + previous.durationTicks > note.ticks) {
      previous.durationTicks = note.ticks - previous.ticks;
    }
    const copy = { ...note };
    result.push(copy);
    sounding.set(note.midi, copy);
  }
  return result;
}

/** Ticks of a time in quarter notes; exact for every duration a 480 PPQ can hold, nearest otherwise. */
function toTicks(quarters: Fraction): number {
  return Math.round((quarters.n * PPQ) / quarters.d);
}

/**
 * Tempo changes from the directions of all parts: an explicit playback tempo
 * first, else a metronome mark converted to quarters per minute (a dotted
 * quarter = 60 is 90 quarters a minute). Where parts disagree at the same
 * moment the upper part wins; repeated tempos are dropped.
 */
function tempoMap(score: Score): { ticks: number; bpm: number }[] {
  const byTick = new Map<number, number>();
  for (const part of score.parts) {
    for (const { direction, time } of directions(part)) {
      const bpm = directionTempo(direction);
      const ticks = toTicks(time);
      if (bpm !== undefined && !byTick.has(ticks)) byTick.set(ticks, bpm);
    }
  }
  if (!byTick.has(0)) byTick.set(0, DEFAULT_BPM);
  const tempos: { ticks: number; bpm: number }[] = [];
  for (const [ticks, bpm] of [...byTick].sort((a, b) => a[0] - b[0])) {
    if (tempos.at(-1)?.bpm !== bpm) tempos.push({ ticks, bpm });
  }
  return tempos;
}

function directionTempo(direction: Direction): number | undefined {
  let bpm = direction.tempo;
  if (bpm === undefined && direction.metronome) {
    const { beatUnit, dots, perMinute } = direction.metronome;
    bpm = perMinute * toNumber(notatedDuration(beatUnit, dots));
  }
  return bpm !== undefined && Number.isFinite(bpm) && bpm >= MIN_BPM ? bpm : undefined;
}

/** The directions of a part with their time from the start of the piece. */
function* directions(part: Part): Generator<{ direction: Direction; time: Fraction }> {
  const starts = measureStarts(part);
  for (const [m, measure] of part.measures.entries()) {
    for (const direction of measure.directions) {
      yield { direction, time: add(starts[m]!, direction.offset) };
    }
  }
}

/**
 * Time signatures where they change, from one part (parts share their
 * measures). MIDI stores the denominator as a power of two, so a signature
 * such as 4/3 cannot be written and is left out.
 */
function timeSignatures(part: Part): { ticks: number; timeSignature: number[] }[] {
  const starts = measureStarts(part);
  const result: { ticks: number; timeSignature: number[] }[] = [];
  let current = '';
  for (const [m, measure] of part.measures.entries()) {
    const time = measure.time;
    if (!time || !isMidiTimeSignature(time.beats, time.beatType)) continue;
    const text = `${time.beats}/${time.beatType}`;
    if (text === current) continue;
    current = text;
    result.push({ ticks: toTicks(starts[m]!), timeSignature: [time.beats, time.beatType] });
  }
  return result;
}

function isMidiTimeSignature(beats: number, beatType: number): boolean {
  const powerOfTwo = Number.isInteger(beatType) && beatType >= 1 && beatType <= 128 && (beatType & (beatType - 1)) === 0;
  return powerOfTwo && Number.isInteger(beats) && beats >= 1 && beats <= 255;
}

/** Dynamics levels of a part in time order, as ticks and velocities. */
function dynamicsLevels(part: Part): { ticks: number; velocity: number }[] {
  const levels: { ticks: number; velocity: number }[] = [];
  for (const { direction, time } of directions(part)) {
    const velocity = direction.dynamics === undefined ? undefined : DYNAMICS_VELOCITY.get(direction.dynamics);
    if (velocity !== undefined) levels.push({ ticks: toTicks(time), velocity });
  }
  // Stable: marks at the same moment keep their written order, and the last one holds.
  return levels.sort((a, b) => a.ticks - b.ticks);
}

function velocityAt(levels: readonly { ticks: number; velocity: number }[], ticks: number): number {
  let velocity = DEFAULT_VELOCITY;
  for (const level of levels) {
    if (level.ticks > ticks) break;
    velocity = level.velocity;
  }
  return velocity;
}

/**
 * MIDI channel of each part: pitched parts take 0, 1, 2 … skipping the
 * percussion channel 9 and wrapping round after the fifteen others;
 * percussion parts all play on channel 9 (General MIDI channel 10).
 */
function assignChannels(parts: readonly Part[]): number[] {
  let pitched = 0;
  return parts.map((part) => {
    if (part.percussion) return PERCUSSION_CHANNEL;
    const slot = pitched++ % 15;
    return slot < PERCUSSION_CHANNEL ? slot : slot + 1;
  });
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
