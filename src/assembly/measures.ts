/**
 * Measures of a system from its barlines. A barline is drawn on every staff
 * of a system at the same x (through the gaps or not), so barline candidates
 * are pooled over the system's staves and a line seen on only a few of them
 * (a stem the model took for a barline) is dropped. Lines close together are
 * one double or repeat barline; dots beside it make it a repeat.
 */
import type { Barline, BarStyle } from '../score/model.js';
import type { Staff } from '../staves/detect-staves.js';
import type { BarlineSymbol, Mark } from '../symbols/read-symbols.js';

export interface SystemMeasures {
  /** Left edge of each measure, then the right edge of the last: measures.length + 1 values. */
  bounds: number[];
  /** Barline at the right edge of each measure (undefined: regular). */
  right: (Barline | undefined)[];
  /** Barline at the left edge of each measure (forward repeats). */
  left: (Barline | undefined)[];
}

export function systemMeasures(staffIndices: readonly number[], staves: readonly Staff[], barlines: readonly BarlineSymbol[], repeatDots: readonly Mark[], space: number): SystemMeasures {
  const start = Math.min(...staffIndices.map((i) => staves[i]!.x0));
  const end = Math.max(...staffIndices.map((i) => staves[i]!.x1));
  const members = new Set(staffIndices);
  const candidates = barlines.filter((b) => b.staves.some((s) => members.has(s))).sort((a, b) => a.x - b.x);

  // Pool by x: one cluster per barline position, remembering which staves it was seen on.
  const clusters: { lines: BarlineSymbol[]; staves: Set<number> }[] = [];
  for (const line of candidates) {
    const last = clusters[clusters.length - 1];
    const lastX = last ? last.lines[last.lines.length - 1]!.x : -Infinity;
    if (last && line.x - lastX < space * 0.5) {
      last.lines.push(line);
      for (const s of line.staves) if (members.has(s)) last.staves.add(s);
    } else clusters.push({ lines: [line], staves: new Set(line.staves.filter((s) => members.has(s))) });
  }
  const needed = Math.max(1, Math.ceil(staffIndices.length / 2));
  const kept = clusters.filter((c) => c.staves.size >= needed);

  // Strokes less than a space and a half apart are one barline (double, final, repeat).
  const groups: BarlineSymbol[][] = [];
  for (const cluster of kept) {
    const x = mean(cluster.lines.map((l) => l.x));
    const last = groups[groups.length - 1];
    if (last && x - mean(last.map((l) => l.x)) < space * 1.5) last.push(...cluster.lines);
    else groups.push([...cluster.lines]);
  }

  const bounds = [start];
  const right: (Barline | undefined)[] = [];
  const left: (Barline | undefined)[] = [undefined];
  for (const group of groups) {
    const x0 = Math.min(...group.map((l) => l.x0));
    const x1 = Math.max(...group.map((l) => l.x1));
    const x = (x0 + x1) / 2;
    const barline = describe(group, repeatDots, members, space);
    // The line joining the staves at the system's left edge is not a barline; a forward repeat there is.
    if (x - start < space * 1.5) {
      if (barline?.repeat?.direction === 'forward') left[0] = barline;
      continue;
    }
    if (end - x < space * 1.5) {
      right.push(barline);
      continue;
    }
    // A forward repeat at the start of a system follows the clef and key; before any note it opens measure 1.
    right.push(barline?.repeat?.direction === 'forward' ? undefined : barline);
    left.push(barline?.repeat?.direction === 'forward' ? barline : undefined);
    bounds.push(x);
  }
  bounds.push(end);
  while (right.length < bounds.length - 1) right.push(undefined);
  return { bounds, right: right.slice(0, bounds.length - 1), left: left.slice(0, bounds.length - 1) };
}

/** Style and repeat of a group of barline strokes; undefined for a plain single line. */
function describe(group: readonly BarlineSymbol[], repeatDots: readonly Mark[], members: Set<number>, space: number): Barline | undefined {
  const strokes: BarlineSymbol[] = [];
  for (const line of [...group].sort((a, b) => a.x - b.x)) {
    const last = strokes[strokes.length - 1];
    if (!last || line.x - last.x > space * 0.4) strokes.push(line);
    else if (line.thickness > last.thickness) strokes[strokes.length - 1] = line;
  }
  const heavy = (l: BarlineSymbol) => l.thickness >= space * 0.35;
  let style: BarStyle = 'regular';
  if (strokes.length >= 2) {
    const [a, b] = [strokes[0]!, strokes[strokes.length - 1]!];
    style = heavy(a) && heavy(b) ? 'heavy-heavy' : heavy(b) ? 'light-heavy' : heavy(a) ? 'heavy-light' : 'light-light';
  } else if (heavy(strokes[0]!)) style = 'heavy';
  const x0 = strokes[0]!.x0;
  const x1 = strokes[strokes.length - 1]!.x1;
  const dotsNear = (side: -1 | 1) =>
    repeatDots.some((d) => members.has(d.staff) && (side < 0 ? d.x < x0 && x0 - d.x < space * 1.5 : d.x > x1 && d.x - x1 < space * 1.5));
  const repeat = dotsNear(-1) ? { direction: 'backward' as const } : dotsNear(1) ? { direction: 'forward' as const } : undefined;
  if (style === 'regular' && !repeat) return undefined;
  return repeat ? { style, repeat } : { style };
}

function mean(values: readonly number[]): number {
  return values.reduce((s, v) => s + v, 0) / values.length;
}
