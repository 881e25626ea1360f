/**
 * Staff space from the page's gray levels, for pages where binarisation
 * breaks the staff lines (a light print on a noisy scan): in narrow vertical
 * strips, the darkness of each row rises on every staff line, so the
 * darkness profile repeats with the staff space. The autocorrelation of the
 * profiles, summed over strips, peaks at that period; five lines give four
 * pairs one space apart, three two spaces apart …, so the first peak is the
 * highest.
 */
import type { GrayImage } from '../image/gray.js';

const STRIP = 48;
const MIN_SPACE = 4;
const MAX_SPACE = 80;

/** Staff space in pixels, or undefined when the profiles show no clear period. */
export function staffSpaceFromProfiles(gray: GrayImage): number | undefined {
  const { width, height, data } = gray;
  const maxLag = Math.min(MAX_SPACE, Math.floor(height / 6));
  const sum = new Float64Array(maxLag + 1);
  const profile = new Float64Array(height);
  for (let x0 = 0; x0 + STRIP <= width; x0 += STRIP * 2) {
    for (let y = 0; y < height; y++) {
      let dark = 0;
      const row = y * width + x0;
      for (let x = 0; x < STRIP; x++) dark += 255 - data[row + x]!;
      profile[y] = dark / STRIP;
    }
    // Remove the slow trend (text blocks, shading) so only line-sized detail correlates.
    const detail = highPass(profile, 3);
    for (let lag = MIN_SPACE; lag <= maxLag; lag++) {
      let s = 0;
      for (let y = 0; y + lag < height; y++) s += detail[y]! * detail[y + lag]!;
      sum[lag]! += s;
    }
  }
  let best = -1;
  for (let lag = MIN_SPACE; lag <= maxLag; lag++) if (best < 0 || sum[lag]! > sum[best]!) best = lag;
  if (best < 0 || sum[best]! <= 0) return undefined;
  // Parabolic refinement around the peak.
  const a = sum[best - 1] ?? sum[best]!;
  const b = sum[best]!;
  const c = sum[best + 1] ?? sum[best]!;
  const denominator = a - 2 * b + c;
  return denominator < 0 ? best + (0.5 * (a - c)) / denominator : best;
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
