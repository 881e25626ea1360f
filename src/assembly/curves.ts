/**
 * Which strokes each tie or slur joins.
 *
 * A curve's ends are drawn at the notes it joins: a tie's beside the heads of
 * one pitch, level with them; a slur's over or under the heads, or at the stem
 * ends. An end that reaches no stroke runs off the system: the curve goes on
 * from the previous system or to the next one.
 *
 * A tie joins two heads at one staff position in strokes that follow each
 * other, with its ends level with those heads; every other curve is a slur.
 * (Whether the two heads are the same pitch is checked once the pitches are
 * known: the ties pass, ties-slurs.ts.) A tie is looked for head by head, not stroke by
 * stroke: in a chord each head has its own tie, and where two voices share
 * a place (stems up and down at one x) the stroke nearest the curve's end
 * need not be the one whose head it ties.
 */
import type { Head } from '../symbols/read-symbols.js';
import type { Curve, Point } from '../symbols/curves.js';
import type { Stroke } from './strokes.js';

export interface CurveLink {
  curve: Curve;
  /** The stroke the curve starts at; undefined where it comes from the previous system. */
  from?: Stroke;
  /** The stroke it ends at; undefined where it goes on to the next system. */
  to?: Stroke;
  /** A tie: the head it leaves (in `from`) and the head it reaches (in `to`); absent for a slur. */
  tie?: { from?: Head; to?: Head };
}

/** How far, in spaces, a curve's end may stand beside the stroke it belongs to. */
const END_REACH_ACROSS = 1.2;
/** How far, in spaces, above or below the stroke (heads and stem) a curve's end may stand. */
const END_REACH_UP_DOWN = 2;
/**
 * A curve that bows at least this many spaces is a slur even where the symbol model painted its
 * ends as something else (a dynamic's or an articulation's ink it passes), so that what is left of
 * it stops short of its notes: an end that reaches no stroke then looks this much further …
 */
const CUT_SLUR_MIN_BOW = 0.5;
/** … across and up or down (spaces). */
const CUT_END_REACH_ACROSS = 2.5;
const CUT_END_REACH_UP_DOWN = 3;
/**
 * A slur over (under) notes of different heights starts and ends clear of the highest (lowest) of
 * them, so an end may stand far over (under) a low (high) first or last note: an end that reaches
 * no stroke otherwise may belong to one of its staff straight under (over) it, on the side it bows
 * to, within this many spaces across …
 */
const CLEAR_END_REACH_ACROSS = 0.8;
/** … and this many up or down. */
const CLEAR_END_REACH_UP_DOWN = 6;
/** A tie's end stands beside or just over (under) its head: within this many spaces up or down. */
const TIE_LEVEL = 1.6;
/** A tie bows little: its middle stands off its ends by at most this many spaces. */
const TIE_MAX_BOW = 1.2;
/** A tie starts at most this many spaces right of its head's right edge, and ends as far left of the tied-to head's left edge. */
const TIE_REACH = 1.2;
/** A tie's end may stand over or under its head (engravers draw ties of stemless notes so), up to this many spaces past the head's centre. */
const TIE_OVERLAP = 0.6;
/** A tie and the slur it runs into, read as one arc, bow at most this many spaces (a slur over their notes bows more). */
const MERGED_MAX_BOW = 0.35;
/** Strokes this many spaces apart or less stand at one place (a chord split between two voices). */
const SAME_PLACE = 0.3;
/** A curve's start stands at most this many spaces before its first note's middle, and its end as far past its last one's. */
const END_BEFORE_MIDDLE = 0.8;

/**
 * Links each curve of a system to the strokes at its ends. `strokes` are the system's chords on all
 * its staves; a curve starting before the first stroke or ending after the last of its staff runs
 * across the system break.
 */
