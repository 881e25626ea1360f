import { describe, expect, it } from 'vitest';
import {
  INSTRUMENTS,
  type Instrument,
  instrumentById,
  instrumentForProgram,
  matchInstrumentName,
} from '../../src/score/instruments.js';

function get(id: string): Instrument {
  const instrument = instrumentById(id);
  if (!instrument) throw new Error(`no instrument ${id}`);
  return instrument;
}

/** Sounding minus written, in semitones. */
function semitones(instrument: Instrument): number {
  const t = instrument.transposition;
  return t ? t.chromatic + 12 * (t.octaveChange ?? 0) : 0;
}

/** Sounding minus written, in diatonic steps. */
function steps(instrument: Instrument): number {
  const t = instrument.transposition;
  return t ? t.diatonic + 7 * (t.octaveChange ?? 0) : 0;
}

const MAJOR_SCALE = [0, 2, 4, 5, 7, 9, 11];

describe('instrument table', () => {
  it('has at least 130 entries with unique, well-formed ids', () => {
    expect(INSTRUMENTS.length).toBeGreaterThanOrEqual(130);
    const ids = INSTRUMENTS.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z-]+\.[a-z0-9-]+$/);
  });

  it('has valid programs, clefs, staves and names on every entry', () => {
    for (const i of INSTRUMENTS) {
      expect(Number.isInteger(i.midiProgram), i.id).toBe(true);
      expect(i.midiProgram, i.id).toBeGreaterThanOrEqual(0);
      expect(i.midiProgram, i.id).toBeLessThanOrEqual(127);
      expect(i.clefs.length, i.id).toBe(i.staves);
      expect([1, 2], i.id).toContain(i.staves);
      expect(i.name.trim(), i.id).not.toBe('');
      expect(i.abbreviation.trim(), i.id).not.toBe('');
      expect(i.aliases.length, i.id).toBeGreaterThan(0);
      const percussionClef = i.clefs.some((c) => c.sign === 'percussion');
      expect(percussionClef, i.id).toBe(i.percussion === true);
      if (i.percussion) expect(i.midiProgram, i.id).toBe(0);
    }
  });

  it('writes transpositions as a consistent interval with whole octaves in octaveChange', () => {
    for (const i of INSTRUMENTS) {
      const t = i.transposition;
      if (!t) continue;
      expect(Math.abs(t.diatonic), i.id).toBeLessThanOrEqual(6);
      expect(Math.abs(t.chromatic), i.id).toBeLessThanOrEqual(11);
      expect(Math.sign(t.chromatic) * Math.sign(t.diatonic), i.id).toBeGreaterThanOrEqual(0);
      // The chromatic size fits the diatonic one (major/perfect ±1 semitone).
      const major = Math.sign(t.diatonic) * (MAJOR_SCALE[Math.abs(t.diatonic)] as number);
      expect(Math.abs(t.chromatic - major), i.id).toBeLessThanOrEqual(1);
    }
  });

  it('is frozen', () => {
    expect(Object.isFrozen(INSTRUMENTS)).toBe(true);
    expect(Object.isFrozen(get('strings.violin').clefs[0])).toBe(true);
  });

  it('looks entries up by id', () => {
    expect(get('strings.violin').name).toBe('Violin');
    expect(instrumentById('strings.theremin-9000')).toBeUndefined();
  });
});

describe('General MIDI programs', () => {
  it.each([
    ['keyboard.piano', 0],
    ['keyboard.harpsichord', 6],
    ['keyboard.celesta', 8],
    ['pitched-percussion.glockenspiel', 9],
    ['pitched-percussion.xylophone', 13],
    ['keyboard.organ', 19],
    ['keyboard.accordion', 21],
    ['plucked.guitar', 24],
    ['plucked.bass-guitar', 33],
    ['strings.violin', 40],
    ['strings.viola', 41],
    ['strings.cello', 42],
    ['strings.double-bass', 43],
    ['plucked.harp', 46],
    ['pitched-percussion.timpani', 47],
    ['brass.trumpet-bflat', 56],
    ['brass.trumpet-c', 56],
    ['brass.trombone', 57],
    ['brass.tuba', 58],
    ['brass.horn-f', 60],
    ['wind.alto-saxophone', 65],
    ['wind.tenor-saxophone', 66],
    ['wind.oboe', 68],
    ['wind.cor-anglais', 69],
    ['wind.bassoon', 70],
    ['wind.clarinet-bflat', 71],
    ['wind.clarinet-a', 71],
    ['wind.piccolo', 72],
    ['wind.flute', 73],
    ['wind.recorder-alto', 74],
    ['plucked.banjo', 105],
    ['wind.bagpipes', 109],
  ])('%s is program %i', (id, program) => {
    expect(get(id).midiProgram).toBe(program);
  });

  it('gives choir voices Choir Aahs (52)', () => {
    for (const id of ['choir.soprano', 'choir.alto', 'choir.tenor', 'choir.bass', 'choir.mixed']) {
      expect(get(id).midiProgram, id).toBe(52);
    }
    expect(get('voice.soprano').midiProgram).toBe(52);
  });

  it('marks unpitched percussion for channel 10', () => {
    for (const id of ['percussion.drum-set', 'percussion.snare-drum', 'percussion.bass-drum', 'percussion.cymbals', 'percussion.triangle']) {
      expect(get(id).percussion, id).toBe(true);
    }
    for (const id of ['pitched-percussion.timpani', 'pitched-percussion.glockenspiel', 'keyboard.piano']) {
      expect(get(id).percussion, id).toBeUndefined();
    }
  });
});

