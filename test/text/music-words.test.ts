import { describe, expect, it } from 'vitest';
import { correctMusicWords, musicWordsOnly, oneEditApart, wordBeforeMark } from '../../src/text/music-words.js';
import { MUSIC_WORDS } from '../../src/text/music-lexicon.js';

describe('performance words', () => {
  it('correct a reading one letter off a common word, with the word\'s usual spelling', () => {
    expect(correctMusicWords('plzz.')).toBe('pizz.');
    expect(correctMusicWords('resc.')).toBe('cresc.');
    expect(correctMusicWords('cresc. poco @ poco')).toBe('cresc. poco a poco');
    expect(correctMusicWords('resc')).toBe('cresc.');
    expect(correctMusicWords('oco cresc.')).toBe('poco cresc.');
    expect(correctMusicWords('Alegro')).toBe('Allegro');
  });

  it('keep words of the lexicon, words far from any, and short readings as they are', () => {
    expect(correctMusicWords('cresc.')).toBe('cresc.');
    expect(correctMusicWords('dolce espress.')).toBe('dolce espress.');
    expect(correctMusicWords('Schnell, doch nicht zu sehr')).toBe('Schnell, doch nicht zu sehr');
    expect(correctMusicWords('zqxw')).toBe('zqxw');
    expect(correctMusicWords('cre')).toBe('cre');
  });

  it('tell a reading of performance words only, which no lyric is, from a lyric', () => {
    expect(musicWordsOnly('cresc. cresc.')).toBe(true);
    expect(musicWordsOnly('resc. dim.')).toBe(true);
    expect(musicWordsOnly('(dim.)')).toBe(true);
    expect(musicWordsOnly('arco plzz arco')).toBe(true);
    expect(musicWordsOnly('cresc poco')).toBe(true);
    expect(musicWordsOnly('cresc. poco v cresc. poco 159&')).toBe(true);
    expect(musicWordsOnly('p cresc.~ 2 .2. 2. e')).toBe(true);
    expect(musicWordsOnly('O la')).toBe(false);
    expect(musicWordsOnly('cresc. la')).toBe(false);
    expect(musicWordsOnly('ten green bottles')).toBe(false);
    expect(musicWordsOnly('dolce')).toBe(false);
    expect(musicWordsOnly('2.')).toBe(false);
    expect(musicWordsOnly('')).toBe(false);
  });

  it('put back the period of an abbreviation, lost or read as a comma, and drop the dashes that continue the words', () => {
    expect(correctMusicWords('cresc')).toBe('cresc.');
    expect(correctMusicWords('dim,')).toBe('dim.');
    expect(correctMusicWords('poco cresc')).toBe('poco cresc.');
    expect(correctMusicWords('(dim)')).toBe('(dim.)');
    expect(correctMusicWords('cresc. _')).toBe('cresc.');
    expect(correctMusicWords('cresc.~')).toBe('cresc.');
    expect(correctMusicWords('(cresc.) — -')).toBe('(cresc.)');
    expect(correctMusicWords('sempre')).toBe('sempre');
    expect(correctMusicWords('a tempo - Adagio')).toBe('a tempo - Adagio');
  });

  it('drop the dashes after an abbreviation that the OCR reads as figures and letters, and nothing else', () => {
    expect(correctMusicWords('cresc.. 2 2. 2 eee')).toBe('cresc.');
    expect(correctMusicWords('cresc. ~ 2. 2-2-2. 2')).toBe('cresc.');
    expect(correctMusicWords('sempre poco a poco cresc.....2')).toBe('sempre poco a poco cresc.');
    expect(correctMusicWords('(dim.) 2 2')).toBe('(dim.)');
    expect(correctMusicWords('dim. e rit.')).toBe('dim. e rit.');
    expect(correctMusicWords('cresc. il tema')).toBe('cresc. il tema');
  });

  it('complete an abbreviation cut short at the end of performance words, and no other word', () => {
    expect(correctMusicWords('poco a poco di')).toBe('poco a poco dim.');
    expect(correctMusicWords('di')).toBe('dim.');
    expect(correctMusicWords('accel')).toBe('accel.');
    expect(correctMusicWords('lll le')).toBe('lll le');
    expect(correctMusicWords('Tempo I')).toBe('Tempo I');
    expect(correctMusicWords('sul G')).toBe('sul G');
    expect(correctMusicWords('m.v.')).toBe('m.v.');
  });

  it('read a performance word printed before a mark, run together with it, as the word and the mark', () => {
    expect(wordBeforeMark('pocof')).toEqual({ word: 'poco', mark: 'f', letters: 4 });
    expect(wordBeforeMark('semprepp')).toEqual({ word: 'sempre', mark: 'pp', letters: 6 });
    expect(wordBeforeMark('più f')).toEqual({ word: 'più', mark: 'f', letters: 3 });
    // "più" with its i lost, a letter off: only where asked for.
    expect(wordBeforeMark('puf')).toEqual({ word: 'più', mark: 'f', letters: 2 });
    expect(wordBeforeMark('puf', { lettersOff: false })).toBeUndefined();
    for (const text of ['fz p', 'sfp', 'mf', 'pizz.', 'dim.', 'arco']) expect(wordBeforeMark(text), text).toBeUndefined();
  });

  it('keep the punctuation around a corrected word', () => {
    expect(correctMusicWords('(plzz.)')).toBe('(pizz.)');
  });

  it('tell one edit apart from none and from two', () => {
    expect(oneEditApart('pizz', 'plzz')).toBe(true);
    expect(oneEditApart('cresc', 'resc')).toBe(true);
    expect(oneEditApart('cresc', 'crescx')).toBe(true);
    expect(oneEditApart('cresc', 'cresc')).toBe(false);
    expect(oneEditApart('cresc', 'cre')).toBe(false);
    expect(oneEditApart('arco', 'orca')).toBe(false);
  });

  it('come from the training corpus, the commonest first', () => {
    expect(MUSIC_WORDS.length).toBeGreaterThan(100);
    const works = MUSIC_WORDS.map(([, n]) => n);
    expect(works).toEqual([...works].sort((a, b) => b - a));
    expect(MUSIC_WORDS.map(([w]) => w)).toEqual(expect.arrayContaining(['cresc.', 'dim.', 'pizz.', 'arco', 'dolce']));
  });
});