export function linkCurves(curves: readonly Curve[], strokes: readonly Stroke[], space: number): CurveLink[] {
  const links: CurveLink[] = [];
  for (const curve of curves) {
    const tied = tieByHeads(curve, strokes, space);
    if (tied) {
      links.push(tied);
      continue;
    }
    const onStaff = strokes.filter((s) => s.staff === curve.staff);
    // An end looks further only inside the system, not past its first or last note (the slur may run across the break).
    const cut = curve.bow >= space * CUT_SLUR_MIN_BOW;
    const inside = (x: number, which: 'start' | 'end') => onStaff.some((s) => (which === 'start' ? s.x < x : s.x > x));
    const reach = (end: Point, among: readonly Stroke[], which: 'start' | 'end') => {
      const near = nearestStroke(end, among, space, which);
      if (near || !inside(end.x, which)) return near;
      // Past the usual reach: a cut slur's end, or one clear of its note on the side the slur bows to.
      const clear = among.filter((s) => s.staff === curve.staff && (curve.over ? end.y < s.y0 : end.y > s.y1));
      return (cut ? nearestStroke(end, among, space, which, CUT_REACH) : undefined) ?? nearestStroke(end, clear, space, which, CLEAR_REACH);
    };
    const from = reach(curve.start, strokes, 'start');
    const to = reach(curve.end, strokes.filter((s) => s !== from && (!from || s.x > from.x)), 'end');
    // An end that reaches no stroke counts only where it runs off the system, not into a gap.
    const offLeft = !from && !inside(curve.start.x, 'start');
    const offRight = !to && !inside(curve.end.x, 'end');
    if ((!from && !offLeft) || (!to && !offRight) || (!from && !to)) continue;
    const link: CurveLink = { curve, ...(from ? { from } : {}), ...(to ? { to } : {}) };
    const tie = tieHeads(curve, from, to, strokes, space);
    if (tie) link.tie = tie;
    links.push(...(tie ? [link] : tieIntoSlur(link, strokes, space) ?? [link]));
  }
  return links;
}

/**
 * A curve that ties two heads, found head by head: flat, its start level with and just right of a
 * head, its end level with and just left of a head at the same staff position on a later stroke of
 * the same staff, and nothing between them that would make it a slur (a stroke of the first one's
 * stem direction, or a head at the same position).
 */
function tieByHeads(curve: Curve, strokes: readonly Stroke[], space: number): CurveLink | undefined {
  if (curve.bow > space * TIE_MAX_BOW) return undefined;
  const starts: { head: Head; stroke: Stroke }[] = [];
  const ends: { head: Head; stroke: Stroke }[] = [];
  for (const stroke of strokes) {
    if (stroke.grace) continue;
    for (const head of stroke.heads) {
      if (levelWith(head, curve.start.y, space) && head.x <= curve.start.x + space * TIE_OVERLAP && curve.start.x - head.x1 <= space * TIE_REACH) starts.push({ head, stroke });
      if (levelWith(head, curve.end.y, space) && head.x >= curve.end.x - space * TIE_OVERLAP && head.x0 - curve.end.x <= space * TIE_REACH) ends.push({ head, stroke });
    }
  }
  let best: { cost: number; link: CurveLink } | undefined;
  for (const a of starts) {
    for (const b of ends) {
      if (b.stroke.staff !== a.stroke.staff || b.head.position !== a.head.position || b.stroke.x <= a.stroke.x + space * SAME_PLACE) continue;
      if (tieBlocked(a, b, strokes, space)) continue;
      const cost = Math.abs(a.head.y - curve.start.y) + Math.abs(b.head.y - curve.end.y);
      if (!best || cost < best.cost) best = { cost, link: { curve, from: a.stroke, to: b.stroke, tie: { from: a.head, to: b.head } } };
    }
  }
  return best?.link;
}

/**
 * Something between two heads that a curve joins makes it a slur: a stroke of the first one's stem
 * direction, or a head at their position. So does one beam joining the two: a note held from one
 * beamed note to the next of one pitch is written as one longer note (in the dev set's truth, four
 * in five such curves are slurs).
 */
function tieBlocked(a: { head: Head; stroke: Stroke }, b: { head: Head; stroke: Stroke }, strokes: readonly Stroke[], space: number): boolean {
  return oneBeam(a.stroke, b.stroke) || strokes.some(
    (s) =>
      s.staff === a.stroke.staff &&
      !s.grace &&
      s.x > a.stroke.x + space * SAME_PLACE &&
      s.x < b.stroke.x - space * SAME_PLACE &&
      (s.up === a.stroke.up || s.heads.some((h) => h.position === a.head.position)),
  );
}

/** Two strokes one beam joins. */
function oneBeam(a: Stroke, b: Stroke): boolean {
  return a.beamGroup !== undefined && a.beamGroup === b.beamGroup;
}

const END_REACH = { across: END_REACH_ACROSS, upDown: END_REACH_UP_DOWN };
const CUT_REACH = { across: CUT_END_REACH_ACROSS, upDown: CUT_END_REACH_UP_DOWN };
const CLEAR_REACH = { across: CLEAR_END_REACH_ACROSS, upDown: CLEAR_END_REACH_UP_DOWN };

