/**
 * Staff detection on a prepared page (staff space ≈ CANONICAL_STAFF_SPACE).
 *
 * The page is cut into vertical strips a few staff spaces wide. In each strip
 * a staff line is a row almost fully inked across the strip; five such rows
 * one staff space apart are a staff segment there. Segments are chained from
 * strip to strip, following lines that bend (page curl on photos), and each
 * chain becomes a staff whose five lines are polylines through the strip
 * centres. Six equally spaced lines are tablature, which is refused.
 *
 * Working strip by strip is what makes this survive curl and residual skew,
 * and tiny orchestral staves only need the page prepared to canonical size.
 */
import { OmrError } from '../errors.js';
import type { BinaryImage } from '../preparation/binarize.js';

export interface Staff {
  /** x of the sample points, left to right. */
  xs: number[];
  /** `lines[l][k]`: y of line l (0 = top) at `xs[k]`. */
  lines: number[][];
  /** Horizontal extent of the staff lines. */
  x0: number;
  x1: number;
  /** Mean distance between adjacent lines. */
  space: number;
}

export interface StaffDetectionOptions {
  /** Expected staff space in pixels (the prepared page's canonical size). */
  staffSpace: number;
  /**
   * Most rows a staff line may fill (default {@link PLAIN_LINE_ROWS}); the smoothed ink of a blurred
   * page (faint-lines.ts) draws its lines thicker.
   */
  lineRows?: number;
}

/** Strip width in staff spaces: wide enough that lines dominate a row, narrow enough to follow curl. */
const STRIP_SPACES = 4;
/** A row is a line candidate when this share of the strip is ink. */
const LINE_FILL = 0.7;
/** Lines of a staff stand evenly: each gap within this share of the run's spacing so far … */
const SPACING_SHARE = 0.25;
/** … and within this many spaces of the page's staff space. */
const SPACING_TOLERANCE = 0.35;
/** Lines nearer than this many spaces are one line found twice. */
const DOUBLE_LINE = 0.5;
/** A strip's piece of a staff goes on the last strip's piece whose lines stand within this many spaces of its own. */
const CHAIN_REACH = 0.6;

interface Segment {
  strip: number;
  ys: number[];
}

export function detectStaves(ink: BinaryImage, options: StaffDetectionOptions): Staff[] {
  const { width, height, data } = ink;
  const space = options.staffSpace;
  const stripWidth = Math.max(8, Math.round(space * STRIP_SPACES));
  const strips = Math.max(1, Math.floor(width / stripWidth));
  const segmentsByStrip: Segment[][] = [];
  let tablatureVotes = 0;
  let staffVotes = 0;
  // A column counts for row y when it has ink within one row of y, so a line that climbs or falls by
  // a pixel or two across the strip (residual skew, curl) still fills its row.
  const near = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    const up = y > 0 ? -width : 0;
    const down = y < height - 1 ? width : 0;
    for (let i = y * width, end = i + width; i < end; i++) near[i] = data[i]! | data[i + up]! | data[i + down]!;
  }
  for (let s = 0; s < strips; s++) {
    const xa = s * stripWidth;
    const xb = Math.min(width, xa + stripWidth);
    const rows = new Float32Array(height);
    for (let y = 0; y < height; y++) {
      let n = 0;
      for (let i = y * width + xa, end = y * width + xb; i < end; i++) n += near[i]!;
      rows[y] = n / (xb - xa);
    }
    const lines = lineCandidates(rows, LINE_FILL, options.lineRows ?? PLAIN_LINE_ROWS);
    const { staves, sixLine } = groupLines(lines, space);
    segmentsByStrip.push(staves.map((ys) => ({ strip: s, ys })));
    staffVotes += staves.length;
    tablatureVotes += sixLine;
  }
  const chains = mergeChains(chainSegments(segmentsByStrip, space), space);
  const staves = chains
    .filter((chain) => chain.length >= Math.max(2, Math.min(4, strips / 6)))
    .map((chain) => toStaff(chain, stripWidth, ink, space));
  const unique = withoutRetraced(staves);
  if (tablatureVotes > Math.max(2, staffVotes)) {
    throw new OmrError('UNSUPPORTED_TABLATURE', 'This page is written in six-line guitar tablature, which ScoreSight does not read. Use a page in standard notation.');
  }
  if (!unique.length) {
    throw new OmrError('NO_MUSIC_DETECTED', 'No music staves were found on this page. Check that it is a page of printed music, in focus and not cropped.');
  }
  return unique;
}

