/**
 * Measures of a system from its barlines. A barline is drawn on every staff
 * of a system at the same x (through the gaps or not), so barline candidates
 * are pooled over the system's staves and a line seen on only a few of them
 * (a stem the model took for a barline) is dropped, as is a line through a
 * notehead (stems in line down a system where every staff plays one rhythm).
 * Lines close together are one double or repeat barline; dots beside it make
 * it a repeat.
 */
import type { Barline, BarStyle } from '../score/model.js';
import type { PageSight } from '../reading/page-reading.js';
import { staffLineY, type Staff } from '../staves/detect-staves.js';
import type { BarlineSymbol, Head, Mark } from '../symbols/read-symbols.js';

export interface SystemMeasures {
  /** Left edge of each measure, then the right edge of the last: measures.length + 1 values. */
  bounds: number[];
  /** Barline at the right edge of each measure (undefined: regular). */
  right: (Barline | undefined)[];
  /** Barline at the left edge of each measure (forward repeats). */
  left: (Barline | undefined)[];
}

/** A line standing this many spaces or less beyond a notehead's edge is the head's stem. */
const STEM_IN_HEAD = 0.15;
/** Barline strokes less than this many spaces apart are one barline (double, final, repeat). */
const BARLINE_GROUP = 1.5;
/** A barline within this many spaces of a system's start or end is its edge, not a measure's. */
const SYSTEM_EDGE = 1.5;
/** Strokes of one barline closer than this many spaces are one stroke seen twice. */
const SAME_STROKE = 0.4;
/** A barline stroke at least this many spaces thick may be heavy … */
const HEAVY_STROKE = 0.35;
/**
 * … when it is also this many spaces thicker than the system's thin strokes: a heavy stroke is about
 * half a space, a thin one a fifth or less, and blur on a scan or a photo thickens both alike.
 */
const HEAVY_EXCESS = 0.25;
/**
 * The system's thin strokes: the median of its strokes' widths (thin barlines outnumber heavy ones on any
 * system). On a scan blur thickens thin strokes unevenly, and a lower quantile takes the thinnest of them
 * for the measure, so that an ordinary barline a little bolder than the rest reads as heavy.
 */
const THIN_QUANTILE = 0.5;
/** A line on the next staff down continues one within this many spaces across, when the system's lean is measured. */
const LEAN_REACH = 2.5;
/** A line continues a cluster on a staff above it within this many spaces across, and this much more per staff between. */
const CLUSTER_REACH = 0.5;
const CLUSTER_REACH_PER_STAFF = 0.15;

