/**
 * A structural check of a Standard MIDI File, made before @tonejs/midi parses
 * it.
 *
 * The parser underneath @tonejs/midi (midi-file) trusts the file: it reads
 * past the end of a chunk as `undefined`, takes data bytes above 127 as note
 * numbers, and a variable-length number of more than four bytes overflows
 * into a negative length that moves its read position backwards — into a
 * loop that only ends when memory does. This walk follows the same grammar
 * with every length checked, so that anything it accepts parses cleanly, and
 * counts what the parse will cost (notes, and the work of pairing note-ons
 * with note-offs), so that hostile files are refused before they are parsed.
 */
import { OmrError } from '../../errors.js';
import { MAX_MIDI_NOTES, MAX_MIDI_TRACKS, MAX_PAIRING_WORK, MAX_TEXT_BYTES, MAX_TRACK_NOTES } from './limits.js';

/** Whether bytes start as a Standard MIDI File does, with its header chunk (`MThd`). */
export function isMidiFile(data: Uint8Array): boolean {
  return data.length >= 4 && data[0] === 0x4d && data[1] === 0x54 && data[2] === 0x68 && data[3] === 0x64;
}

export interface SmfSummary {
  format: number;
  /**
   * Ticks per quarter note. Files timed in SMPTE frames have no quarter
   * note; they are read as if at the MIDI default tempo, 120 quarters a
   * minute, so a quarter is half a second of ticks.
   */
  ticksPerQuarter: number;
  tracks: number;
  notes: number;
}

/** Meta events whose length midi-file insists on, and the lengths it takes. */
const META_LENGTHS: ReadonlyMap<number, readonly number[]> = new Map([
  [0x00, [2]], // sequence number
  [0x20, [1]], // channel prefix
  [0x21, [1]], // port prefix
  [0x2f, [0]], // end of track
  [0x51, [3]], // tempo
  [0x54, [5]], // SMPTE offset
  [0x58, [2, 4]], // time signature
  [0x59, [2]], // key signature
]);

/** Data bytes after each channel-message status (high nibble 8–E). */
const DATA_BYTES: Record<number, number> = { 0x8: 2, 0x9: 2, 0xa: 2, 0xb: 2, 0xc: 1, 0xd: 1, 0xe: 2 };

/** SMPTE frame rates a header may name, as the negative byte stores them; 29 is 29.97 drop-frame. */
const SMPTE_RATES: ReadonlyMap<number, number> = new Map([
  [24, 24],
  [25, 25],
  [29, 29.97],
  [30, 30],
]);

/** Checks the file's structure and cost; throws CORRUPTED_FILE or FILE_TOO_LARGE. */
export function scanSmf(bytes: Uint8Array): SmfSummary {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 14 || tag(0) !== 'MThd') {
    throw corrupt(bytes.length === 0 ? 'the file is empty' : 'it does not start with a MIDI header (MThd)');
  }
  const headerLength = view.getUint32(4);
  if (headerLength < 6 || 8 + headerLength > bytes.length) throw corrupt(`its header chunk claims ${headerLength} bytes`);
  const format = view.getUint16(8);
  const tracks = view.getUint16(10);
  const division = view.getUint16(12);
  if (format > 2) throw corrupt(`its header names format ${format}; Standard MIDI Files are format 0, 1 or 2`);
  if (tracks === 0) throw corrupt('its header announces no tracks');
  if (tracks > MAX_MIDI_TRACKS) throw tooLarge(`it has ${tracks} tracks; at most ${MAX_MIDI_TRACKS} are read`);
  const ticksPerQuarter = division & 0x8000 ? smpteTicksPerQuarter(division) : division;
  if (!(ticksPerQuarter > 0)) throw corrupt(`its header gives an unusable time division (0x${division.toString(16)})`);

  const cost = { notes: 0, pairing: 0 };
  let pos = 8 + headerLength;
  for (let track = 1; track <= tracks; track++) {
    if (pos + 8 > bytes.length) throw corrupt(`the file ends after ${track - 1} of the ${tracks} tracks its header announces`);
    if (tag(pos) !== 'MTrk') throw corrupt(`track ${track} does not start with a track header (MTrk)`);
    const length = view.getUint32(pos + 4);
    const start = pos + 8;
    if (start + length > bytes.length) throw corrupt(`track ${track} is cut off: it claims ${length} bytes, the file holds ${bytes.length - start}`);
    scanTrack(bytes, start, start + length, track, cost);
    pos = start + length;
  }
  return { format, ticksPerQuarter, tracks, notes: cost.notes };
}

function smpteTicksPerQuarter(division: number): number {
  const rate = SMPTE_RATES.get(0x100 - (division >> 8));
  return rate === undefined ? NaN : (rate * (division & 0xff)) / 2;
}

