/**
 * The accuracy evaluator must reward exactly what is right and nothing else:
 * each test below perturbs a known score and checks the metric moves by the
 * amount the perturbation deserves.
 */
import { describe, expect, it } from 'vitest';
import { align } from '../../bench/evaluate/align.js';
import { aggregate, evaluateScore, type ScoreMetrics } from '../../bench/evaluate/evaluate.js';
import { formatTable } from '../../bench/evaluate/report.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { frac, ZERO } from '../../src/score/fraction.js';
import type { ClefChange, Measure, NoteEvent, Score, VoiceEvent } from '../../src/score/model.js';
import { STEPS } from '../../src/score/pitch.js';
import { corpusFiles, readBytes } from '../support/corpus.js';
import { measure, note, numbered, part, rest, score } from '../support/score-builder.js';

const clef = (sign: 'G' | 'F', line: number, staff = 1, offset = ZERO): ClefChange => ({ sign, line, staff, offset });

/** A pitch name from a scale degree counted from C0, e.g. 30 → `E4`. */
const degree = (d: number) => `${STEPS[d % 7]}${Math.floor(d / 7)}`;

/**
 * A piano (two staves) and a violin, `length` measures of 4/4 in C. Per
 * measure: 5 notes on the right hand, a two-note chord and a note on the left
 * hand, 4 violin notes — 12 notes, in registers that never overlap.
 */
function piece(length = 8): Score {
  const piano = Array.from({ length }, (_, i): Measure =>
    measure(
      [
        [0, 1, 2, 3, 4].map((j) => note(degree(28 + ((i * 5 + j * 3) % 10)), j === 2 || j === 3 ? 'eighth' : 'quarter')),
        [note([degree(14 + (i % 4)), degree(18 + (i % 3))], 'half', { staff: 2 }), note(degree(14 + ((i * 3) % 7)), 'half', { staff: 2 })],
      ],
      i === 0 ? { key: { fifths: 0 }, time: { beats: 4, beatType: 4 }, clefs: [clef('G', 2, 1), clef('F', 4, 2)] } : {},
    ),
  );
  const violin = Array.from({ length }, (_, i): Measure =>
    measure(
      [0, 1, 2, 3].map((j) => note(degree(38 + ((i * 2 + j) % 6)), 'quarter')),
      i === 0 ? { key: { fifths: 0 }, time: { beats: 4, beatType: 4 }, clefs: [clef('G', 2)] } : {},
    ),
  );
  return score(
    part(numbered(piano), { staves: 2 }),
    part(numbered(violin), { id: 'P2', name: 'Violin', instrumentId: 'strings.violin', midiProgram: 40 }),
  );
}

const NOTES_PER_MEASURE = 12;

/** A deep copy with `edit` applied to every measure of every part. */
function editMeasures(source: Score, edit: (measures: Measure[]) => Measure[]): Score {
  const copy = structuredClone(source);
  for (const p of copy.parts) p.measures = edit(p.measures);
  return copy;
}

/** A deep copy with `edit` applied to each note event in order; returning null deletes the event. */
function editNotes(source: Score, edit: (event: NoteEvent, index: number) => VoiceEvent | null): Score {
  const copy = structuredClone(source);
  let index = 0;
  for (const p of copy.parts) {
    for (const m of p.measures) {
      for (const v of m.voices) {
        v.events = v.events.flatMap((e) => (e.kind === 'note' ? (edit(e, index++) ?? []) : [e]));
      }
    }
  }
  return copy;
}

function expectPerfect(metrics: ScoreMetrics): void {
  expect(metrics.notation.errorRate).toBe(0);
  for (const notes of [metrics.strict, metrics.loose, metrics.tieMerged]) {
    expect(notes).toMatchObject({ precision: 1, recall: 1, f1: 1 });
    expect(notes.matched).toBe(notes.truth);
  }
  expect(metrics.measures.error).toBe(0);
  expect([metrics.clef.accuracy, metrics.key.accuracy, metrics.time.accuracy]).toEqual([1, 1, 1]);
  expect([metrics.staves.accuracy, metrics.parts.accuracy]).toEqual([1, 1]);
}

describe('align', () => {
  /** Best total score by plain dynamic programming, to check the alignment against. */
  function optimum(a: number[], b: number[], score: (x: number, y: number) => number): number {
    let row = new Float64Array(b.length + 1);
    for (const x of a) {
      const next = new Float64Array(b.length + 1);
      for (let j = 1; j <= b.length; j++) {
        const s = score(x, b[j - 1]!);
        next[j] = Math.max(row[j]!, next[j - 1]!, s > 0 ? row[j - 1]! + s : 0);
      }
      row = next;
    }
    return row[b.length]!;
  }

  /** A seeded sequence over a small alphabet, so that many pairings compete. */
  function sequence(length: number, seed: number): number[] {
    let state = seed;
    return Array.from({ length }, () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % 5;
    });
  }

  const weighted = (x: number, y: number) => (x === y ? 2 + (x % 2) : 0);

  it.each([
    [0, 7],
    [1, 1],
    [9, 40],
    [300, 280],
    [2600, 2500], // beyond one direct block: exercises the divide and conquer
  ])('finds an optimal, ordered alignment of %i × %i items', (n, m) => {
    const a = sequence(n, n + 1);
    const b = sequence(m, m + 7);
    const pairs = align(a, b, weighted);
    for (const [k, [i, j]] of pairs.entries()) {
      expect(weighted(a[i]!, b[j]!)).toBeGreaterThan(0);
      if (k > 0) {
        expect(i).toBeGreaterThan(pairs[k - 1]![0]);
        expect(j).toBeGreaterThan(pairs[k - 1]![1]);
      }
    }
    expect(pairs.reduce((total, [i, j]) => total + weighted(a[i]!, b[j]!), 0)).toBe(optimum(a, b, weighted));
  });
});

