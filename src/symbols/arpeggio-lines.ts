/**
 * Arpeggio signs read in the page's ink: a wavy upright line just left of a
 * chord (left of its accidentals too), running the height of its heads, and
 * on over the next staff where the chord is spread over both hands. The
 * symbol model has no class for it and paints it in pieces (barline, stem,
 * accidental), so the line is traced in the ink itself, row by row.
 *
 * Each row of the line is a short run of ink; from row to row the runs
 * touch, and their middles swing left and right a few times per space. What
 * else stands upright beside a chord is told apart so:
 *
 * - stems, barlines and the strokes of sharps and naturals are straight;
 * - a flat's bowl, a head or a sharp's bar is wider than the line's runs,
 *   and ends the trace there;
 * - staff and ledger lines cross the whole column: their rows are passed
 *   over, neither ending the trace nor counting in it.
 */
import type { BinaryImage } from '../preparation/binarize.js';

/** An arpeggio stands at most this many spaces left of its chord's heads (its accidentals stand between) … */
const ARPEGGIO_MAX_GAP = 3.5;
/** … and at least this many. */
const ARPEGGIO_MIN_GAP = 0.1;
/** A run of the line in one row is at most this many spaces wide … */
const RUN_MAX_WIDTH = 0.8;
/** … and a run this many spaces wide or wider is a line crossing the column (a staff or ledger line): its row is passed over. */
const LINE_MIN_WIDTH = 1.5;
/** At most this many spaces of rows on end are passed over so. */
const MAX_PASSED = 0.5;
/** An arpeggio sign is at least this many spaces tall, even before a third (a letter or a figure is less). */
const MIN_HEIGHT = 2;
/** The whole line stays within this many spaces across. */
const MAX_SWAY = 1.3;
/** The line reaches within this many spaces of the chord's top and bottom heads' middles. */
const HEAD_REACH = 0.6;
/** Its middle turns back after moving at least this many spaces one way (the wiggle's swing; a straight line's wobble is less). */
const SWING = 0.15;
/** It turns at least this many times per space of its height (a wiggle is a space or less from turn to turn and back) … */
const TURNS_PER_SPACE = 0.8;
/** … and at least this many times in all … */
const MIN_TURNS = 2;
/** … and never goes further than this many spaces without turning (from either end to the first turn, too). */
const MAX_HALF_WAVE = 1;

interface Run {
  x0: number;
  x1: number;
  /** Too wide to be the line's: a trace ends at it. */
  wide?: boolean;
}

/**
 * Whether a wavy upright line stands left of x (a chord's heads' left edge),
 * within a few spaces, running at least from `top` to `bottom` (the middles
 * of the chord's top and bottom heads).
 */
export function arpeggioBefore(ink: BinaryImage, x: number, top: number, bottom: number, space: number): boolean {
  return wavyLineIn(ink, x - space * ARPEGGIO_MAX_GAP, x - space * ARPEGGIO_MIN_GAP, top, bottom, space);
}

/**
 * Whether a box the model called an accidental is a piece of an arpeggio
 * sign: a wavy line runs through it, up and down past it.
 */
export function onArpeggioLine(ink: BinaryImage, box: { x0: number; x1: number; y0: number; y1: number }, space: number): boolean {
  const middle = (box.y0 + box.y1) / 2;
  return wavyLineIn(ink, box.x0 - space * BOX_PAD, box.x1 + space * BOX_PAD, middle, middle, space);
}

/** A box is searched for a wavy line this many spaces beyond its edges. */
const BOX_PAD = 0.2;