export function systemMeasures(
  staffIndices: readonly number[],
  staves: readonly Staff[],
  barlines: readonly BarlineSymbol[],
  repeatDots: readonly Mark[],
  space: number,
  sight?: PageSight,
  heads: readonly Head[] = [],
): SystemMeasures {
  const start = Math.min(...staffIndices.map((i) => staves[i]!.x0));
  const end = Math.max(...staffIndices.map((i) => staves[i]!.x1));
  const members = new Set(staffIndices);
  const found = barlines.filter((b) => b.staves.some((s) => members.has(s)));
  // Barlines the model missed on a staff show in its pixels; pooled below like the model's own.
  const fromPixels = new Set<BarlineSymbol>();
  if (sight) {
    staffIndices.forEach((s, k) => {
      const seen = found.filter((b) => b.staves.includes(s)).map((b) => b.x);
      const edges = { top: k === 0, bottom: k === staffIndices.length - 1 };
      for (const line of sight.barlinesInInk(s, edges)) {
        if (seen.some((x) => Math.abs(x - line.x) <= space)) continue;
        found.push(line);
        fromPixels.add(line);
      }
    });
  }
  // A line through a notehead is its stem: no barline crosses a head. (Where every staff plays one
  // rhythm, the stems of a beat stand in line down the system like a barline.)
  const systemHeads = heads.filter((h) => members.has(h.staff));
  const throughHead = (line: BarlineSymbol) => systemHeads.some((h) => line.staves.includes(h.staff) && line.x > h.x0 - space * STEM_IN_HEAD && line.x < h.x1 + space * STEM_IN_HEAD);
  const candidates = found.filter((line) => !throughHead(line)).sort((a, b) => a.x - b.x);

  // Pool by x: one cluster per barline position, remembering which staves it was seen on. Going down
  // the system staff by staff, a line joins the cluster it continues. On a photo the barlines lean,
  // so a line is looked for where the system's lean puts it, not straight below.
  const rank = new Map(staffIndices.map((s, k) => [s, k]));
  const ranks = (line: BarlineSymbol) => line.staves.filter((s) => members.has(s)).map((s) => rank.get(s)!);
  const centreY = (line: BarlineSymbol) => (line.y0 + line.y1) / 2;
  const slope = systemLean(candidates, ranks, centreY, space);
  const clusters: { lines: BarlineSymbol[]; staves: Set<number>; x: number; y: number; rank: number }[] = [];
  for (const line of [...candidates].sort((a, b) => Math.min(...ranks(a)) - Math.min(...ranks(b)) || a.x - b.x)) {
    const r = Math.min(...ranks(line));
    let best: (typeof clusters)[number] | undefined;
    let bestOff = Infinity;
    for (const cluster of clusters) {
      if (cluster.rank >= r) continue; // strokes on one staff are separate (double barlines)
      const off = Math.abs(line.x - (cluster.x + slope * (centreY(line) - cluster.y)));
      if (off < space * (CLUSTER_REACH + CLUSTER_REACH_PER_STAFF * (r - cluster.rank)) && off < bestOff) {
        best = cluster;
        bestOff = off;
      }
    }
    if (best) {
      best.lines.push(line);
      for (const s of line.staves) if (members.has(s)) best.staves.add(s);
      Object.assign(best, { x: line.x, y: centreY(line), rank: Math.max(...ranks(line)) });
    } else {
      clusters.push({ lines: [line], staves: new Set(line.staves.filter((s) => members.has(s))), x: line.x, y: centreY(line), rank: Math.max(...ranks(line)) });
    }
  }
  clusters.sort((a, b) => mean(a.lines.map((l) => l.x)) - mean(b.lines.map((l) => l.x)));
  const needed = Math.max(1, Math.ceil(staffIndices.length / 2));
  // The model misses a barline on some staves of a degraded page; where it saw one on several, the
  // page's pixels show whether a line crosses the others too.
  const crossed = (c: (typeof clusters)[number]) => {
    if (!sight || c.staves.size < 2 || c.staves.size >= needed) return c.staves.size;
    const lineX = (s: number) => c.x + slope * (staffLineY(staves[s]!, 2, c.x) - c.y);
    return c.staves.size + staffIndices.filter((s) => !c.staves.has(s) && sight.lineAcross(s, lineX(s), slope)).length;
  };
  // A line only the pixels show, on one staff of several, is more likely a chord's stem spanning that
  // staff than a barline the model missed: it must cross two staves.
  const pixelsOnly = (c: (typeof clusters)[number]) => c.lines.every((l) => fromPixels.has(l));
  const kept = clusters.filter((c) => crossed(c) >= (pixelsOnly(c) ? Math.max(needed, Math.min(2, staffIndices.length)) : needed));

  // Strokes less than a space and a half apart are one barline (double, final, repeat).
  const groups: BarlineSymbol[][] = [];
  for (const cluster of kept) {
    const x = mean(cluster.lines.map((l) => l.x));
    const last = groups[groups.length - 1];
    if (last && x - mean(last.map((l) => l.x)) < space * BARLINE_GROUP) last.push(...cluster.lines);
    else groups.push([...cluster.lines]);
  }

  const widths = candidates.map((l) => l.thickness).sort((a, b) => a - b);
  const thin = widths[Math.floor((widths.length - 1) * THIN_QUANTILE)] ?? 0;
  const heavy = (l: BarlineSymbol) => l.thickness >= Math.max(space * HEAVY_STROKE, thin + space * HEAVY_EXCESS);
  const bounds = [start];
  const right: (Barline | undefined)[] = [];
  const left: (Barline | undefined)[] = [undefined];
  for (const group of groups) {
    const x0 = Math.min(...group.map((l) => l.x0));
    const x1 = Math.max(...group.map((l) => l.x1));
    const x = (x0 + x1) / 2;
    const [ending, opening] = describe(group, repeatDots, members, space, heavy);
    // On a photo the system leans, so a line is measured against the ends of the staves it crosses.
    const fromStart = Math.min(...group.flatMap((l) => l.staves.filter((s) => members.has(s)).map((s) => l.x - staves[s]!.x0)));
    const toEnd = Math.min(...group.flatMap((l) => l.staves.filter((s) => members.has(s)).map((s) => staves[s]!.x1 - l.x)));
    // The line joining the staves at the system's left edge is not a barline; a forward repeat there is.
    if (Math.min(x - start, fromStart) < space * SYSTEM_EDGE) {
      if (opening) left[0] = opening;
      continue;
    }
    if (Math.min(end - x, toEnd) < space * SYSTEM_EDGE) {
      right.push(ending ?? opening);
      continue;
    }
    // A forward repeat at the start of a system follows the clef and key; before any note it opens measure 1.
    right.push(ending);
    left.push(opening);
    bounds.push(x);
  }
  bounds.push(end);
  while (right.length < bounds.length - 1) right.push(undefined);
  return { bounds, right: right.slice(0, bounds.length - 1), left: left.slice(0, bounds.length - 1) };
}

/** A barline's strokes left to right, lines closer than SAME_STROKE taken as one stroke (the thicker). */
function distinctStrokes(lines: readonly BarlineSymbol[], space: number): BarlineSymbol[] {
  const strokes: BarlineSymbol[] = [];
  for (const line of [...lines].sort((a, b) => a.x - b.x)) {
    const last = strokes[strokes.length - 1];
    if (!last || line.x - last.x > space * SAME_STROKE) strokes.push(line);
    else if (line.thickness > last.thickness) strokes[strokes.length - 1] = line;
  }
  return strokes;
}