describe('evaluateScore', () => {
  it('scores a score against itself as perfect', () => {
    const truth = piece();
    const metrics = evaluateScore(structuredClone(truth), truth);
    expectPerfect(metrics);
    expect(metrics.strict.truth).toBe(8 * NOTES_PER_MEASURE);
    expect(metrics.measures).toMatchObject({ predicted: 8, truth: 8, difference: 0 });
    expect(metrics.staves).toMatchObject({ predicted: 3, truth: 3 });
    expect(metrics.parts).toMatchObject({ predicted: 2, truth: 2 });
  });

  it('gives nothing to a score without parts', () => {
    const metrics = evaluateScore(score(), piece());
    expect(metrics.strict).toMatchObject({ matched: 0, predicted: 0, precision: 0, recall: 0, f1: 0 });
    expect(metrics.loose.f1).toBe(0);
    expect(metrics.measures.error).toBe(1);
    expect([metrics.clef.accuracy, metrics.key.accuracy, metrics.time.accuracy]).toEqual([0, 0, 0]);
    expect([metrics.staves.accuracy, metrics.parts.accuracy]).toEqual([0, 0]);
  });

  it('gives no note credit to parts that hold only rests', () => {
    const silent = editNotes(piece(), (e) => rest('quarter', { staff: e.staff }));
    const metrics = evaluateScore(silent, piece());
    expect(metrics.strict).toMatchObject({ matched: 0, predicted: 0, recall: 0, f1: 0 });
    expect(metrics.loose.f1).toBe(0);
    expect(metrics.measures.error).toBe(0);
  });

  it('scores wrong pitches, wrong durations and lost notes lower', () => {
    const truth = piece();
    const perturbed = editNotes(truth, (e, i) => {
      if (i % 11 === 5) return null;
      if (i % 7 === 3) return { ...e, notes: e.notes.map((n) => ({ ...n, pitch: { ...n.pitch, step: STEPS[(STEPS.indexOf(n.pitch.step) + 1) % 7]! } })) };
      if (i % 5 === 1) return { ...e, duration: frac(3, 2), type: 'quarter', dots: 1 };
      return e;
    });
    const metrics = evaluateScore(perturbed, truth);
    expect(metrics.loose.f1).toBeLessThan(1);
    expect(metrics.strict.f1).toBeLessThan(metrics.loose.f1);
    expect(metrics.strict.precision).toBeLessThan(1);
    expect(metrics.strict.recall).toBeLessThan(1);
  });

  it('counts a wrong duration against strict matching only', () => {
    let changed = 0;
    const perturbed = editNotes(piece(), (e, i) => {
      if (i % 4 !== 0) return e;
      changed += e.notes.length;
      return { ...e, duration: frac(4), type: 'whole' };
    });
    const metrics = evaluateScore(perturbed, piece());
    const total = 8 * NOTES_PER_MEASURE;
    expect(changed).toBeGreaterThan(0);
    expect(metrics.loose).toMatchObject({ matched: total, f1: 1 });
    expect(metrics.strict.matched).toBe(total - changed);
    expect(metrics.strict.f1).toBe((total - changed) / total);
  });

  it("loses only a missing measure's notes, not the notes after it", () => {
    const missing = editMeasures(piece(), (ms) => ms.filter((_, i) => i !== 3));
    const metrics = evaluateScore(missing, piece());
    const total = 8 * NOTES_PER_MEASURE;
    for (const notes of [metrics.strict, metrics.loose, metrics.tieMerged]) {
      expect(notes.recall).toBe((total - NOTES_PER_MEASURE) / total);
      expect(notes.precision).toBe(1);
    }
    expect(metrics.measures).toMatchObject({ predicted: 7, truth: 8, difference: 1, error: 1 / 8 });
  });

  it('charges an extra measure to precision only', () => {
    const extra = editMeasures(piece(), (ms) => [...ms.slice(0, 4), structuredClone(ms[2]!), ...ms.slice(4)]);
    const metrics = evaluateScore(extra, piece());
    const total = 8 * NOTES_PER_MEASURE;
    expect(metrics.strict.recall).toBe(1);
    expect(metrics.strict.precision).toBe(total / (total + NOTES_PER_MEASURE));
    expect(metrics.measures.error).toBe(1 / 8);
  });

  it('does not match notes read onto the wrong staff', () => {
    const swapped = structuredClone(piece());
    for (const m of swapped.parts[0]!.measures) {
      for (const v of m.voices) for (const e of v.events) e.staff = 3 - e.staff;
    }
    const metrics = evaluateScore(swapped, piece());
    // Only the violin, staff 3, still matches: the piano's staves trade places.
    expect(metrics.strict.matched).toBe(8 * 4);
    expect(metrics.strict.recall).toBe(4 / NOTES_PER_MEASURE);
    expect(metrics.staves.accuracy).toBe(1);
  });

  it('lowers key, clef and time accuracy for wrong signatures', () => {
    const truth = piece();
    const wrong = structuredClone(truth);
    const pianoStart = wrong.parts[0]!.measures[0]!;
    pianoStart.key = { fifths: 2 };
    pianoStart.clefs = [clef('G', 2, 1), clef('G', 2, 2)];
    wrong.parts[1]!.measures[0]!.time = { beats: 3, beatType: 4 };
    const metrics = evaluateScore(wrong, truth);
    expect(metrics.key).toMatchObject({ matched: 1, total: 2, accuracy: 1 / 2 });
    expect(metrics.clef).toMatchObject({ matched: 2, total: 3, accuracy: 2 / 3 });
    expect(metrics.time).toMatchObject({ matched: 1, total: 2, accuracy: 1 / 2 });
    expect(metrics.strict.f1).toBe(1);
  });

  it('penalises an invented clef change but not a restated clef', () => {
    const truth = piece();
    const restated = structuredClone(truth);
    restated.parts[0]!.measures[4]!.clefs = [clef('G', 2, 1)];
    expect(evaluateScore(restated, truth).clef.accuracy).toBe(1);
    const invented = structuredClone(truth);
    invented.parts[0]!.measures[4]!.clefs = [clef('F', 4, 1, frac(2))];
    expect(evaluateScore(invented, truth).clef).toMatchObject({ matched: 3, total: 4 });
  });
});

