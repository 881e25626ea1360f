/**
 * Staves grouped into systems. Engravers join the staves of a system with a
 * vertical line at its left edge (whether or not the barlines inside run
 * through); a staff standing alone is a system of its own. So two staves,
 * one under the other, belong together when an unbroken ink line joins them
 * near where they start, and groups of staves so joined belong together
 * when their barlines line up (see joinGroups).
 */
import type { BinaryImage } from '../preparation/binarize.js';
import { staffLineY, type Staff } from './detect-staves.js';

export interface StaffSystem {
  /** Indices into the staves list, top to bottom. */
  staves: number[];
}

/** Share of the gap between two staves the joining line must cover (a scan may break it a little). */
const JOIN_COVERAGE = 0.9;

export function groupSystems(staves: readonly Staff[], ink: BinaryImage): StaffSystem[] {
  const order = staves.map((_, i) => i).sort((a, b) => staves[a]!.lines[0]![0]! - staves[b]!.lines[0]![0]!);
  const systems: StaffSystem[] = [];
  for (const index of order) {
    const current = systems[systems.length - 1];
    const above = current ? staves[current.staves[current.staves.length - 1]!]! : undefined;
    if (above && current && joined(above, staves[index]!, ink)) current.staves.push(index);
    else systems.push({ staves: [index] });
  }
  return completeSystems(joinGroups(systems, staves, ink), staves);
}

/**
 * On a photographed page whose lower half curves away, the line joining a system's staves at their start
 * may be lost, and the system falls apart into pieces. Where two systems or more of a page have one staff
 * count N (of two or more staves), consecutive pieces smaller than N that add up to exactly N, no further
 * apart than the staves inside those systems, are one system again. A page of single staves (a part) has
 * no such count and is left alone.
 */
function completeSystems(systems: StaffSystem[], staves: readonly Staff[]): StaffSystem[] {
  const counts = new Map<number, number>();
  for (const { staves: members } of systems) if (members.length >= 2) counts.set(members.length, (counts.get(members.length) ?? 0) + 1);
  const [size, times] = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0] ?? [0, 0];
  if (times < 2) return systems;
  const widestInside = Math.max(...systems.filter((sys) => sys.staves.length === size).flatMap((sys) => innerGaps(sys, staves)));
  const completed: StaffSystem[] = [];
  for (let i = 0; i < systems.length; i++) {
    let end = i;
    let count = systems[i]!.staves.length;
    while (count < size && end + 1 < systems.length && systems[end + 1]!.staves.length < size) count += systems[++end]!.staves.length;
    const merged = { staves: systems.slice(i, end + 1).flatMap((sys) => sys.staves) };
    if (end > i && count === size && innerGaps(merged, staves).every((gap) => gap <= GROUP_GAP * widestInside)) {
      completed.push(merged);
      i = end;
    } else completed.push(systems[i]!);
  }
  return completed;
}

/** The gaps between a system's consecutive staves, bottom line to top line, at their middles. */
function innerGaps(system: StaffSystem, staves: readonly Staff[]): number[] {
  return system.staves.slice(1).map((s, k) => top(staves[s]!) - bottom(staves[system.staves[k]!]!));
}

/**
 * An orchestral score's instruments stand in groups (woodwinds, brass, strings), and some engravers draw
 * the line at the system's start, and the barlines, within each group only. Two groups are still one
 * system where each has several staves, the gap between them is no wider than the gaps inside them, and
 * their barlines (the lines as tall as a staff through every staff of a group) stand at the very same
 * places (two systems one under the other space their measures apart). Groups of one staff are left
 * alone: the lines of a part stand at even gaps, and the measures of two lines of like music may well
 * line up.
 */
function joinGroups(systems: StaffSystem[], staves: readonly Staff[], ink: BinaryImage): StaffSystem[] {
  const joinedUp: StaffSystem[] = [];
  for (const system of systems) {
    const current = joinedUp[joinedUp.length - 1];
    if (current && oneSystem(current, system, staves, ink)) current.staves.push(...system.staves);
    else joinedUp.push({ staves: [...system.staves] });
  }
  return joinedUp;
}

/** A gap between two groups of a system is at most this many times the widest gap inside either. */
const GROUP_GAP = 1.2;
/** Two barlines stand at the same place within this many spaces. */
const SAME_BARLINE = 0.3;
/** Barlines inside the staves (not the system's ends) that must line up: at least this many. */
const MIN_SHARED_BARLINES = 2;

