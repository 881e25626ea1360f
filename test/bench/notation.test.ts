/**
 * The notation metric must see what a musician reads: each test perturbs a
 * score the way a reader could go wrong and checks that the error rate and
 * the element counts move by exactly what that costs.
 */
import { describe, expect, it } from 'vitest';
import { evaluateScore } from '../../bench/evaluate/evaluate.js';
import { ELEMENT_CLASSES, evaluateNotation, precision, recall } from '../../bench/evaluate/notation.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { frac, ZERO } from '../../src/score/fraction.js';
import type { Measure, NoteEvent, Score } from '../../src/score/model.js';
import { corpusFiles, readBytes } from '../support/corpus.js';
import { direction, measure, note, numbered, part, rest, score } from '../support/score-builder.js';

/** Two measures of 4/4: a slurred, beamed, tied line with a dynamic, a hairpin, words and a fermata. */
function phrase(): Score {
  const e1 = note('E5', 'eighth');
  e1.beams = ['begin'];
  e1.slurs = [{ type: 'start', number: 1 }];
  e1.articulations = ['staccato'];
  const d1 = note('D5', 'eighth');
  d1.beams = ['end'];
  const c1 = note('C5', 'half', { tieStart: true });
  c1.slurs = [{ type: 'stop', number: 1 }];
  const first: Measure = measure([e1, d1, note('F5', 'quarter'), c1], {
    key: { fifths: 0 },
    time: { beats: 4, beatType: 4 },
    clefs: [{ sign: 'G', line: 2, staff: 1, offset: ZERO }],
    directions: [direction(ZERO, { dynamics: 'p' }), direction(ZERO, { words: 'dolce' }), direction(frac(1), { wedge: { type: 'crescendo', number: 1 } })],
  });
  const c2 = note('C5', 'half', { tieStop: true });
  c2.articulations = ['fermata'];
  const second: Measure = measure([c2, rest('half')], {
    directions: [direction(ZERO, { wedge: { type: 'stop', number: 1 } })],
    rightBarline: { style: 'light-heavy', repeat: { direction: 'backward' } },
  });
  return score(part(numbered([first, second])));
}

const clone = (s: Score): Score => structuredClone(s);
const events = (s: Score, m: number) => s.parts[0]!.measures[m]!.voices[0]!.events as NoteEvent[];