describe('aggregate', () => {
  it('micro-averages counts over documents of different sizes', () => {
    const large = evaluateScore(editMeasures(piece(8), (ms) => ms.slice(0, -1)), piece(8));
    const small = evaluateScore(piece(2), piece(2));
    const empty = evaluateScore(score(), piece(2));
    const all = aggregate([large, small, empty]);
    expect(all.documents).toBe(3);
    expect(all.strict).toMatchObject({ matched: 84 + 24, predicted: 84 + 24, truth: 96 + 24 + 24 });
    expect(all.strict.recall).toBe(108 / 144);
    expect(all.strict.precision).toBe(1);
    expect(all.strict.f1).toBe((2 * 108) / (108 + 144));
    expect(all.measures).toMatchObject({ difference: 1 + 0 + 2, truth: 8 + 2 + 2, error: 3 / 12 });
    expect(all.key).toMatchObject({ matched: 2 + 2, total: 2 + 2 + 2 });
    expect(all.parts).toMatchObject({ correct: 2, accuracy: 2 / 3 });
    expect(aggregate([all]).strict).toEqual(all.strict);
  });
});

describe('formatTable', () => {
  it('has a row for every category and for all of them', () => {
    const perfect = evaluateScore(piece(), piece());
    const poor = evaluateScore(score(), piece());
    const table = formatTable([
      { category: 'lieder', metrics: aggregate([perfect, perfect]), pages: 4, secondsPerPage: 1.5 },
      { category: 'orchestral', metrics: poor, pages: 6 },
    ]);
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^category +docs +pages +strict P +strict R +strict F1 +loose F1 +measure err +clef +key +time +staves +parts +s\/page$/);
    expect(lines.find((l) => l.startsWith('lieder'))).toMatch(/^lieder +2 +4 +1\.000 +1\.000 +1\.000 +1\.000 +0\.000 .* 1\.500$/);
    expect(lines.find((l) => l.startsWith('orchestral'))).toMatch(/^orchestral +1 +6( +0\.000){4} +1\.000( +0\.000){5} +-$/);
    expect(lines.at(-1)).toMatch(/^all +3 +10 +1\.000 +0\.667 +0\.800 .* 1\.500$/);
  });
});

describe('on real scores', () => {
  const truth = readMusicXml(readBytes(corpusFiles('lieder')[0]!));

  it('scores a corpus song against itself as perfect', () => {
    expectPerfect(evaluateScore(structuredClone(truth), truth));
  });

  it('loses recall but not precision when the last measures are cut', () => {
    const cut = editMeasures(truth, (ms) => ms.slice(0, -3));
    const metrics = evaluateScore(cut, truth);
    expect(metrics.strict.recall).toBeLessThan(1);
    expect(metrics.strict.precision).toBe(1);
    expect(metrics.measures.difference).toBe(3);
  });

  it('compares a large orchestral score with itself perfectly', () => {
    const orchestral = readMusicXml(readBytes(corpusFiles('orchestral')[0]!));
    expectPerfect(evaluateScore(structuredClone(orchestral), orchestral));
  }, 60_000);
});