/** The stroke a curve's end belongs to: the nearest within `reach` (spaces), on the right side of it. */
function nearestStroke(end: { x: number; y: number }, strokes: readonly Stroke[], space: number, which: 'start' | 'end', reach = END_REACH): Stroke | undefined {
  let best: Stroke | undefined;
  let bestDistance = Infinity;
  for (const stroke of strokes) {
    // A slur may start at a grace note (to the note it leads to), never end at one.
    if (stroke.grace && which === 'end') continue;
    // A curve starts at or after its first note's middle and ends at or before its last one's.
    if (which === 'start' ? stroke.x > end.x + space * END_BEFORE_MIDDLE : stroke.x < end.x - space * END_BEFORE_MIDDLE) continue;
    const dx = Math.max(0, stroke.x0 - end.x, end.x - stroke.x1);
    const dy = Math.max(0, stroke.y0 - end.y, end.y - stroke.y1);
    if (dx > space * reach.across || dy > space * reach.upDown) continue;
    const distance = dx + dy;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = stroke;
    }
  }
  return best;
}

/**
 * A tie running into a slur that leaves the tied-to note where the tie reaches it, read as one flat arc (their
 * ink meets under or over that note): a curve linked as a slur from a stroke whose next stroke on the staff
 * has a head at the same position, the curve level with both heads, is a tie to that stroke and a slur on from
 * it. A slur over a repeated note bows clear of it; this arc barely bows, its middle where the two meet.
 * Undefined where the curve is no such pair.
 */
function tieIntoSlur(link: CurveLink, strokes: readonly Stroke[], space: number): CurveLink[] | undefined {
  const { curve, from, to } = link;
  if (!from || !to || from.staff !== to.staff || curve.bow > space * MERGED_MAX_BOW) return undefined;
  const next = strokes
    .filter((s) => s.staff === from.staff && !s.grace && s.x > from.x + space * SAME_PLACE && s.x < to.x - space * SAME_PLACE)
    .sort((a, b) => a.x - b.x)[0];
  if (!next || oneBeam(from, next)) return undefined;
  const pair = from.heads
    .filter((a) => levelWith(a, curve.start.y, space))
    .flatMap((a) => next.heads.filter((b) => b.position === a.position && levelWith(b, curveY(curve, b.x), space)).map((b) => [a, b] as const))[0];
  if (!pair) return undefined;
  const [a, b] = pair;
  const tieCurve: Curve = { ...curve, end: { x: b.x0, y: curveY(curve, b.x0) }, x1: b.x0 };
  const slurCurve: Curve = { ...curve, start: { x: b.x1, y: curveY(curve, b.x1) }, x0: b.x1 };
  return [
    { curve: tieCurve, from, to: next, tie: { from: a, to: b } },
    { curve: slurCurve, from: next, to },
  ];
}

/** Whether a tie's end at height y is level with the head: beside it, or just over or under it. */
function levelWith(head: Head, y: number, space: number): boolean {
  return Math.abs(head.y - y) <= space * TIE_LEVEL;
}

/** The curve's height at x: the line between its ends, bowed by its bow at the middle (a parabola). */
function curveY(curve: Curve, x: number): number {
  const t = Math.min(1, Math.max(0, (x - curve.start.x) / Math.max(1, curve.end.x - curve.start.x)));
  return curve.start.y + (curve.end.y - curve.start.y) * t + (curve.over ? -1 : 1) * 4 * curve.bow * t * (1 - t);
}

/**
 * The heads a curve ties, if it is a tie: flat, its ends level with a head at each end at one staff
 * position, and no stroke of the same stem direction between the two (a slur over repeated notes).
 */
function tieHeads(curve: Curve, from: Stroke | undefined, to: Stroke | undefined, strokes: readonly Stroke[], space: number): CurveLink['tie'] {
  if (curve.bow > space * TIE_MAX_BOW) return undefined;
  const nearest = (heads: readonly Head[], y: number) => heads.filter((h) => levelWith(h, y, space)).sort((a, b) => Math.abs(a.y - y) - Math.abs(b.y - y))[0];
  if (from && to) {
    if (from.staff !== to.staff) return undefined;
    const between = strokes.some((s) => s !== from && s !== to && s.staff === from.staff && !s.grace && s.up === from.up && s.x > from.x + space * SAME_PLACE && s.x < to.x - space * SAME_PLACE);
    if (between || oneBeam(from, to)) return undefined;
    const pairs = from.heads.flatMap((a) => to.heads.filter((b) => b.position === a.position && levelWith(a, curve.start.y, space) && levelWith(b, curve.end.y, space)).map((b) => [a, b] as const));
    const pair = pairs.sort((p, q) => Math.abs(p[0].y - curve.start.y) - Math.abs(q[0].y - curve.start.y))[0];
    return pair ? { from: pair[0], to: pair[1] } : undefined;
  }
  // Running across the system break: level with a head at the end it has.
  const head = from ? nearest(from.heads, curve.start.y) : to ? nearest(to.heads, curve.end.y) : undefined;
  if (!head) return undefined;
  return from ? { from: head } : { to: head };
}
