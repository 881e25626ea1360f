/**
 * The strokes and rests of one staff in one measure, put into voices.
 *
 * Engravers write two voices on a staff with opposite stems: where an
 * up-stem and a down-stem stroke stand at the same place in the measure, the
 * up stems are voice 1 and the down stems voice 2 (a unison of the two shows
 * two heads side by side, the up-stem one first, their stems all but
 * touching), a whole note beside a
 * stemmed chord is the other voice's, and rests go to the voice on their side
 * of the middle line; a kneed beam (stems down and up on one beam) is
 * the upper voice's. Otherwise the staff is one voice, chords included,
 * whatever way its stems point.
 */
import type { Staff } from '../staves/detect-staves.js';
import { staffPosition } from '../staves/staff-geometry.js';
import type { StaffItem, Stroke } from './strokes.js';

/** A whole note within this many spaces of a stemmed chord was moved aside by a head a second away: it is the other voice's. */
const WHOLE_BESIDE_CHORD = 3;
/** Strokes of opposite stems closer than this many spaces stand at one place: they sound together. */
const TOGETHER = 1.2;
/** The stems of a two-voice unison with different heads stand this close, all but touching. */
const UNISON_STEMS = 0.6;

export function splitVoices(items: readonly StaffItem[], staff: Staff, space: number): StaffItem[][] {
  const sorted = [...items].sort((a, b) => a.x - b.x);
  const strokes = sorted.filter((i): i is Stroke => i.kind === 'chord');
  // A whole note has no stem to share: one standing where a stemmed chord stands (moved aside by a
  // head a second away, up to three spaces) is the other voice's.
  const stemmedAt = (x: number) => strokes.find((b) => b.up !== undefined && Math.abs(b.x - x) < space * WHOLE_BESIDE_CHORD);
  const wholes = new Map(strokes.flatMap((a) => {
    const partner = a.up === undefined && a.heads[0]!.kind === 'whole' ? stemmedAt(a.x) : undefined;
    return partner ? [[a, partner] as const] : [];
  }));
  const twoVoices = wholes.size > 0 || strokes.some((a) => a.up === true && strokes.some((b) => b.up === false && standTogether(a, b, space)));
  if (!twoVoices) return sorted.length ? [sorted] : [];
  const upper: StaffItem[] = [];
  const lower: StaffItem[] = [];
  for (const item of sorted) {
    const partner = item.kind === 'chord' ? wholes.get(item) : undefined;
    // A kneed beam's strokes are one voice's, the upper's, though some of its stems point down.
    if (item.kind === 'chord' && item.kneed) upper.push(item);
    else if (item.kind === 'chord' && item.up !== undefined) (item.up ? upper : lower).push(item);
    else if (partner) (partner.up ? lower : upper).push(item);
    else {
      const y = item.kind === 'rest' ? item.y : (item.y0 + item.y1) / 2;
      (staffPosition(staff, item.x, y) <= 4 ? upper : lower).push(item);
    }
  }
  return [upper, lower].filter((v) => v.length);
}

/**
 * Whether two strokes of opposite stems sound together: they stand at one place, or, a unison of
 * two voices with different heads, side by side at one pitch with the up-stem head first and the two stems all
 * but touching between them.
 */
export function standTogether(a: Stroke, b: Stroke, space: number): boolean {
  if (Math.abs(a.x - b.x) < space * TOGETHER) return true;
  const [up, down] = a.up ? [a, b] : [b, a];
  const unison = up.heads.some((h) => down.heads.some((d) => d.position === h.position));
  return unison && !!up.stem && !!down.stem && up.up === true && down.up === false && up.x < down.x && Math.abs(up.stem.x - down.stem.x) < space * UNISON_STEMS;
}
