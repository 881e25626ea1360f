/**
 * Beams in the symbol model's class map, measured where the music reader
 * asks (through the page sight, reading/page-reading.ts): whether a beam runs
 * from one stem tip to another, how many beams cross a stem's free end, and
 * where a stack of beams lies beyond a head whose stem the model lost.
 */
import { MAP_SCALE } from './components.js';
import type { ClassMap } from './segment.js';
import { CLASS_INDEX } from './symbol-classes.js';

/** A beam between two stem tips lies within this many spaces of the straight line joining them … */
const ALONG_TOLERANCE = 0.25;
/** … at this share of the points looked at. */
const ALONG_SHARE = 0.9;

/** Whether beam pixels lie along the straight line from `a` to `b` (within a quarter space of it) at nine points in ten. */
export function beamAlong(map: ClassMap, [xa, ya]: readonly [number, number], [xb, yb]: readonly [number, number], space: number): boolean {
  const reach = Math.ceil((space * ALONG_TOLERANCE) / MAP_SCALE);
  let hits = 0;
  const samples = 10;
  for (let n = 1; n <= samples; n++) {
    const t = (n - 0.5) / samples;
    const col = Math.round((xa + (xb - xa) * t) / MAP_SCALE);
    const row = Math.round((ya + (yb - ya) * t) / MAP_SCALE);
    for (let dy = -reach; dy <= reach; dy++) {
      const y = row + dy;
      if (col >= 0 && col < map.width && y >= 0 && y < map.height && map.data[y * map.width + col] === CLASS_INDEX.beam) {
        hits++;
        break;
      }
    }
  }
  return hits >= samples * ALONG_SHARE;
}

/** A stack of beams beyond a head is looked for from this many spaces past the head's edge … */
const BEYOND_HEAD = 0.4;
/** … out to this many (a long stem's length) … */
const BEYOND_REACH = 3.5;
/** … and followed to its far side across gaps of up to this many spaces (beams stand a quarter space apart). */
const STACK_GAP = 0.4;

/**
 * A stack of beams in column x beyond a head at height `from`, going `way` (1: down, -1: up): looked
 * for from just past the head's edge out to a long stem's length, then followed to the stack's far
 * side (beams a quarter space apart, so a short gap belongs to it). `near` is how far the stack
 * starts from `from`, `far` the y of its far side; undefined where the column shows no beam.
 */
export function beamBeyond(map: ClassMap, x: number, from: number, way: 1 | -1, space: number): { near: number; far: number } | undefined {
  const col = Math.round(x / MAP_SCALE);
  if (col < 0 || col >= map.width) return undefined;
  const isBeam = (y: number) => y >= 0 && y < map.height && map.data[y * map.width + col] === CLASS_INDEX.beam;
  const start = Math.round((from + way * space * BEYOND_HEAD) / MAP_SCALE);
  const stop = Math.round((from + way * space * BEYOND_REACH) / MAP_SCALE);
  let y = start;
  while (y !== stop && !isBeam(y)) y += way;
  if (y === stop) return undefined;
  let gap = 0;
  let far = y;
  for (let yy = y; gap * MAP_SCALE <= space * STACK_GAP && yy >= 0 && yy < map.height; yy += way) {
    if (isBeam(yy)) {
      far = yy;
      gap = 0;
    } else gap++;
  }
  return { near: Math.abs(y * MAP_SCALE - from), far: (far + (way > 0 ? 1 : 0)) * MAP_SCALE };
}

/** Beams are measured in columns this many spaces beside a stem, near to far (clear of the stem's own pixels) … */
const BESIDE_STEM = [0.35, 0.6, 0.85];
/** … the nearest and the farthest this many spaces apart, for the stack's slope. */
const BESIDE_SPAN = 0.5;
/** A stack of beam pixels shorter than this many spaces along the stem is no beam. */
const MIN_STACK = 0.25;
/** Beams stand this many spaces apart, so n beams reach BEAM_PITCH × n − BEAM_GAP spaces … */
const BEAM_GAP = 0.25;
/** … each beam and its gap this many spaces. */
const BEAM_PITCH = 0.75;
/** Past two beams, this many spaces are added to a stack instead of BEAM_GAP: blur widens two beams by up to half a space, so a third counts only well past the midpoint. */
const THIRD_BEAM_ALLOWANCE = 0.1;

/**
 * Beams crossing a stem near its free end, counted from how far the stack of
 * beam pixels reaches along the stem: beams are about half a space thick and
 * a quarter space apart, and on a blurred page the gaps fill in, so the
 * stack's extent counts them where the gaps cannot be seen. A sloping stack
 * is crossed on the slant: its extent down a column is longer by the secant.
 */
