/**
 * MIDI round trip on real music: corpus score → writeMidi → readMidi.
 *
 * The read score must sound as the file does: the multiset of (part, onset,
 * duration, sounding key) of its notes, tied notes joined, equals that of
 * the file's notes as @tonejs/midi reads them, for every piece whose values
 * need no tuplet other than triplets (every note time a multiple of 1/48 of
 * a quarter). The file is the right reference rather than the original
 * score: writeMidi already joins ties, drops grace notes and merges unisons
 * of two voices, as MIDI must (test/exports/midi.test.ts covers that); the
 * original's note attacks are compared too. The read score must also have
 * full measures, validate as MusicXML 4.0, and read back from that MusicXML
 * unchanged.
 *
 * The match figures over the sample are printed.
 */
import * as tonejsMidi from '@tonejs/midi';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMidi } from '../../../src/exports/midi.js';
import { unfoldRepeats } from '../../../src/score/playback.js';
import { writeMusicXml } from '../../../src/exports/musicxml.js';
import { readMidi } from '../../../src/import/midi/read-midi.js';
import { readMusicXml } from '../../../src/import/musicxml/read-score.js';
import { add, frac, toString } from '../../../src/score/fraction.js';
import type { Score } from '../../../src/score/model.js';
import { soundingMidiNumber } from '../../../src/score/pitch.js';
import { placedNotes } from '../../../src/score/timeline.js';
import { corpusFiles, readBytes, sample } from '../../support/corpus.js';
import { validateMusicXmlFiles } from '../../support/xsd.js';
import { yieldToRunner } from '../../support/yield-to-runner.js';
import { measureProblem, soundingNotes } from './score-checks.js';

// Node loads the CommonJS package as a default export only; see src/exports/midi.ts.
const { Midi } = 'Midi' in tonejsMidi ? tonejsMidi : (tonejsMidi as unknown as { default: typeof tonejsMidi }).default;

/** 51 songs spread over the lieder corpus and 5 orchestral movements. */
const files = [...sample(corpusFiles('lieder'), 27), ...sample(corpusFiles('orchestral'), 12)];

interface Case {
  file: string;
  original: Score;
  /** The MIDI file's notes, as soundingNotes writes them. */
  expected: string[];
  /** No tuplets but triplets: every note time a multiple of 1/48 of a quarter. */
  straightforward: boolean;
  read: Score;
}

const cases: Case[] = [];
let outDir: string;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'scoresight-midi-'));
  for (const file of files) {
    await yieldToRunner();
    const original = readMusicXml(readBytes(file));
    const bytes = writeMidi(original);
    const midi = new Midi(bytes);
    const ppq = midi.header.ppq;
    const expected: string[] = [];
    let straightforward = true;
    midi.tracks
      .filter((t) => t.notes.length)
      .forEach((track, p) => {
        for (const n of track.notes) {
          if ((n.ticks * 48) % ppq || (n.durationTicks * 48) % ppq) straightforward = false;
          expected.push(`p${p} @${toString(frac(n.ticks, ppq))} d${toString(frac(n.durationTicks, ppq))} k${n.midi}`);
        }
      });
    cases.push({ file, original, expected: expected.sort(), straightforward, read: readMidi(bytes) });
  }
}, 300_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** How many of `expected` are in `actual`, as multisets. */
function matched(expected: readonly string[], actual: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const e of expected) counts.set(e, (counts.get(e) ?? 0) + 1);
  let hits = 0;
  for (const a of actual) {
    const left = counts.get(a) ?? 0;
    if (left > 0) {
      hits++;
      counts.set(a, left - 1);
    }
  }
  return hits;
}

/**
 * The attacks (part, onset, sounding key) of a score's notes, as MIDI plays
 * them: a tie stop continues a tied note of its key on its staff that ends
 * where it starts, and is an attack of its own otherwise; grace and cue
 * notes are left out, parts without notes too.
 */
function attacks(score: Score): Set<string> {
  const notes = [...placedNotes(score)].filter((n) => !n.grace && !n.event.cue);
  const parts = [...new Set(notes.map((n) => n.part))].sort((a, b) => a - b);
  const key = (n: (typeof notes)[number]) => soundingMidiNumber(n.pitch, score.parts[n.part]!.transposition);
  const tiedTo = new Set(notes.filter((n) => n.note.tieStart).map((n) => `${n.part} ${n.staff} ${key(n)} ${toString(add(n.onset, n.duration))}`));
  const set = new Set<string>();
  for (const n of notes) {
    if (n.note.tieStop && tiedTo.has(`${n.part} ${n.staff} ${key(n)} ${toString(n.onset)}`)) continue;
    if (key(n) >= 0 && key(n) <= 127) set.add(`p${parts.indexOf(n.part)} @${toString(n.onset)} k${key(n)}`);
  }
  return set;
}

describe('MIDI round trip over the corpus', () => {
  it('uses 56 real scores', () => {
    expect(cases).toHaveLength(56);
  });

  it('reads back the notes of every straightforward piece exactly', () => {
    let notes = 0;
    let hits = 0;
    let exact = 0;
    const straightforward = cases.filter((c) => c.straightforward);
    for (const c of cases) {
      const actual = soundingNotes(c.read);
      const hit = matched(c.expected, actual);
      notes += Math.max(c.expected.length, actual.length);
      hits += hit;
      const same = hit === c.expected.length && actual.length === c.expected.length;
      if (same) exact++;
      if (c.straightforward) expect(actual, basename(c.file)).toEqual(c.expected);
    }
    console.log(
      `MIDI round trip: ${exact}/${cases.length} pieces exact (${straightforward.length} straightforward, all exact); ` +
        `${hits}/${notes} notes (${((100 * hits) / notes).toFixed(2)} %) matched over all pieces`,
    );
    expect(straightforward.length).toBeGreaterThanOrEqual(50);
    expect(hits / notes).toBeGreaterThan(0.995);
  });

  it('keeps the note attacks of the original score', () => {
    for (const c of cases.filter((c) => c.straightforward)) {
      // The MIDI plays repeats and voltas written out.
      expect([...attacks(c.read)].sort(), basename(c.file)).toEqual([...attacks(unfoldRepeats(c.original))].sort());
    }
  });

  it('fills every measure exactly', () => {
    for (const c of cases) expect(measureProblem(c.read), basename(c.file)).toBeUndefined();
  });

  it('writes MusicXML that validates against the MusicXML 4.0 XSD and reads back the same', { timeout: 300_000 }, () => {
    const paths = cases.map((c, i) => {
      const xml = writeMusicXml(c.read, { encodingDate: '2026-01-01' });
      expect(soundingNotes(readMusicXml(xml)), basename(c.file)).toEqual(soundingNotes(c.read));
      const path = join(outDir, `${i}.musicxml`);
      writeFileSync(path, xml);
      return path;
    });
    expect(validateMusicXmlFiles(paths)).toEqual([]);
  });
});
