/**
 * The two lengths every later stage is measured in, read off the page itself:
 * staff-line thickness and staff space (line to line distance).
 *
 * Down any column through a staff, ink runs of line thickness alternate with
 * paper runs of (space − thickness). The most frequent ink run is therefore
 * the line thickness, and the most frequent ink-plus-following-paper pair is
 * the staff space — the classic run-length estimate, robust to everything
 * else on the page because staves dominate those two histograms.
 */
import type { BinaryImage } from './binarize.js';

export interface StaffMetrics {
  /** Typical staff-line thickness in pixels. */
  lineThickness: number;
  /** Typical distance between adjacent staff lines, centre to centre, in pixels. */
  staffSpace: number;
  /** How strongly the staff-space peak stands out (share of sampled pairs near it); low on pages without music. */
  confidence: number;
}

/**
 * Shortest horizontal ink run kept for the estimate: staff lines are long, while scanner noise and
 * JPEG speckle make short runs that would otherwise swamp both histograms on a poor scan.
 */
const MIN_HORIZONTAL_RUN = 12;

export function measureStaffMetrics(image: BinaryImage, maxRun = 400): StaffMetrics {
  const { width, height } = image;
  const data = horizontalRuns(image, MIN_HORIZONTAL_RUN);
  const ink = new Float64Array(maxRun + 1);
  const pair = new Float64Array(2 * maxRun + 1);
  // Every other column is plenty and halves the work.
  const step = width > 800 ? 2 : 1;
  let pairs = 0;
  for (let x = 0; x < width; x += step) {
    let y = 0;
    while (y < height && data[y * width + x] === 0) y++;
    while (y < height) {
      const inkStart = y;
      while (y < height && data[y * width + x] === 1) y++;
      const inkRun = y - inkStart;
      const paperStart = y;
      while (y < height && data[y * width + x] === 0) y++;
      const paperRun = y - paperStart;
      if (inkRun <= maxRun) ink[inkRun]!++;
      if (y < height && inkRun + paperRun <= 2 * maxRun && paperRun > 0) {
        pair[inkRun + paperRun]!++;
        pairs++;
      }
    }
  }
  const lineThickness = Math.max(1, argmaxFrom(ink, 1));
  // A staff space is at least a few line thicknesses; shorter pairs are noise and text.
  const spacePeak = argmaxFrom(pair, lineThickness + 2);
  const staffSpace = refinePeak(pair, spacePeak);
  let near = 0;
  for (let d = Math.max(0, spacePeak - 1); d <= Math.min(pair.length - 1, spacePeak + 1); d++) near += pair[d]!;
  return { lineThickness, staffSpace, confidence: pairs ? near / pairs : 0 };
}

function argmaxFrom(values: Float64Array, from: number): number {
  let best = from;
  for (let i = from; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

/** Sub-pixel peak position: the weighted mean of the peak bin and its neighbours. */
function refinePeak(values: Float64Array, peak: number): number {
  let sum = 0;
  let weight = 0;
  for (let d = Math.max(0, peak - 1); d <= Math.min(values.length - 1, peak + 1); d++) {
    sum += d * values[d]!;
    weight += values[d]!;
  }
  return weight ? sum / weight : peak;
}

/** The ink pixels that lie in horizontal runs at least `minRun` long. */
function horizontalRuns(image: BinaryImage, minRun: number): Uint8Array {
  const { width, height, data } = image;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let x = 0;
    while (x < width) {
      if (!data[row + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < width && data[row + x]) x++;
      if (x - start >= minRun) out.fill(1, row + start, row + x);
    }
  }
  return out;
}
