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
import { staffLineY, type Staff } from '../staves/detect-staves.js';
import { nearestStaff } from '../staves/staff-geometry.js';
import { classComponents, MAP_SCALE, type Component } from './components.js';
import { headsNear, type HeadsNear } from './heads-near.js';
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
/**
 * Where the point lies beside a notehead (within this many spaces), two ties in a row meet at the
 * note they share: the second leaves the head flat, so the turn of both slopes together need only
 * reach CUSP_SLOPE.
 */
const CUSP_AT_HEAD = 0.6;
/** A stretch with fewer class-map columns than this has no slope to tell. */
const SLOPE_MIN_COLUMNS = 3;
/** Text painted no thicker than this many spaces in any column is a line, perhaps part of a curve. */
const THIN_TEXT = 0.5;
/** Such a line joins the arcs it meets where it is at least this many spaces wide. */
const THIN_TEXT_MIN_WIDTH = 1;
/** An arc taller than this many spaces is something else (a brace, a bracket's end). */
const MAX_CURVE_HEIGHT = 4;
/**
 * Ink that stands in two strands, one above the other, over at least this many spaces is two arcs
 * that touch (a tie under the slur over it, touching it at its apex), traced apart; less is one
 * arc's ragged edge.
 */
const STRANDS_MIN_RUN = MIN_CURVE_WIDTH;
/** Two arcs from one note (a tie and a slur, leaving it at one slope) share their ink for at most this many spaces before they part. */
const SHARED_START = 5;

/**
 * A flat piece that follows one of its staff's lines is that line, which the model paints as a curve
 * in pieces where a scan bends or blurs it: at least this share of its columns have their middle …
 */
const ON_LINE_SHARE = 0.9;
/** … within this many spaces of a staff line … */
const ON_LINE_DISTANCE = 0.15;
/** … and it bows less than this many spaces (a tie or slur bows clear of the lines, or lies in a space). */
const ON_LINE_MAX_BOW = 0.15;

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

/** `heads` is the page's notehead paint, where a caller has it already. */
export function readCurves(map: ClassMap, staves: readonly Staff[], space: number, heads: HeadsNear = headsNear(map)): Curve[] {
  // A hairpin painted as a slur is read as a hairpin (marks.ts).
  const arcs = classComponents(map, [CLASS_INDEX.tieSlur], 3).filter((c) => !wedgeShape(c, map.width, space));
  // The model paints the flat middle of a long tie under the staff as text at times: thin text lines join the arcs they meet.
  const thinText = classComponents(map, [CLASS_INDEX.text], 3)
    .map((c) => pieceOf(c, map.width, false))
    .filter((p) => p.x1 - p.x0 >= (space / MAP_SCALE) * THIN_TEXT_MIN_WIDTH && [...p.profile.values()].every(([top, bottom]) => bottom - top < (space / MAP_SCALE) * THIN_TEXT));
  const pieces = [...arcs.flatMap((c) => strandsOf(c, map.width, space / MAP_SCALE).flatMap((p) => splitAtCusps(p, space / MAP_SCALE))), ...thinText];
  const curves: Curve[] = [];
  const reach = Math.round((space / MAP_SCALE) * CUSP_AT_HEAD);
  for (const piece of joinPieces(pieces, space / MAP_SCALE, (col, row) => heads(col, row, reach, reach))) {
    if (!piece.own) continue;
    const curve = curveOf(piece, staves);
    if (!curve || curve.x1 - curve.x0 < space * MIN_CURVE_WIDTH || curve.y1 - curve.y0 > space * MAX_CURVE_HEIGHT) continue;
    if (curve.bow < space * ON_LINE_MAX_BOW && followsStaffLine(piece, staves[curve.staff]!, space)) continue;
    curves.push(curve);
  }
  return curves;
}

