/**
 * Single-note tremolos: strokes across a stem, between its heads and its
 * free end (beyond any beams there), read through the page sight.
 *
 * The symbol model has no class for a tremolo stroke and paints it as beam,
 * flag or notehead: a stroke painted as a notehead sits on the stem, astride
 * it, and would join the chord as a note of its own. A black head astride the
 * stem (or a small one beside it) is therefore left out of the heads the
 * stretch is measured from, and where strokes are found, such heads at a
 * stroke's height are the strokes, not notes.
 *
 * A whole note has no stem: its strokes stand where the stem would, on the
 * side a stem would go (above a note under the middle line, below one on or
 * over it), a little clear of the head.
 *
 * A note over or under the staff has its ledger lines there: they are no strokes.
 */
import type { PageSight } from '../reading/page-reading.js';
import type { Box, Head, Stem } from '../symbols/read-symbols.js';
import { BOTTOM_LINE, MIDDLE_LINE, TOP_LINE } from '../staves/staff-geometry.js';

/** A black head whose centre stands within this many spaces of the stem's line sits astride it: maybe a stroke painted as a head. */
const ASTRIDE_STEM = 0.3;
/** The stretch asked about stops this many spaces short of the chord's nearest head … */
const HEAD_CLEAR = 0.2;
/** … and, on a beamed stem, this many spaces per beam from the tip (a beam and the gap after it) … */
const BEAM_PITCH = 0.75;
/** … plus this many more. */
const BEAM_CLEAR = 0.25;
/** A stem reaching less than this many spaces past its heads has no room for a stroke. */
const MIN_STEM_ROOM = 1;
/** A beam at the stem's tip runs on to another stem's tip no further than this many spaces across (a stroke painted as beam runs to none). */
const BEAM_REACH = 8;
/** A head painted where a stroke is found, its centre within this many spaces of the stroke's middle, is the stroke. */
const STROKE_HEAD_REACH = 0.8;
/** A stroke found within this many spaces of a ledger line between the notes and the staff is that ledger line. */
const LEDGER_BAND = 0.3;

export interface StemTremolo {
  /** The stem's heads, less those that are strokes painted as heads. */
  heads: Head[];
  /** How many tremolo strokes cross the stem (0: none). */
  strokes: number;
}

/**
 * The tremolo strokes across a stem whose heads are `group`, and the heads that are notes. `stems`:
 * the page's stems, a beam at this one's tip runs on to one of them (the model paints a stroke near
 * the tip as beam, too).
 */
export function stemTremolo(stem: Stem, group: readonly Head[], stems: readonly Stem[], sight: PageSight, space: number): StemTremolo {
  const none = { heads: [...group], strokes: 0 };
  const suspect = (h: Head) => h.kind === 'black' && (h.small || Math.abs(h.x - stem.x) < space * ASTRIDE_STEM);
  const notes = group.filter((h) => !suspect(h));
  if (!notes.length) return none;
  const top = Math.min(...notes.map((h) => h.y0));
  const bottom = Math.max(...notes.map((h) => h.y1));
  const above = top - stem.y0;
  const below = stem.y1 - bottom;
  if (Math.max(above, below) < space * MIN_STEM_ROOM) return none;
  const up = above > below;
  const tip = up ? stem.y0 : stem.y1;
  const nearest = up ? top : bottom;
  const beams = sight.beamsAtStem(stem.x, tip, up, Math.abs(nearest - tip) - space * HEAD_CLEAR);
  const beamed = beams > 0 && stems.some((o) => o !== stem && o.staff === stem.staff && Math.abs(o.x - stem.x) <= space * BEAM_REACH && Math.abs(o.x - stem.x) > space * ASTRIDE_STEM && sight.beamAlong([stem.x, tip], [o.x, up ? o.y0 : o.y1]));
  const clear = beamed ? space * (beams * BEAM_PITCH + BEAM_CLEAR) : 0;
  // A stroke painted as a head at the tip cuts the stem the model sees short: the stretch reaches over it.
  const astride = group.filter(suspect);
  const end = beamed || !astride.length ? tip : up ? Math.min(tip, ...astride.map((h) => h.y0)) : Math.max(tip, ...astride.map((h) => h.y1));
  const from = end + (up ? clear : -clear);
  const to = up ? top - space * HEAD_CLEAR : bottom + space * HEAD_CLEAR;
  if ((to - from) * (up ? 1 : -1) < space * HEAD_CLEAR) return none;
  const strokes = offLedgers(sight.tremoloStrokes(stem.x, from, to), notes, space);
  if (!strokes.length) return none;
  const isStroke = (h: Head) => suspect(h) && strokes.some((y) => Math.abs(h.y - y) <= space * STROKE_HEAD_REACH);
  return { heads: group.filter((h) => !isStroke(h)), strokes: strokes.length };
}

/** A whole note's strokes are looked for from this many spaces clear of its head … */
const WHOLE_CLEAR = 0.3;
/** … out to this many spaces from it (a stem's length, about). */
const WHOLE_REACH = 3;

/**
 * The tremolo strokes over or under a stack of stemless whole notes, where their stem would stand; 0
 * where a rest stands in the way (a whole or half rest over a note looks just like a stroke).
 */
export function wholeNoteTremolo(group: readonly Head[], rests: readonly Box[], sight: PageSight, space: number): number {
  if (!group.length || !group.every((h) => h.kind === 'whole')) return 0;
  const x = group.reduce((sum, h) => sum + h.x, 0) / group.length;
  // A stem goes up from a note under the middle line, down from one on it or over it.
  const up = group.reduce((sum, h) => sum + h.position, 0) / group.length > MIDDLE_LINE;
  const top = Math.min(...group.map((h) => h.y0));
  const bottom = Math.max(...group.map((h) => h.y1));
  const [near, far] = up ? [top - space * WHOLE_CLEAR, top - space * WHOLE_REACH] : [bottom + space * WHOLE_CLEAR, bottom + space * WHOLE_REACH];
  const [y0, y1] = [Math.min(near, far), Math.max(near, far)];
  if (rests.some((r) => r.x0 < x && r.x1 > x && r.y0 < y1 && r.y1 > y0)) return 0;
  return offLedgers(sight.tremoloStrokes(x, far, near), group, space).length;
}

/**
 * The strokes that are no ledger lines. A note over or under the staff has ledger lines between it and the staff,
 * on the side its stem goes (a whole note's strokes are looked for there too), level and short as a stroke drawn
 * level is: a stroke where one of them stands is that line.
 */
function offLedgers(strokes: readonly number[], group: readonly Head[], space: number): number[] {
  const highest = group.reduce((a, b) => (b.position < a.position ? b : a));
  const lowest = group.reduce((a, b) => (b.position > a.position ? b : a));
  const y = (h: Head, position: number) => h.y + ((position - h.position) * space) / 2;
  const ledgers: number[] = [];
  for (let p = TOP_LINE - 2; p >= highest.position; p -= 2) ledgers.push(y(highest, p));
  for (let p = BOTTOM_LINE + 2; p <= lowest.position; p += 2) ledgers.push(y(lowest, p));
  return strokes.filter((s) => !ledgers.some((l) => Math.abs(s - l) <= space * LEDGER_BAND));
}
