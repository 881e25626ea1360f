/**
 * A barline's strokes, measured in the page's ink.
 *
 * The symbol model's class map is coarser than the page (two pixels a cell)
 * and its edges blur, so a thin barline painted there can measure as thick as
 * a heavy one, and the two strokes of a double or final barline may merge
 * into one component. Across the staff's spaces, between its lines, the ink
 * shows each stroke as a run of its own with its own width.
 */
import type { BinaryImage } from '../preparation/binarize.js';
import { median } from '../reading/median.js';
import { staffLineY, type Staff } from '../staves/detect-staves.js';
import type { BarlineSymbol } from './read-symbols.js';

/** How far, in spaces, beside the painted box the ink is searched for the barline's strokes. */
const STROKE_SEARCH_MARGIN = 0.3;
/** Where, as shares of the space between two staff lines, the ink is sampled: clear of the lines. */
const SAMPLE_FRACTIONS = [0.3, 0.5, 0.7] as const;
/** A run of ink wider than this many spaces is no barline stroke (a notehead, a beam, a rest). */
const STROKE_MAX_WIDTH = 0.9;
/** Samples that must show the same number of strokes for the ink's reading to be trusted, as a share of those taken. */
const AGREEING_SAMPLES = 0.5;

/**
 * The barline as the ink shows it: one symbol per stroke, each with the stroke's own width and centre.
 * The barline unchanged where the ink does not say clearly (too few rows agree on the strokes).
 */
export function barlineStrokes(line: BarlineSymbol, staves: readonly Staff[], ink: BinaryImage, space: number): BarlineSymbol[] {
  const from = Math.max(0, Math.floor(line.x0 - space * STROKE_SEARCH_MARGIN));
  const to = Math.min(ink.width, Math.ceil(line.x1 + space * STROKE_SEARCH_MARGIN));
  const samples: [number, number][][] = [];
  for (const index of line.staves) {
    const staff = staves[index]!;
    for (let l = 0; l < 4; l++) {
      const above = staffLineY(staff, l, line.x);
      const below = staffLineY(staff, l + 1, line.x);
      for (const f of SAMPLE_FRACTIONS) samples.push(runsInRow(ink, Math.round(above + (below - above) * f), from, to));
    }
  }
  if (!samples.length) return [line];
  // The number of strokes most rows agree on; a head, a slur or a letter touching the line in a few rows does not count.
  const tally = new Map<number, number>();
  for (const runs of samples) tally.set(runs.length, (tally.get(runs.length) ?? 0) + 1);
  const [count, agreeing] = [...tally].reduce((a, b) => (b[1] > a[1] ? b : a));
  if (count === 0 || agreeing < samples.length * AGREEING_SAMPLES) return [line];
  const agreed = samples.filter((runs) => runs.length === count);
  const strokes: BarlineSymbol[] = [];
  for (let k = 0; k < count; k++) {
    const starts = median(agreed.map((runs) => runs[k]![0]))!;
    const ends = median(agreed.map((runs) => runs[k]![1]))!;
    if (ends - starts > space * STROKE_MAX_WIDTH) return [line];
    strokes.push({ ...line, x0: starts, x1: ends, x: (starts + ends) / 2, thickness: ends - starts });
  }
  return strokes;
}

/** The runs of ink in row y between columns `from` and `to` (end exclusive), as [start, end) pairs; runs cut by the window's edges are left out. */
function runsInRow(ink: BinaryImage, y: number, from: number, to: number): [number, number][] {
  if (y < 0 || y >= ink.height) return [];
  const row = y * ink.width;
  const runs: [number, number][] = [];
  let start = -1;
  for (let x = from; x <= to; x++) {
    const on = x < to && ink.data[row + x]! > 0;
    if (on && start < 0) start = x;
    else if (!on && start >= 0) {
      if (start > from && x < to) runs.push([start, x]);
      start = -1;
    }
  }
  return runs;
}
