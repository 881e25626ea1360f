/**
 * Skew estimation. Staff lines are the longest straight things on a music
 * page: when the page is turned by the right angle, the row profile of its
 * ink has the sharpest peaks. The angle is found coarse-to-fine on a reduced
 * page, shearing rows instead of rotating (identical for the small angles a
 * scanner or a careful photo gives).
 */
import type { BinaryImage } from './binarize.js';

/** Largest skew looked for, in degrees. */
export const MAX_SKEW = 6;

/** The angle in degrees by which the page content is rotated clockwise (y down); rotate by its negative to straighten. */
export function estimateSkew(image: BinaryImage, lineThickness: number): number {
  // Only thin strokes vote: staff lines are thin, while the thick edge of a photographed page, a
  // shadow or a filled box is long and straight too and would win otherwise.
  const thin = thinStrokes(image, Math.max(3, Math.ceil(2 * lineThickness)));
  const { width, height } = image;
  let count = 0;
  for (let i = 0; i < thin.length; i++) count += thin[i]!;
  // About 200k sampled points keeps this fast on any page size.
  const keepEvery = Math.max(1, Math.floor(count / 200_000));
  const xs: number[] = [];
  const ys: number[] = [];
  let k = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (thin[i] && k++ % keepEvery === 0) {
        xs.push(x - width / 2);
        ys.push(y);
      }
    }
  }
  if (xs.length < 100) return 0;
  const sharpness = (degrees: number) => {
    const t = Math.tan((degrees * Math.PI) / 180);
    const rows = new Float64Array(height * 2 + 1);
    for (let i = 0; i < xs.length; i++) {
      const r = Math.round(ys[i]! - xs[i]! * t + height / 2);
      if (r >= 0 && r < rows.length) rows[r]!++;
    }
    let s = 0;
    for (let r = 0; r < rows.length; r++) s += rows[r]! * rows[r]!;
    return s;
  };
  let best = 0;
  for (const stepDeg of [0.5, 0.1, 0.02]) {
    const span = stepDeg === 0.5 ? MAX_SKEW : stepDeg * 5;
    let bestScore = -1;
    let bestAngle = best;
    for (let a = best - span; a <= best + span + 1e-9; a += stepDeg) {
      const s = sharpness(a);
      if (s > bestScore) {
        bestScore = s;
        bestAngle = a;
      }
    }
    best = bestAngle;
  }
  return Math.round(best * 100) / 100;
}

/** Ink pixels whose vertical run is at most `maxRun` long. */
function thinStrokes(image: BinaryImage, maxRun: number): Uint8Array {
  const { width, height, data } = image;
  const out = new Uint8Array(data.length);
  for (let x = 0; x < width; x++) {
    let y = 0;
    while (y < height) {
      if (!data[y * width + x]) {
        y++;
        continue;
      }
      const start = y;
      while (y < height && data[y * width + x]) y++;
      if (y - start <= maxRun) for (let yy = start; yy < y; yy++) out[yy * width + x] = 1;
    }
  }
  return out;
}
