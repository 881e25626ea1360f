/**
 * `npm run bench:degrade [-- --seeds 6]` — milliseconds per page of the
 * training data's degradations (`degradeScan`, `degradePhoto` with their
 * default options) on a 1700×2400 gray page, the size of a 200 dpi letter
 * page. A timing, so it lives here and not in the tests.
 */
import { parseArgs } from 'node:util';
import type { Raster } from '../src/image/raster.js';
import { degradePhoto, degradeScan } from '../training/data/degrade.js';

const WIDTH = 1700;
const HEIGHT = 2400;

/** A white page with staff-like lines and note-like blobs, deterministic (as in test/training/degrade.test.ts). */
function musicPage(w: number, h: number): Raster {
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

/** Milliseconds `run` takes. */
function time(run: () => void): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

function summary(ms: number[]): string {
  const mean = ms.reduce((sum, m) => sum + m, 0) / ms.length;
  return `${mean.toFixed(0)} ms (max ${Math.max(...ms).toFixed(0)})`;
}

function main(): void {
  const { values } = parseArgs({ options: { seeds: { type: 'string', default: '6' } } });
  const seeds = Array.from({ length: Math.max(1, Number(values.seeds) || 6) }, (_, i) => i + 1);
  const page = musicPage(WIDTH, HEIGHT);
  degradeScan(page, 0); // warm up
  degradePhoto(page, 0);
  const scan = seeds.map((seed) => time(() => degradeScan(page, seed)));
  const photo = seeds.map((seed) => time(() => degradePhoto(page, seed)));
  console.log(`degrade ${WIDTH}×${HEIGHT} gray page, default options, ${seeds.length} seeds: scan ${summary(scan)}, photo ${summary(photo)} per page`);
}

main();
