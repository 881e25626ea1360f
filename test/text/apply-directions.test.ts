/** Words and dynamics found among the dynamics pixels, applied to the notes they stand under (apply-text.ts). */
import { describe, expect, it } from 'vitest';
import type { Score } from '../../src/score/model.js';
import type { Staff } from '../../src/staves/detect-staves.js';
import { applyText, jumpOf, partNameText } from '../../src/text/apply-text.js';
import type { PageText, ReadLine } from '../../src/text/page-text.js';

const SPACE = 12;
const STAFF: Staff = { xs: [0, 1000], lines: [0, 1, 2, 3, 4].map((l) => [100 + l * SPACE, 100 + l * SPACE]), x0: 0, x1: 1000, space: SPACE };

/** One part, one measure, one quarter note on the staff at x 200, read from page 0 at the prepared scale. */
function score(): Score {
  const evidence = { page: 0, box: { x: 200, y: 118, width: 14, height: 12 }, confidence: 1 };
  return {
    credits: {},
    partGroups: [],
    parts: [{
      id: 'P1', name: '', instrumentId: 'strings.violin', midiProgram: 40, staves: 1,
      measures: [{
        number: '1', clefs: [], directions: [], evidence: { ...evidence, box: { x: 0, y: 100, width: 1000, height: 48 } },
        voices: [{ id: '1', events: [{ kind: 'note', duration: { n: 1, d: 1 }, type: 'quarter', dots: 0, staff: 1, notes: [{ pitch: { step: 'B', alter: 0, octave: 4 }, evidence }], lyrics: [], evidence }] }],
      }],
    }],
  };
}

/** A dynamics line read as `text`, under the staff at the note. */
function markLine(text: string): ReadLine {
  const box = { x0: 196, y0: 172, x1: 236, y1: 184 };
  return { kind: 'dynamics', size: 12, spans: [[box.x0, box.x1]], ...box, text, words: [{ text, confidence: 90, ...box, symbols: [] }], staff: 0 };
}

function page(lines: ReadLine[]): PageText {
  return { page: 0, transform: { sourceWidth: 1000, sourceHeight: 1000, scale: 1, skew: 0, width: 1000, height: 1000 }, staves: [STAFF], lines };
}

describe('directions from the dynamics pixels', () => {
  it('takes a dynamic where the letters spell one', () => {
    const s = score();
    applyText(s, [page([markLine('mf')])]);
    expect(s.parts[0]!.measures[0]!.directions).toMatchObject([{ dynamics: 'mf', placement: 'below' }]);
  });

  it('takes an italic word painted as dynamics as expression words', () => {
    const s = score();
    applyText(s, [page([markLine('cresc.')])]);
    expect(s.parts[0]!.measures[0]!.directions).toMatchObject([{ words: 'cresc.' }]);
    expect(s.parts[0]!.measures[0]!.directions[0]!.dynamics).toBeUndefined();
  });

  it('splits a dynamic off the words the OCR read with it, printed apart or run together', () => {
    const s = score();
    const box = { x0: 196, y0: 172, x1: 260, y1: 184 };
    const word = (text: string, x0: number, x1: number) => ({ text, confidence: 90, x0, y0: 172, x1, y1: 184, symbols: [...text].map((c, k) => ({ text: c, x0: x0 + ((x1 - x0) * k) / text.length, x1: x0 + ((x1 - x0) * (k + 1)) / text.length })) });
    const apart: ReadLine = { ...markLine('mf dim.'), ...box, words: [word('mf', 196, 212), word('dim.', 220, 260)] };
    applyText(s, [page([apart])]);
    expect(s.parts[0]!.measures[0]!.directions.map((d) => [d.dynamics, d.words])).toEqual([['mf', undefined], [undefined, 'dim.']]);
    const glued = score();
    const run: ReadLine = { ...markLine('ppcresc.'), kind: 'expression', ...box, words: [word('ppcresc.', 196, 260)] };
    applyText(glued, [page([run])]);
    expect(glued.parts[0]!.measures[0]!.directions.map((d) => [d.dynamics, d.words])).toEqual([['pp', undefined], [undefined, 'cresc.']]);
    // A dynamic run into the end of a word of the lexicon ("poco f" read as "pocof").
    const after = score();
    applyText(after, [page([{ ...run, text: 'pocof', words: [word('pocof', 196, 260)] }])]);
    expect(after.parts[0]!.measures[0]!.directions.map((d) => [d.dynamics, d.words])).toEqual([[undefined, 'poco'], ['f', undefined]]);
    // A word of the lexicon that starts with a dynamic's letter stays whole.
    const pizz = score();
    applyText(pizz, [page([{ ...run, text: 'pizz.', words: [word('pizz.', 196, 240)] }])]);
    expect(pizz.parts[0]!.measures[0]!.directions.map((d) => [d.dynamics, d.words])).toEqual([[undefined, 'pizz.']]);
  });

  it('drops words with no word of three letters (a wavy line read as "vv"), and keeps "a tempo" and "ten."', () => {
    const read = (text: string) => {
      const s = score();
      applyText(s, [page([{ ...markLine(text), kind: 'expression' }])]);
      return s.parts[0]!.measures[0]!.directions.map((d) => d.words);
    };
    expect([read('vv'), read('so rm')]).toEqual([[], []]);
    expect([read('a tempo'), read('ten.')]).toEqual([['a tempo'], ['ten.']]);
  });

  it('takes a word of two letters alone among the words that spells a dynamic for one', () => {
    const s = score();
    applyText(s, [page([{ ...markLine('rf'), kind: 'expression' }])]);
    expect(s.parts[0]!.measures[0]!.directions).toMatchObject([{ dynamics: 'rf' }]);
  });

  it('leaves out a mark misread as two letters', () => {
    const s = score();
    applyText(s, [page([markLine('If')])]);
    expect(s.parts[0]!.measures[0]!.directions).toEqual([]);
  });
});

