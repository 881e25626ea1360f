/**
 * Staff space from the page's gray levels, for pages where binarisation
 * breaks the staff lines (a light print on a noisy scan): in narrow vertical
 * strips, the darkness of each row rises on every staff line, so the
 * darkness profile repeats with the staff space. The autocorrelation of the
 * profiles, summed over strips, peaks at that period; five lines give four
 * pairs one space apart and three two spaces apart, but on a page of many
 * staves the staff-to-staff distance correlates too, so the space is the
 * first strong peak rather than the highest.
 */
import type { GrayImage } from '../image/gray.js';

const STRIP = 48;
const MIN_SPACE = 4;
const MAX_SPACE = 80;

/** Staff space in pixels, from `minSpace` + 1 up, or undefined when the profiles show no clear period. */
export function staffSpaceFromProfiles(gray: GrayImage, minSpace = MIN_SPACE, strip = STRIP): number | undefined {
  const { width, height, data } = gray;
  const maxLag = Math.min(MAX_SPACE, Math.floor(height / 6));
  const sum = new Float64Array(maxLag + 1);
  const profile = new Float64Array(height);
  for (let x0 = 0; x0 + strip <= width; x0 += strip * 2) {
    for (let y = 0; y < height; y++) {
      let dark = 0;
      const row = y * width + x0;
      for (let x = 0; x < strip; x++) dark += 255 - data[row + x]!;
      profile[y] = dark / strip;
    }
    // Remove the slow trend (text blocks, shading) so only line-sized detail correlates.
    const detail = highPass(profile, 3);
    for (let lag = minSpace; lag <= maxLag; lag++) {
      let s = 0;
      for (let y = 0; y + lag < height; y++) s += detail[y]! * detail[y + lag]!;
      sum[lag]! += s;
    }
  }
  // Neighbouring lags share a peak when the space is not a whole number of pixels: smooth them together.
  const smooth = new Float64Array(maxLag + 1);
  for (let lag = minSpace; lag <= maxLag; lag++) smooth[lag] = (sum[lag - 1]! + 2 * sum[lag]! + (sum[lag + 1] ?? 0)) / 4;
  const highest = Math.max(...smooth);
  if (!(highest > 0)) return undefined;
  // The staff space is the first strong peak; whole multiples of it (two spaces, staff to staff)
  // can correlate as well or better on a page of many staves.
  for (let lag = minSpace + 1; lag < maxLag; lag++) {
    const value = smooth[lag]!;
    if (value < highest * 0.5 || value < smooth[lag - 1]! || value < smooth[lag + 1]!) continue;
    const a = smooth[lag - 1]!;
    const c = smooth[lag + 1]!;
    const denominator = a - 2 * value + c;
    return denominator < 0 ? lag + (0.5 * (a - c)) / denominator : lag;
  }
  return undefined;
}

/** The profile minus its moving average over ±radius rows, clipped at zero (only dark peaks count). */
function highPass(values: Float64Array, radius: number): Float64Array {
  const out = new Float64Array(values.length);
  let s = 0;
  let n = 0;
  for (let i = 0; i < Math.min(radius, values.length); i++) {
    s += values[i]!;
    n++;
  }
  for (let i = 0; i < values.length; i++) {
    if (i + radius < values.length) {
      s += values[i + radius]!;
      n++;
    }
    if (i - radius - 1 >= 0) {
      s -= values[i - radius - 1]!;
      n--;
    }
    out[i] = Math.max(0, values[i]! - s / n);
  }
  return out;
}
