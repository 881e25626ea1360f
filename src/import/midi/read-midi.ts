/**
 * Standard MIDI File → score model, for score import.
 *
 * MIDI records when keys go down and up; a score says which values are
 * written where. The reading goes in steps, one module each:
 *
 * 1. smf-scan.ts checks the file's structure and what parsing it will cost;
 *    @tonejs/midi then parses it into tracks of notes.
 * 2. Each track with notes becomes a part: instrument, staves and clefs from
 *    its program and range (part-layout.ts); channel 10 is the drum set.
 * 3. Note times are quantised to a grid chosen per beat (quantise.ts).
 * 4. Measures follow from the time signatures (meter.ts); keys and tempos
 *    are placed in them.
 * 5. Notes that start and end together become chords, overlapping ones
 *    further voices (voices.ts); chords are cut at barlines into tied,
 *    writable values with rests between them (build-part.ts,
 *    note-values.ts), pitches spelled in the key (spelling.ts).
 *
 * Every measure of every part comes out exactly full. What MIDI does not
 * hold is not invented: no dynamics, articulations, slurs, lyrics or
 * repeats. Notes whose written pitch would leave the octaves MusicXML can
 * write (C0 to G9) are dropped.
 *
 * Failures are `OmrError`s: CORRUPTED_FILE for a file that is not a usable
 * MIDI file (or holds no notes), FILE_TOO_LARGE beyond the limits in
 * limits.ts.
 */
import * as tonejsMidi from '@tonejs/midi';
import { OmrError } from '../../errors.js';
import { add, compare, max, sub, ZERO, type Fraction } from '../../score/fraction.js';
import type { Direction, KeySignature, Score, Transposition } from '../../score/model.js';
import { buildPart, type PartContent } from './build-part.js';
import { MAX_MEASURES } from './limits.js';
import { isUsableTimeSignature, layoutMeasures, measureIndexAt, type MeasureSpan } from './meter.js';
import { layoutPart } from './part-layout.js';
import { partQuantiser, snapMeta } from './quantise.js';
import { scanSmf } from './smf-scan.js';
import { writtenFifths } from './spelling.js';
import { assignVoices, type TimedNote } from './voices.js';

/**
 * @tonejs/midi is CommonJS only: Node's ESM loader exposes it as a default
 * export, bundlers as named exports (see src/exports/midi.ts).
 */
const { Midi } = 'Midi' in tonejsMidi ? tonejsMidi : (tonejsMidi as unknown as { default: typeof tonejsMidi }).default;
type ParsedMidi = InstanceType<typeof Midi>;
type ParsedTrack = ParsedMidi['tracks'][number];

const PERCUSSION_CHANNEL = 9;
/** Written key numbers MusicXML can write: C0 to G9. */
const LOWEST_KEY = 12;
const HIGHEST_KEY = 127;
/** Longest name kept, in characters. */
const MAX_NAME_LENGTH = 200;
/** Key signature names as @tonejs/midi gives them, from 7 flats to 7 sharps. */
const KEY_NAMES = ['Cb', 'Gb', 'Db', 'Ab', 'Eb', 'Bb', 'F', 'C', 'G', 'D', 'A', 'E', 'B', 'F#', 'C#'];

/** Reads a Standard MIDI File (format 0, 1 or 2) into a score. */
export function readMidi(bytes: Uint8Array): Score {
  try {
    const { ticksPerQuarter } = scanSmf(bytes);
    const midi = parse(bytes);
    const parts = midi.tracks.map((track) => readTrack(track, ticksPerQuarter)).filter((p) => p.notes.length > 0);
    if (!parts.length) throw new OmrError('CORRUPTED_FILE', 'The MIDI file holds no notes: there is no music in it to import.');

    const end = parts.reduce((latest, p) => p.notes.reduce((e, n) => max(e, n.end), latest), ZERO);
    const times = midi.header.timeSignatures
      .filter((t) => isUsableTimeSignature(t.timeSignature[0]!, t.timeSignature[1]!))
      .map((t) => ({ at: snapMeta(t.ticks, ticksPerQuarter), beats: t.timeSignature[0]!, beatType: t.timeSignature[1]! }));
    const spans = layoutMeasures(times, end, Math.floor(MAX_MEASURES / parts.length));
    const keys = keyChanges(midi, spans, ticksPerQuarter);
    const tempos = tempoDirections(midi, spans, ticksPerQuarter);

    const names = new Set(parts.map((p) => p.trackName));
    const title = cleanText(midi.header.name);
    return {
      // The first track's name titles the piece, unless it only names that track's instrument.
      credits: title && !names.has(title) ? { title } : {},
      parts: parts.map((p, i) => {
        const content: PartContent = {
          id: `P${i + 1}`,
          name: p.trackName || p.layout.instrument.name,
          program: p.program,
          percussion: p.percussion,
          layout: p.layout,
          staves: p.layout.clefs.map((_, s) => assignVoices(p.notes.filter((n) => p.layout.staffOf(n.key) === s + 1))),
        };
        const written = p.percussion ? new Map<number, KeySignature>() : writtenKeys(keys, p.layout.transposition);
        return buildPart(content, { spans, keys: written, directions: i === 0 ? tempos : new Map<number, Direction[]>() });
      }),
      partGroups: [],
    };
  } catch (err) {
    // Exact time arithmetic throws RangeError on times beyond safe integers: the file is at fault.
    if (err instanceof RangeError) {
      throw new OmrError('CORRUPTED_FILE', `The MIDI file holds times too large to compute with (${err.message}).`, { cause: err });
    }
    throw err;
  }
}