describe("a movement's heading", () => {
  it('goes at the start of the first measure of the system under it, however far above the staff', () => {
    const s = score();
    const box = { x0: 420, y0: 20 - SPACE * 10, x1: 600, y1: 40 - SPACE * 10 };
    const heading: ReadLine = { kind: 'heading', size: 20, spans: [[box.x0, box.x1]], ...box, text: 'II.  Menuetto', words: [{ text: 'II.', confidence: 90, ...box, symbols: [] }], staff: 0 };
    applyText(s, [page([heading])]);
    expect(s.parts[0]!.measures[0]!.directions).toMatchObject([{ words: 'II. Menuetto', offset: { n: 0 }, placement: 'above' }]);
  });
});

describe('a metronome mark read apart from its tempo words', () => {
  /** A tempo line over the staff from x `x0` to `x1`, read as `text`. */
  function tempoLine(text: string, x0: number, x1: number, beat?: ReadLine['beat']): ReadLine {
    const box = { x0, y0: 60, x1, y1: 74 };
    return { kind: 'tempo', size: 14, spans: [[x0, x1]], ...box, text, words: [{ text, confidence: 90, ...box, symbols: [] }], staff: 0, ...(beat ? { beat } : {}) };
  }

  it('goes with the words, at their note, with the note its ink shows and the tempo in quarters', () => {
    const s = score();
    applyText(s, [page([tempoLine('Allegro moderato', 196, 300), tempoLine('= 76', 330, 372, { unit: 'half', dots: 0 })])]);
    expect(s.parts[0]!.measures[0]!.directions).toMatchObject([{ words: 'Allegro moderato', metronome: { beatUnit: 'half', dots: 0, perMinute: 76 }, tempo: 152, placement: 'above' }]);
  });

  it('stays apart from words too far before it', () => {
    const s = score();
    const evidence = { page: 0, box: { x: 400, y: 118, width: 14, height: 12 }, confidence: 1 };
    s.parts[0]!.measures[0]!.voices[0]!.events.push({ kind: 'note', duration: { n: 1, d: 1 }, type: 'quarter', dots: 0, staff: 1, notes: [{ pitch: { step: 'C', alter: 0, octave: 5 }, evidence }], lyrics: [], evidence });
    applyText(s, [page([tempoLine('Allegro moderato', 196, 300), tempoLine('= 76', 396, 438)])]);
    expect(s.parts[0]!.measures[0]!.directions.map((d) => [d.words, d.metronome?.perMinute])).toEqual([['Allegro moderato', undefined], [undefined, 76]]);
  });
});