/**
 * One staff traced twice is kept once, the longer trace. Where a strip yields two candidate
 * groups for one staff, the second starts a chain of its own that runs beside the first (seen on
 * an orchestral scan enlarged twofold); two staves never share rows over the same stretch of page.
 */
export function withoutRetraced(staves: readonly Staff[]): Staff[] {
  const kept: Staff[] = [];
  // Compared where both run (midway along their common stretch), since a page's staves need not be level.
  const sameRows = (a: Staff, b: Staff) => {
    if (a.x0 >= b.x1 || b.x0 >= a.x1) return false;
    const x = (Math.max(a.x0, b.x0) + Math.min(a.x1, b.x1)) / 2;
    return staffLineY(a, 0, x) < staffLineY(b, 4, x) && staffLineY(b, 0, x) < staffLineY(a, 4, x);
  };
  for (const staff of [...staves].sort((a, b) => b.x1 - b.x0 - (a.x1 - a.x0))) {
    if (!kept.some((k) => sameRows(k, staff))) kept.push(staff);
  }
  return kept.sort((a, b) => a.lines[0]![0]! - b.lines[0]![0]!);
}

/** Rows a plain line fills: its own 1–3 pixels, and one more each side (see the row fill above). */
export const PLAIN_LINE_ROWS = 6;

/**
 * Centres of runs of rows filled above the threshold: `lines` those thin
 * enough to be staff lines, `thick` those a row thicker, which may be a line
 * a scan darkened (see groupLines). Thicker bands (a beam run along the
 * strip, a filled box) are neither.
 */
function lineCandidates(rows: Float32Array, fill: number, lineRows: number): { lines: number[]; thick: number[] } {
  const lines: number[] = [];
  const thick: number[] = [];
  let y = 0;
  while (y < rows.length) {
    if (rows[y]! < fill) {
      y++;
      continue;
    }
    let sum = 0;
    let weight = 0;
    const start = y;
    while (y < rows.length && rows[y]! >= fill) {
      sum += y * rows[y]!;
      weight += rows[y]!;
      y++;
    }
    if (y - start <= lineRows) lines.push(sum / weight);
    else if (y - start === lineRows + 1) thick.push(sum / weight);
  }
  return { lines, thick };
}

/**
 * Greedy grouping of line candidates into runs of equally spaced lines.
 * Runs of five are staves; a run of six is counted as tablature evidence.
 * A run that skips one line where a thick band stands takes the band as that
 * line, placed midway: a line darkened by a streak is still a line, while a
 * band beside a staff (a beam) never completes one.
 */
function groupLines({ lines, thick }: { lines: number[]; thick: number[] }, space: number): { staves: number[][]; sixLine: number } {
  const staves: number[][] = [];
  let sixLine = 0;
  let i = 0;
  while (i < lines.length) {
    const run = [lines[i]!];
    let j = i + 1;
    while (j < lines.length) {
      const last = run[run.length - 1]!;
      const gap = lines[j]! - last;
      const expected = run.length > 1 ? (last - run[0]!) / (run.length - 1) : space;
      const fits = (g: number) => Math.abs(g - expected) <= SPACING_SHARE * expected && Math.abs(g - space) <= space * SPACING_TOLERANCE;
      if (fits(gap)) {
        run.push(lines[j]!);
        j++;
      } else if (gap < space * DOUBLE_LINE) {
        j++; // a double-detected line
      } else if (fits(gap / 2) && thick.some((t) => Math.abs(t - (last + gap / 2)) <= SPACING_SHARE * expected)) {
        run.push(last + gap / 2, lines[j]!);
        j++;
      } else {
        break;
      }
    }
    if (run.length === 5) staves.push(run);
    else if (run.length === 6) sixLine++;
    else if (run.length > 6 && run.length % 5 === 0) {
      // Staves closer than usual merge into one run; split it back.
      for (let k = 0; k < run.length; k += 5) staves.push(run.slice(k, k + 5));
    }
    i = run.length > 1 ? j : i + 1;
  }
  return { staves, sixLine };
}

/** Links segments of neighbouring strips whose lines continue each other. */
function chainSegments(byStrip: Segment[][], space: number): Segment[][] {
  const chains: Segment[][] = [];
  const open: Segment[][] = [];
  for (const segments of byStrip) {
    const used = new Set<Segment[]>();
    for (const seg of segments) {
      let best: Segment[] | undefined;
      let bestDist = space * CHAIN_REACH;
      for (const chain of open) {
        if (used.has(chain)) continue;
        const last = chain[chain.length - 1]!;
        if (seg.strip - last.strip > 3) continue;
        const dist = Math.abs(seg.ys[0]! - last.ys[0]!) + Math.abs(seg.ys[4]! - last.ys[4]!);
        if (dist / 2 < bestDist) {
          bestDist = dist / 2;
          best = chain;
        }
      }
      if (best) {
        best.push(seg);
        used.add(best);
      } else {
        const chain = [seg];
        chains.push(chain);
        open.push(chain);
        used.add(chain);
      }
    }
  }
  return chains;
}

