import { describe, expect, it } from 'vitest';
import { readDynamic, readMarkWords, readTempoText } from '../../src/text/apply-text.js';

describe('directions read from text', () => {
  it('take a dynamic only where the letters spell one, with the italic s that reads as o set right', () => {
    expect(readDynamic('mf')).toBe('mf');
    expect(readDynamic('P')).toBe('p');
    expect(readDynamic('ƒƒ')).toBe('ff');
    expect(readDynamic('of')).toBe('sf');
    expect(readDynamic('sfz.')).toBe('sfz');
    expect(readDynamic('ten')).toBeUndefined();
    expect(readDynamic('re')).toBeUndefined();
  });

  it('split tempo words from the metronome mark after them and a measure number before them', () => {
    expect(readTempoText('Andante espressivo 2=60')).toEqual({ words: 'Andante espressivo', metronome: { beatUnit: 'quarter', dots: 0, perMinute: 60 } });
    expect(readTempoText('8 Allegro molto moderato J. = 60')).toEqual({ words: 'Allegro molto moderato', metronome: { beatUnit: 'quarter', dots: 1, perMinute: 60 } });
    expect(readTempoText('dolce')).toEqual({ words: 'dolce' });
    expect(readTempoText('21')).toEqual({});
  });

  it('take an italic word found among the dynamics as expression words, and no misread mark', () => {
    expect(readMarkWords('cresc.')).toBe('cresc.');
    expect(readMarkWords('dim')).toBe('dim');
    expect(readMarkWords('pizz.')).toBe('pizz.');
    // An f read as I or F, a z as y, an f as S: marks misread, not words.
    expect(readMarkWords('If')).toBeUndefined();
    expect(readMarkWords('Fy')).toBeUndefined();
    expect(readMarkWords('Szp')).toBeUndefined();
    expect(readMarkWords('sffz')).toBeUndefined();
  });
});