/** Whether a wavy upright line stands within columns [x0, x1), running at least from `top` to `bottom`. */
function wavyLineIn(ink: BinaryImage, x0: number, x1: number, top: number, bottom: number, space: number): boolean {
  const wx0 = Math.max(0, Math.floor(x0));
  const wx1 = Math.min(ink.width, Math.ceil(x1));
  const reach = space * HEAD_REACH;
  const y0 = Math.max(0, Math.floor(top - space * (HEAD_REACH + 1)));
  const y1 = Math.min(ink.height - 1, Math.ceil(bottom + space * (HEAD_REACH + 1)));
  if (wx1 - wx0 < 2 || y1 <= y0) return false;
  const rows: (Run[] | 'line')[] = [];
  for (let y = y0; y <= y1; y++) rows.push(runsOf(ink, y, wx0, wx1, space));
  // Start from every short run in the chord's middle row (or the nearest row that is not a line's).
  let start = Math.round((top + bottom) / 2) - y0;
  for (let d = 0; rows[start] === 'line' && d < space; d++) start += d % 2 ? d : -d;
  const middle = rows[start];
  if (!middle || middle === 'line') return false;
  return middle.some((run) => {
    if (run.wide) return false;
    const up = trace(rows, start, run, -1, space);
    const down = trace(rows, start, run, 1, space);
    const path = [...up.reverse(), { y: start, run }, ...down];
    const first = path[0]!.y + y0;
    const last = path[path.length - 1]!.y + y0;
    if (first > top + reach || last < bottom - reach || last - first < space * MIN_HEIGHT) return false;
    const left = Math.min(...path.map((p) => p.run.x0));
    const right = Math.max(...path.map((p) => p.run.x1));
    if (right - left > space * MAX_SWAY) return false;
    // Both edges of the line swing (an accidental's upright stroke keeps one edge straight where its bars join it).
    return [(p: { run: Run }) => p.run.x0, (p: { run: Run }) => p.run.x1].every((edge) => wiggles(path.map((p) => ({ y: p.y, x: edge(p) })), last - first, space));
  });
}

/** Whether a path's edge turns often enough and evenly, all along. */
function wiggles(points: readonly { y: number; x: number }[], height: number, space: number): boolean {
  const turns = turnsOf(points, space * SWING);
  if (turns.length < Math.max(MIN_TURNS, (height / space) * TURNS_PER_SPACE)) return false;
  // A wiggle turns evenly, every half wave or so, all along (a clef's curl turns once or twice, far apart).
  const stops = [points[0]!.y, ...turns, points[points.length - 1]!.y];
  return stops.every((y, k) => k === 0 || y - stops[k - 1]! <= space * MAX_HALF_WAVE);
}

/** The short runs of ink in row y within [x0, x1); 'line' where a run there is a line's. */
function runsOf(ink: BinaryImage, y: number, x0: number, x1: number, space: number): Run[] | 'line' {
  const runs: Run[] = [];
  let x = x0;
  while (x < x1) {
    if (!ink.data[y * ink.width + x]) {
      x++;
      continue;
    }
    let end = x;
    while (end + 1 < ink.width && ink.data[y * ink.width + end + 1]) end++;
    // A run is measured whole, past the window's edges.
    let begin = x;
    while (begin > 0 && ink.data[y * ink.width + begin - 1]) begin--;
    const width = end - begin + 1;
    if (width >= space * LINE_MIN_WIDTH) return 'line';
    if (width <= space * RUN_MAX_WIDTH) runs.push({ x0: begin, x1: end + 1 });
    else runs.push({ x0: begin, x1: end + 1, wide: true });
    x = end + 1;
  }
  return runs;
}

/** Follows the line from `run` in row `start` going `way`, as long as the runs touch from row to row. */
function trace(rows: readonly (Run[] | 'line')[], start: number, run: Run, way: 1 | -1, space: number): { y: number; run: Run }[] {
  const path: { y: number; run: Run }[] = [];
  let current = run;
  let passed = 0;
  for (let y = start + way; y >= 0 && y < rows.length; y += way) {
    const row = rows[y]!;
    if (row === 'line') {
      if (++passed > space * MAX_PASSED) break;
      continue;
    }
    const next = row.find((r) => r.x0 <= current.x1 && r.x1 >= current.x0);
    // Beside a line passed over, the wiggle may have moved on by a pixel or two.
    const near = next ?? (passed ? row.find((r) => r.x0 <= current.x1 + passed && r.x1 >= current.x0 - passed) : undefined);
    if (!near || near.wide) break;
    passed = 0;
    current = near;
    path.push({ y, run: near });
  }
  return path;
}

/** The rows where a path's middle turns back after moving at least `swing` one way. */
function turnsOf(points: readonly { y: number; x: number }[], swing: number): number[] {
  const turns: number[] = [];
  let way = 0;
  let high = points[0] ?? { y: 0, x: 0 };
  let low = high;
  for (const p of points) {
    if (way >= 0 && p.x > high.x) high = p;
    if (way <= 0 && p.x < low.x) low = p;
    if (way >= 0 && high.x - p.x >= swing) {
      if (way > 0) turns.push(high.y);
      way = -1;
      low = p;
    } else if (way <= 0 && p.x - low.x >= swing) {
      if (way < 0) turns.push(low.y);
      way = 1;
      high = p;
    }
  }
  return turns;
}