function oneSystem(upper: StaffSystem, lower: StaffSystem, staves: readonly Staff[], ink: BinaryImage): boolean {
  if (upper.staves.length < 2 || lower.staves.length < 2) return false;
  const gaps = (system: StaffSystem) => innerGaps(system, staves);
  const [last, first] = [staves[upper.staves[upper.staves.length - 1]!]!, staves[lower.staves[0]!]!];
  const space = last.space;
  if (Math.abs(last.x0 - first.x0) > space || Math.abs(last.x1 - first.x1) > space) return false;
  if (top(first) - bottom(last) > GROUP_GAP * Math.max(...gaps(upper), ...gaps(lower))) return false;
  const near = (x: number, others: readonly number[]) => others.some((o) => Math.abs(o - x) <= space * SAME_BARLINE);
  // A group's barlines run through all its staves; a stem as tall as a staff stands in one only.
  const barlines = (group: StaffSystem) => group.staves.map((s) => barlinesIn(staves[s]!, ink)).reduce((kept, xs) => kept.filter((x) => near(x, xs)));
  const [above, below] = [barlines(upper), barlines(lower)];
  return above.length >= MIN_SHARED_BARLINES && above.every((x) => near(x, below)) && below.every((x) => near(x, above));
}

function top(staff: Staff): number {
  return staffLineY(staff, 0, (staff.x0 + staff.x1) / 2);
}

function bottom(staff: Staff): number {
  return staffLineY(staff, 4, (staff.x0 + staff.x1) / 2);
}

/** A barline stands this many spaces clear of a staff's ends at least (the line at its start, the last barline at its end). */
const BARLINE_INSIDE = 2;

/** The x of each vertical line that covers a staff from its top line to its bottom one, away from its ends. */
function barlinesIn(staff: Staff, ink: BinaryImage): number[] {
  const xs: number[] = [];
  const from = Math.max(0, Math.round(staff.x0 + staff.space * BARLINE_INSIDE));
  const to = Math.min(ink.width - 1, Math.round(staff.x1 - staff.space * BARLINE_INSIDE));
  let run = -1;
  for (let x = from; x <= to + 1; x++) {
    const full = x <= to && inkedDown(staff, x, ink);
    if (full && run < 0) run = x;
    if (!full && run >= 0) {
      xs.push((run + x - 1) / 2);
      run = -1;
    }
  }
  return xs;
}

/** Whether column x is ink all the way from the staff's top line to its bottom one. */
function inkedDown(staff: Staff, x: number, ink: BinaryImage): boolean {
  const y1 = Math.round(staffLineY(staff, 4, x));
  for (let y = Math.round(staffLineY(staff, 0, x)); y <= y1; y++) if (!ink.data[y * ink.width + x]) return false;
  return true;
}

/** Is there a vertical ink line from the bottom line of `upper` to the top line of `lower`, near their left ends? */
function joined(upper: Staff, lower: Staff, ink: BinaryImage): boolean {
  // Staves of one system start together. One that seems to start far to the right is another system
  // (a coda) — or, on a photo, a staff whose start a shadow's edge hid: the line, if any, is where
  // the other one starts.
  const apart = Math.abs(upper.x0 - lower.x0) > 3 * upper.space;
  const first = Math.min(upper.x0, lower.x0);
  const left = Math.max(0, Math.round(first - upper.space));
  const right = Math.min(ink.width - 1, Math.round((apart ? first : Math.max(upper.x0, lower.x0)) + upper.space));
  for (let x = left; x <= right; x++) {
    const top = Math.round(staffLineY(upper, 4, x));
    const bottom = Math.round(staffLineY(lower, 0, x));
    if (bottom <= top) return false;
    // Follow the line down, letting it drift a pixel per row: on a photographed page it leans.
    let cx = x;
    let covered = 0;
    for (let y = top; y <= bottom; y++) {
      const row = y * ink.width;
      const next = [cx, cx - 1, cx + 1].find((c) => c >= 0 && c < ink.width && ink.data[row + c]);
      if (next !== undefined) {
        cx = next;
        covered++;
      }
    }
    if (covered / (bottom - top + 1) >= JOIN_COVERAGE) return true;
  }
  return false;
}
