/**
 * Round trip on real music: read → write → read gives the same note content;
 * the written MusicXML validates against the official MusicXML 4.0 XSD;
 * Verovio loads and renders it; and the MIDI parses back with the same note count.
 */
import { Midi } from '@tonejs/midi';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import createVerovioModule from 'verovio/wasm';
import { enableLog, LOG_OFF, VerovioToolkit } from 'verovio/esm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { midiNoteCount, writeMidi } from '../../src/exports/midi.js';
import { writeMusicXml } from '../../src/exports/musicxml.js';
import { writeMxl } from '../../src/exports/mxl.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import type { Score } from '../../src/score/model.js';
import { corpusFiles, readBytes, sample } from '../support/corpus.js';
import { noteContent } from '../support/note-content.js';
import { validateMusicXmlFiles } from '../support/xsd.js';
import { yieldToRunner } from '../support/yield-to-runner.js';

// 105 songs spread over the lieder corpus and 10 orchestral movements.
const files = [...sample(corpusFiles('lieder'), 13), ...sample(corpusFiles('orchestral'), 6)];

interface Case {
  file: string;
  original: Score;
  xml: string;
}

const cases: Case[] = [];
let outDir: string;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'scoresight-roundtrip-'));
  for (const file of files) {
    await yieldToRunner();
    const original = readMusicXml(readBytes(file));
    cases.push({ file, original, xml: writeMusicXml(original, { encodingDate: '2026-01-01', modelVersion: 'test' }) });
  }
});

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('corpus round trip', () => {
  it('uses at least 100 real scores', () => {
    expect(cases.length).toBeGreaterThanOrEqual(100);
  });

  it('read → write → read keeps pitch, onset and duration of every note on every staff', () => {
    for (const c of cases) {
      const again = readMusicXml(c.xml);
      expect(noteContent(again), basename(c.file)).toEqual(noteContent(c.original));
      expect(again.credits, basename(c.file)).toEqual(c.original.credits);
      expect(again.parts.map((p) => [p.name, p.instrumentId, p.midiProgram, p.staves, p.measures.length, p.transposition])).toEqual(
        c.original.parts.map((p) => [p.name, p.instrumentId, p.midiProgram, p.staves, p.measures.length, p.transposition]),
      );
    }
  });

  it('.mxl round trip gives the same score as .musicxml', () => {
    for (const c of cases.slice(0, 20)) {
      expect(noteContent(readMusicXml(writeMxl(c.original))), basename(c.file)).toEqual(noteContent(c.original));
    }
  });

  it('every written file validates against the MusicXML 4.0 XSD', { timeout: 300_000 }, () => {
    const paths = cases.map((c, i) => {
      const path = join(outDir, `${i}.musicxml`);
      writeFileSync(path, c.xml);
      return path;
    });
    expect(validateMusicXmlFiles(paths)).toEqual([]);
  });

  it('Verovio loads and renders every written file', { timeout: 600_000 }, async () => {
    const module = await createVerovioModule();
    enableLog(LOG_OFF, module); // Verovio's layout warnings (tight beams …) are not failures.
    const tk = new VerovioToolkit(module);
    tk.setOptions({ pageHeight: 2970, pageWidth: 2100, scale: 40 });
    for (const c of cases) {
      expect(tk.loadData(c.xml), basename(c.file)).toBeTruthy();
      expect(tk.getPageCount()).toBeGreaterThan(0);
      const svg = tk.renderToSVG(1);
      expect(svg, basename(c.file)).toContain('class="note');
      await yieldToRunner(); // over a minute of synchronous layout in all
    }
  });

  it('MIDI parses back with the same note count', () => {
    for (const c of cases) {
      const midi = new Midi(writeMidi(c.original));
      const parsed = midi.tracks.reduce((sum, t) => sum + t.notes.length, 0);
      expect(parsed, basename(c.file)).toBe(midiNoteCount(c.original));
      expect(parsed).toBeGreaterThan(0);
    }
  });
});

