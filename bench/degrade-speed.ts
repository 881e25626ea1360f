/**
 * `npm run bench:degrade [-- --seeds 6]` — milliseconds per page of the
 * training data's degradations (`degradeScan`, `degradePhoto` with their
 * default options) on a 1700×2400 gray page, the size of a 200 dpi letter
 * page. A timing, so it lives here and not in the tests.
 */
import { parseArgs } from 'node:util';
import { degradePhoto, degradeScan } from '../training/data/degrade.js';
import { staffLikePage } from '../training/data/staff-like-page.js';

const WIDTH = 1700;
const HEIGHT = 2400;


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
  const page = staffLikePage(WIDTH, HEIGHT);
  degradeScan(page, 0); // warm up
  degradePhoto(page, 0);
  const scan = seeds.map((seed) => time(() => degradeScan(page, seed)));
  const photo = seeds.map((seed) => time(() => degradePhoto(page, seed)));
  console.log(`degrade ${WIDTH}×${HEIGHT} gray page, default options, ${seeds.length} seeds: scan ${summary(scan)}, photo ${summary(photo)} per page`);
}

main();
