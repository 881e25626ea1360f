/**
 * Ties and slurs as curves: the class map's tie-and-slur pixels joined into
 * arcs, each with its two ends and the way it bends. Which notes a curve
 * joins, and whether it is a tie or a slur, is the music reader's question
 * (assembly/curves.ts); here it is only geometry.
 *
 * A long slur crosses stems, beams and barlines, and the class map gives those
 * crossings to them: the pieces of one arc are joined where one piece's end
 * meets the next one's start.
 */
import type { Staff } from '../staves/detect-staves.js';
import { nearestStaff } from '../staves/staff-geometry.js';
import { classComponents, MAP_SCALE, type Component } from './components.js';
import { wedgeShape } from './marks.js';
import type { ClassMap } from './segment.js';
import { CLASS_INDEX } from './symbol-classes.js';

export interface Point {
  x: number;
  y: number;
}

export interface Curve {
  /** Left and right ends, in prepared-page pixels. */
  start: Point;
  end: Point;
  /** Box in prepared-page pixels. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** The arc bows upwards (drawn over its notes) rather than downwards. */
  over: boolean;
  /** How far, in prepared pixels, the arc's middle stands off the line between its ends. */
  bow: number;
  /** Index of the staff the curve's middle is nearest. */
  staff: number;
  confidence: number;
}

/** Least width of a curve, in spaces: a tie between two close heads is about this wide. */
const MIN_CURVE_WIDTH = 0.8;
/** The ends of two pieces of one arc meet within this many spaces across … */
const JOIN_GAP = 0.7;
/** … or overlap across by at most this many spaces … */
const JOIN_OVERLAP = 0.3;
/** … and this many spaces up or down. */
const JOIN_RISE = 0.8;
/**
 * Two pieces that meet in a point on the side opposite their bows (arcs over the notes meeting
 * low, arcs under them meeting high) are two curves ending and starting at one note: a slur into a
 * tie, or two ties in a row. A slur broken by a stem goes on smoothly, or turns at its apex, which
 * lies on the side it bows to. Both slopes (rise over run) must be at least this steep for such a
 * point …
 */
const CUSP_SLOPE = 0.15;
/** … each measured over this many spaces of the piece next to the point. */
const SLOPE_RUN = 1;
/** A stretch with fewer class-map columns than this has no slope to tell. */
const SLOPE_MIN_COLUMNS = 3;
/** Text painted no thicker than this many spaces in any column is a line, perhaps part of a curve. */
const THIN_TEXT = 0.5;
/** Such a line joins the arcs it meets where it is at least this many spaces wide. */
const THIN_TEXT_MIN_WIDTH = 1;
/** An arc taller than this many spaces is something else (a brace, a bracket's end). */
const MAX_CURVE_HEIGHT = 4;

/** One column's ink of a curve: its top and bottom in class-map rows. */
type Profile = Map<number, [number, number]>;

interface Piece {
  profile: Profile;
  /** Painted as a tie or slur; a borrowed piece (painted as text) counts only joined to one that is. */
  own: boolean;
  x0: number;
  x1: number;
  confidence: number;
  area: number;
}

export function readCurves(map: ClassMap, staves: readonly Staff[], space: number): Curve[] {
  // A hairpin painted as a slur is read as a hairpin (marks.ts).
  const arcs = classComponents(map, [CLASS_INDEX.tieSlur], 3).filter((c) => !wedgeShape(c, map.width, space));
  // The model paints the flat middle of a long tie under the staff as text at times: thin text lines join the arcs they meet.
  const thinText = classComponents(map, [CLASS_INDEX.text], 3)
    .map((c) => pieceOf(c, map.width, false))
    .filter((p) => p.x1 - p.x0 >= (space / MAP_SCALE) * THIN_TEXT_MIN_WIDTH && [...p.profile.values()].every(([top, bottom]) => bottom - top < (space / MAP_SCALE) * THIN_TEXT));
  const pieces = [...arcs.map((c) => pieceOf(c, map.width, true)), ...thinText];
  const curves: Curve[] = [];
  for (const piece of joinPieces(pieces, space / MAP_SCALE)) {
    if (!piece.own) continue;
    const curve = curveOf(piece, staves);
    if (!curve || curve.x1 - curve.x0 < space * MIN_CURVE_WIDTH || curve.y1 - curve.y0 > space * MAX_CURVE_HEIGHT) continue;
    curves.push(curve);
  }
  return curves;
}

function pieceOf(c: Component, width: number, own: boolean): Piece {
  const profile: Profile = new Map();
  for (const i of c.pixels) {
    const col = i % width;
    const row = (i - col) / width;
    const span = profile.get(col);
    if (!span) profile.set(col, [row, row]);
    else {
      if (row < span[0]) span[0] = row;
      if (row > span[1]) span[1] = row;
    }
  }
  return { profile, own, x0: c.x0 / MAP_SCALE, x1: c.x1 / MAP_SCALE - 1, confidence: c.confidence, area: c.area };
}

