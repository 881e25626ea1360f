import { describe, expect, it } from 'vitest';
import type { NoteEvent } from '../../src/score/model.js';
import { MARK_KINDS, markFamily } from '../../src/reading/mark-kinds.js';
import { createRng } from '../../training/data/prng.js';
import { generateRandomScore } from '../../training/data/random-score.js';
import { decorateMarks, decorateTremolos } from '../../training/data/random-marks.js';

function notes(seed: number): NoteEvent[] {
  const score = generateRandomScore(seed, { staves: 2, measures: 12 });
  decorateMarks(score, createRng(seed), 0.5);
  return score.parts.flatMap((p) => p.measures.flatMap((m) => m.voices.flatMap((v) => v.events.filter((e): e is NoteEvent => e.kind === 'note'))));
}

describe('decorateMarks', () => {
  it('puts every mark kind on notes, each in its family’s list, never on grace or cue notes', () => {
    const all = [1, 2, 3, 4, 5].flatMap(notes);
    const seen = new Set<string>();
    for (const e of all) {
      for (const a of e.articulations ?? []) expect(markFamily(a as never)).toBe('articulation');
      for (const o of e.ornaments ?? []) expect(markFamily(o as never)).toBe('ornament');
      for (const t of e.technical ?? []) expect(markFamily(t as never)).toBe('technical');
      const marks = [...(e.articulations ?? []), ...(e.ornaments ?? []), ...(e.technical ?? [])];
      if (e.grace || e.cue) expect(marks).toEqual([]);
      marks.forEach((m) => seen.add(m));
    }
    expect([...seen].sort()).toEqual([...MARK_KINDS].sort());
  });

  it('is a pure function of its seed', () => {
    expect(notes(7)).toEqual(notes(7));
  });
});

describe('decorateTremolos', () => {
  it('gives a share of the notes one to three single-note tremolo strokes, never grace or cue notes', () => {
    const score = generateRandomScore(3, { staves: 2, measures: 12 });
    decorateTremolos(score, createRng(3), 0.3);
    const all = score.parts.flatMap((p) => p.measures.flatMap((m) => m.voices.flatMap((v) => v.events.filter((e): e is NoteEvent => e.kind === 'note'))));
    const trembling = all.filter((e) => e.tremolo);
    expect(trembling.length).toBeGreaterThan(all.length * 0.15);
    expect(trembling.length).toBeLessThan(all.length * 0.45);
    for (const e of trembling) {
      expect(e.grace || e.cue).toBeFalsy();
      expect(e.tremolo!.type).toBe('single');
      expect([1, 2, 3]).toContain(e.tremolo!.marks);
    }
  });
});
