/**
 * Articulations, fermatas, ornaments and bowing onto the strokes they belong to.
 *
 * An articulation stands over or under its note, centred on the head: on
 * the side away from the stem, or beyond the stem's end. A fermata, an
 * ornament or a bowing mark stands further off, often over the staff, and
 * may be a little wider of its note.
 */
import { markFamily, type MarkKind } from '../reading/mark-kinds.js';
import type { ArticulationMark } from '../symbols/marks.js';
import type { Stroke } from './strokes.js';

/** How far, in spaces, a mark's centre may stand beside its stroke's heads. */
const MARK_REACH_ACROSS = 1;
/** … a fermata's, an ornament's or a bowing mark's, which stand further off. */
const FERMATA_REACH_ACROSS = 1.5;
/** How far, in spaces, past the stroke's heads and stem a mark may stand (a fermata: further). */
const MARK_REACH_UP_DOWN = 3;
const FERMATA_REACH_UP_DOWN = 6;

/** Choosing the note of a mark that stands off it, standing under the note counts as this many spaces further. */
const FAR_MARK_UNDER_COST = 3;
/** Marks that stand off their note, over the staff as often as not. */
const FAR_MARKS = new Set<MarkKind>(['fermata', 'trill-mark', 'mordent', 'inverted-mordent', 'turn', 'up-bow', 'down-bow']);

/**
 * An ornament (trill, mordent, turn) the mark model is less sure of than this is left out: a trill that
 * is not on the page is worse for a musician than one left out, and words and tremolo strokes the model
 * has seen few of come out below it.
 */
const MIN_ORNAMENT_PROBABILITY = 0.98;

/** The marks on each stroke (MusicXML names), in the order they stand outwards from the note. */
export function attachArticulations(marks: readonly ArticulationMark[], strokes: readonly Stroke[], space: number): Map<Stroke, MarkKind[]> {
  const found = new Map<Stroke, { name: MarkKind; gap: number }[]>();
  // Each staff's strokes, with the middle of their heads, in the order given.
  const byStaff = new Map<number, { stroke: Stroke; centre: number }[]>();
  for (const stroke of strokes) {
    if (stroke.grace) continue;
    const centre = (Math.min(...stroke.heads.map((h) => h.x0)) + Math.max(...stroke.heads.map((h) => h.x1))) / 2;
    const own = byStaff.get(stroke.staff) ?? [];
    own.push({ stroke, centre });
    byStaff.set(stroke.staff, own);
  }
  for (const mark of marks) {
    if (markFamily(mark.kind) === 'ornament' && mark.probability < MIN_ORNAMENT_PROBABILITY) continue;
    const fermata = FAR_MARKS.has(mark.kind);
    // A mark that stands off its note may stand nearer the staff over its own (a trill over a low note).
    const below = fermata ? (byStaff.get(mark.staff + 1) ?? []).filter(({ stroke }) => mark.y < stroke.y0) : [];
    let best: Stroke | undefined;
    let bestGap = Infinity;
    for (const { stroke, centre } of [...(byStaff.get(mark.staff) ?? []), ...below]) {
      if (Math.abs(mark.x - centre) > space * (fermata ? FERMATA_REACH_ACROSS : MARK_REACH_ACROSS)) continue;
      // Outside the stroke, above or below it; a mark inside the stroke's box is not its articulation.
      const gap = mark.y < stroke.y0 ? stroke.y0 - mark.y1 : mark.y > stroke.y1 ? mark.y0 - stroke.y1 : Infinity;
      if (gap > space * (fermata ? FERMATA_REACH_UP_DOWN : MARK_REACH_UP_DOWN)) continue;
      // Such a mark stands over its note far more often than under it.
      const under = fermata && mark.y > stroke.y1 ? space * FAR_MARK_UNDER_COST : 0;
      const score = Math.max(0, gap) + Math.abs(mark.x - centre) + under;
      if (score < bestGap) {
        bestGap = score;
        best = stroke;
      }
    }
    if (!best) continue;
    const list = found.get(best) ?? [];
    if (!list.some((m) => m.name === mark.kind)) list.push({ name: mark.kind, gap: bestGap });
    found.set(best, list);
  }
  return new Map([...found].map(([stroke, list]) => [stroke, list.sort((a, b) => a.gap - b.gap).map((m) => m.name)]));
}