describe('one row of words under a staff', () => {
  /** An expression line under the staff holding `words`, each [text, x0, x1]. */
  function wordsLine(words: [string, number, number][]): ReadLine {
    const [y0, y1] = [172, 184];
    const read = words.map(([text, x0, x1]) => ({ text, confidence: 90, x0, y0, x1, y1, symbols: [] }));
    return { kind: 'expression', size: 12, spans: words.map(([, x0, x1]) => [x0, x1]), x0: words[0]![1], y0, x1: words[words.length - 1]![2], y1, text: words.map((w) => w[0]).join(' '), words: read, staff: 0 };
  }

  it('is one direction where its words stand a word space apart, and one per run where a wide gap parts them', () => {
    const s = score();
    const evidence = { page: 0, box: { x: 600, y: 118, width: 14, height: 12 }, confidence: 1 };
    s.parts[0]!.measures[0]!.voices[0]!.events.push({ kind: 'note', duration: { n: 1, d: 1 }, type: 'quarter', dots: 0, staff: 1, notes: [{ pitch: { step: 'C', alter: 0, octave: 5 }, evidence }], lyrics: [], evidence });
    applyText(s, [page([wordsLine([['sempre', 196, 250], ['stacc.', 256, 300], ['cresc.', 598, 640]])])]);
    expect(s.parts[0]!.measures[0]!.directions.map((d) => [d.words, d.offset.n / d.offset.d])).toEqual([['sempre stacc.', 0], ['cresc.', 1]]);
  });

  it('parts a dynamic printed before or after the words from them', () => {
    const s = score();
    applyText(s, [page([wordsLine([['p', 196, 204], ['molto', 208, 220], ['dolce', 224, 236], ['sf', 240, 248]])])]);
    expect(s.parts[0]!.measures[0]!.directions.map((d) => d.dynamics ?? d.words)).toEqual(['p', 'molto dolce', 'sf']);
  });
});

describe('a hairpin drawn on from a dynamic', () => {
  /** The one-note score with a second quarter note at x 300, and a diminuendo read from x `x0`, started at the second note. */
  function withHairpin(x0: number): Score {
    const s = score();
    const measure = s.parts[0]!.measures[0]!;
    const evidence = { page: 0, box: { x: 300, y: 118, width: 14, height: 12 }, confidence: 1 };
    measure.voices[0]!.events.push({ kind: 'note', duration: { n: 1, d: 1 }, type: 'quarter', dots: 0, staff: 1, notes: [{ pitch: { step: 'C', alter: 0, octave: 5 }, evidence }], lyrics: [], evidence });
    const box = { x: x0, y: 172, width: 80, height: 12 };
    measure.directions.push({ offset: { n: 1, d: 1 }, staff: 1, placement: 'below', wedge: { type: 'diminuendo', number: 1 }, evidence: { page: 0, box, confidence: 1 } });
    return s;
  }
  const wedgeOffset = (s: Score) => s.parts[0]!.measures[0]!.directions.find((d) => d.wedge)!.offset;

  it("starts at the dynamic's note when it opens just after the letters", () => {
    const s = withHairpin(246); // the fz ends at 236: 10 px (under a space) on
    applyText(s, [page([markLine('fz')])]);
    expect(wedgeOffset(s)).toEqual({ n: 0, d: 1 });
  });

  it('keeps its own start when it opens well clear of the dynamic', () => {
    const s = withHairpin(290);
    applyText(s, [page([markLine('fz')])]);
    expect(wedgeOffset(s)).toEqual({ n: 1, d: 1 });
  });
});

describe('pedal marks', () => {
  const LOWER: Staff = { ...STAFF, lines: [0, 1, 2, 3, 4].map((l) => [200 + l * SPACE, 200 + l * SPACE]) };
  /** A pedal line read as `pedal` at x 196, with its top at `y`, found for page staff `staff`. */
  function pedalLine(pedal: 'start' | 'stop', y: number, staff: number): ReadLine {
    const box = { x0: 196, y0: y, x1: 230, y1: y + 14 };
    return { kind: 'pedal', size: 14, spans: [[box.x0, box.x1]], ...box, text: pedal, words: [{ text: pedal, confidence: 95, ...box, symbols: [] }], staff };
  }
  /** One piano part: a quarter note on each of its two staves at x 200. */
  function piano(): Score {
    const s = score();
    const part = s.parts[0]!;
    part.staves = 2;
    const measure = part.measures[0]!;
    const evidence = { page: 0, box: { x: 200, y: 218, width: 14, height: 12 }, confidence: 1 };
    measure.voices.push({ id: '5', events: [{ kind: 'note', duration: { n: 1, d: 1 }, type: 'quarter', dots: 0, staff: 2, notes: [{ pitch: { step: 'D', alter: 0, octave: 3 }, evidence }], lyrics: [], evidence }] });
    return s;
  }

  it("goes with a piano's lower staff from between its two staves, below", () => {
    const s = piano();
    applyText(s, [{ ...page([pedalLine('start', 165, 0)]), staves: [STAFF, LOWER] }]);
    expect(s.parts[0]!.measures[0]!.directions).toMatchObject([{ pedal: 'start', staff: 2, placement: 'below' }]);
  });

  it('stays with a lone staff, below it', () => {
    const s = score();
    applyText(s, [page([pedalLine('stop', 165, 0)])]);
    expect(s.parts[0]!.measures[0]!.directions).toMatchObject([{ pedal: 'stop', staff: 1, placement: 'below' }]);
  });
});

