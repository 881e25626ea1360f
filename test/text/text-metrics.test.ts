/** The benchmark's text metrics: title exact match, part-name match, lyric syllables. */
import { describe, expect, it } from 'vitest';
import { aggregate, evaluateScore } from '../../bench/evaluate/evaluate.js';
import type { Lyric, Score } from '../../src/score/model.js';
import { measure, note, numbered, part, score } from '../support/score-builder.js';

function song(title: string | undefined, names: string[], verses: string[][]): Score {
  const s = score(
    ...names.map((name, p) =>
      part(
        [measure(verses[0]!.map((_, i) => {
          const n = note('C5', 'quarter');
          if (p === 0) n.lyrics = verses.flatMap((v, k): Lyric[] => (v[i] ? [{ verse: k + 1, text: v[i]!, syllabic: 'single' }] : []));
          return n;
        }))],
        { id: `P${p + 1}`, name },
      ),
    ),
  );
  s.credits = title === undefined ? {} : { title };
  return s;
}

describe('text metrics', () => {
  const truth = song('Queen Mary’s Song', ['Voice', 'Piano'], [['Hap', 'less', 'doom,'], ['Beau', 'ty']]);

  it('are perfect for the same text, typography and punctuation aside', () => {
    const m = evaluateScore(song("Queen  Mary's Song", ['voice', 'Piano'], [['Hap', 'less', 'doom'], ['Beau', 'ty']]), truth);
    expect([m.title.accuracy, m.partNames.accuracy, m.lyrics.accuracy]).toEqual([1, 1, 1]);
    expect(m.lyrics).toMatchObject({ matched: 5, total: 5 });
  });

  it('count a wrong title, a wrong name and wrong or missing syllables', () => {
    const m = evaluateScore(song('Queen Miity’s Song', ['Staff 1', 'Piano'], [['Hap', 'loss', 'doom']]), truth);
    expect(m.title).toMatchObject({ matched: 0, total: 1 });
    expect(m.partNames).toMatchObject({ matched: 1, total: 2 });
    // Verse 1: 2 of 3; verse 2 missing: 0 of 2.
    expect(m.lyrics).toMatchObject({ matched: 2, total: 5 });
  });

  it('do not judge a title the truth lacks, and add up over documents', () => {
    const untitled = song(undefined, ['Voice'], [['la']]);
    const m = evaluateScore(song('Anything', ['Voice'], [['la']]), untitled);
    expect(m.title.total).toBe(0);
    const all = aggregate([m, evaluateScore(song('Queen Mary’s Song', ['Voice', 'Piano'], [['Hap']]), truth)]);
    expect(all.title).toMatchObject({ matched: 1, total: 1, accuracy: 1 });
    expect(all.partNames).toMatchObject({ matched: 3, total: 3 });
  });

  it('count measure numbers position by position, so a numbering shifted by one costs every measure', () => {
    const bars = (from: number, count: number) => score(part(numbered(Array.from({ length: count }, () => measure([note('C5', 'whole')]))).map((m, i) => ({ ...m, number: String(from + i) }))));
    expect(evaluateScore(bars(125, 4), bars(125, 4)).measureNumbers).toMatchObject({ matched: 4, total: 4 });
    expect(evaluateScore(bars(1, 4), bars(125, 4)).measureNumbers).toMatchObject({ matched: 0, total: 4 });
    expect(evaluateScore(bars(125, 3), bars(125, 4)).measureNumbers).toMatchObject({ matched: 3, total: 4 });
  });
});