describe('transpositions', () => {
  it('B♭ clarinet sounds a major second lower', () => {
    expect(get('wind.clarinet-bflat').transposition).toEqual({ diatonic: -1, chromatic: -2 });
  });
  it('A clarinet sounds a minor third lower, E♭ clarinet a minor third higher', () => {
    expect(get('wind.clarinet-a').transposition).toEqual({ diatonic: -2, chromatic: -3 });
    expect(get('wind.clarinet-eflat').transposition).toEqual({ diatonic: 2, chromatic: 3 });
  });
  it('horn in F and cor anglais sound a perfect fifth lower', () => {
    expect(get('brass.horn-f').transposition).toEqual({ diatonic: -4, chromatic: -7 });
    expect(get('wind.cor-anglais').transposition).toEqual({ diatonic: -4, chromatic: -7 });
  });
  it('octave transpositions', () => {
    expect(get('wind.piccolo').transposition).toEqual({ diatonic: 0, chromatic: 0, octaveChange: 1 });
    expect(semitones(get('strings.double-bass'))).toBe(-12);
    expect(semitones(get('wind.contrabassoon'))).toBe(-12);
    expect(semitones(get('plucked.bass-guitar'))).toBe(-12);
    expect(semitones(get('pitched-percussion.glockenspiel'))).toBe(24);
    expect(semitones(get('pitched-percussion.xylophone'))).toBe(12);
    expect(semitones(get('keyboard.celesta'))).toBe(12);
  });
  it('saxophones', () => {
    expect(get('wind.soprano-saxophone').transposition).toEqual({ diatonic: -1, chromatic: -2 });
    expect(get('wind.alto-saxophone').transposition).toEqual({ diatonic: -5, chromatic: -9 });
    const tenor = get('wind.tenor-saxophone');
    expect([steps(tenor), semitones(tenor)]).toEqual([-8, -14]);
    const baritone = get('wind.baritone-saxophone');
    expect([steps(baritone), semitones(baritone)]).toEqual([-12, -21]);
    const bassClarinet = get('wind.bass-clarinet');
    expect([steps(bassClarinet), semitones(bassClarinet)]).toEqual([-8, -14]);
  });
  it('trumpets in several keys', () => {
    expect(get('brass.trumpet-bflat').transposition).toEqual({ diatonic: -1, chromatic: -2 });
    expect(get('brass.trumpet-c').transposition).toBeUndefined();
    expect(get('brass.trumpet-d').transposition).toEqual({ diatonic: 1, chromatic: 2 });
    expect(get('brass.trumpet-eflat').transposition).toEqual({ diatonic: 2, chromatic: 3 });
  });
  it('concert-pitch instruments carry no transposition', () => {
    for (const id of ['strings.violin', 'strings.viola', 'strings.cello', 'wind.flute', 'wind.oboe', 'wind.bassoon', 'brass.trombone', 'brass.tuba', 'keyboard.piano', 'voice.soprano', 'voice.tenor']) {
      expect(get(id).transposition, id).toBeUndefined();
    }
  });
  it('an octave clef already places the written octave: tenor and guitar have no octave transposition', () => {
    expect(get('voice.tenor').clefs).toEqual([{ sign: 'G', line: 2, octaveChange: -1 }]);
    expect(get('plucked.guitar').clefs).toEqual([{ sign: 'G', line: 2, octaveChange: -1 }]);
    expect(get('plucked.guitar').transposition).toBeUndefined();
  });
});

