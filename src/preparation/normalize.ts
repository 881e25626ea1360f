/**
 * Flattens the paper: divides each pixel by a smooth estimate of the paper
 * brightness around it, so uneven light, shadows and tinted paper become a
 * uniform white with dark ink, and one global threshold works across the page.
 *
 * The paper estimate is the brightest value in coarse blocks (ink is sparse
 * and dark, so a block's maximum is paper), smoothed over neighbouring blocks
 * and interpolated back to full size.
 */
import type { GrayImage } from '../image/gray.js';

/** Block size in pixels: larger than any ink stroke, smaller than a shadow's soft edge. */
const BLOCK = 32;

/** The paper's brightness per block of {@link BLOCK} pixels, row by row. */
export interface PaperMap {
  levels: Float32Array;
  columns: number;
  rows: number;
}

export function paperMap(image: GrayImage): PaperMap {
  const { width, height, data } = image;
  const bw = Math.ceil(width / BLOCK);
  const bh = Math.ceil(height / BLOCK);
  // The 90th percentile of each block rather than its maximum, so a speck of glare is not paper.
  const paper = new Float32Array(bw * bh);
  const hist = new Uint32Array(256);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      hist.fill(0);
      const x1 = Math.min(width, (bx + 1) * BLOCK);
      const y1 = Math.min(height, (by + 1) * BLOCK);
      let n = 0;
      for (let y = by * BLOCK; y < y1; y++) {
        for (let x = bx * BLOCK, i = y * width + x; x < x1; x++, i++) hist[data[i]!]!++;
      }
      n = (x1 - bx * BLOCK) * (y1 - by * BLOCK);
      let target = Math.ceil(n * 0.1);
      let v = 255;
      for (; v > 0; v--) {
        target -= hist[v]!;
        if (target <= 0) break;
      }
      paper[by * bw + bx] = v;
    }
  }
  return { levels: paper, columns: bw, rows: bh };
}

/**
 * `sharper`: a pixel-exact paper estimate (sharp-shadows.ts) that, where it
 * is darker, overrides the smooth one: inside a sharp shadow's edge.
 */
export function flattenBackground(image: GrayImage, map: PaperMap = paperMap(image), sharper?: Uint8Array): GrayImage {
  const { width, height, data } = image;
  const { levels: paper, columns: bw, rows: bh } = map;
  // Blocks full of ink (a beam cluster, a title in bold) read darker than the paper: take the 3×3 block maximum, then average.
  const dilated = neighbourhood(paper, bw, bh, Math.max);
  const smooth = neighbourhood(dilated, bw, bh, (...v: number[]) => v.reduce((a, b) => a + b, 0) / v.length);
  // Paper white all over (a page drawn by a PDF renderer): every pixel divides by 255 and stays as it is.
  if (!sharper && smooth.every((level) => level === 255)) return { width, height, data: data.slice() };
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max((y + 0.5) / BLOCK - 0.5, 0), bh - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, bh - 1);
    const ty = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(Math.max((x + 0.5) / BLOCK - 0.5, 0), bw - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, bw - 1);
      const tx = fx - x0;
      const top = smooth[y0 * bw + x0]! * (1 - tx) + smooth[y0 * bw + x1]! * tx;
      const bottom = smooth[y1 * bw + x0]! * (1 - tx) + smooth[y1 * bw + x1]! * tx;
      const i = y * width + x;
      const smoothPaper = top * (1 - ty) + bottom * ty;
      const bg = Math.max(sharper ? Math.min(smoothPaper, sharper[i]!) : smoothPaper, 1);
      out[i] = Math.min(255, Math.round((data[i]! * 255) / bg));
    }
  }
  return { width, height, data: out };
}

function neighbourhood(values: Float32Array, w: number, h: number, combine: (...v: number[]) => number): Float32Array {
  const out = new Float32Array(values.length);
  const around: number[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      around.length = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < w && yy < h) around.push(values[yy * w + xx]!);
        }
      }
      out[y * w + x] = combine(...around);
    }
  }
  return out;
}
