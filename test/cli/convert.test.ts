import { Midi } from '@tonejs/midi';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { extractMxlScore } from '../../src/import/mxl-container.js';
import { CORPUS_DIR, corpusFiles } from '../support/corpus.js';
import { runCli as run } from '../support/cli-run.js';
import { noteContent } from '../support/note-content.js';
import { validateMusicXmlFiles } from '../support/xsd.js';

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

describe('scoresight convert: what it reads', () => {
  const LIEDER = join(CORPUS_DIR, 'lieder');
  /** Small songs with slurs, hairpins, dynamics, articulations and words, all of them. */
  const SONGS = [
    'Cornelius,_Peter__6_Lieder,_Op.1__2_Veilchen__lc5054941.mxl',
    'Satie,_Erik__4_Petites_melodies__1_Elegie__lc6988229.mxl',
    'Brahms,_Johannes__6_Songs,_Op.7__5_Die_Trauernde__lc5098625.mxl',
  ];
  /** How many of each notation element class a MusicXML document holds. */
  function notation(xml: string) {
    const count = (re: RegExp, text = xml) => (text.match(re) ?? []).length;
    const directions = xml.match(/<direction[\s>][\s\S]*?<\/direction>/g) ?? [];
    return {
      slurs: count(/<slur\b/g),
      wedges: count(/<wedge\b/g),
      dynamics: count(/<dynamics\b/g),
      articulations: (xml.match(/<articulations>[\s\S]*?<\/articulations>/g) ?? []).reduce((n, a) => n + count(/<(?!\/|articulations)[a-z-]+/g, a), 0),
      words: directions.filter((d) => /<words[^>]*>[^<]*\S[^<]*<\/words>/.test(d)).length,
    };
  }

  it.each(SONGS)('keeps slurs, hairpins, dynamics, articulations and words of %s, and stays valid', async (song) => {
    const input = join(LIEDER, song);
    const r = await run('convert', input, '--out', out);
    expect(r, r.stderr).toMatchObject({ code: 0, stderr: '' });
    const written = join(out, song.replace(/\.mxl$/, '.musicxml'));
    const before = notation(new TextDecoder().decode(extractMxlScore(readFileSync(input))));
    expect(Object.values(before).every((n) => n > 0)).toBe(true);
    expect(notation(readFileSync(written, 'utf8'))).toEqual(before);
    expect(validateMusicXmlFiles([written])).toEqual([]);
  });

  it('reads MIDI (which it used to refuse as "not well-formed XML") and writes its notes back', async () => {
    const song = join(LIEDER, SONGS[0]!);
    const name = SONGS[0]!.replace(/\.mxl$/, '');
    expect((await run('convert', song, '--out', join(out, 'midi'), '--formats', 'midi')).code).toBe(0);
    const midi = join(out, 'midi', `${name}.mid`);
    const r = await run('convert', midi, '--out', join(out, 'again'), '--formats', 'musicxml,midi');
    expect(r, r.stderr).toMatchObject({ code: 0, stderr: '' });
    const notes = (path: string) => new Midi(readFileSync(path)).tracks.reduce((n, t) => n + t.notes.length, 0);
    expect(notes(join(out, 'again', `${name}.mid`))).toBe(notes(midi));
    expect(validateMusicXmlFiles([join(out, 'again', `${name}.musicxml`)])).toEqual([]);
  });

  it('names the formats it reads when given something else', async () => {
    const text = join(out, 'notes.txt');
    writeFileSync(text, 'just some words');
    const r = await run('convert', text, '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error UNSUPPORTED_FILE_TYPE: "notes\.txt" is a \.txt file\. convert reads MusicXML \(\.musicxml, \.xml\), compressed MusicXML \(\.mxl\), MIDI \(\.mid, \.midi, \.smf\) and MEI \(\.mei\)\.\n$/);
    const page = await run('convert', join(ROOT, 'test/fixtures/recognition/melody.pdf'), '--out', out);
    expect(page.stderr).toMatch(/^error UNSUPPORTED_FILE_TYPE: "melody\.pdf" is a page \(PDF\), not a score\. .*scoresight recognize/);
    const brokenMidi = join(out, 'broken.mid');
    writeFileSync(brokenMidi, 'not midi at all');
    expect((await run('convert', brokenMidi, '--out', out)).stderr).toMatch(/^error CORRUPTED_FILE: .*MIDI/);
  });

  it('reads an MEI score', async () => {
    const mei = join(out, 'tune.mei');
    writeFileSync(
      mei,
      `<?xml version="1.0"?><mei xmlns="http://www.music-encoding.org/ns/mei" meiversion="5.0"><music><body><mdiv><score><scoreDef><staffGrp><staffDef n="1" lines="5" clef.shape="G" clef.line="2" meter.count="4" meter.unit="4"/></staffGrp></scoreDef><section><measure n="1"><staff n="1"><layer n="1"><note pname="c" oct="4" dur="2"/><note pname="e" oct="4" dur="2"/></layer></staff></measure></section></score></mdiv></body></music></mei>`,
    );
    const r = await run('convert', mei, '--out', join(out, 'mei'));
    expect(r, r.stderr).toMatchObject({ code: 0, stderr: '' });
    const score = readMusicXml(readFileSync(join(out, 'mei', 'tune.musicxml')));
    expect(score.parts[0]!.measures[0]!.voices[0]!.events.filter((e) => e.kind === 'note')).toHaveLength(2);
  });
});
