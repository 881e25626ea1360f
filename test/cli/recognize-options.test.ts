/**
 * `scoresight recognize` for people and scripts: output beside the input,
 * --pages, --json, --quiet, --no-text, progress and --help, all through the
 * CLI's main().
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPagesExist, parsePageList } from '../../src/cli/page-list.js';
import { main } from '../../src/cli/main.js';
import { createProgress } from '../../src/cli/progress.js';
import type { RecognizeSummary } from '../../src/cli/recognize-command.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { buildPdf } from '../support/pdf-build.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/recognition');
const dir = mkdtempSync(join(tmpdir(), 'scoresight-recognize-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[], isTTY = false) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), isTTY });
  return { code, stdout, stderr };
}

/** The melody's page as `song.png`, then a PDF of two blank pages: three pages in all. */
function songAndBlanks(folder: string): string[] {
  const song = join(dir, folder, 'song.png');
  const blanks = join(dir, folder, 'blanks.pdf');
  rmSync(join(dir, folder), { recursive: true, force: true });
  mkdirSync(join(dir, folder), { recursive: true });
  copyFileSync(join(FIXTURES, 'melody-300dpi.png'), song);
  writeFileSync(blanks, buildPdf([{ width: 200, height: 200 }, { width: 200, height: 200 }]));
  return [song, blanks];
}

describe('scoresight recognize --json --pages --no-text, without --out', () => {
  it('prints only a JSON summary on stdout, writes beside the input, and reads only the pages asked for', { timeout: 120_000 }, async () => {
    const [song, blanks] = songAndBlanks('json');
    const r = await run(['recognize', song!, blanks!, '--pages', '1,3', '--json', '--no-text', '--formats', 'musicxml,midi']);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as RecognizeSummary;
    expect(summary).toMatchObject({
      ok: true,
      pages: { total: 3, recognised: [1], withoutMusic: [3] },
      measures: 8,
      notes: 29,
      textRead: false,
      // onnxruntime-node is installed for development: the models ran on it.
      backend: 'native',
      outputs: [
        { format: 'musicxml', path: join(dir, 'json', 'song.musicxml') },
        { format: 'midi', path: join(dir, 'json', 'song.mid') },
      ],
    });
    expect(summary.parts).toHaveLength(1);
    expect(summary.pageTimings.map((t) => [t.page, t.music])).toEqual([[1, true], [3, false]]);
    expect(summary.pageTimings.every((t) => t.seconds >= 0)).toBe(true);
    expect(summary.warnings).toEqual([expect.stringMatching(/^Page 3 was skipped: /), ...summary.warnings.slice(1)]);
    expect(summary.pageReadings.map((r) => [r.page, r.turned, r.skipped?.code])).toEqual([[1, 0, undefined], [3, 0, 'NO_MUSIC_DETECTED']]);
    expect(Array.isArray(summary.lowConfidenceMeasures)).toBe(true);
    // Beside the input: same folder, same base name.
    expect(readMusicXml(readFileSync(join(dir, 'json', 'song.musicxml'))).parts[0]!.measures).toHaveLength(8);
    expect(existsSync(join(dir, 'json', 'song.mid'))).toBe(true);
    // Progress off a terminal: a plain line per page, counted over the pages asked for.
    expect(r.stderr).toMatch(/^page 1 of 2 done in \d+\.\d s, about \d+ s left\n/m);
    expect(r.stderr).toMatch(/^page 2 of 2: no music found, skipped$/m);
    expect(r.stderr).not.toMatch(/\r|\u001b/);
  });

  it('with --quiet prints nothing but errors', { timeout: 120_000 }, async () => {
    const [song] = songAndBlanks('quiet');
    const r = await run(['recognize', song!, '--quiet', '--no-text']);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(dir, 'quiet', 'song.musicxml'))).toBe(true);
    const missing = await run(['recognize', join(dir, 'quiet', 'nope.png'), '--quiet']);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/^error INVALID_ARGUMENT: .*nope\.png does not exist/);
  });

  it('refuses bad page lists (2) and pages beyond the document (2), before recognising anything', async () => {
    const [song, blanks] = songAndBlanks('pages');
    for (const bad of ['0', '3-1', 'a', '1,,x', '', '2-']) {
      const r = await run(['recognize', song!, '--pages', bad]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr, bad).toMatch(/^--pages /);
    }
    const beyond = await run(['recognize', song!, blanks!, '--pages', '2-5', '--json']);
    expect(beyond.code).toBe(2);
    expect(beyond.stderr).toContain('--pages names pages 4, 5, but the document has 3 pages (1-3).');
    expect(JSON.parse(beyond.stdout)).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
    expect(existsSync(join(dir, 'pages', 'song.musicxml'))).toBe(false);
    expect((await run(['convert', song!, '--out', dir, '--json'])).stderr).toMatch(/^--json is an option of recognize/);
  });

  it('--help lists every input format the engine reads', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, ' ');
    for (const format of ['PDF', 'PNG', 'JPEG', 'HEIC', 'WebP', 'TIFF', '.tif', '.heic', '.webp', '.jpg']) expect(help).toContain(format);
    for (const format of ['MusicXML (.musicxml, .xml)', '(.mxl)', 'MIDI (.mid', 'MEI (.mei)']) expect(help).toContain(format);
    for (const option of ['--pages', '--json', '--quiet', '--no-text', '--out']) expect(help).toContain(option);
  });
});