/** How far, in spaces, a repeat's dots stand from the barline's outer stroke, at most. */
const REPEAT_DOT_REACH = 1.5;
/** A repeat's two dots stand one above the other: their centres this many spaces apart across, at most. */
const REPEAT_PAIR_DX = 0.6;
/** … and one space apart up and down (a space either side of the middle line), within these bounds. */
const REPEAT_PAIR_DY: readonly [number, number] = [0.6, 1.5];

/**
 * A group of barline strokes as the barline that ends the measure before it and the one that opens the
 * measure after it (`heavy` tells a heavy stroke): a plain single line is neither, a forward repeat only
 * opens, and dots on both sides (":||:") end one repeat and open the next, as MusicXML writes them, the
 * first light-heavy and the second heavy-light.
 */
function describe(
  group: readonly BarlineSymbol[],
  repeatDots: readonly Mark[],
  members: Set<number>,
  space: number,
  heavy: (l: BarlineSymbol) => boolean,
): [ending: Barline | undefined, opening: Barline | undefined] {
  // Across the system, for where its outer strokes stand.
  const across = distinctStrokes(group, space);
  // A double barline prints both its strokes on every staff; on a leaning photo one stroke stands a little
  // further right on each staff down, so strokes are told apart staff by staff, the staff showing most.
  const onStaff = [...members]
    .map((staff) => distinctStrokes(group.filter((l) => l.staves.includes(staff)), space))
    .reduce((most, next) => (next.length > most.length ? next : most), [] as BarlineSymbol[]);
  const strokes = onStaff.length ? onStaff : across;
  let style: BarStyle = 'regular';
  if (strokes.length >= 2) {
    const [a, b] = [strokes[0]!, strokes[strokes.length - 1]!];
    style = heavy(a) && heavy(b) ? 'heavy-heavy' : heavy(b) ? 'light-heavy' : heavy(a) ? 'heavy-light' : 'light-light';
  }
  // Music prints no lone heavy barline: a single stroke read heavy is the heavy half of a repeat whose
  // thin stroke a scan bled into it, or, without repeat dots, an ordinary barline a scan thickened.
  const loneHeavy = strokes.length === 1 && heavy(strokes[0]!);
  // Repeat dots are looked for beside the barline's outer strokes on whichever staves they stand.
  const x0 = across[0]!.x0;
  const x1 = across[across.length - 1]!.x1;
  // A repeat prints a pair of dots on each staff, in the two spaces either side of the middle line: one
  // dot alone beside a barline is a staccato's or a dotted note's, and a pair on one staff of many is
  // specks a scan left there (or dots the model missed on half the staves, too few to trust).
  const dotsNear = (side: -1 | 1) => {
    const near = repeatDots.filter((d) => members.has(d.staff) && (side < 0 ? d.x < x0 && x0 - d.x < space * REPEAT_DOT_REACH : d.x > x1 && d.x - x1 < space * REPEAT_DOT_REACH));
    const paired = near.filter((a) => near.some((b) => b.staff === a.staff && b.y > a.y && Math.abs(b.x - a.x) < space * REPEAT_PAIR_DX && b.y - a.y > space * REPEAT_PAIR_DY[0] && b.y - a.y < space * REPEAT_PAIR_DY[1]));
    return new Set(paired.map((d) => d.staff)).size * 2 >= members.size;
  };
  const [before, after] = [dotsNear(-1), dotsNear(1)];
  if (before && after) return [{ style: 'light-heavy', repeat: { direction: 'backward' } }, { style: 'heavy-light', repeat: { direction: 'forward' } }];
  if (before) return [{ style: loneHeavy ? 'light-heavy' : style, repeat: { direction: 'backward' } }, undefined];
  if (after) return [undefined, { style: loneHeavy ? 'heavy-light' : style, repeat: { direction: 'forward' } }];
  return [style === 'regular' ? undefined : { style }, undefined];
}

function mean(values: readonly number[]): number {
  return values.reduce((s, v) => s + v, 0) / values.length;
}

/**
 * How much the system's barlines lean (dx per dy): the most common slope
 * between candidate lines on neighbouring staves. Zero on a scan or a PDF.
 */
function systemLean(lines: readonly BarlineSymbol[], ranks: (l: BarlineSymbol) => number[], centreY: (l: BarlineSymbol) => number, space: number): number {
  const votes = new Map<number, number>();
  for (const a of lines) {
    const ra = Math.max(...ranks(a));
    for (const b of lines) {
      if (Math.min(...ranks(b)) !== ra + 1) continue;
      const dy = centreY(b) - centreY(a);
      const dx = b.x - a.x;
      if (dy <= 0 || Math.abs(dx) > space * LEAN_REACH) continue;
      const bin = Math.round((dx / dy) * 100);
      for (const near of [bin - 1, bin, bin + 1]) votes.set(near, (votes.get(near) ?? 0) + (near === bin ? 2 : 1));
    }
  }
  let best = 0;
  let bestVotes = 0;
  for (const [bin, count] of votes) {
    if (count > bestVotes || (count === bestVotes && Math.abs(bin) < Math.abs(best))) {
      best = bin;
      bestVotes = count;
    }
  }
  return best / 100;
}
