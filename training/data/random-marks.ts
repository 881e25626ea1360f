/**
 * Marks around notes for generated scores: articulations, fermatas,
 * ornaments and bowing, added to a score's notes from a seed. The random
 * score generator writes none, and the symbol model's training pages keep
 * it that way (their seeds would otherwise draw different music); the mark
 * classifier's samples (training/model/export-marks.ts) are engraved from
 * scores decorated here.
 */
import type { NoteEvent, Score } from '../../src/score/model.js';
import { MARK_KINDS, markFamily, type MarkKind } from '../../src/reading/mark-kinds.js';
import type { Rng } from './prng.js';

/** Relative weight of each mark kind on a decorated note. */
const MARK_WEIGHTS: Record<MarkKind, number> = {
  staccato: 3,
  staccatissimo: 1.2,
  tenuto: 2,
  accent: 2.5,
  'strong-accent': 1.2,
  fermata: 2,
  'trill-mark': 1,
  mordent: 0.8,
  'inverted-mordent': 0.8,
  turn: 0.8,
  'up-bow': 1.5,
  'down-bow': 1.5,
};

/**
 * Gives a share of the score's notes (not grace or cue notes) one mark, now
 * and then two of different families (an accent over a staccato, a bowing
 * over an articulation), as engravers stack them.
 */
export function decorateMarks(score: Score, rng: Rng, share = 0.35): void {
  const weighted = MARK_KINDS.map((k) => [k, MARK_WEIGHTS[k]] as const);
  for (const part of score.parts) {
    for (const measure of part.measures) {
      for (const voice of measure.voices) {
        for (const event of voice.events) {
          if (event.kind !== 'note' || event.grace || event.cue || !rng.chance(share)) continue;
          const first = rng.weighted(weighted);
          addMark(event, first);
          if (rng.chance(0.15)) {
            const second = rng.weighted(weighted);
            if (markFamily(second) !== markFamily(first) || (first !== 'fermata' && second !== 'fermata' && markFamily(first) === 'articulation' && second !== first)) addMark(event, second);
          }
        }
      }
    }
  }
}

/** Tremolo strokes through a stem: one to three, as engravers draw them. */
const TREMOLO_STROKES = [1, 2, 3] as const;

/**
 * Gives a share of the score's notes (not grace or cue notes) single-note
 * tremolo strokes. They are the mark classifier's hard negatives: short thick
 * slashes over or under a note, which a small model reads as an ornament's
 * zigzag unless it has seen them.
 */
export function decorateTremolos(score: Score, rng: Rng, share = 0.05): void {
  for (const part of score.parts) {
    for (const measure of part.measures) {
      for (const voice of measure.voices) {
        for (const event of voice.events) {
          if (event.kind !== 'note' || event.grace || event.cue || event.tremolo || !rng.chance(share)) continue;
          event.tremolo = { type: 'single', marks: rng.pick(TREMOLO_STROKES) };
        }
      }
    }
  }
}

function addMark(event: NoteEvent, kind: MarkKind): void {
  const family = markFamily(kind);
  const list = family === 'ornament' ? (event.ornaments ??= []) : family === 'technical' ? (event.technical ??= []) : (event.articulations ??= []);
  if (!list.includes(kind)) list.push(kind);
}