describe('measure numbers from the page', () => {
  /** Three one-measure systems of one staff each, at y 100, 300 and 500, whose first events stand at x 200. */
  function systems(tops: readonly number[] = [100, 300, 500]): { score: Score; staves: Staff[] } {
    const staves = tops.map((y): Staff => ({ ...STAFF, lines: [0, 1, 2, 3, 4].map((l) => [y + l * SPACE, y + l * SPACE]) }));
    const s = score();
    const part = s.parts[0]!;
    const first = part.measures[0]!;
    part.measures = staves.map((staff, k) => {
      const y = staff.lines[2]![0]! - 6;
      const evidence = { page: 0, box: { x: 200, y, width: 14, height: 12 }, confidence: 1 };
      const event = { ...first.voices[0]!.events[0]!, evidence, ...(first.voices[0]!.events[0]!.kind === 'note' ? { notes: [{ pitch: { step: 'B' as const, alter: 0, octave: 4 }, evidence }] } : {}) };
      return { ...first, number: String(k + 1), directions: [], evidence: { ...evidence, box: { x: 0, y: staff.lines[0]![0]!, width: 1000, height: 48 } }, voices: [{ id: '1', events: [event] }] };
    });
    return { score: s, staves };
  }
  /** A measure number read as `text` over the start of the system whose staff is `staff`. */
  const numberLine = (text: string, staff: number, staves: Staff[]): ReadLine => {
    const box = { x0: 2, y0: staves[staff]!.lines[0]![0]! - 30, x1: 20, y1: staves[staff]!.lines[0]![0]! - 18 };
    return { kind: 'measureNumber', size: 12, spans: [[box.x0, box.x1]], ...box, text, words: [{ text, confidence: 90, ...box, symbols: [] }], staff };
  };
  const pageOf = (staves: Staff[], lines: ReadLine[]): PageText => ({ ...page(lines), staves });

  it('numbers the measures from the numbers printed over the systems', () => {
    const { score: s, staves } = systems();
    applyText(s, [pageOf(staves, [numberLine('54', 1, staves), numberLine('55', 2, staves)])]);
    expect(s.parts[0]!.measures.map((m) => m.number)).toEqual(['53', '54', '55']);
  });

  /** Expression words the text stage gave the first staff, a letter high, their top at y0. */
  const underFirstStaff = (text: string, x0: number, y0 = 196): ReadLine => {
    const box = { x0, y0, x1: x0 + 40, y1: y0 + 12 };
    return { kind: 'expression', size: 12, spans: [[box.x0, box.x1]], ...box, text, words: [{ text, confidence: 90, ...box, symbols: [] }], staff: 0 };
  };

  it('gives a string technique word between two staves to the lower one, which it stands over, and an expression word to the upper one', () => {
    const { score: s, staves } = systems([100, 220, 500]);
    // Half a space over the second staff (top line at 220), four spaces under the first (bottom line at 148).
    applyText(s, [pageOf(staves, [underFirstStaff('arco', 196), underFirstStaff('cresc.', 196)])]);
    const [first, second] = s.parts[0]!.measures;
    expect(first!.directions.map((d) => d.words)).toEqual(['cresc.']);
    expect(second!.directions).toMatchObject([{ words: 'arco', placement: 'above' }]);
  });

  it('keeps a technique word far under the upper staff that stands just over the lower one, and drops an expression word there', () => {
    const { score: s, staves } = systems([100, 300, 500]);
    // Eleven spaces under the first staff (bottom line at 148), under a space over the second (top line at 300).
    applyText(s, [pageOf(staves, [underFirstStaff('pizz.', 196, 280), underFirstStaff('dolce', 196, 280)])]);
    const [first, second] = s.parts[0]!.measures;
    expect(first!.directions).toEqual([]);
    expect(second!.directions).toMatchObject([{ words: 'pizz.', placement: 'above' }]);
  });

  it('follows the printed numbers past a measure the reading lost, from the system that shows it', () => {
    const { score: s, staves } = systems([100, 300, 500, 700, 900]);
    applyText(s, [pageOf(staves, [numberLine('55', 1, staves), numberLine('57', 2, staves), numberLine('58', 3, staves), numberLine('59', 4, staves)])]);
    expect(s.parts[0]!.measures.map((m) => m.number)).toEqual(['54', '55', '57', '58', '59']);
  });

  it('takes no lone printed number that moves the count by more than a measure', () => {
    const { score: s, staves } = systems([100, 300, 500, 700, 900]);
    applyText(s, [pageOf(staves, [numberLine('55', 1, staves), numberLine('56', 2, staves), numberLine('87', 3, staves), numberLine('58', 4, staves)])]);
    expect(s.parts[0]!.measures.map((m) => m.number)).toEqual(['54', '55', '56', '57', '58']);
  });

  it('keeps its own numbers where the printed ones disagree, or one of several is misread', () => {
    const { score: s, staves } = systems();
    applyText(s, [pageOf(staves, [numberLine('54', 1, staves), numberLine('85', 2, staves)])]);
    expect(s.parts[0]!.measures.map((m) => m.number)).toEqual(['1', '2', '3']);
  });
});

