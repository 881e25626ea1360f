/**
 * Staves grouped into systems. Engravers join the staves of a system with a
 * vertical line at its left edge (whether or not the barlines inside run
 * through); a staff standing alone is a system of its own. So two staves,
 * one under the other, belong together when an unbroken ink line joins them
 * near where they start.
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
  return systems;
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
