/** Lyric lines → syllables → notes: pure, from words and noteheads placed by hand. */
import { describe, expect, it } from 'vitest';
import { assignSyllables, splitSyllables, syllableCuts, type LyricWord } from '../../src/text/lyrics.js';

/** A word at x with evenly spaced characters of width 10 (as OCR reports them). */
function word(text: string, x: number): LyricWord {
  const chars = [...text];
  return { text, x0: x, x1: x + chars.length * 10, symbols: chars.map((c, i) => ({ text: c, x0: x + i * 10, x1: x + i * 10 + 9 })) };
}

describe('splitSyllables', () => {
  it('parts syllables at hyphens and marks begin, middle, end and single', () => {
    const syllables = splitSyllables([word('1.', 0), word('Ge-', 40), word('grü', 100), word('-', 140), word('sset', 170), word('Ma-ri-a,', 240)]);
    expect(syllables.map((s) => [s.text, s.syllabic])).toEqual([
      ['Ge', 'begin'],
      ['grü', 'middle'],
      ['sset', 'end'],
      ['Ma', 'begin'],
      ['ri', 'middle'],
      ['a,', 'end'],
    ]);
  });

  it('marks a melisma where an extender follows, and keeps punctuation with its syllable', () => {
    const syllables = splitSyllables([word('Care', 0), word('___', 50), word('and', 100), word('Wife', 150), word('.', 195)]);
    expect(syllables.map((s) => [s.text, s.syllabic, s.extend])).toEqual([
      ['Care', 'single', true],
      ['and', 'single', false],
      ['Wife.', 'single', false],
    ]);
  });

  it('cuts words OCR joined where the print leaves a gap', () => {
    // "Duprintemps" read as one word; the ink has a word space after "Du".
    const joined = word('Duprintemps', 0);
    const spans: [number, number][] = [[0, 18], [26, 109]];
    const cuts = syllableCuts(spans, 8);
    expect(cuts).toEqual([22]);
    expect(splitSyllables([joined], cuts).map((s) => s.text)).toEqual(['Du', 'printemps']);
    // Letter spacing never cuts.
    expect(syllableCuts([[0, 10], [12, 20]], 8)).toEqual([]);
  });

  it('drops a verse number, alone or read with the first syllable', () => {
    expect(splitSyllables([word('2', 0), word('Of', 30)]).map((s) => s.text)).toEqual(['Of']);
    expect(splitSyllables([word('1.To', 0), word('sof-', 60)]).map((s) => s.text)).toEqual(['To', 'sof']);
  });
});

describe('assignSyllables', () => {
  const notes = [0, 60, 120, 180, 240, 300].map((x) => ({ x0: x, x1: x + 12 }));
  const syl = (text: string, x: number, extend = false) => ({ text, x0: x - 10, x1: x + 10, syllabic: 'single' as const, extend });

  it('gives each syllable the notehead it is centred under', () => {
    expect(assignSyllables([syl('a', 6), syl('b', 66), syl('c', 126)], notes, 36)).toEqual([0, 1, 2]);
  });

  it('skips notes of a melisma and keeps order', () => {
    // "Care" held over notes 0–2, then "and" under note 3.
    expect(assignSyllables([{ ...syl('Care', 0, true), x0: 0, x1: 30 }, syl('and', 186)], notes, 36)).toEqual([0, 3]);
  });

  it('tolerates syllables set a little off their notes, and never crosses', () => {
    expect(assignSyllables([syl('a', 20), syl('b', 50), syl('c', 250)], notes, 36)).toEqual([0, 1, 4]);
  });

  it('drops a syllable with no note in reach', () => {
    expect(assignSyllables([syl('a', 6), syl('stray', 500)], notes, 36)).toEqual([0, -1]);
    expect(assignSyllables([syl('a', 6)], [], 36)).toEqual([-1]);
  });
});
