/**
 * Property tests of the MIDI reader over damaged files, with fast-check:
 * truncated, bit-flipped, overwritten, spliced and shortened versions of
 * valid files must either read, quickly, to a score whose measures are all
 * full and that the MusicXML writer takes, or fail with an `OmrError`
 * CORRUPTED_FILE or FILE_TOO_LARGE — never a TypeError, a RangeError, or a
 * hang.
 *
 * Seeds: the opening of a real song as writeMidi writes it, and a file
 * built by hand with what writeMidi never writes (running status, key
 * signatures, a drum channel, a format-0 layout, a mid-measure time
 * signature change, text events).
 *
 * Runs are seeded and reproducible: a failure prints its seed and path;
 * replay with `FUZZ_SEED=<seed> npx vitest run test/import/midi/fuzz-midi.test.ts`.
 * `FUZZ_SCALE=10` runs ten times as many cases.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OmrError } from '../../../src/errors.js';
import { writeMidi } from '../../../src/exports/midi.js';
import { writeMusicXml } from '../../../src/exports/musicxml.js';
import { readMidi } from '../../../src/import/midi/read-midi.js';
import { readMusicXml } from '../../../src/import/musicxml/read-score.js';
import type { Score } from '../../../src/score/model.js';
import { placedNotes } from '../../../src/score/timeline.js';
import { corpusFiles, readBytes } from '../../support/corpus.js';
import { measureProblem } from './score-checks.js';
import { keySignature, meta, smfBytes, tempo, text, timeSignature, vlq } from './smf-build.js';
import { applyMutations, byteMutations, concat } from '../../support/byte-mutations.js';

const SEED = Number(process.env.FUZZ_SEED ?? 0x3d1);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const runs = (n: number) => ({ seed: SEED, numRuns: Math.round(n * SCALE) });

const CODES = new Set(['CORRUPTED_FILE', 'FILE_TOO_LARGE']);
/**
 * Scores up to this many measures are also written as MusicXML. A mutant
 * may move a note thousands of measures on, within the reader's limits;
 * writing such a score takes the writer seconds, which is its own affair.
 */
const WRITE_MEASURES = 2000;

// ---------------------------------------------------------------- seeds

/** The first eight measures of the first song of the corpus, as writeMidi writes them. */
function songSeed(): Uint8Array {
  const score = readMusicXml(readBytes(corpusFiles('lieder')[0]!));
  return writeMidi({ ...score, parts: score.parts.map((p) => ({ ...p, measures: p.measures.slice(0, 8) })) });
}

/** A format-0 file with running status, keys, tempos, a drum channel and a time signature change mid-measure. */
function handSeed(): Uint8Array {
  const body = [
    ...[0, ...text(0x03, 'Fuzz seed')],
    ...[0, ...timeSignature(3, 4)],
    ...[0, ...keySignature(-3, true)],
    ...[0, ...tempo(96)],
    ...[0, 0xc0, 41],
    // Running status: three note-ons, then note-ons of velocity 0 as note-offs.
    ...[0, 0x90, 60, 80, 0, 64, 80, 0, 67, 80],
    ...[...vlq(480), 60, 0, 0, 64, 0, 0, 67, 0],
    ...[0, 0x99, 36, 100, ...vlq(160), 0x89, 36, 0, 0, 0x99, 42, 90, ...vlq(160), 42, 0],
    // 2/4 two and a half quarters into the second 3/4 measure: that measure becomes 5/8.
    ...[...vlq(1840), ...meta(0x58, [2, 2, 24, 8])],
    ...[0, 0x90, 72, 70, ...vlq(1200), 0x80, 72, 0],
    ...[0, 0xf0, 3, 0x7e, 0x7f, 0xf7],
    ...[0, ...text(0x05, 'la')],
  ];
  return smfBytes([[...body, 0, 0xff, 0x2f, 0]], { format: 0 });
}

const SEEDS: { name: string; bytes: Uint8Array }[] = [
  { name: 'song', bytes: songSeed() },
  { name: 'hand-made', bytes: handSeed() },
];

// ---------------------------------------------------------------- mutations

const mutations = byteMutations([0x00, 0x7f, 0x80, 0x90, 0xf0, 0xff]);
const apply = applyMutations;

// ---------------------------------------------------------------- checks

/** Why a score read from MIDI is unusable, or undefined. */
function scoreProblem(score: Score): string | undefined {
  if (!score.parts.length) return 'no parts';
  const problem = measureProblem(score);
  if (problem) return problem;
  for (const n of placedNotes(score)) {
    const { octave, alter } = n.pitch;
    if (!Number.isInteger(octave) || octave < 0 || octave > 9 || Math.abs(alter) > 1) return `pitch ${JSON.stringify(n.pitch)}`;
    if (n.staff < 1 || n.staff > score.parts[n.part]!.staves) return `staff ${n.staff}`;
    if (n.duration.n <= 0) return `duration ${n.duration.n}/${n.duration.d}`;
  }
  if (score.parts.length * score.parts[0]!.measures.length <= WRITE_MEASURES) writeMusicXml(score, { encodingDate: '2026-01-01' });
  return undefined;
}

/** Reads one mutant: a usable score or an input error (a hang shows as the test's own timeout). */
function check(bytes: Uint8Array): void {
  let score: Score | undefined;
  try {
    score = readMidi(bytes);
  } catch (err) {
    if (!(err instanceof OmrError) || !CODES.has(err.code)) throw err;
    expect(err.message.length).toBeGreaterThan(20);
  }
  if (score) expect(scoreProblem(score)).toBeUndefined();
}

// ---------------------------------------------------------------- the tests

describe('fuzzing the MIDI reader', () => {
  it('reads the seeds', () => {
    for (const seed of SEEDS) {
      const score = readMidi(seed.bytes);
      expect(scoreProblem(score), seed.name).toBeUndefined();
    }
    const hand = readMidi(SEEDS[1]!.bytes);
    expect(hand.parts.map((p) => p.instrumentId)).toEqual(['strings.viola', 'percussion.drum-set']);
    expect(hand.parts[0]!.measures.map((m) => m.time && `${m.time.beats}/${m.time.beatType}`)).toEqual(['3/4', '5/8', '2/4', undefined]);
  });

  for (const seed of SEEDS) {
    it(`survives mutants of the ${seed.name} file`, { timeout: 120_000 }, () => {
      fc.assert(
        fc.property(mutations, (ms) => check(apply(seed.bytes, ms))),
        runs(400),
      );
    });
  }

  it('survives random bytes after a valid header', { timeout: 60_000 }, () => {
    const header = smfBytes([[]], { format: 0 }).subarray(0, 14);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (body) => check(concat(header, new Uint8Array([0x4d, 0x54, 0x72, 0x6b, 0, 0, body.length >> 8, body.length & 0xff]), body))),
      runs(300),
    );
  });
});