/**
 * Joins chains that are one staff interrupted: where a passage hides the lines over several strips
 * (dense beams, a cluster of ledger lines), a staff falls apart into pieces whose lines continue
 * each other across the gap.
 */
function mergeChains(chains: Segment[][], space: number): Segment[][] {
  const sorted = [...chains].sort((a, b) => a[0]!.strip - b[0]!.strip);
  const merged: Segment[][] = [];
  for (const chain of sorted) {
    const first = chain[0]!;
    const target = merged.find((m) => {
      const last = m[m.length - 1]!;
      if (last.strip >= first.strip) return false;
      // Carry the earlier piece's slope across the gap: on a photographed page the lines are not level.
      const before = m.length > 1 ? m[m.length - 2]! : last;
      const slope = before === last ? 0 : (last.ys[2]! - before.ys[2]!) / (last.strip - before.strip);
      const shift = slope * (first.strip - last.strip);
      return Math.abs(last.ys[0]! + shift - first.ys[0]!) < space * CHAIN_REACH && Math.abs(last.ys[4]! + shift - first.ys[4]!) < space * CHAIN_REACH;
    });
    if (target) target.push(...chain);
    else merged.push([...chain]);
  }
  return merged;
}

function toStaff(chain: Segment[], stripWidth: number, ink: BinaryImage, space: number): Staff {
  const xs = chain.map((s) => (s.strip + 0.5) * stripWidth);
  const lines = [0, 1, 2, 3, 4].map((l) => chain.map((s) => s.ys[l]!));
  const staff: Staff = { xs, lines, x0: xs[0]! - stripWidth / 2, x1: xs[xs.length - 1]! + stripWidth / 2, space: 0 };
  staff.space = (lines[4]!.reduce((a, b) => a + b, 0) - lines[0]!.reduce((a, b) => a + b, 0)) / (4 * xs.length);
  extendEnds(staff, ink, space);
  return staff;
}

/** Moves each end of the staff to where its lines really stop, column by column. */
function extendEnds(staff: Staff, ink: BinaryImage, space: number): void {
  const covered = (x: number) => {
    if (x < 0 || x >= ink.width) return false;
    let hits = 0;
    for (let l = 0; l < 5; l++) {
      const y = Math.round(staffLineY(staff, l, x));
      let hit = false;
      for (let dy = -1; dy <= 1 && !hit; dy++) {
        const yy = y + dy;
        if (yy >= 0 && yy < ink.height && ink.data[yy * ink.width + x]) hit = true;
      }
      if (hit) hits++;
    }
    return hits >= 4;
  };
  // Tolerate short gaps (a broken line on a poor scan) of up to half a staff space.
  const gapAllowed = Math.max(2, Math.round(space / 2));
  const walk = (from: number, dir: 1 | -1) => {
    let x = Math.round(from);
    let last = x;
    let gap = 0;
    while (x >= 0 && x < ink.width && gap <= gapAllowed) {
      if (covered(x)) {
        last = x;
        gap = 0;
      } else {
        gap++;
      }
      x += dir;
    }
    return last;
  };
  const mid = (staff.xs[0]! + staff.xs[staff.xs.length - 1]!) / 2;
  staff.x0 = walk(Math.min(staff.xs[0]!, mid), -1);
  staff.x1 = walk(Math.max(staff.xs[staff.xs.length - 1]!, mid), 1);
}

/**
 * y of line `line` (0 = top) at x: interpolated between the sample points, and
 * continued beyond the end samples along the slope of the last two (a leaning
 * staff on a photo keeps leaning up to its ends).
 */
export function staffLineY(staff: Staff, line: number, x: number): number {
  const { xs } = staff;
  const ys = staff.lines[line]!;
  const n = xs.length;
  if (n === 1) return ys[0]!;
  let k: number;
  if (x <= xs[0]!) k = 0;
  else if (x >= xs[n - 1]!) k = n - 2;
  else for (k = 0; xs[k + 1]! < x; k++);
  const t = (x - xs[k]!) / (xs[k + 1]! - xs[k]!);
  return ys[k]! + (ys[k + 1]! - ys[k]!) * t;
}