describe('clefs and staves', () => {
  it('viola reads alto clef, cello and bassoon bass clef, alto trombone alto clef', () => {
    expect(get('strings.viola').clefs).toEqual([{ sign: 'C', line: 3 }]);
    expect(get('strings.cello').clefs).toEqual([{ sign: 'F', line: 4 }]);
    expect(get('wind.bassoon').clefs).toEqual([{ sign: 'F', line: 4 }]);
    expect(get('brass.alto-trombone').clefs).toEqual([{ sign: 'C', line: 3 }]);
    expect(get('strings.violin').clefs).toEqual([{ sign: 'G', line: 2 }]);
  });
  it('keyboards and harp have a grand staff', () => {
    expect(get('keyboard.piano').clefs).toEqual([
      { sign: 'G', line: 2 },
      { sign: 'F', line: 4 },
    ]);
    for (const id of ['keyboard.piano', 'keyboard.harpsichord', 'keyboard.organ', 'keyboard.celesta', 'plucked.harp']) {
      expect(get(id).staves, id).toBe(2);
    }
    for (const id of ['strings.violin', 'voice.soprano', 'wind.flute', 'percussion.snare-drum']) {
      expect(get(id).staves, id).toBe(1);
    }
  });
  it('unpitched percussion uses the percussion clef', () => {
    expect(get('percussion.drum-set').clefs[0]?.sign).toBe('percussion');
    expect(get('pitched-percussion.timpani').clefs).toEqual([{ sign: 'F', line: 4 }]);
  });
});

