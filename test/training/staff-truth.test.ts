import { describe, expect, it } from 'vitest';
import { placedNotes } from '../../src/score/timeline.js';
import { staffTruth } from '../../training/data/staff-truth.js';
import { measure, note, numbered, part, rest, score } from '../support/score-builder.js';

describe('staffTruth', () => {
  const piano = part(
    numbered([
      measure([[note('C5', 'half'), note('D5', 'half')], [note('C3', 'whole', { staff: 2 })]]),
      measure([[note('E5', 'whole')], [rest('half', { staff: 2 }), note('G3', 'half', { staff: 2 })]]),
      measure([[note('F5', 'whole')], [note('A2', 'whole', { staff: 2 })]]),
    ]),
    { staves: 2 },
  );
  const page = score(part(numbered([measure([note('C4', 'whole')]), measure([note('D4', 'whole')]), measure([note('E4', 'whole')])]), { id: 'P1', name: 'Voice' }), { ...piano, id: 'P2' });

  it('keeps one staff of one part over a system’s measures', () => {
    const lower = staffTruth(page, { part: 1, staffInPart: 2, measures: [1, 3] });
    expect(lower.parts).toHaveLength(1);
    expect(lower.parts[0]!.staves).toBe(1);
    const notes = [...placedNotes(lower)].map((n) => `${n.pitch.step}${n.pitch.octave}@${n.onset.n}/${n.onset.d}`);
    expect(notes).toEqual(['G3@2/1', 'A2@4/1']);
    const upper = staffTruth(page, { part: 1, staffInPart: 1, measures: [0, 1] });
    expect([...placedNotes(upper)].map((n) => `${n.pitch.step}${n.pitch.octave}`)).toEqual(['C5', 'D5']);
  });
});
