/** Excerpts of a score (training/data/excerpt.ts): engraved anew, or pages of the source as printed. */
import { describe, expect, it } from 'vitest';
import type { Measure, Score } from '../../src/score/model.js';
import { excerpt } from '../../training/data/excerpt.js';

/** One part of four measures of a whole rest; the third starts a repeat. */
function source(): Score {
  const measure = (n: number): Measure => ({
    number: String(n),
    clefs: [],
    directions: [],
    voices: [{ id: '1', events: [{ kind: 'rest', duration: { n: 4, d: 1 }, dots: 0, staff: 1 }] }],
    ...(n === 3 ? { leftBarline: { style: 'heavy-light', repeat: { direction: 'forward' } } } : {}),
  });
  return {
    credits: {},
    partGroups: [],
    parts: [{ id: 'P1', name: 'Violin', instrumentId: 'strings.violin', midiProgram: 40, staves: 1, measures: [1, 2, 3, 4].map(measure) }],
  };
}

describe('an excerpt', () => {
  it('engraved anew ends with a final barline and drops a repeat begun at its start', () => {
    const [part] = excerpt(source(), { measures: [2, 3] }).parts;
    expect(part!.measures.map((m) => m.number)).toEqual(['3']);
    expect(part!.measures[0]!.leftBarline).toBeUndefined();
    expect(part!.measures[0]!.rightBarline).toEqual({ style: 'light-heavy' });
  });

  it("cut from printed pages keeps the source's barlines: a plain one where the music goes on, the repeat the page starts with", () => {
    const [part] = excerpt(source(), { measures: [2, 3], printed: true }).parts;
    expect(part!.measures[0]!.leftBarline).toEqual({ style: 'heavy-light', repeat: { direction: 'forward' } });
    expect(part!.measures[0]!.rightBarline).toBeUndefined();
  });
});