export function beamsAtStem(map: ClassMap, x: number, tip: number, up: boolean, reach: number, space: number, lines: StaffLinesNear = NO_LINES): number {
  // Measured a little beside the stem, where the beams are clear of the stem's own pixels, on
  // whichever side they run (a group's last stem has them on its left only). A beamlet on one
  // side only still counts: the more beams a side shows, the more the stem carries.
  const sides = [-1, 1].map((side) => {
    const stacks = BESIDE_STEM.map((k) => beamStack(map, Math.round((x + side * k * space) / MAP_SCALE), tip, up, reach, space, lines));
    const [near, mid, far] = stacks;
    if (!near || !mid) return 0;
    const extent = Math.min(near[1] - near[0], mid[1] - mid[0]);
    const slope = far ? ((far[0] + far[1]) / 2 - (near[0] + near[1]) / 2) / (BESIDE_SPAN * space) : 0;
    return extent / Math.hypot(1, slope);
  });
  const extent = Math.max(...sides);
  if (extent < space * MIN_STACK) return 0;
  // n beams reach 0.75n − 0.25 spaces. Blur widens a stack by a fraction of a space (two beams on a
  // soft scan measure up to 1.7 spaces), so a third beam counts only well past the midpoint.
  const count = Math.max(1, Math.round((extent + space * BEAM_GAP) / (space * BEAM_PITCH)));
  return count <= 2 ? count : Math.max(2, Math.round((extent + space * THIRD_BEAM_ALLOWANCE) / (space * BEAM_PITCH)));
}

/** The staff lines near a stem, as the page sight knows them: their heights at a column, and their thickness. */
export interface StaffLinesNear {
  /** y of every staff line at prepared x. */
  at(x: number): readonly number[];
  /** A staff line's thickness, in prepared pixels. */
  thickness: number;
}

const NO_LINES: StaffLinesNear = { at: () => [], thickness: 0 };

/** A piece of a beam stack thinner than this many spaces is no beam of its own (a beam is half a space thick). */
const THINNER_THAN_BEAM = 0.45;
/** A stem's beam stack is looked for up to this many spaces beyond its tip … */
const STACK_BEYOND_TIP = 3.5;
/** … and back towards the heads as far as the stem reaches, but no less than this many spaces … */
const STACK_BACK_MIN = 1.2;
/** … and no more than this many. */
const STACK_BACK_MAX = 3.2;
/** Pieces of one stack stand at most this many spaces apart (a blurred gap between beams; never a whole space). */
const STACK_PIECE_GAP = 0.65;
/** The stack nearest the tip is the stem's only within this many spaces of it. */
const STACK_FROM_TIP = 1.2;

/**
 * The beam stack nearest a stem's tip in one class-map column, as its top
 * and bottom in prepared pixels, looking up to 3.5 spaces beyond the tip and
 * up to `reach` back towards the heads. A staff line just past the stack's
 * edge that the model painted as beam (it does where a beam runs close
 * along one) is no beam: an edge piece, apart from the rest, no thicker
 * than a line and lying on one, is left off.
 */
function beamStack(map: ClassMap, col: number, tip: number, up: boolean, reach: number, space: number, lines: StaffLinesNear): [number, number] | undefined {
  if (col < 0 || col >= map.width) return undefined;
  // The model sometimes paints a stretch of a sloping beam as a brace or bracket; none stands among
  // the notes, so that is beam too.
  const isBeam = (cls: number) => cls === CLASS_INDEX.beam || cls === CLASS_INDEX.braceBracket;
  // The stem's own pixels stop where the beams begin, so the stack lies beyond the tip (and a little inside).
  const outward = up ? -1 : 1;
  const from = Math.round((tip + outward * space * STACK_BEYOND_TIP) / MAP_SCALE);
  // The stem's own pixels may end where the first beam starts or where the last one ends.
  const to = Math.round((tip - outward * Math.max(space * STACK_BACK_MIN, Math.min(space * STACK_BACK_MAX, reach))) / MAP_SCALE);
  // Each run of stacked beams, as its pieces: the stretches of beam pixels between gaps.
  const runs: [number, number][][] = [];
  for (let y = Math.max(0, Math.min(from, to)); y <= Math.min(map.height - 1, Math.max(from, to)); y++) {
    if (!isBeam(map.data[y * map.width + col]!)) continue;
    const last = runs[runs.length - 1];
    const piece = last?.[last.length - 1];
    // Beams are a quarter space apart; a blurred gap may be a little more, never a whole space.
    if (piece && piece[1] === y - 1) piece[1] = y;
    else if (piece && (y - piece[1]) * MAP_SCALE <= space * STACK_PIECE_GAP) last!.push([y, y]);
    else runs.push([[y, y]]);
  }
  const onLine = ([a, b]: [number, number]) => (b - a + 1) * MAP_SCALE < space * THINNER_THAN_BEAM && lines.at(col * MAP_SCALE).some((ly) => Math.abs(ly - ((a + b + 1) / 2) * MAP_SCALE) <= (lines.thickness + MAP_SCALE) / 2);
  for (const run of runs) {
    while (run.length > 1 && onLine(run[0]!)) run.shift();
    while (run.length > 1 && onLine(run[run.length - 1]!)) run.pop();
  }
  if (!runs.length) return undefined;
  const tipRow = tip / MAP_SCALE;
  const distance = ([a, b]: [number, number]) => (tipRow < a ? a - tipRow : tipRow > b ? tipRow - b : 0);
  const extents = runs.map((run): [number, number] => [run[0]![0], run[run.length - 1]![1]]);
  const stack = extents.reduce((best, r) => (distance(r) < distance(best) ? r : best));
  if (distance(stack) * MAP_SCALE > space * STACK_FROM_TIP) return undefined;
  return [stack[0] * MAP_SCALE, (stack[1] + 1) * MAP_SCALE];
}