describe('matchInstrumentName', () => {
  it.each([
    ['Violino I', 'strings.violin', 'high'],
    ['Violin', 'strings.violin', 'high'],
    ['Violine', 'strings.violin', 'high'],
    ['Violon', 'strings.violin', 'high'],
    ['Violín', 'strings.violin', 'high'],
    ['1. Violine', 'strings.violin', 'high'],
    ['2 Violins', 'strings.violin', 'medium'],
    ['Violini II', 'strings.violin', 'medium'],
    ['Violinen', 'strings.violin', 'medium'],
    ['Vl. II', 'strings.violin', 'medium'],
    ['Vln. 1', 'strings.violin', 'medium'],
    ['Vn.', 'strings.violin', 'medium'],
    ['Viola', 'strings.viola', 'high'],
    ['Bratsche', 'strings.viola', 'high'],
    ['Violoncello', 'strings.cello', 'high'],
    ['Cello', 'strings.cello', 'high'],
    ['Vc.', 'strings.cello', 'medium'],
    ['Vcl.', 'strings.cello', 'medium'],
    ['Kontrabass', 'strings.double-bass', 'high'],
    ['Contrabbasso', 'strings.double-bass', 'high'],
    ['Contrebasse', 'strings.double-bass', 'high'],
    ['Cb.', 'strings.double-bass', 'medium'],
    ['Kb.', 'strings.double-bass', 'medium'],
    ['Clarinetto in Sib', 'wind.clarinet-bflat', 'high'],
    ['Klarinette in B', 'wind.clarinet-bflat', 'high'],
    ['Clarinette en Si♭', 'wind.clarinet-bflat', 'high'],
    ['Clarinet in B-flat', 'wind.clarinet-bflat', 'high'],
    ['B♭ Clarinet', 'wind.clarinet-bflat', 'high'],
    ['Clarinet', 'wind.clarinet-bflat', 'high'],
    ['Cl. in B♭', 'wind.clarinet-bflat', 'medium'],
    ['Clarinet in A', 'wind.clarinet-a', 'high'],
    ['Clarinetto in La', 'wind.clarinet-a', 'high'],
    ['Klarinette in A', 'wind.clarinet-a', 'high'],
    ['Clarinets in A', 'wind.clarinet-a', 'medium'],
    ['Klarinette in Es', 'wind.clarinet-eflat', 'high'],
    ['Horn in F', 'brass.horn-f', 'high'],
    ['Corno in Fa', 'brass.horn-f', 'high'],
    ['Cor en Fa', 'brass.horn-f', 'high'],
    ['Horn', 'brass.horn-f', 'high'],
    ['Horns in F 1.2', 'brass.horn-f', 'medium'],
    ['Hr.', 'brass.horn-f', 'medium'],
    ['Corni in D', 'brass.horn-d', 'medium'],
    ['Hörner in Es', 'brass.horn-eflat', 'medium'],
    ['Trompete in C', 'brass.trumpet-c', 'high'],
    ['Trumpet', 'brass.trumpet-bflat', 'high'],
    ['Tromba', 'brass.trumpet-bflat', 'high'],
    ['Trompette', 'brass.trumpet-bflat', 'high'],
    ['Tpt.', 'brass.trumpet-bflat', 'medium'],
    ['Trumpet in D', 'brass.trumpet-d', 'high'],
    ['Posaune', 'brass.trombone', 'high'],
    ['Trombone', 'brass.trombone', 'high'],
    ['Pos.', 'brass.trombone', 'medium'],
    ['Trb.', 'brass.trombone', 'medium'],
    ['Fagott', 'wind.bassoon', 'high'],
    ['Fagotto', 'wind.bassoon', 'high'],
    ['Basson', 'wind.bassoon', 'high'],
    ['Fg.', 'wind.bassoon', 'medium'],
    ['Bsn.', 'wind.bassoon', 'medium'],
    ['Oboe', 'wind.oboe', 'high'],
    ['Hautbois', 'wind.oboe', 'high'],
    ['Ob.', 'wind.oboe', 'medium'],
    ['Flöte', 'wind.flute', 'high'],
    ['Flauto', 'wind.flute', 'high'],
    ['Flûte', 'wind.flute', 'high'],
    ['Fl.', 'wind.flute', 'medium'],
    ['Flauto in Sol', 'wind.alto-flute', 'high'],
    ['Flauto piccolo', 'wind.piccolo', 'high'],
    ['Corno inglese', 'wind.cor-anglais', 'high'],
    ['Pauken', 'pitched-percussion.timpani', 'high'],
    ['Timpani', 'pitched-percussion.timpani', 'high'],
    ['Timbales', 'pitched-percussion.timpani', 'high'],
    ['Timp.', 'pitched-percussion.timpani', 'medium'],
    ['Pk.', 'pitched-percussion.timpani', 'medium'],
    ['Soprano', 'voice.soprano', 'high'],
    ['Sopran I', 'voice.soprano', 'high'],
    ['Soprani', 'voice.soprano', 'medium'],
    ['S.', 'voice.soprano', 'medium'],
    ['Alt', 'voice.alto', 'high'],
    ['Alto', 'voice.alto', 'high'],
    ['Contralto', 'voice.contralto', 'high'],
    ['A.', 'voice.alto', 'medium'],
    ['Tenor', 'voice.tenor', 'high'],
    ['Tenore', 'voice.tenor', 'high'],
    ['Ténor', 'voice.tenor', 'high'],
    ['T.', 'voice.tenor', 'medium'],
    ['Bass', 'voice.bass', 'high'],
    ['Basso', 'voice.bass', 'high'],
    ['Basse', 'voice.bass', 'high'],
    ['B.', 'voice.bass', 'medium'],
    ['Voice', 'voice.voice', 'high'],
    ['Singstimme', 'voice.voice', 'high'],
    ['Chor', 'choir.mixed', 'high'],
    ['Soprano (Coro)', 'choir.soprano', 'high'],
    ['Piano', 'keyboard.piano', 'high'],
    ['Pianoforte', 'keyboard.piano', 'high'],
    ['Klavier', 'keyboard.piano', 'high'],
    ['Pno.', 'keyboard.piano', 'medium'],
    ['Pf.', 'keyboard.piano', 'medium'],
    ['Cembalo', 'keyboard.harpsichord', 'high'],
    ['Basso continuo', 'keyboard.continuo', 'high'],
    ['Harfe', 'plucked.harp', 'high'],
    ['Gitarre', 'plucked.guitar', 'high'],
    ['Kleine Trommel', 'percussion.snare-drum', 'high'],
    ['Becken', 'percussion.cymbals', 'high'],
    ['Drums', 'percussion.drum-set', 'high'],
  ] as const)('%s → %s (%s)', (text, id, confidence) => {
    const match = matchInstrumentName(text);
    expect(match?.instrument.id).toBe(id);
    expect(match?.confidence).toBe(confidence);
  });

  it('ignores case, diacritics, punctuation and part numbering', () => {
    expect(matchInstrumentName('VIOLONCELLO')?.instrument.id).toBe('strings.cello');
    expect(matchInstrumentName('Floete')?.instrument.id).toBe('wind.flute'); // one letter off: low
    expect(matchInstrumentName('Violine I und II')).toEqual({ instrument: get('strings.violin'), confidence: 'high' });
    expect(matchInstrumentName('Flauto 1 e 2')?.confidence).toBe('high');
    expect(matchInstrumentName('Corno I in F')?.instrument.id).toBe('brass.horn-f');
    expect(matchInstrumentName('Soprano Solo')?.instrument.id).toBe('voice.soprano');
  });

  it('reads a key written as a word of its own or in brackets', () => {
    expect(matchInstrumentName('Klarinette (A)')?.instrument.id).toBe('wind.clarinet-a');
    expect(matchInstrumentName('Tromba (Do)')?.instrument.id).toBe('brass.trumpet-c');
    expect(matchInstrumentName('Clarinetti (Sib)')?.instrument.id).toBe('wind.clarinet-bflat');
  });

  it('keeps the instrument but lowers confidence for a key the table lacks', () => {
    expect(matchInstrumentName('Trumpet in G')).toEqual({ instrument: get('brass.trumpet-bflat'), confidence: 'medium' });
  });

  it('finds near misses with low confidence', () => {
    expect(matchInstrumentName('Violln')).toEqual({ instrument: get('strings.violin'), confidence: 'low' });
    expect(matchInstrumentName('Contrafag')).toEqual({ instrument: get('wind.contrabassoon'), confidence: 'low' });
    expect(matchInstrumentName('Piano Reduction')).toEqual({ instrument: get('keyboard.piano'), confidence: 'low' });
  });

  it('finds every entry by its own name', () => {
    for (const i of INSTRUMENTS) {
      expect(matchInstrumentName(i.name), i.name).toEqual({ instrument: i, confidence: 'high' });
    }
  });

  it('does not take tempo marks and other text for instruments', () => {
    for (const text of ['Allegro moderato', 'Andante con moto', 'Adagio', 'cresc.', 'D.C. al Fine', 'Menuetto', 'Coda', '', '   ', 'I', 'Solo']) {
      const match = matchInstrumentName(text);
      if (match) expect(match.confidence, text).toBe('low');
    }
    expect(matchInstrumentName('Allegro moderato')).toBeUndefined();
  });
});