describe('rehearsal marks', () => {
  it('puts a framed letter over the staff on the note it stands over, in capitals', () => {
    const s = score();
    const box = { x0: 198, y0: 70, x1: 210, y1: 88 };
    const line: ReadLine = { kind: 'rehearsal', size: 18, spans: [[box.x0, box.x1]], ...box, text: 'c', words: [{ text: 'c', confidence: 80, ...box, symbols: [] }], staff: 0 };
    applyText(s, [page([line])]);
    expect(s.parts[0]!.measures[0]!.directions).toMatchObject([{ rehearsal: 'C', placement: 'above' }]);
  });
});

describe('da capo and fine', () => {
  it('tells playback where a D.C. sends it and where Fine ends it, from the words', () => {
    expect(jumpOf('D.C. al Fine')).toBe('daCapo');
    expect(jumpOf('Menuetto D. C.')).toBe('daCapo');
    expect(jumpOf('M.D.C.')).toBe('daCapo');
    expect(jumpOf('Menuetto da capo')).toBe('daCapo');
    expect(jumpOf('Fine')).toBe('fine');
    expect(jumpOf('dolce')).toBeUndefined();
    expect(jumpOf('finezza')).toBeUndefined();
    const s = score();
    const box = { x0: 196, y0: 60, x1: 280, y1: 72 };
    applyText(s, [page([{ kind: 'expression', size: 12, spans: [[box.x0, box.x1]], ...box, text: 'D.C. al Fine', words: [{ text: 'D.C. al Fine', confidence: 90, ...box, symbols: [] }], staff: 0 }])]);
    expect(s.parts[0]!.measures[0]!.directions).toMatchObject([{ words: 'D.C. al Fine', jump: 'daCapo' }]);
  });
});

describe('endings numbered as printed', () => {
  /** The one measure starting an ending numbered `number` and stopping it, a line of `words` over the staff. */
  const read = (number: string, words: string[]) => {
    const s = score();
    const measure = s.parts[0]!.measures[0]!;
    measure.leftBarline = { style: 'regular', ending: { number, type: 'start' } };
    measure.rightBarline = { style: 'light-heavy', repeat: { direction: 'backward' }, ending: { number, type: 'stop' } };
    let x = 180;
    const boxes = words.map((text) => ({ text, confidence: 90, x0: (x += 30) - 30, y0: 60, x1: x - 10, y1: 72, symbols: [] }));
    applyText(s, [page([{ kind: 'tempo', size: 12, spans: boxes.map((b): [number, number] => [b.x0, b.x1]), x0: 180, y0: 60, x1: x, y1: 72, text: words.join(' '), words: boxes, staff: 0 }])]);
    return [measure.leftBarline.ending?.number, measure.rightBarline.ending?.number, measure.directions.map((d) => d.words)];
  };

  it('takes the number printed under a bracket\'s start for its ending, and leaves it out of the words beside it', () => {
    expect(read('1', ['3.', 'Majeur'])).toEqual(['3', '3', ['Majeur']]);
    expect(read('2', ['2.'])).toEqual(['2', '2', []]);
  });

  it('takes no number without its period (a tuplet\'s "3")', () => {
    expect(read('1', ['3'])).toEqual(['1', '1', []]);
  });
});

