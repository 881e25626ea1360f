/**
 * Turning and mirroring a raster into its upright, as-seen orientation. One
 * table of affine maps covers the eight Exif orientations, so each is a single
 * pass over the pixels with no intermediate copies.
 */
import type { Raster } from '../image/raster.js';
import type { Orientation } from './exif-orientation.js';

/**
 * For each orientation, where output pixel (x, y) comes from in the stored
 * image of width w and height h, as coefficients of
 * sx = ax·x + bx·y + cx·(w−1) and sy = ay·x + by·y + cy·(h−1).
 * Orientations 5–8 swap the sides.
 */
const MAPS: Record<Orientation, readonly [ax: number, bx: number, cx: number, ay: number, by: number, cy: number]> = {
  1: [1, 0, 0, 0, 1, 0],
  2: [-1, 0, 1, 0, 1, 0], // mirrored left to right
  3: [-1, 0, 1, 0, -1, 1], // upside down
  4: [1, 0, 0, 0, -1, 1], // mirrored top to bottom
  5: [0, 1, 0, 1, 0, 0], // transposed
  6: [0, 1, 0, -1, 0, 1], // needs a quarter turn clockwise
  7: [0, -1, 1, -1, 0, 1], // transversed
  8: [0, -1, 1, 1, 0, 0], // needs a quarter turn anticlockwise
};

/** The raster as a viewer shows it, given the orientation its file records. Orientation 1 returns it unchanged. */
export function orientRaster(raster: Raster, orientation: Orientation): Raster {
  if (orientation === 1) return raster;
  const { width: w, height: h, channels, data } = raster;
  const [ax, bx, cx, ay, by, cy] = MAPS[orientation];
  const swap = orientation >= 5;
  const width = swap ? h : w;
  const height = swap ? w : h;
  const out = new Uint8Array(data.length);
  // Moving one pixel right in the output moves this far in the source, in bytes.
  const step = (ay * w + ax) * channels;
  let o = 0;
  for (let y = 0; y < height; y++) {
    const sx = bx * y + cx * (w - 1);
    const sy = by * y + cy * (h - 1);
    let s = (sy * w + sx) * channels;
    for (let x = 0; x < width; x++, s += step) {
      for (let c = 0; c < channels; c++) out[o++] = data[s + c]!;
    }
  }
  // Turned by quarters, a page drawn from vectors still stands straight.
  return { width, height, channels, data: out, ...(raster.vector && { vector: true }) };
}
