/**
 * A deterministic stand-in for a page of music: staff-like lines and
 * note-like blobs on white. The degradation tests and their benchmark
 * (bench/degrade-speed.ts) run on it; nothing is learned from it.
 */
import type { Raster } from '../../src/image/raster.js';

export function staffLikePage(w: number, h: number): Raster {
  const data = new Uint8Array(w * h).fill(255);
  for (let s = 0; 40 + s * 70 + 40 < h; s++) {
    for (let l = 0; l < 5; l++) {
      const y = 40 + s * 70 + l * 8;
      for (let x = 20; x < w - 20; x++) data[y * w + x] = 0;
    }
    for (let k = 0; k < 12; k++) {
      const cx = 30 + ((k * 23 + s * 11) % (w - 60));
      const cy = 40 + s * 70 + ((k * 5) % 32);
      for (let y = -3; y <= 3; y++) for (let x = -4; x <= 4; x++) if ((x * x) / 16 + (y * y) / 9 <= 1) data[(cy + y) * w + cx + x] = 0;
    }
  }
  return { width: w, height: h, channels: 1, data };
}
