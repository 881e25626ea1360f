/**
 * Turns generated training pages into tiles for the symbol model:
 *
 *   npm run data:tiles -- --in .data/train --out .data/tiles.bin [--tiles-per-page 10] [--size 256]
 *
 * Each page goes through the engine's own page preparation (flattening,
 * deskew, rescale to the canonical staff space) and its class mask through the
 * same transform, so the model trains on exactly what it will see. Tiles are
 * centred on staves, with some anywhere on the page (text, margins) so the
 * model also learns what is not music.
 *
 * Output: a raw file of `count × (size² image bytes + size² label bytes)`,
 * with `<out>.json` describing it (size, count, classes), read by train.py.
 */
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { decodePng } from '../../src/input/png.js';
import { preparePage, transformLabels } from '../../src/preparation/prepare-page.js';
import { toPreparedPoint } from '../../src/reading/page-transform.js';
import type { TrainingLabels } from '../data/generate-training.js';
import { createRng } from '../data/prng.js';
import { SYMBOL_CLASSES } from '../data/symbol-classes.js';

function main(): void {
  const { values } = parseArgs({
    options: {
      in: { type: 'string', default: '.data/train' },
      out: { type: 'string', default: '.data/tiles.bin' },
      'tiles-per-page': { type: 'string', default: '10' },
      size: { type: 'string', default: '256' },
      seed: { type: 'string', default: '1' },
    },
  });
  const size = Number(values.size);
  const perPage = Number(values['tiles-per-page']);
  const rng = createRng(Number(values.seed));
  const files = readdirSync(values.in).filter((f) => f.endsWith('.json')).sort();
  const fd = openSync(values.out, 'w');
  let count = 0;
  const sources: Record<string, number> = {};
  const conditions: Record<string, number> = {};
  const started = performance.now();
  for (const [n, file] of files.entries()) {
    const labels = JSON.parse(readFileSync(join(values.in, file), 'utf8')) as TrainingLabels;
    const base = join(values.in, file.replace(/\.json$/, ''));
    const page = preparePage(decodePng(readFileSync(`${base}.png`)));
    const maskPng = decodePng(readFileSync(`${base}.mask.png`));
    const mask = transformLabels({ width: maskPng.width, height: maskPng.height, data: maskPng.data }, page.transform);
    const { width, height } = page.gray;
    if (width < size || height < size) continue;
    sources[labels.source.kind] = (sources[labels.source.kind] ?? 0) + 1;
    conditions[labels.condition] = (conditions[labels.condition] ?? 0) + 1;
    // Staff centres in prepared pixels: most tiles sit on the music.
    const centres = labels.linePoints.map((lines) => toPreparedPoint(page.transform, ...lines[2]![Math.floor(lines[2]!.length / 2)]!));
    for (let t = 0; t < perPage; t++) {
      let cx: number;
      let cy: number;
      if (centres.length && rng.chance(0.85)) {
        const [x, y] = rng.pick(centres);
        cx = x + rng.range(-width / 2, width / 2);
        cy = y + rng.range(-size / 3, size / 3);
      } else {
        cx = rng.range(0, width);
        cy = rng.range(0, height);
      }
      const x0 = Math.round(Math.min(Math.max(cx - size / 2, 0), width - size));
      const y0 = Math.round(Math.min(Math.max(cy - size / 2, 0), height - size));
      const tile = new Uint8Array(size * size * 2);
      for (let y = 0; y < size; y++) {
        tile.set(page.gray.data.subarray((y0 + y) * width + x0, (y0 + y) * width + x0 + size), y * size);
        tile.set(mask.data.subarray((y0 + y) * width + x0, (y0 + y) * width + x0 + size), size * size + y * size);
      }
      writeSync(fd, tile);
      count++;
    }
    if ((n + 1) % 50 === 0) console.log(`${n + 1}/${files.length} pages, ${count} tiles, ${((n + 1) / ((performance.now() - started) / 1000)).toFixed(1)} pages/s`);
  }
  closeSync(fd);
  writeFileSync(`${values.out}.json`, JSON.stringify({ size, count, classes: SYMBOL_CLASSES, pages: files.length, sources, conditions }, null, 2));
  console.log(`${count} tiles of ${size}×${size} from ${files.length} pages → ${values.out}`);
}

main();
