/**
 * A second binarisation for staff detection, for pages whose staff lines are
 * too faint to survive the page's ink threshold (a light-printed original
 * scanned on noisy gray paper: the lines fall apart into dots). Each row is
 * averaged over a couple of staff spaces: a staff line keeps its darkness
 * along its length while the paper's grain averages out, so a threshold
 * taken from the smoothed page finds the lines again. Only staff detection
 * uses it; noteheads and text come out smeared.
 */
import type { GrayImage } from '../image/gray.js';
import { binarize, inkThreshold, type BinaryImage } from './binarize.js';

export function faintLineInk(gray: GrayImage, staffSpace: number): BinaryImage {
  const smoothed = smoothRows(gray, Math.max(2, Math.round(staffSpace)));
  return binarize(smoothed, inkThreshold(smoothed));
}

/**
 * Each pixel the rounded mean of its row's pixels within `half` of it, clipped at the page's edges:
 * a running sum, in three stretches of the row (the window growing at the left edge, sliding, and
 * shrinking at the right edge, or neither on a row narrower than it), so that the sliding
 * stretch, nearly the whole row, neither tests nor divides per pixel.
 */
export function smoothRows(gray: GrayImage, half: number): GrayImage {
  const { width, height, data } = gray;
  const smooth = new Uint8Array(data.length);
  // x < adding: pixel x + half joins the window; x ≥ dropping: pixel x − half − 1 leaves it.
  const adding = Math.max(0, width - half);
  const dropping = Math.min(width, half + 1);
  const first = Math.min(adding, dropping);
  const second = Math.max(adding, dropping);
  // While the window slides it holds 2·half + 1 pixels: their rounded mean for every possible sum, looked up.
  const full = 2 * half + 1;
  const mean = Uint8Array.from({ length: 255 * full + 1 }, (_, sum) => Math.round(sum / full));
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    let count = 0;
    for (let x = 0; x < Math.min(width, half); x++) {
      sum += data[row + x]!;
      count++;
    }
    let x = 0;
    for (; x < first; x++) {
      sum += data[row + x + half]!;
      count++;
      smooth[row + x] = Math.round(sum / count);
    }
    if (adding > dropping) {
      for (; x < second; x++) {
        sum += data[row + x + half]! - data[row + x - half - 1]!;
        smooth[row + x] = mean[sum]!;
      }
    } else {
      for (; x < second; x++) smooth[row + x] = Math.round(sum / count);
    }
    for (; x < width; x++) {
      sum -= data[row + x - half - 1]!;
      count--;
      smooth[row + x] = Math.round(sum / count);
    }
  }
  return { width, height, data: smooth };
}
