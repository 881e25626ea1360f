import { Midi } from '@tonejs/midi';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { corpusFiles } from '../support/corpus.js';
import { runCli as run } from '../support/cli-run.js';
import { noteContent } from '../support/note-content.js';

const ROOT = resolve(import.meta.dirname, '../..');
const out = mkdtempSync(join(tmpdir(), 'scoresight-cli-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('scoresight convert', () => {
  const input = corpusFiles('lieder')[0]!;

  it('writes every requested format as <dir>/<name>.<ext>', async () => {
    const r = await run('convert', input, '--out', out, '--formats', 'musicxml,mxl,midi');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const name = input.split('/').pop()!.replace(/\.mxl$/, '');
    const original = noteContent(readMusicXml(readFileSync(input)));
    expect(noteContent(readMusicXml(readFileSync(join(out, `${name}.musicxml`))))).toEqual(original);
    expect(noteContent(readMusicXml(readFileSync(join(out, `${name}.mxl`))))).toEqual(original);
    const midi = new Midi(readFileSync(join(out, `${name}.mid`)));
    expect(midi.tracks.length).toBeGreaterThan(0);
  });

  it('exits 1 with the error code for unreadable input', async () => {
    const bad = join(out, 'bad.musicxml');
    writeFileSync(bad, '<html><body>not music</body></html>');
    const r = await run('convert', bad, '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error INVALID_MUSICXML: .*<html>/);
    expect((await run('convert', join(out, 'missing.mxl'), '--out', out)).stderr).toMatch(/INVALID_ARGUMENT: .*does not exist/);
  });

  it('exits 2 on usage errors', async () => {
    expect((await run()).code).toBe(2);
    expect((await run('frobnicate')).code).toBe(2);
    expect((await run('convert', input)).code).toBe(2);
    expect((await run('convert', input, '--out', out, '--formats', 'pdf')).stderr).toContain('Unknown format(s): pdf');
    expect((await run('--bogus')).code).toBe(2);
  });

  it('runs as the installed `scoresight` binary (built package)', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/scoresight.js'), '--version'], { encoding: 'utf8' });
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('resolves `scoresight` through the package exports map in Node', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', "const m = await import('scoresight'); console.log(typeof m.readMusicXml, typeof m.writeMusicXml, typeof m.writeMidi)"], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('function function function');
  });
});
