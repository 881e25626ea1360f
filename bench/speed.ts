/**
 * `npm run bench:speed` — seconds per page of the engine stages that exist so
 * far (page preparation, staff detection, systems, symbol segmentation), on
 * the dev set's scan pages, in Node with one WebAssembly thread. Prints the
 * median, the slowest page and the peak resident memory.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { OmrError } from '../src/errors.js';
import type { Raster } from '../src/image/raster.js';
import { decodeJpeg } from '../src/input/jpeg.js';
import { decodePng } from '../src/input/png.js';
import { CANONICAL_STAFF_SPACE, preparePage } from '../src/preparation/prepare-page.js';
import { detectStaves } from '../src/staves/detect-staves.js';
import { groupSystems } from '../src/staves/systems.js';
import { segmentSymbols } from '../src/symbols/segment.js';

const DEV_SET = resolve(import.meta.dirname, 'dev-set');

function decode(path: string): Raster {
  const bytes = readFileSync(path);
  return path.endsWith('.png') ? decodePng(bytes) : decodeJpeg(bytes);
}

async function main(): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(DEV_SET, 'manifest.json'), 'utf8')) as { documents: { files: { scan: string[] } }[] };
  const pages = manifest.documents.flatMap((d) => d.files.scan);
  const seconds: number[] = [];
  let peak = 0;
  const failures: string[] = [];
  for (const file of pages) {
    const image = decode(join(DEV_SET, file));
    const started = performance.now();
    const page = preparePage(image);
    try {
      const staves = detectStaves(page.ink, { staffSpace: CANONICAL_STAFF_SPACE });
      groupSystems(staves, page.ink);
      await segmentSymbols(page.gray, staves);
    } catch (err) {
      if (!(err instanceof OmrError)) throw err;
      failures.push(`${file}: ${err.code} (staff space ${page.source.staffSpace.toFixed(1)} px, skew ${page.transform.skew}°)`);
    }
    seconds.push((performance.now() - started) / 1000);
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  if (failures.length) console.log(`failed pages:\n  ${failures.join('\n  ')}`);
  const sorted = [...seconds].sort((a, b) => a - b);
  console.log(`${pages.length} scan pages: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} s/page, slowest ${sorted[sorted.length - 1]!.toFixed(2)} s, peak RSS ${(peak / 2 ** 20).toFixed(0)} MB`);
  console.log('stages measured: preparation, staves, systems, segmentation (assembly not built yet)');
}

await main();