/** Note bookkeeping of one channel and program, the unit @tonejs/midi pairs notes in. */
interface NoteLane {
  ons: number;
  offs: number;
  /** Note-ons not yet ended, by key. */
  open: Uint32Array;
  openTotal: number;
  /** Note-offs that ended nothing. */
  stray: number;
}

/**
 * Walks one track's events as midi-file does (running status survives meta
 * and system-exclusive events there, so it does here), checking that every
 * event lies inside the chunk.
 */
function scanTrack(bytes: Uint8Array, start: number, end: number, track: number, cost: { notes: number; pairing: number }): void {
  let pos = start;
  const fail = (what: string) => corrupt(`track ${track} ${what} (byte ${pos})`);
  const byte = () => {
    if (pos >= end) throw fail('ends in the middle of an event');
    return bytes[pos++]!;
  };
  /** A variable-length quantity: at most four bytes, as the standard says and midi-file needs. */
  const varint = () => {
    let value = 0;
    for (let i = 0; i < 4; i++) {
      const b = byte();
      value = value * 128 + (b & 0x7f);
      if (!(b & 0x80)) return value;
    }
    throw fail('holds a variable-length number of more than four bytes');
  };
  const skip = (length: number) => {
    if (length > end - pos) throw fail(`has an event of ${length} bytes that runs past its end`);
    pos += length;
  };

  const programs = new Uint8Array(16);
  const lanes = new Map<number, NoteLane>();
  let running: number | undefined;
  while (pos < end) {
    varint(); // delta time
    let status = byte();
    if (status === 0xff) {
      const type = byte();
      const length = varint();
      const allowed = META_LENGTHS.get(type);
      if (allowed && !allowed.includes(length)) throw fail(`has a meta event 0x${type.toString(16)} of ${length} bytes`);
      if (type >= 0x01 && type <= 0x07 && length > MAX_TEXT_BYTES) throw fail(`has a text of ${length} bytes`);
      skip(length);
    } else if (status === 0xf0 || status === 0xf7) {
      skip(varint());
    } else if (status >= 0xf0) {
      throw fail(`has an unknown event type 0x${status.toString(16)}`);
    } else {
      let first: number;
      if (status < 0x80) {
        // Running status: the byte is the first data byte of a repeat of the previous message.
        if (running === undefined) throw fail('repeats a channel message before there is one');
        first = status;
        status = running;
      } else {
        first = byte();
        running = status;
      }
      const kind = status >> 4;
      const channel = status & 0x0f;
      const second = DATA_BYTES[kind] === 2 ? byte() : 0;
      if (first > 0x7f || second > 0x7f) throw fail('has a data byte above 127');
      if (kind === 0xc) programs[channel] = first;
      if (kind === 0x8 || kind === 0x9) {
        // @tonejs/midi splits a track by channel and current program before pairing notes.
        const key = programs[channel]! * 16 + channel;
        let lane = lanes.get(key);
        if (!lane) lanes.set(key, (lane = { ons: 0, offs: 0, open: new Uint32Array(128), openTotal: 0, stray: 0 }));
        if (kind === 0x9 && second > 0) noteOn(lane, first, track, cost);
        else noteOff(lane, first, cost);
      }
    }
  }
  for (const lane of lanes.values()) {
    // A note-on that never ends scans every note-off of its lane.
    cost.pairing += lane.openTotal * lane.offs;
  }
  if (cost.pairing > MAX_PAIRING_WORK) {
    throw corrupt(`its note-ons and note-offs are too far from pairing up to be read (by track ${track}, ${cost.pairing} steps of matching)`);
  }
}

/**
 * @tonejs/midi pairs each note-on, in order, with the first note-off of its
 * key at or after it, scanning the lane's remaining note-offs from the start.
 * The scan passes the stray note-offs before it and the note-offs of notes
 * that started later but end sooner; these counts bound both.
 */
function noteOn(lane: NoteLane, key: number, track: number, cost: { notes: number; pairing: number }): void {
  if (++cost.notes > MAX_MIDI_NOTES) throw tooLarge(`it has more than ${MAX_MIDI_NOTES.toLocaleString('en')} notes`);
  if (++lane.ons > MAX_TRACK_NOTES) {
    throw tooLarge(`track ${track} has more than ${MAX_TRACK_NOTES.toLocaleString('en')} notes on one channel; at most that many are read from one track`);
  }
  cost.pairing += lane.stray;
  lane.open[key]!++;
  lane.openTotal++;
}

function noteOff(lane: NoteLane, key: number, cost: { notes: number; pairing: number }): void {
  lane.offs++;
  cost.pairing += lane.openTotal;
  if (lane.open[key]! > 0) {
    lane.open[key]!--;
    lane.openTotal--;
  } else {
    lane.stray++;
  }
}

function corrupt(what: string): OmrError {
  return new OmrError('CORRUPTED_FILE', `The MIDI file cannot be read: ${what}.`);
}

function tooLarge(what: string): OmrError {
  return new OmrError('FILE_TOO_LARGE', `The MIDI file is too large to import: ${what}.`);
}
