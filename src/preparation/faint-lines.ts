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
  const { width, height, data } = gray;
  const half = Math.max(2, Math.round(staffSpace));
  const smooth = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    let count = 0;
    // A running sum over [x - half, x + half], clipped at the page's edges.
    for (let x = 0; x < Math.min(width, half); x++) {
      sum += data[row + x]!;
      count++;
    }
    for (let x = 0; x < width; x++) {
      const add = x + half;
      if (add < width) {
        sum += data[row + add]!;
        count++;
      }
      const drop = x - half - 1;
      if (drop >= 0) {
        sum -= data[row + drop]!;
        count--;
      }
      smooth[row + x] = Math.round(sum / count);
    }
  }
  const smoothed: GrayImage = { width, height, data: smooth };
  return binarize(smoothed, inkThreshold(smoothed));
}
