/**
 * Text through the whole engine: a committed song page (bench/text-set/
 * text-abendlied, MuseScore 3) recognised with recognizeScore in German, and
 * in a language with no installed data, which must still read.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateScore } from '../../bench/evaluate/evaluate.js';
import { writeMusicXml } from '../../src/exports/musicxml.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { recognizeScore } from '../../src/recognize/recognize-score.js';
import type { NoteEvent, Score } from '../../src/score/model.js';
import { openOcr } from '../../src/text/ocr.js';

const dir = new URL('../../bench/text-set/text-abendlied/', import.meta.url);
const files = () => [{ filename: 'abendlied.pdf', data: new Uint8Array(readFileSync(new URL('score.pdf', dir))) }];
const truth = readMusicXml(new Uint8Array(readFileSync(new URL('truth.musicxml', dir))));

function lyricsOf(score: Score, verse: number): { text: string; syllabic: string }[] {
  return score.parts[0]!.measures.flatMap((m) => m.voices.flatMap((v) => v.events.filter((e): e is NoteEvent => e.kind === 'note').flatMap((e) => e.lyrics.filter((l) => l.verse === verse))));
}

describe('recognizeScore reads the text', () => {
  let score: Score;
  beforeAll(async () => {
    score = await recognizeScore(files(), { locales: ['de'] });
  }, 60_000);

  it('puts the title and credits into the score and its MusicXML', () => {
    expect(score.credits).toMatchObject({ title: 'Abendlied', composer: 'Anonymous', lyricist: 'Matthias Claudius' });
    const xml = writeMusicXml(score);
    expect(xml).toContain('<work-title>Abendlied</work-title>');
    expect(xml).toContain('<creator type="lyricist">Matthias Claudius</creator>');
  });

  it('names the parts and detects their instruments from the names', () => {
    expect(score.parts.map((p) => [p.name, p.instrumentId])).toEqual([
      ['Sopran', 'voice.soprano'],
      ['Klavier', 'keyboard.piano'],
    ]);
  });

  it('attaches both verses, syllable by syllable, to the notes they are sung to', () => {
    const metrics = evaluateScore(score, truth);
    expect(metrics.lyrics.accuracy).toBeGreaterThanOrEqual(0.9);
    const verse1 = lyricsOf(score, 1);
    const verse2 = lyricsOf(score, 2);
    expect(verse1.length).toBeGreaterThanOrEqual(18);
    expect(verse2.length).toBeGreaterThanOrEqual(18);
    // "auf-ge-gan-gen" is one word of four syllables.
    const at = verse1.findIndex((l) => l.text === 'auf');
    expect(verse1.slice(at, at + 4).map(({ text, syllabic }) => [text, syllabic])).toEqual([
      ['auf', 'begin'],
      ['ge', 'middle'],
      ['gan', 'middle'],
      ['gen,', 'end'],
    ]);
    // Each syllable carries the page box it was read from.
    for (const lyric of score.parts[0]!.measures[0]!.voices[0]!.events.flatMap((e) => (e.kind === 'note' ? e.lyrics : []))) {
      expect(lyric.evidence?.page).toBe(0);
      expect(lyric.evidence!.box.width).toBeGreaterThan(0);
    }
    const xml = writeMusicXml(score);
    expect(xml).toMatch(/<lyric number="2">\s*<syllabic>begin<\/syllabic>/);
  });

  it('reads a language without installed data through its script, never failing the job', async () => {
    const ocr = await openOcr(['ja-HIRA']);
    try {
      expect(ocr?.languages).toEqual(['eng']);
      expect(ocr?.fallbacks).toEqual(['ja-HIRA']);
    } finally {
      await ocr?.close();
    }
    const read = await recognizeScore(files(), { locales: ['ja-HIRA', 'xx-Unknown'] });
    expect(read.credits.title).toBe('Abendlied');
    expect(read.parts[0]!.name).toBe('Sopran');
  }, 60_000);

  it('reads no text when asked not to', async () => {
    const plain = await recognizeScore(files(), { readText: false });
    expect(plain.credits).toEqual({});
    expect(plain.parts[0]!.name).toBe('Staff 1');
    expect(lyricsOf(plain, 1)).toEqual([]);
  }, 60_000);
});
