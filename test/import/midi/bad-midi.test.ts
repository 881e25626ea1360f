/**
 * Malformed, truncated and hostile MIDI files. Each must fail with an
 * `OmrError` — CORRUPTED_FILE naming what is wrong, or FILE_TOO_LARGE past
 * the reader's limits — quickly, and nothing else may escape.
 */
import { describe, expect, it } from 'vitest';
import { OmrError } from '../../../src/errors.js';
import { MAX_MIDI_NOTES, MAX_MIDI_TRACKS, MAX_TRACK_NOTES } from '../../../src/import/midi/limits.js';
import { readMidi } from '../../../src/import/midi/read-midi.js';
import { scanSmf } from '../../../src/import/midi/smf-scan.js';
import { measureProblem, soundingNotes } from './score-checks.js';
import { meta, smfBytes, song, timeSignature, trackBody, u32, vlq, type TimedEvent } from './smf-build.js';

/** What `read` throws (undefined when it returns). */
function thrownBy(read: () => unknown): unknown {
  try {
    read();
  } catch (err) {
    return err;
  }
  return undefined;
}

/**
 * Reads the bytes, expecting an OmrError with `code` whose message matches
 * `message`. No clock: a reader that hangs fails by the test's timeout, and
 * "quickly" is a bound on work, checked with `beforeParsing`: the file is
 * refused by the scan (smf-scan.ts), one pass over its bytes, before
 * @tonejs/midi parses it and pairs a single note.
 */
function expectFailure(bytes: Uint8Array, code: 'CORRUPTED_FILE' | 'FILE_TOO_LARGE', message: RegExp, { beforeParsing = false } = {}): void {
  const expected = { code, message: expect.stringMatching(message) };
  const thrown = thrownBy(() => readMidi(bytes));
  expect(thrown, 'expected an OmrError').toBeInstanceOf(OmrError);
  expect({ code: (thrown as OmrError).code, message: (thrown as OmrError).message }).toEqual(expected);
  if (beforeParsing) {
    const scanned = thrownBy(() => scanSmf(bytes));
    expect(scanned, 'expected the scan to refuse it').toBeInstanceOf(OmrError);
    expect({ code: (scanned as OmrError).code, message: (scanned as OmrError).message }).toEqual(expected);
  }
}

/** One track holding a middle C, for files that are broken elsewhere. */
const oneNote = trackBody([
  [0, [0x90, 60, 80]],
  [480, [0x80, 60, 0]],
]);
const valid = smfBytes([oneNote], { format: 0 });

/** A track body without the end-of-track event that trackBody adds. */
const raw = (...events: number[][]) => events.flat();

describe('readMidi refuses broken files', () => {
  it('reads the valid file these are made from', () => {
    expect(readMidi(valid).parts).toHaveLength(1);
  });

  it('refuses an empty file and one that is not MIDI', () => {
    expectFailure(new Uint8Array(), 'CORRUPTED_FILE', /file is empty/);
    expectFailure(new TextEncoder().encode('<score-partwise version="4.0"></score-partwise>'), 'CORRUPTED_FILE', /does not start with a MIDI header/);
    expectFailure(new Uint8Array([0x4d, 0x54, 0x68, 0x64, 0, 0, 0]), 'CORRUPTED_FILE', /does not start with a MIDI header/);
  });

  it('refuses a broken header', () => {
    const header = (length: number, format: number, tracks: number, division: number) =>
      new Uint8Array([0x4d, 0x54, 0x68, 0x64, ...u32(length), 0, format, 0, tracks, division >> 8, division & 0xff, ...valid.subarray(14)]);
    expectFailure(header(4, 0, 1, 480), 'CORRUPTED_FILE', /header chunk claims 4 bytes/);
    expectFailure(header(6, 3, 1, 480), 'CORRUPTED_FILE', /format 3/);
    expectFailure(header(6, 0, 0, 480), 'CORRUPTED_FILE', /announces no tracks/);
    expectFailure(header(6, 0, 1, 0), 'CORRUPTED_FILE', /unusable time division/);
    expectFailure(header(6, 0, 1, 0xe300), 'CORRUPTED_FILE', /unusable time division/); // -29 fps, 0 ticks a frame
    expectFailure(header(6, 0, 1, 0xf028), 'CORRUPTED_FILE', /unusable time division/); // -16 fps
  });

  it('refuses a file cut short, at any length', () => {
    const file = song([{ name: 'Piano', program: 0, notes: [[60, 0, 1], [64, 1, 1], [67, 2, 2]] }]);
    for (let length = 0; length < file.length; length++) {
      let thrown: unknown;
      try {
        readMidi(file.subarray(0, length));
      } catch (err) {
        thrown = err;
      }
      expect(thrown, `cut at ${length} of ${file.length}`).toBeInstanceOf(OmrError);
      expect((thrown as OmrError).code).toBe('CORRUPTED_FILE');
    }
    expectFailure(file.subarray(0, file.length - 3), 'CORRUPTED_FILE', /track 2 is cut off: it claims \d+ bytes, the file holds \d+/);
    expectFailure(smfBytes([oneNote], { announced: 2 }), 'CORRUPTED_FILE', /ends after 1 of the 2 tracks/);
  });

  it('refuses a track chunk with another name', () => {
    const bytes = valid.slice();
    bytes.set([0x4d, 0x54, 0x72, 0x78], 14);
    expectFailure(bytes, 'CORRUPTED_FILE', /track 1 does not start with a track header/);
  });

  it('refuses malformed events', () => {
    const cases: [number[], RegExp][] = [
      [raw([0, 0x90, 60]), /ends in the middle of an event/],
      [raw([0x80, 0x80, 0x80, 0x80, 0x00, 0x90, 60, 80]), /variable-length number of more than four bytes/],
      [raw([0, 60, 80]), /repeats a channel message before there is one/],
      [raw([0, 0x90, 200, 80]), /data byte above 127/],
      [raw([0, 0x90, 60, 0x90]), /data byte above 127/],
      [raw([0, 0xf4]), /unknown event type 0xf4/],
      [raw([0, 0xff, 0x51, 2, 7, 0xa1]), /meta event 0x51 of 2 bytes/],
      [raw([0, 0xff, 0x2f, 1, 0]), /meta event 0x2f of 1 bytes/],
      [raw([0, 0xff, 0x01, ...vlq(100), 65, 66]), /event of 100 bytes that runs past its end/],
      [raw([0, 0xf0, ...vlq(1_000_000), 1]), /event of 1000000 bytes/],
      [raw([0, 0xff, 0x01, ...vlq(70_000), ...new Array<number>(70_000).fill(65)]), /text of 70000 bytes/],
    ];
    for (const [body, message] of cases) expectFailure(smfBytes([body], { format: 0 }), 'CORRUPTED_FILE', message);
  });

  it('refuses a file without notes', () => {
    expectFailure(smfBytes([trackBody([[0, timeSignature(3, 4)]])]), 'CORRUPTED_FILE', /holds no notes/);
    // Note-ons that never end make no notes.
    expectFailure(smfBytes([trackBody([[0, [0x90, 60, 80]]])]), 'CORRUPTED_FILE', /holds no notes/);
  });
});

