/**
 * Marks the model paints as articulations and as dynamics, told apart by
 * their shape:
 *
 * - articulations by the size of their box in staff spaces: a staccato dot,
 *   a staccatissimo wedge, a tenuto line, an accent, a strong accent, a
 *   fermata (an arc over a dot; the dot alone is not taken for a staccato);
 * - hairpins among the dynamics and the tie-and-slur pixels: long, low
 *   wedges, opening to the right (crescendo) or closing (diminuendo).
 *
 * Which note a mark belongs to is the music reader's question (assembly/marks.ts).
 */
import type { Staff } from '../staves/detect-staves.js';
import { nearestStaff } from '../staves/staff-geometry.js';
import { classComponents, MAP_SCALE, type Component } from './components.js';
import type { ClassMap } from './segment.js';
import { CLASS_INDEX } from './symbol-classes.js';

export type ArticulationKind = 'staccato' | 'staccatissimo' | 'tenuto' | 'accent' | 'strong-accent' | 'fermata';

export interface ArticulationMark {
  kind: ArticulationKind;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Centre. */
  x: number;
  y: number;
  staff: number;
  confidence: number;
}

export interface Hairpin {
  kind: 'crescendo' | 'diminuendo';
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  staff: number;
  confidence: number;
}

/** Sizes (width × height, in spaces) of each articulation's box, as [least, most] per side. */
const ARTICULATION_SIZE: readonly { kind: ArticulationKind; width: [number, number]; height: [number, number] }[] = [
  { kind: 'staccato', width: [0.2, 0.6], height: [0.2, 0.6] },
  { kind: 'staccatissimo', width: [0.2, 0.6], height: [0.6, 1.2] },
  { kind: 'tenuto', width: [0.7, 1.6], height: [0.08, 0.4] },
  { kind: 'accent', width: [0.8, 1.6], height: [0.4, 1.0] },
  { kind: 'strong-accent', width: [0.6, 1.1], height: [1.0, 1.5] },
  { kind: 'fermata', width: [1.6, 3], height: [0.8, 1.8] },
];

/** A hairpin is at least this many spaces long … */
const HAIRPIN_MIN_LENGTH = 2.5;
/** … no more than this many spaces tall at its open end … */
const HAIRPIN_MAX_OPENING = 2.2;
/** … rising or falling by at most this much per unit of length (its box grows by that) … */
const HAIRPIN_MAX_SLOPE = 0.15;
/** … at least this many spaces open at its open end … */
const HAIRPIN_MIN_OPENING = 0.6;
/** … which stands at least this many spaces taller than its point … */
const HAIRPIN_MIN_SPREAD = 0.35;
/** … along a middle line bent by no more than this many spaces. */
const HAIRPIN_MAX_BEND = 0.3;
/** A hairpin's two lines stand apart at its point by at most this share of its opening (the tip may be unseen). */
const HAIRPIN_MAX_POINT = 0.6;
/** Pieces of one line of a hairpin are joined across gaps of up to this many spaces. */
const LINE_JOIN_GAP = 1.2;
/** Each of a hairpin's lines is at most this many spaces thick … */
const HAIRPIN_LINE_THICKNESS = 0.45;
/** … and straight within this many spaces. */
const HAIRPIN_LINE_BEND = 0.15;
/** The share of a hairpin's length, at each end, measured for its opening. */
const HAIRPIN_END_SHARE = 0.12;

export function readArticulations(map: ClassMap, staves: readonly Staff[], space: number): ArticulationMark[] {
  const marks = classComponents(map, [CLASS_INDEX.articulation], 2).flatMap((c): ArticulationMark[] => {
    const w = (c.x1 - c.x0) / space;
    const h = (c.y1 - c.y0) / space;
    const shape = ARTICULATION_SIZE.find((s) => w >= s.width[0] && w <= s.width[1] && h >= s.height[0] && h <= s.height[1]);
    const x = (c.x0 + c.x1) / 2;
    const y = (c.y0 + c.y1) / 2;
    const staff = nearestStaff(staves, x, y);
    return shape && staff >= 0 ? [{ kind: shape.kind, x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1, x, y, staff, confidence: c.confidence }] : [];
  });
  // A fermata's dot is its own; so is anything else inside its box.
  const fermatas = marks.filter((m) => m.kind === 'fermata');
  return marks.filter((m) => m.kind === 'fermata' || !fermatas.some((f) => m.x > f.x0 && m.x < f.x1 && m.y > f.y0 - space * 0.3 && m.y < f.y1 + space * 0.3));
}

/**
 * Hairpins among the dynamics pixels and the tie-and-slur pixels (the model takes a hairpin's two
 * straight lines for a flat slur as often as for a dynamic).
 */
export function readHairpins(map: ClassMap, staves: readonly Staff[], space: number): Hairpin[] {
  const found: Omit<Hairpin, 'staff'>[] = [];
  const lines: Line[] = [];
  for (const c of classComponents(map, [CLASS_INDEX.dynamics, CLASS_INDEX.tieSlur], 4)) {
    const kind = wedgeShape(c, map.width, space);
    if (kind) found.push({ kind, x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1, confidence: c.confidence });
    else {
      const line = straightLine(c, map.width, space);
      if (line) lines.push(line);
    }
  }
  found.push(...linePairs(joinLines(lines, space), space));
  return found.flatMap((h) => {
    const staff = nearestStaff(staves, (h.x0 + h.x1) / 2, (h.y0 + h.y1) / 2);
    return staff >= 0 ? [{ ...h, staff }] : [];
  });
}

/** A straight, thin, nearly level stroke: one line of a hairpin whose point the model left open. */
interface Line {
  x0: number;
  x1: number;
  /** Heights of its centre at its two ends. */
  y0: number;
  y1: number;
  confidence: number;
}

