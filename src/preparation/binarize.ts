/**
 * Ink/paper separation of a flattened page with one global threshold (Otsu):
 * after background flattening the paper is uniform, so a global threshold is
 * stable where local ones break thin staff lines or fill hollow noteheads.
 */
import type { GrayImage } from '../image/gray.js';

/** A binary image: 1 = ink, 0 = paper. */
export interface BinaryImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Otsu's threshold: the gray level that best separates the histogram into two classes. */
export function otsuThreshold(image: GrayImage): number {
  const hist = new Float64Array(256);
  for (let i = 0; i < image.data.length; i++) hist[image.data[i]!]!++;
  const total = image.data.length;
  let sumAll = 0;
  for (let v = 0; v < 256; v++) sumAll += v * hist[v]!;
  let weightBelow = 0;
  let sumBelow = 0;
  let best = 0;
  let threshold = 128;
  for (let v = 0; v < 256; v++) {
    weightBelow += hist[v]!;
    if (weightBelow === 0) continue;
    const weightAbove = total - weightBelow;
    if (weightAbove === 0) break;
    sumBelow += v * hist[v]!;
    const meanBelow = sumBelow / weightBelow;
    const meanAbove = (sumAll - sumBelow) / weightAbove;
    const between = weightBelow * weightAbove * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      threshold = v;
    }
  }
  return threshold;
}

/**
 * The ink threshold of a flattened page: anything clearly darker than the paper, beyond the paper's
 * own noise. Otsu alone splits heavy ink from paper and loses thin staff lines that blur or low
 * resolution has turned light gray.
 */
export function inkThreshold(image: GrayImage): number {
  const hist = new Uint32Array(256);
  for (let i = 0; i < image.data.length; i++) hist[image.data[i]!]!++;
  const quantile = (q: number) => {
    let target = image.data.length * q;
    for (let v = 0; v < 256; v++) {
      target -= hist[v]!;
      if (target <= 0) return v;
    }
    return 255;
  };
  // Paper is most of a page: its level is the median, its noise the spread of the pixels around it.
  const paper = quantile(0.5);
  let dev = 0;
  let n = 0;
  for (let v = 0; v < 256; v++) {
    if (v >= paper - 40) {
      dev += hist[v]! * (v - paper) ** 2;
      n += hist[v]!;
    }
  }
  const noise = n ? Math.sqrt(dev / n) : 0;
  // Not Otsu's split: where ink is scarce and the paper noisy, Otsu falls inside the paper's own
  // spread and turns half the paper into ink. Otsu only bounds the threshold from below.
  const belowPaper = paper - Math.max(35, 4 * noise);
  const threshold = Math.max(Math.min(otsuThreshold(image), belowPaper), Math.min(belowPaper, 220));
  // Nor too close to the paper: print showing through from the back of a scanned sheet is a light
  // gray that would thicken every line and fill the spaces. Real ink, even a thin blurred line, is
  // darker than four fifths of the way from the darkest ink to the paper.
  const ink = quantile(0.01);
  return Math.min(threshold, Math.round(ink + 0.8 * (paper - ink)));
}

/** Pixels at or below the threshold are ink. */
export function binarize(image: GrayImage, threshold = inkThreshold(image)): BinaryImage {
  const data = new Uint8Array(image.data.length);
  for (let i = 0; i < data.length; i++) data[i] = image.data[i]! <= threshold ? 1 : 0;
  return { width: image.width, height: image.height, data };
}