function parse(bytes: Uint8Array): ParsedMidi {
  try {
    return new Midi(bytes);
  } catch (err) {
    // midi-file throws strings.
    const reason = err instanceof Error ? err.message : String(err);
    throw new OmrError('CORRUPTED_FILE', `The MIDI file cannot be read: ${reason}.`, { cause: err });
  }
}

/** A track's notes, quantised, at written pitch, one per key at a time. */
function readTrack(track: ParsedTrack, ticksPerQuarter: number) {
  const percussion = track.channel === PERCUSSION_CHANNEL;
  const program = track.instrument.number;
  const layout = layoutPart(program, percussion, track.notes.map((n) => n.midi));
  const t = layout.transposition;
  const shift = t ? t.chromatic + 12 * (t.octaveChange ?? 0) : 0;
  const quantiser = partQuantiser(track.notes.map((n) => n.ticks), ticksPerQuarter);
  const notes: TimedNote[] = [];
  for (const n of track.notes) {
    const key = n.midi - shift;
    if (key < LOWEST_KEY || key > HIGHEST_KEY) continue;
    const onset = quantiser.onset(n.ticks);
    let end = quantiser.end(n.ticks + n.durationTicks);
    // A note shorter than half a grid step still sounds: it gets one step.
    if (compare(end, onset) <= 0) end = add(onset, quantiser.step(n.ticks));
    notes.push({ onset, end, key });
  }
  return { trackName: cleanText(track.name), program, percussion, layout, notes: oneAtATime(notes) };
}

/**
 * A key sounds once at a time: of notes on one key that start together the
 * longest stays, and a note ends where the next on its key starts (as a
 * repeated note-on retriggers the key).
 */
function oneAtATime(notes: TimedNote[]): TimedNote[] {
  notes.sort((a, b) => a.key - b.key || compare(a.onset, b.onset) || compare(b.end, a.end));
  const kept: TimedNote[] = [];
  for (const note of notes) {
    const previous = kept.at(-1);
    if (previous?.key === note.key) {
      if (compare(previous.onset, note.onset) === 0) continue;
      if (compare(previous.end, note.onset) > 0) previous.end = note.onset;
    }
    kept.push(note);
  }
  return kept;
}

/**
 * Sounding key signatures by measure. A key takes effect at the first
 * barline at or after its event; the first measure is in C major unless the
 * file says otherwise.
 */
function keyChanges(midi: ParsedMidi, spans: readonly MeasureSpan[], ticksPerQuarter: number): Map<number, KeySignature> {
  const keys = new Map<number, KeySignature>([[0, { fifths: 0 }]]);
  const events = [...midi.header.keySignatures].sort((a, b) => a.ticks - b.ticks);
  for (const event of events) {
    const fifths = KEY_NAMES.indexOf(event.key) - 7;
    if (fifths < -7) continue;
    const at = snapMeta(event.ticks, ticksPerQuarter);
    let m = measureIndexAt(spans, at);
    if (compare(spans[m]!.start, at) < 0) m++;
    if (m < spans.length) keys.set(m, { fifths, mode: event.scale === 'minor' ? 'minor' : 'major' });
  }
  return keys;
}

/** A part's written key signatures where they change. */
function writtenKeys(sounding: ReadonlyMap<number, KeySignature>, transposition: Transposition | undefined): Map<number, KeySignature> {
  const written = new Map<number, KeySignature>();
  let previous: KeySignature | undefined;
  for (const [m, key] of [...sounding].sort((a, b) => a[0] - b[0])) {
    const fifths = writtenFifths(key.fifths, transposition);
    if (previous && previous.fifths === fifths && previous.mode === key.mode) continue;
    previous = { fifths, ...(key.mode && { mode: key.mode }) };
    written.set(m, previous);
  }
  return written;
}

/**
 * Tempo changes as directions of the first part that set the playback tempo
 * (no printed mark: a played file changes tempo far more often than a score
 * marks it). Repeats of the tempo in force are dropped.
 */
function tempoDirections(midi: ParsedMidi, spans: readonly MeasureSpan[], ticksPerQuarter: number): Map<number, Direction[]> {
  const byPlace = new Map<string, { m: number; offset: Fraction; tempo: number }>();
  for (const event of midi.header.tempos) {
    const tempo = Math.round(event.bpm * 100) / 100;
    if (!Number.isFinite(tempo) || tempo <= 0) continue;
    const at = snapMeta(event.ticks, ticksPerQuarter);
    const m = measureIndexAt(spans, at);
    const offset = sub(at, spans[m]!.start);
    if (compare(offset, spans[m]!.length) >= 0) continue;
    byPlace.set(`${m} ${offset.n}/${offset.d}`, { m, offset, tempo });
  }
  const directions = new Map<number, Direction[]>();
  let current: number | undefined;
  for (const { m, offset, tempo } of [...byPlace.values()].sort((a, b) => a.m - b.m || compare(a.offset, b.offset))) {
    if (tempo === current) continue;
    current = tempo;
    const list = directions.get(m) ?? [];
    list.push({ offset, staff: 1, tempo });
    directions.set(m, list);
  }
  return directions;
}

/**
 * A name as written by the file's author: midi-file reads text bytes one
 * character each, so UTF-8 is decoded again here (Latin-1 stays as read);
 * control characters, which XML cannot hold, become spaces.
 */
function cleanText(raw: string): string {
  const bytes = Uint8Array.from(raw, (c) => c.charCodeAt(0) & 0xff);
  let text = raw;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: Latin-1, as read.
  }
  // eslint-disable-next-line no-control-regex
  const cleaned = text.replace(/[\u0000-\u001f\u007f-\u009f\ufffe\uffff]/g, ' ').replace(/\s+/g, ' ').trim();
  return [...cleaned].slice(0, MAX_NAME_LENGTH).join('');
}