describe('part names', () => {
  it('reads a lone bar ending a name as the serif "1" it was printed as, and leaves other bars alone', () => {
    expect(partNameText('Flute |')).toBe('Flute 1');
    expect(partNameText('Vl. |')).toBe('Vl. 1');
    expect(partNameText('Violin 2')).toBe('Violin 2');
    expect(partNameText('| Cello')).toBe('| Cello');
  });

  /** A line left of the staff, read as `text`, placed as `kind`. */
  const nameLine = (kind: 'partName' | 'abbreviation', text: string): ReadLine => {
    const box = { x0: -80, y0: 118, x1: -10, y1: 130 };
    return { kind, size: 12, spans: [[box.x0, box.x1]], ...box, text, words: [{ text, confidence: 90, ...box, symbols: [] }], staff: 0 };
  };
  const midPage = (line: ReadLine, n: number): PageText => ({ ...page([line]), page: n });

  it('names a part no name was read for by the instrument its abbreviation stands for, numbered as printed', () => {
    const s = score();
    s.parts[0]!.name = 'Staff 1';
    s.parts[0]!.instrumentId = 'keyboard.piano';
    applyText(s, [midPage(nameLine('abbreviation', 'Vla. 2'), 0), midPage(nameLine('abbreviation', 'Vc.'), 1)]);
    expect(s.parts[0]).toMatchObject({ name: 'Viola 2', abbreviation: 'Vla. 2', instrumentId: 'strings.viola', midiProgram: 41 });
    // A name read first stays; an abbreviation that matches nothing names nothing.
    const t = score();
    applyText(t, [page([nameLine('partName', 'Violino I')]), midPage(nameLine('abbreviation', 'Vla.'), 1)]);
    expect(t.parts[0]).toMatchObject({ name: 'Violino I', instrumentId: 'strings.violin' });
    const u = score();
    u.parts[0]!.name = 'Staff 1';
    applyText(u, [page([nameLine('abbreviation', 'Xyzzq.')])]);
    expect(u.parts[0]!.name).toBe('Staff 1');
  });
});