/** Whether a piece's middle runs along one line of `staff` (see ON_LINE_SHARE). */
function followsStaffLine(piece: Piece, staff: Staff, space: number): boolean {
  let on = 0;
  for (const [col, [top, bottom]] of piece.profile) {
    const x = col * MAP_SCALE;
    const y = ((top + bottom + 1) / 2) * MAP_SCALE;
    if (staff.lines.some((_, line) => Math.abs(staffLineY(staff, line, x) - y) <= space * ON_LINE_DISTANCE)) on++;
  }
  return on >= piece.profile.size * ON_LINE_SHARE;
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

/** A run of ink down one column, top and bottom row. */
type Run = [number, number];

/**
 * One component painted as a tie or slur as the pieces of arc it holds: itself, unless its ink
 * stands in two strands over STRANDS_MIN_RUN spaces, when each strand is followed column by column
 * (where strands touch, each keeps to its own course) and becomes a piece of its own.
 */
function strandsOf(c: Component, width: number, space: number): Piece[] {
  const columns = columnRuns(c, width);
  let double = 0;
  let longest = 0;
  for (let col = c.x0 / MAP_SCALE; col < c.x1 / MAP_SCALE; col++) {
    double = (columns.get(col)?.length ?? 0) > 1 ? double + 1 : 0;
    longest = Math.max(longest, double);
  }
  if (longest < space * STRANDS_MIN_RUN) return [pieceOf(c, width, true)];
  const strands: Strand[] = [];
  for (const col of [...columns.keys()].sort((a, b) => a - b)) {
    const runs = columns.get(col)!;
    const { owners, parents } = ownersOf(runs, strands.filter((s) => s.lastCol === col - 1));
    runs.forEach((r, i) => {
      const own = owners[i]!;
      const parent = parents[i];
      // A strand that parts from another soon after it starts shares that one's start (two arcs from one note).
      const shared = parent && col - Math.min(...parent.profile.keys()) <= space * SHARED_START ? parent.profile : [];
      if (!own.length) strands.push({ profile: new Map([...shared, [col, r]]), last: r, lastCol: col });
      own.forEach((s, j) => {
        const span = shareOf(r, s.last, j, own.length);
        s.profile.set(col, span);
        s.last = span;
        s.lastCol = col;
      });
    });
  }
  return strands.map(({ profile }) => {
    const cols = [...profile.keys()];
    const area = [...profile.values()].reduce((sum, [top, bottom]) => sum + bottom - top + 1, 0);
    return { profile, own: true, x0: Math.min(...cols), x1: Math.max(...cols), confidence: c.confidence, area };
  });
}

/**
 * The part of a run that the `place`-th of `count` strands meeting in it (top first) takes: all of it
 * when alone; where strands meet, the top one keeps to the run's top edge and the bottom one to its
 * bottom edge, each as thick as it was (`last`), and one between them to its own rows.
 */
function shareOf(run: Run, last: Run, place: number, count: number): Run {
  if (count === 1) return run;
  const thickness = last[1] - last[0];
  if (place === 0) return [run[0], Math.min(run[1], run[0] + thickness)];
  if (place === count - 1) return [Math.max(run[0], run[1] - thickness), run[1]];
  const top = Math.max(run[0], last[0]);
  return [top, Math.max(top, Math.min(run[1], last[1]))];
}

/** A strand of ink being followed column by column: its profile so far and its last column's run. */
interface Strand {
  profile: Profile;
  last: Run;
  lastCol: number;
}

/**
 * Which strands (those that reached the previous column) each of a column's runs continues, top
 * to bottom. Strands and runs that touch form groups; in a group, one strand takes the run nearest
 * its course, and several strands keep their order (arcs that touch do not cross), the top one
 * taking the top run and the bottom one the bottom run. A run no strand takes starts a strand;
 * its parent is the group's strand nearest it, the one it parts from.
 */
function ownersOf(runs: readonly Run[], strands: readonly Strand[]): { owners: Strand[][]; parents: (Strand | undefined)[] } {
  const touches = (s: Strand, r: Run) => r[0] <= s.last[1] + 1 && r[1] >= s.last[0] - 1;
  const owners = runs.map((): Strand[] => []);
  const parents: (Strand | undefined)[] = runs.map(() => undefined);
  const seen = new Set<Strand>();
  for (const first of strands) {
    if (seen.has(first)) continue;
    // The group: strands and runs joined by touching.
    const group = new Set([first]);
    const groupRuns = new Set<number>();
    for (let grew = true; grew; ) {
      grew = false;
      runs.forEach((r, i) => {
        if (groupRuns.has(i) || ![...group].some((s) => touches(s, r))) return;
        groupRuns.add(i);
        grew = true;
      });
      for (const s of strands) {
        if (group.has(s) || ![...groupRuns].some((i) => touches(s, runs[i]!))) continue;
        group.add(s);
        grew = true;
      }
    }
    group.forEach((s) => seen.add(s));
    const ordered = [...group].sort((a, b) => middle(a.last) - middle(b.last));
    const indexes = [...groupRuns].sort((a, b) => a - b);
    if (!indexes.length) continue;
    ordered.forEach((s, j) => {
      const i =
        ordered.length === 1
          ? indexes.reduce((best, k) => (Math.abs(middle(runs[k]!) - middle(s.last)) < Math.abs(middle(runs[best]!) - middle(s.last)) ? k : best))
          : indexes[Math.round((j * (indexes.length - 1)) / (ordered.length - 1))]!;
      owners[i]!.push(s);
    });
    for (const i of indexes) {
      if (!owners[i]!.length) parents[i] = ordered.reduce((best, s) => (Math.abs(middle(s.last) - middle(runs[i]!)) < Math.abs(middle(best.last) - middle(runs[i]!)) ? s : best));
    }
  }
  return { owners, parents };
}

/** Each column's runs of the component's ink, top to bottom; runs a single row apart count as one. */
function columnRuns(c: Component, width: number): Map<number, Run[]> {
  const rows = new Map<number, number[]>();
  for (const i of c.pixels) {
    const col = i % width;
    const list = rows.get(col);
    if (list) list.push((i - col) / width);
    else rows.set(col, [(i - col) / width]);
  }
  const columns = new Map<number, Run[]>();
  for (const [col, list] of rows) {
    list.sort((a, b) => a - b);
    const runs: Run[] = [];
    for (const row of list) {
      const last = runs[runs.length - 1];
      if (last && row <= last[1] + 2) last[1] = Math.max(last[1], row);
      else runs.push([row, row]);
    }
    columns.set(col, runs);
  }
  return columns;
}

/** Pieces whose ends meet, left to right, joined into one arc each; `atHead` tells where two ties may meet. */
function joinPieces(pieces: readonly Piece[], space: number, atHead: (col: number, row: number) => boolean): Piece[] {
  const sorted = [...pieces].sort((a, b) => a.x0 - b.x0);
  const joined: Piece[] = [];
  for (const piece of sorted) {
    const host = joined.find((j) => {
      const gap = piece.x0 - j.x1;
      if (gap > space * JOIN_GAP || gap < -space * JOIN_OVERLAP) return false;
      const [endRow, startRow] = [middle(j.profile.get(j.x1)), middle(piece.profile.get(piece.x0))];
      if (Math.abs(endRow - startRow) > space * JOIN_RISE) return false;
      const head = atHead((j.x1 + piece.x0) / 2, (endRow + startRow) / 2);
      return !cusp(slopeAt(j, 'end', space), slopeAt(piece, 'start', space), pieceBow(j) + pieceBow(piece), head);
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
  return slopeBetween(piece.profile, edge, which === 'start' ? edge + space * SLOPE_RUN : edge - space * SLOPE_RUN);
}

/** Slope (rows per column, down positive) of a profile's columns between two columns, by least squares; 0 where too few to tell. */
function slopeBetween(profile: Profile, from: number, to: number): number {
  const cols = [...profile.keys()].filter((c) => (c - from) * (c - to) <= 0);
  if (cols.length < SLOPE_MIN_COLUMNS) return 0;
  const mx = cols.reduce((a, c) => a + c, 0) / cols.length;
  const my = cols.reduce((a, c) => a + middle(profile.get(c)), 0) / cols.length;
  let sxy = 0;
  let sxx = 0;
  for (const c of cols) {
    sxy += (c - mx) * (middle(profile.get(c)) - my);
    sxx += (c - mx) ** 2;
  }
  return sxx ? sxy / sxx : 0;
}

/**
 * A piece cut where it turns sharply against its bow (cusp): one component painted as a slur that
 * runs into a tie at the note they share, both under the notes, rises to a point there, as two pieces
 * would (joinPieces keeps such pieces apart). Each cusp is the extreme of its neighbourhood.
 */
function splitAtCusps(piece: Piece, space: number): Piece[] {
  const bow = pieceBow(piece);
  const run = space * SLOPE_RUN;
  const cols = [...piece.profile.keys()].sort((a, b) => a - b);
  const at = (c: number) => middle(piece.profile.get(c));
  const cut = cols.find((c) => {
    if (c - piece.x0 < run || piece.x1 - c < run) return false;
    const near = cols.filter((n) => Math.abs(n - c) <= run);
    const extreme = bow > 0 ? Math.min(...near.map(at)) : Math.max(...near.map(at));
    return at(c) === extreme && cusp(slopeBetween(piece.profile, c - run, c), slopeBetween(piece.profile, c, c + run), bow);
  });
  if (cut === undefined) return [piece];
  const part = (keep: (c: number) => boolean): Piece => {
    const profile: Profile = new Map([...piece.profile].filter(([c]) => keep(c)));
    const kept = [...profile.keys()];
    const area = [...profile.values()].reduce((sum, [top, bottom]) => sum + bottom - top + 1, 0);
    return { profile, own: piece.own, x0: Math.min(...kept), x1: Math.max(...kept), confidence: piece.confidence, area };
  };
  return [part((c) => c <= cut), ...splitAtCusps(part((c) => c >= cut), space)];
}

/**
 * A sharp turn where one piece's end (slope `left`) meets the next one's start (slope `right`),
 * pointing away from the way the pieces bow (`bow`: down positive). Beside a notehead the turn of
 * both slopes together counts.
 */
function cusp(left: number, right: number, bow: number, atHead = false): boolean {
  if (atHead ? Math.abs(left - right) < CUSP_SLOPE : Math.min(Math.abs(left), Math.abs(right)) < CUSP_SLOPE) return false;
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