/** Pieces whose ends meet, left to right, joined into one arc each. */
function joinPieces(pieces: readonly Piece[], space: number): Piece[] {
  const sorted = [...pieces].sort((a, b) => a.x0 - b.x0);
  const joined: Piece[] = [];
  for (const piece of sorted) {
    const host = joined.find((j) => {
      const gap = piece.x0 - j.x1;
      if (gap > space * JOIN_GAP || gap < -space * JOIN_OVERLAP) return false;
      if (Math.abs(middle(j.profile.get(j.x1)) - middle(piece.profile.get(piece.x0))) > space * JOIN_RISE) return false;
      return !cusp(slopeAt(j, 'end', space), slopeAt(piece, 'start', space), pieceBow(j) + pieceBow(piece));
    });
    if (!host) {
      joined.push({ ...piece, profile: new Map(piece.profile) });
      continue;
    }
    for (const [col, span] of piece.profile) host.profile.set(col, span);
    host.confidence = (host.confidence * host.area + piece.confidence * piece.area) / (host.area + piece.area);
    host.area += piece.area;
    host.own ||= piece.own;
    host.x1 = Math.max(host.x1, piece.x1);
  }
  return joined;
}

/** Slope (rows per column, down positive) of a piece over its first or last stretch, fitted by least squares; 0 where it is too short to tell. */
function slopeAt(piece: Piece, which: 'start' | 'end', space: number): number {
  const edge = which === 'start' ? piece.x0 : piece.x1;
  const inner = which === 'start' ? edge + space * SLOPE_RUN : edge - space * SLOPE_RUN;
  const cols = [...piece.profile.keys()].filter((c) => (c - edge) * (c - inner) <= 0);
  if (cols.length < SLOPE_MIN_COLUMNS) return 0;
  const mx = cols.reduce((a, c) => a + c, 0) / cols.length;
  const my = cols.reduce((a, c) => a + middle(piece.profile.get(c)), 0) / cols.length;
  let sxy = 0;
  let sxx = 0;
  for (const c of cols) {
    sxy += (c - mx) * (middle(piece.profile.get(c)) - my);
    sxx += (c - mx) ** 2;
  }
  return sxx ? sxy / sxx : 0;
}

/**
 * A sharp turn where one piece's end (slope `left`) meets the next one's start (slope `right`),
 * pointing away from the way the pieces bow (`bow`: down positive).
 */
function cusp(left: number, right: number, bow: number): boolean {
  if (Math.min(Math.abs(left), Math.abs(right)) < CUSP_SLOPE) return false;
  const low = left > 0 && right < 0;
  const high = left < 0 && right > 0;
  return (low && bow < 0) || (high && bow > 0);
}

/** How far a piece's middle third stands off the line between its ends, on average (map rows, down positive). */
function pieceBow(piece: Piece): number {
  const cols = [...piece.profile.keys()].sort((a, b) => a - b);
  const first = cols[0]!;
  const last = cols[cols.length - 1]!;
  const y0 = middle(piece.profile.get(first));
  const y1 = middle(piece.profile.get(last));
  const inner = cols.filter((c) => c >= first + (last - first) / 3 && c <= last - (last - first) / 3);
  if (!inner.length || last === first) return 0;
  return inner.reduce((sum, c) => sum + middle(piece.profile.get(c)) - (y0 + ((y1 - y0) * (c - first)) / (last - first)), 0) / inner.length;
}

function middle(span: [number, number] | undefined): number {
  return span ? (span[0] + span[1]) / 2 : NaN;
}

/** The arc's ends, box and bend from its column profile (class-map units in, prepared pixels out). */
function curveOf(piece: Piece, staves: readonly Staff[]): Curve | undefined {
  const cols = [...piece.profile.keys()].sort((a, b) => a - b);
  const first = cols[0]!;
  const last = cols[cols.length - 1]!;
  const at = (col: number) => middle(piece.profile.get(col));
  const start = { x: first * MAP_SCALE, y: at(first) * MAP_SCALE };
  const end = { x: (last + 1) * MAP_SCALE, y: at(last) * MAP_SCALE };
  // The middle third's mean height against the chord between the ends tells which way it bows.
  const inner = cols.filter((c) => c >= first + (last - first) / 3 && c <= last - (last - first) / 3);
  if (!inner.length) return undefined;
  const offsets = inner.map((c) => at(c) * MAP_SCALE - (start.y + ((end.y - start.y) * (c - first)) / Math.max(1, last - first)));
  const bow = offsets.reduce((s, v) => s + v, 0) / offsets.length;
  const y0 = Math.min(...cols.map((c) => piece.profile.get(c)![0])) * MAP_SCALE;
  const y1 = (Math.max(...cols.map((c) => piece.profile.get(c)![1])) + 1) * MAP_SCALE;
  const staff = nearestStaff(staves, (start.x + end.x) / 2, (y0 + y1) / 2);
  if (staff < 0) return undefined;
  return { start, end, x0: start.x, x1: end.x, y0, y1, over: bow < 0, bow: Math.abs(bow), staff, confidence: piece.confidence };
}