describe('instrumentForProgram', () => {
  it('returns the natural instrument of a program', () => {
    expect(instrumentForProgram(0).id).toBe('keyboard.piano');
    expect(instrumentForProgram(40).id).toBe('strings.violin');
    expect(instrumentForProgram(71).id).toBe('wind.clarinet-bflat');
    expect(instrumentForProgram(56).id).toBe('brass.trumpet-bflat');
    expect(instrumentForProgram(52).id).toBe('choir.mixed');
    expect(instrumentForProgram(58).id).toBe('brass.tuba');
    expect(instrumentForProgram(60).id).toBe('brass.horn-f');
  });

  it('falls back to a family member or a generic entry', () => {
    expect(instrumentForProgram(1).id).toBe('keyboard.piano');
    expect(instrumentForProgram(59).id).toBe('brass.trumpet-bflat');
    expect(instrumentForProgram(81).id).toBe('synth.lead');
    expect(instrumentForProgram(127).id).toBe('synth.sound-effects');
  });

  it('returns a pitched entry for every program, with that program whenever the table has one', () => {
    const programs = new Set(INSTRUMENTS.filter((i) => !i.percussion).map((i) => i.midiProgram));
    for (let program = 0; program < 128; program++) {
      const instrument = instrumentForProgram(program);
      expect(instrument.percussion, String(program)).toBeUndefined();
      if (programs.has(program)) expect(instrument.midiProgram, String(program)).toBe(program);
    }
    // Stand-ins stay close: Tremolo Strings → strings, Slap Bass → bass guitar.
    expect(instrumentForProgram(44).id).toBe('strings.ensemble');
    expect(instrumentForProgram(36).id).toBe('plucked.bass-guitar');
    expect(instrumentForProgram(30).id).toBe('plucked.electric-guitar');
  });

  it('returns the drum set for channel-10 percussion', () => {
    const drums = instrumentForProgram(0, { percussion: true });
    expect(drums.id).toBe('percussion.drum-set');
    expect(drums.percussion).toBe(true);
    expect(instrumentForProgram(48, { percussion: true }).id).toBe('percussion.drum-set');
  });

  it('clamps programs out of range', () => {
    expect(instrumentForProgram(-3).id).toBe('keyboard.piano');
    expect(instrumentForProgram(200).id).toBe('synth.sound-effects');
  });
});