function straightLine(c: Component, width: number, space: number): Line | undefined {
  const length = c.x1 - c.x0;
  if (length < space * HAIRPIN_MIN_LENGTH) return undefined;
  const end = length * HAIRPIN_END_SHARE;
  const left = span(c, width, c.x0, c.x0 + end);
  const right = span(c, width, c.x1 - end, c.x1);
  const middle = span(c, width, c.x0 + length / 2 - end / 2, c.x0 + length / 2 + end / 2);
  if (!left || !right || !middle) return undefined;
  if (Math.max(left.height, right.height, middle.height) > space * HAIRPIN_LINE_THICKNESS) return undefined;
  if (Math.abs(right.centre - left.centre) > length * HAIRPIN_MAX_SLOPE) return undefined;
  if (Math.abs(middle.centre - (left.centre + right.centre) / 2) > space * HAIRPIN_LINE_BEND) return undefined;
  return { x0: c.x0, x1: c.x1, y0: left.centre, y1: right.centre, confidence: c.confidence };
}

/** Pieces of one line, left to right, where one's end meets the next one's start on its course. */
function joinLines(lines: readonly Line[], space: number): Line[] {
  const joined: Line[] = [];
  for (const line of [...lines].sort((a, b) => a.x0 - b.x0)) {
    const host = joined.find((j) => {
      const gap = line.x0 - j.x1;
      if (gap > space * LINE_JOIN_GAP || gap < -space * 0.3) return false;
      const slope = (j.y1 - j.y0) / Math.max(1, j.x1 - j.x0);
      return Math.abs(j.y1 + slope * gap - line.y0) <= space * HAIRPIN_LINE_BEND * 2;
    });
    if (!host) joined.push({ ...line });
    else {
      host.x1 = line.x1;
      host.y1 = line.y1;
      host.confidence = Math.min(host.confidence, line.confidence);
    }
  }
  return joined;
}

/** Two lines over the same stretch, one above the other, meeting (or nearly) at one end: a hairpin. */
function linePairs(lines: Line[], space: number): Omit<Hairpin, 'staff'>[] {
  const pairs: Omit<Hairpin, 'staff'>[] = [];
  const used = new Set<Line>();
  for (const upper of lines) {
    for (const lower of lines) {
      if (upper === lower || used.has(upper) || used.has(lower)) continue;
      const overlap = Math.min(upper.x1, lower.x1) - Math.max(upper.x0, lower.x0);
      if (overlap < Math.min(upper.x1 - upper.x0, lower.x1 - lower.x0) * 0.7) continue;
      const left = lower.y0 - upper.y0;
      const right = lower.y1 - upper.y1;
      if (left <= 0 || right <= 0 || Math.max(left, right) > space * HAIRPIN_MAX_OPENING) continue;
      const [point, open] = [Math.min(left, right), Math.max(left, right)];
      if (open - point < space * HAIRPIN_MIN_SPREAD || open < space * HAIRPIN_MIN_OPENING || point > open * HAIRPIN_MAX_POINT) continue;
      used.add(upper).add(lower);
      pairs.push({
        kind: left < right ? 'crescendo' : 'diminuendo',
        x0: Math.min(upper.x0, lower.x0),
        x1: Math.max(upper.x1, lower.x1),
        y0: Math.min(upper.y0, upper.y1),
        y1: Math.max(lower.y0, lower.y1),
        confidence: Math.min(upper.confidence, lower.confidence),
      });
    }
  }
  return pairs;
}

/**
 * Whether a component is a hairpin, and which way it opens: long and low, its two lines meeting at
 * a point at one end and standing apart at the other, along a straight middle line.
 */
export function wedgeShape(c: Component, width: number, space: number): Hairpin['kind'] | undefined {
  const length = c.x1 - c.x0;
  if (length < space * HAIRPIN_MIN_LENGTH || c.y1 - c.y0 > space * HAIRPIN_MAX_OPENING + length * HAIRPIN_MAX_SLOPE) return undefined;
  const end = length * HAIRPIN_END_SHARE;
  const left = span(c, width, c.x0, c.x0 + end);
  const right = span(c, width, c.x1 - end, c.x1);
  const middle = span(c, width, c.x0 + length / 2 - end / 2, c.x0 + length / 2 + end / 2);
  if (!left || !right || !middle) return undefined;
  const [point, open] = left.height < right.height ? [left, right] : [right, left];
  if (open.height - point.height < space * HAIRPIN_MIN_SPREAD || open.height < space * HAIRPIN_MIN_OPENING) return undefined;
  // The middle line runs straight: the middle's centre lies halfway between the ends' centres.
  if (Math.abs(middle.centre - (left.centre + right.centre) / 2) > space * HAIRPIN_MAX_BEND) return undefined;
  // And the wedge widens steadily: the middle is about half as open as the open end.
  if (middle.height > open.height * 0.85 || middle.height < point.height) return undefined;
  return left.height < right.height ? 'crescendo' : 'diminuendo';
}

/** The height and centre, in prepared pixels, of a component's ink between two xs. */
function span(c: Component, width: number, from: number, to: number): { height: number; centre: number } | undefined {
  let top = Infinity;
  let bottom = -Infinity;
  const [c0, c1] = [from / MAP_SCALE, to / MAP_SCALE];
  for (const i of c.pixels) {
    const col = i % width;
    if (col < c0 || col > c1) continue;
    const row = (i - col) / width;
    if (row < top) top = row;
    if (row > bottom) bottom = row;
  }
  return bottom >= top ? { height: (bottom - top + 1) * MAP_SCALE, centre: ((top + bottom + 1) / 2) * MAP_SCALE } : undefined;
}