describe('where words go in their measure', () => {
  const STAFF2: Staff = { ...STAFF, lines: [0, 1, 2, 3, 4].map((l) => [250 + l * SPACE, 250 + l * SPACE]) };
  const at = (x: number, y: number) => ({ page: 0, box: { x, y, width: 14, height: 12 }, confidence: 1 });
  const note = (x: number, y: number, quarters: number) => ({ kind: 'note' as const, duration: { n: quarters, d: 1 }, type: quarters === 2 ? ('half' as const) : ('quarter' as const), dots: 0, staff: 1, notes: [{ pitch: { step: 'B' as const, alter: 0, octave: 4 }, evidence: at(x, y) }], lyrics: [], evidence: at(x, y) });
  /** Two parts, measures from x 100 to 600 and 600 to 1000: a half note and a quarter over two quarters and a half, and a note after the barline. */
  function twoParts(): Score {
    const part = (id: string, y: number, events: ReturnType<typeof note>[], next: ReturnType<typeof note>[]) => ({
      id, name: '', instrumentId: 'strings.violin', midiProgram: 40, staves: 1,
      measures: [
        { number: '1', clefs: [], directions: [], evidence: { page: 0, box: { x: 100, y: y - 18, width: 500, height: 48 }, confidence: 1 }, voices: [{ id: '1', events }] },
        { number: '2', clefs: [], directions: [], evidence: { page: 0, box: { x: 600, y: y - 18, width: 400, height: 48 }, confidence: 1 }, voices: [{ id: '1', events: next }] },
      ],
    });
    return { credits: {}, partGroups: [], parts: [part('P1', 118, [note(200, 118, 2), note(400, 118, 1)], [note(640, 118, 1)]), part('P2', 268, [note(200, 268, 1), note(300, 268, 1), note(400, 268, 2)], [note(640, 268, 1)])] };
  }
  const wordsLine = (text: string, x0: number, x1: number, staff = 0): ReadLine => {
    const box = { x0, y0: 172, x1, y1: 184 };
    return { kind: 'expression', size: 12, spans: [[x0, x1]], ...box, text, words: [{ text, confidence: 90, ...box, symbols: [] }], staff };
  };
  const dynamic = (text: string, x0: number, x1: number): ReadLine => ({ ...wordsLine(text, x0, x1), kind: 'dynamics' });
  const twoStaves = (lines: ReadLine[]): PageText => ({ ...page(lines), staves: [STAFF, STAFF2] });
  const placed = (s: Score) => s.parts[0]!.measures.map((m) => m.directions.map((d) => [d.words ?? d.dynamics, d.offset.n / d.offset.d]));
  /** Where the directions of `lines` go in two fresh parts: per measure, each one's words or dynamic and onset. */
  const placedFrom = (lines: ReadLine[]) => {
    const s = twoParts();
    applyText(s, [twoStaves(lines)]);
    return placed(s);
  };

  it('go under a held note where another staff\'s note starts under them', () => {
    expect(placedFrom([wordsLine('dim.', 298, 330)])).toEqual([[['dim.', 1]], []]);
  });

  it('go to the note they start at, not the one just after, and stay in the measure they start in', () => {
    expect(placedFrom([wordsLine('dolce', 196, 240), wordsLine('loco', 604, 640)])).toEqual([[['dolce', 0]], [['loco', 0]]]);
  });

  it('for a barline ("Fine", "Menuetto da capo", "D.S."), stand at the end of the measure they end past its last note in', () => {
    expect(placedFrom([wordsLine('Fine', 540, 590), wordsLine('D.S. al Coda', 900, 990)])).toEqual([[['Fine', 3]], [['D.S. al Coda', 1]]]);
    // Under a note, such words are that note's.
    expect(placedFrom([wordsLine('Fine', 196, 230)])).toEqual([[['Fine', 0]], []]);
  });

  it('in parentheses over a system\'s first measure ("(cresc.)"), carry on from the system before and are no new direction', () => {
    expect(placedFrom([wordsLine('(cresc.)', 196, 250), wordsLine('(dim.)', 636, 680)])).toEqual([[], [['(dim.)', 0]]]);
  });

  it('set on from a dynamic, go to its note', () => {
    expect(placedFrom([dynamic('p', 196, 208), wordsLine('dim.', 226, 300)])).toEqual([[['p', 0], ['dim.', 0]], []]);
    expect(placedFrom([dynamic('p', 196, 208), wordsLine('dim.', 296, 340)])).toEqual([[['p', 0], ['dim.', 1]], []]);
  });

  it('print a dynamic set on from them a word\'s space apart ("più f") with them, at their note; one further on ("cresc. sf") is its own', () => {
    expect(placedFrom([wordsLine('più', 196, 230), dynamic('f', 232, 250)])).toEqual([[['più', 0], ['f', 0]], []]);
    expect(placedFrom([wordsLine('cresc.', 196, 250), dynamic('sf', 266, 290)])).toEqual([[['cresc.', 0], ['sf', 2]], []]);
  });
});

describe('where a dynamic goes', () => {
  it('goes to the note it is centred under, of the first at its start and the next', () => {
    const evidence = (x: number) => ({ page: 0, box: { x, y: 118, width: 17, height: 12 }, confidence: 1 });
    const s = score();
    s.parts[0]!.measures[0]!.voices[0]!.events = [300, 340, 358, 394].map((x) => ({ kind: 'note' as const, duration: { n: 1, d: 4 }, type: '16th' as const, dots: 0, staff: 1, notes: [{ pitch: { step: 'B' as const, alter: 0, octave: 4 }, evidence: evidence(x) }], lyrics: [], evidence: evidence(x) }));
    const box = { x0: 344, y0: 172, x1: 381, y1: 184 };
    applyText(s, [page([{ kind: 'dynamics', size: 12, spans: [[box.x0, box.x1]], ...box, text: 'fp', words: [{ text: 'fp', confidence: 90, ...box, symbols: [] }], staff: 0 }])]);
    expect(s.parts[0]!.measures[0]!.directions.map((d) => [d.dynamics, d.offset])).toEqual([['fp', { n: 1, d: 2 }]]);
  });
});