describe('readMidi bounds its work on hostile files', () => {
  it('refuses too many tracks', () => {
    expectFailure(smfBytes(Array.from({ length: MAX_MIDI_TRACKS + 1 }, () => oneNote)), 'FILE_TOO_LARGE', /257 tracks; at most 256/, { beforeParsing: true });
  });

  it('refuses too many notes in one track, and in all', () => {
    const notes = (count: number, channel = 0) => Array.from({ length: count }, (_, i): TimedEvent[] => [
      [i * 10, [0x90 | channel, 40 + (i % 40), 80]],
      [i * 10 + 5, [0x80 | channel, 40 + (i % 40), 0]],
    ]).flat();
    expectFailure(smfBytes([trackBody(notes(MAX_TRACK_NOTES + 1))]), 'FILE_TOO_LARGE', /track 1 has more than 30,000 notes on one channel/, { beforeParsing: true });
    const spread = Array.from({ length: 8 }, (_, t) => trackBody(notes(Math.ceil((MAX_MIDI_NOTES + 1) / 8), t)));
    expectFailure(smfBytes(spread), 'FILE_TOO_LARGE', /more than 200,000 notes/, { beforeParsing: true });
  });

  it('refuses note-ons and note-offs that do not pair up, before pairing them quadratically', () => {
    // 20,000 note-ons that never end and 20,000 stray note-offs: @tonejs/midi alone takes seconds on this.
    const events: TimedEvent[] = [];
    for (let i = 0; i < 20_000; i++) events.push([i, [0x90, 60, 80]], [20_000 + i, [0x80, 61, 0]]);
    expectFailure(smfBytes([trackBody(events)]), 'CORRUPTED_FILE', /note-ons and note-offs are too far from pairing up/, { beforeParsing: true });
  });

  it('refuses music too long to hold in measures', () => {
    // Two notes 10⁸ quarters apart: four events to parse, and measures laid out only up to the limit.
    const far = trackBody([
      [0, [0x90, 60, 80]],
      [1, [0x80, 60, 0]],
      [100_000_000, [0x90, 60, 80]],
      [100_000_001, [0x80, 60, 0]],
    ]);
    expectFailure(smfBytes([far], { division: 1 }), 'FILE_TOO_LARGE', /more than 50,000 measures/);
  });

  it('reads all it accepts: 30,000 notes in one track, every one of them in whole measures', () => {
    // No clock here: a shared test machine's timing says little. Unpaired events, the quadratic case, are refused above.
    const events: TimedEvent[] = [];
    for (let i = 0; i < MAX_TRACK_NOTES; i++) events.push([i * 120, [0x90, 48 + (i % 36), 80]], [i * 120 + 110, [0x80, 48 + (i % 36), 0]]);
    const score = readMidi(smfBytes([trackBody(events)]));
    expect(measureProblem(score)).toBeUndefined();
    expect(soundingNotes(score)).toHaveLength(MAX_TRACK_NOTES);
  });

  it('ignores what it cannot use: unusable time signatures, unknown keys, endless tempos', () => {
    const body = trackBody([
      [0, meta(0x58, [0, 2, 24, 8])], // 0 beats
      [0, meta(0x58, [4, 9, 24, 8])], // over 512
      [0, meta(0x59, [12, 0])], // 12 sharps
      [0, meta(0x51, [0, 0, 0])], // 0 µs a quarter
      [0, [0x90, 60, 80]],
      [480, [0x80, 60, 0]],
    ]);
    const score = readMidi(smfBytes([body], { format: 0 }));
    const m1 = score.parts[0]!.measures[0]!;
    expect([m1.time, m1.key, m1.directions]).toEqual([{ beats: 4, beatType: 4 }, { fifths: 0 }, []]);
  });
});
