/**
 * Gray images in the recognition pipeline: one byte per pixel, 0 = black ink,
 * 255 = white paper. Plain data like {@link Raster}.
 */
import type { Raster } from './raster.js';

export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * Luma of any raster (ITU-R BT.601 weights, integer arithmetic so every
 * engine gives the same bytes); transparency is composited over white paper.
 */
export function toGray(raster: Raster): GrayImage {
  const { width, height, channels, data } = raster;
  if (channels === 1) return { width, height, data };
  const out = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < out.length; i++, j += channels) {
    // Rounded to a whole level here: white must stay 255, not round up past the byte.
    const luma = Math.floor((data[j]! * 299 + data[j + 1]! * 587 + data[j + 2]! * 114 + 500) / 1000);
    const a = channels === 4 ? data[j + 3]! : 255;
    // Opaque (every pixel of a rendered PDF page), the luma is the gray.
    out[i] = a === 255 ? luma : Math.round((luma * a + 255 * (255 - a)) / 255);
  }
  return { width, height, data: out };
}
