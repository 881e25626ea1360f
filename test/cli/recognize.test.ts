import { Midi } from '@tonejs/midi';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePng } from '../../src/input/png.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { RECOGNITION_MODEL_VERSION } from '../../src/recognize/recognize-score.js';
import { runCli as run } from '../support/cli-run.js';
import { noteContent } from '../support/note-content.js';
import { validateMusicXmlFiles } from '../support/xsd.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'test/fixtures/recognition');
const out = mkdtempSync(join(tmpdir(), 'scoresight-recognize-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('scoresight recognize', () => {
  const truth = noteContent(readMusicXml(readFileSync(join(FIXTURES, 'melody.musicxml'))));

  it('writes MusicXML, MXL, MIDI and a thumbnail named after the first file', { timeout: 60_000 }, async () => {
    const r = await run('recognize', join(FIXTURES, 'melody.pdf'), '--out', out, '--formats', 'musicxml,mxl,midi,thumbnail.png', '--locale', 'de');
    expect(r.code, r.stderr).toBe(0);
    const xml = join(out, 'melody.musicxml');
    expect(noteContent(readMusicXml(readFileSync(xml)))).toEqual(truth);
    expect(noteContent(readMusicXml(readFileSync(join(out, 'melody.mxl'))))).toEqual(truth);
    expect(readFileSync(xml, 'utf8')).toContain(`ScoreSight recognition model ${RECOGNITION_MODEL_VERSION}`);
    expect(validateMusicXmlFiles([xml])).toEqual([]);
    expect(new Midi(readFileSync(join(out, 'melody.mid'))).tracks[0]!.notes).toHaveLength(29);
    const thumbnail = decodePng(readFileSync(join(out, 'melody.thumbnail.png')));
    expect(Math.max(thumbnail.width, thumbnail.height)).toBeLessThanOrEqual(512);
  });

  it('reads several files as the pages of one score', { timeout: 60_000 }, async () => {
    const second = join(out, 'again.png');
    copyFileSync(join(FIXTURES, 'melody-300dpi.png'), second);
    const r = await run('recognize', join(FIXTURES, 'melody-300dpi.png'), second, '--out', out);
    expect(r.code, r.stderr).toBe(0);
    const score = readMusicXml(readFileSync(join(out, 'melody-300dpi.musicxml')));
    expect(score.parts[0]!.measures).toHaveLength(16);
    expect(score.parts[0]!.measures[8]!.pageBreak).toBe(true);
  });

  it('exits 1 and prints the error code for a missing, corrupt or non-music file', { timeout: 30_000 }, async () => {
    const missing = await run('recognize', join(out, 'nope.pdf'), '--out', out);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error INVALID_ARGUMENT: .*nope\.pdf does not exist/);
    const corrupt = join(out, 'corrupt.pdf');
    writeFileSync(corrupt, readFileSync(join(FIXTURES, 'melody.pdf')).subarray(0, 900));
    expect((await run('recognize', corrupt, '--out', out)).stderr).toMatch(/^error CORRUPTED_FILE: /);
    const text = join(out, 'notes.txt');
    writeFileSync(text, 'just some words');
    expect((await run('recognize', text, '--out', out)).stderr).toMatch(/^error (UNSUPPORTED_FILE_TYPE|OMR_MIME_REQUIRED): /);
  });

  it('rejects usage errors with exit code 2', async () => {
    expect((await run('recognize', '--out', out)).code).toBe(2);
    expect((await run('recognize', join(FIXTURES, 'melody.pdf'), '--out', out, '--formats', 'svg')).code).toBe(2);
    expect((await run('recognize', join(FIXTURES, 'melody.pdf'), '--out', out, '--locale', 'not a locale')).code).toBe(2);
    expect((await run('convert', join(FIXTURES, 'melody.musicxml'), '--out', out, '--formats', 'thumbnail.png')).code).toBe(2);
  });

  it('works from the built package: bin/scoresight.js finds its model and WebAssembly', { timeout: 60_000 }, () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/scoresight.js'), 'recognize', join(FIXTURES, 'melody-300dpi.png'), '--out', join(out, 'bin')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(noteContent(readMusicXml(readFileSync(join(out, 'bin/melody-300dpi.musicxml'))))).toEqual(truth);
  });
});