describe('notation error rate', () => {
  it('is 0 for a perfect reading and 100 % for an empty one or one that shares nothing', () => {
    const truth = phrase();
    expect(evaluateNotation(clone(truth), truth).metrics.errorRate).toBe(0);
    expect(evaluateNotation({ credits: {}, parts: [], partGroups: [] }, truth).metrics.errorRate).toBe(1);
    const unrelated = score(part([measure([], { key: { fifths: 3 }, clefs: [{ sign: 'F', line: 4, staff: 1, offset: ZERO }] })]));
    expect(evaluateNotation(unrelated, truth).metrics.errorRate).toBe(1);
  });

  it('charges a wrong pitch two symbols (one missing, one extra) over the symbols of both scores', () => {
    const truth = phrase();
    const read = clone(truth);
    events(read, 0)[2]!.notes[0]!.pitch = { step: 'G', alter: 0, octave: 5 };
    const { metrics, measures } = evaluateNotation(read, truth, true);
    expect(metrics.edits).toBe(2);
    expect(metrics.errorRate).toBeCloseTo(2 / metrics.symbols);
    expect(metrics.elements.notes.matched).toBe(metrics.elements.notes.truth - 1);
    expect(measures).toHaveLength(1);
    expect(measures[0]!.number).toBe('1');
    expect(measures[0]!.edits[0]).toMatch(/missing note:F5; read instead note:G5/);
  });

  it('sees a lost slur, tie, beam, dynamic, hairpin, words, fermata and repeat, each in its own class', () => {
    const truth = phrase();
    const read = clone(truth);
    delete events(read, 0)[0]!.slurs;
    delete events(read, 0)[3]!.slurs;
    delete events(read, 0)[3]!.notes[0]!.tieStart;
    delete events(read, 0)[0]!.beams;
    delete events(read, 0)[1]!.beams;
    delete events(read, 1)[0]!.articulations;
    read.parts[0]!.measures[0]!.directions = [];
    read.parts[0]!.measures[1]!.directions = [];
    delete read.parts[0]!.measures[1]!.rightBarline;
    const { metrics } = evaluateNotation(read, truth);
    const e = metrics.elements;
    for (const cls of ['slurs', 'ties', 'beams', 'fermatas', 'dynamics', 'hairpins', 'words', 'repeats'] as const) {
      expect(recall(e[cls]), cls).toBe(0);
      expect(e[cls].truth, cls).toBeGreaterThan(0);
    }
    expect(recall(e.articulations)).toBe(1);
    expect(recall(e.notes)).toBe(1);
    expect(metrics.errorRate).toBeGreaterThan(0.2);
  });

  it('counts invented symbols against precision, not recall', () => {
    const truth = phrase();
    const read = clone(truth);
    events(read, 0)[2]!.articulations = ['accent'];
    read.parts[0]!.measures[1]!.directions.push(direction(frac(2), { dynamics: 'ff' }));
    const { elements } = evaluateNotation(read, truth).metrics;
    expect(precision(elements.articulations)).toBe(0.5);
    expect(recall(elements.articulations)).toBe(1);
    expect(precision(elements.dynamics)).toBe(0.5);
  });

  it('reads what is printed, whichever element encodes it: a portato, a word set as a dynamic, a bowing', () => {
    const truth = phrase();
    events(truth, 0)[2]!.articulations = ['detached-legato'];
    events(truth, 0)[1]!.technical = ['down-bow'];
    truth.parts[0]!.measures[1]!.directions.push(direction(ZERO, { dynamics: 'più' }), direction(frac(2), { dynamics: 'sfz' }));
    const read = clone(truth);
    events(read, 0)[2]!.articulations = ['staccato', 'tenuto'];
    read.parts[0]!.measures[1]!.directions.splice(1, 1, direction(ZERO, { words: 'più' }));
    expect(evaluateNotation(read, truth).metrics.errorRate).toBe(0);
    delete events(read, 0)[1]!.technical;
    read.parts[0]!.measures[1]!.directions[2]!.dynamics = 'fz';
    const { elements } = evaluateNotation(read, truth).metrics;
    expect(elements.articulations.truth - elements.articulations.matched).toBe(1);
    expect(elements.dynamics.truth - elements.dynamics.matched).toBe(1);
    expect(elements.words.matched).toBe(elements.words.truth);
  });

  it('reads the directions at one place as one, however they are split: "p cantabile" as one direction or two', () => {
    const truth = phrase();
    truth.parts[0]!.measures[1]!.directions.push(direction(frac(1), { dynamics: 'p', words: 'cantabile' }));
    const read = clone(truth);
    read.parts[0]!.measures[1]!.directions.splice(-1, 1, direction(frac(1), { words: 'cantabile' }), direction(frac(1), { dynamics: 'p' }));
    expect(evaluateNotation(read, truth).metrics.errorRate).toBe(0);
    // At another place the words are a missing symbol and an extra one; the dynamic still counts.
    read.parts[0]!.measures[1]!.directions.at(-2)!.offset = frac(2);
    const { edits, elements } = evaluateNotation(read, truth).metrics;
    expect(edits).toBe(2);
    expect(elements.dynamics.matched).toBe(elements.dynamics.truth);
  });

  it('costs a missed measure its symbols without shifting the measures after it', () => {
    const truth = phrase();
    const long = clone(truth);
    long.parts[0]!.measures.push(...clone(truth).parts[0]!.measures.map((m, i) => ({ ...m, number: String(i + 3) })));
    const read = clone(long);
    read.parts[0]!.measures.splice(1, 1);
    const { metrics, measures } = evaluateNotation(read, long, true);
    const missing = measures.filter((m) => m.edits.includes('measure missing'));
    expect(missing.map((m) => m.number)).toEqual(['2']);
    // Only the missing measure costs (the key and time restated later are not counted as changes).
    expect(metrics.edits).toBeLessThan(metrics.symbols / 2);
  });

  it('does not judge voice labels, only which voice of the staff a stroke is in', () => {
    const truth = score(part([measure([[note('C5', 'half'), note('D5', 'half')], [note('C4', 'whole')]])]));
    const read = clone(truth);
    read.parts[0]!.measures[0]!.voices[0]!.id = '5';
    read.parts[0]!.measures[0]!.voices[1]!.id = '6';
    expect(evaluateNotation(read, truth).metrics.errorRate).toBe(0);
    const swapped = clone(truth);
    swapped.parts[0]!.measures[0]!.voices.reverse();
    const { metrics } = evaluateNotation(swapped, truth);
    expect(metrics.errorRate).toBeGreaterThan(0);
    expect(metrics.elements.voices.matched).toBeLessThan(metrics.elements.voices.truth);
  });

  it('reads a real movement against itself with no error, and every class it holds counted', () => {
    const file = corpusFiles('orchestral').find((f) => f.includes('Haydn,_Franz__Symphony_No.104__1'))!;
    const truth = readMusicXml(readBytes(file));
    const { metrics } = evaluateNotation(truth, truth);
    expect(metrics.errorRate).toBe(0);
    expect(metrics.symbols).toBeGreaterThan(10_000);
    for (const cls of ELEMENT_CLASSES) expect(metrics.elements[cls].matched, cls).toBe(metrics.elements[cls].truth);
  }, 60_000);
});

describe('note F1 with ties merged', () => {
  it('counts a tied pair as one note of their sum, and a tie never read as two wrong notes', () => {
    const truth = phrase();
    const perfect = evaluateScore(clone(truth), truth);
    expect(perfect.tieMerged.f1).toBe(1);
    expect(perfect.tieMerged.truth).toBe(perfect.strict.truth - 1);
    const read = clone(truth);
    delete events(read, 0)[3]!.notes[0]!.tieStart;
    delete events(read, 1)[0]!.notes[0]!.tieStop;
    const untied = evaluateScore(read, truth);
    // Per head, nothing changed; as heard, the whole note became two half notes.
    expect(untied.strict.f1).toBe(1);
    expect(untied.tieMerged.f1).toBeLessThan(1);
    expect(untied.tieMerged.matched).toBe(untied.tieMerged.truth - 1);
    expect(untied.tieMerged.predicted).toBe(untied.tieMerged.truth + 1);
  });
});
