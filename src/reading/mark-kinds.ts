/**
 * The marks around notes the seeing side tells apart (the mark classifier,
 * models/marks.onnx), named as their MusicXML elements, and where each goes
 * in the score model: `articulations` (a fermata among them, as the model
 * keeps it), `ornaments` or `technical`.
 */

/** Every mark kind, in no particular order (the model's own class order is in its card). */
export const MARK_KINDS = [
  'staccato', 'staccatissimo', 'tenuto', 'accent', 'strong-accent', 'fermata',
  'trill-mark', 'mordent', 'inverted-mordent', 'turn',
  'up-bow', 'down-bow',
] as const;

export type MarkKind = (typeof MARK_KINDS)[number];

export type MarkFamily = 'articulation' | 'ornament' | 'technical';

const FAMILY: Record<MarkKind, MarkFamily> = {
  staccato: 'articulation',
  staccatissimo: 'articulation',
  tenuto: 'articulation',
  accent: 'articulation',
  'strong-accent': 'articulation',
  fermata: 'articulation',
  'trill-mark': 'ornament',
  mordent: 'ornament',
  'inverted-mordent': 'ornament',
  turn: 'ornament',
  'up-bow': 'technical',
  'down-bow': 'technical',
};

export function markFamily(kind: MarkKind): MarkFamily {
  return FAMILY[kind];
}

export function isMarkKind(name: string): name is MarkKind {
  return (MARK_KINDS as readonly string[]).includes(name);
}