describe('--pages', () => {
  it('reads page numbers and ranges, 1-based, in order and once each', () => {
    expect(parsePageList('1,3-5')).toEqual([1, 3, 4, 5]);
    expect(parsePageList(' 5 , 2-3, 3 ')).toEqual([2, 3, 5]);
    expect(parsePageList('7-7')).toEqual([7]);
  });

  it('says what is wrong with a bad list', () => {
    expect(() => parsePageList('0')).toThrow(/counts pages from 1/);
    expect(() => parsePageList('5-3')).toThrow(/runs backwards; write it as 3-5/);
    expect(() => parsePageList('1;2')).toThrow(/"1;2" is neither a page number nor a range/);
    expect(() => parsePageList('1-99999999')).toThrow(/more than 10000 pages/);
    expect(() => checkPagesExist([1, 2], 1)).toThrow('--pages names page 2, but the document has 1 page.');
    expect(() => checkPagesExist([1, 3], 3)).not.toThrow();
  });
});

describe('progress', () => {
  it('on a terminal redraws one line: a bar, page N of M, the stage and the time left', () => {
    let clock = 0;
    let text = '';
    const progress = createProgress({ total: 2, tty: true, write: (t) => (text += t), now: () => clock });
    progress.startPage(0);
    expect(text).toMatch(/^\r\[-+\] page 1 of 2 · reading · estimating time left\u001b\[K$/);
    clock = 4000;
    progress.stage(0, 'symbols');
    progress.stage(0, 'assembled');
    progress.startPage(1);
    clock = 6000;
    progress.stage(1, 'staves');
    expect(text.split('\r').at(-1)).toMatch(/^\[#+-+\] page 2 of 2 · staves found · about \d+ s left\u001b\[K$/);
    progress.finish();
    expect(text.endsWith('\r\u001b[K')).toBe(true);
    expect(text).not.toContain('\n');
    expect(progress.timings).toEqual([
      { page: 1, seconds: 4, music: true },
      { page: 2, seconds: 2, music: false },
    ]);
  });

  it('elsewhere writes a plain line per page, with the time left from the pace so far', () => {
    let clock = 0;
    const lines: string[] = [];
    const progress = createProgress({ total: 3, tty: false, write: (t) => lines.push(t), now: () => clock });
    progress.startPage(4);
    clock = 2000;
    progress.stage(4, 'assembled');
    progress.startPage(6);
    clock = 3000;
    progress.startPage(7);
    clock = 5000;
    progress.stage(7, 'assembled');
    progress.finish();
    expect(lines).toEqual(['page 1 of 3 done in 2.0 s, about 4 s left\n', 'page 2 of 3: no music found, skipped\n', 'page 3 of 3 done in 2.0 s\n']);
    expect(progress.timings.map((t) => t.page)).toEqual([5, 7, 8]);
  });
});
