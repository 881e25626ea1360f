/**
 * `npm run bench:classmap -- <document id> [clean|scan|photo] [page] [--repaint]` — what the symbol model
 * sees and says on one dev-set page: writes `<out>/<id>-<condition>-<page>.png`, the prepared page
 * (gray, at the canonical staff space) above its class map at the same scale, one colour per
 * class, with a legend of the classes present. For finding out why the engine reads a measure
 * as it does, and what a new model changes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { encodePng } from '../src/image/png-encode.js';
import { decodePages } from '../src/input/decode-pages.js';
import { RECOGNITION_PDF_DPI } from '../src/recognize/recognize-score.js';
import { CANONICAL_STAFF_SPACE, preparePage } from '../src/preparation/prepare-page.js';
import { findStaves } from '../src/staves/find-staves.js';
import { segmentSymbols } from '../src/symbols/segment.js';
import { repaintSteepBeams } from '../src/symbols/steep-beams.js';
import { SYMBOL_CLASSES } from '../src/symbols/symbol-classes.js';
import { DEV_SET, filesFor, manifestOf, type Condition } from './accuracy.js';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { out: { type: 'string', default: '.data/classmaps' }, repaint: { type: 'boolean', default: false } } });
const [id, condition = 'clean', pageText = '1'] = positionals;
const entry = manifestOf(DEV_SET).find((d) => d.id === id);
if (!entry) throw new Error(`no dev document ${id}; known: ${manifestOf(DEV_SET).map((d) => d.id).join(', ')}`);
const wanted = Number(pageText) - 1;

/** A colour per class, far apart on the hue circle; background white. */
function colour(c: number): [number, number, number] {
  if (c === 0) return [255, 255, 255];
  const h = ((c * 137.508) % 360) / 60;
  const x = 1 - Math.abs((h % 2) - 1);
  const [r, g, b] = h < 1 ? [1, x, 0] : h < 2 ? [x, 1, 0] : h < 3 ? [0, 1, x] : h < 4 ? [0, x, 1] : h < 5 ? [x, 0, 1] : [1, 0, x];
  const dark = c % 2 ? 0.55 : 0.85;
  return [Math.round(r * 255 * dark), Math.round(g * 255 * dark), Math.round(b * 255 * dark)];
}

const palette = SYMBOL_CLASSES.map((_, c) => colour(c));

let index = 0;
for await (const { raster } of decodePages(filesFor(DEV_SET, entry, condition as Condition), { dpi: RECOGNITION_PDF_DPI })) {
  if (index++ !== wanted) continue;
  const prepared = preparePage(raster);
  const staves = findStaves(prepared.ink, prepared.gray, CANONICAL_STAFF_SPACE);
  const map = await segmentSymbols(prepared.gray, staves);
  // --repaint: the map as the reader sees it, after the steep-beam repair.
  if (values.repaint) repaintSteepBeams(map, CANONICAL_STAFF_SPACE);
  const { width, height } = prepared.gray;
  const out = new Uint8Array(width * height * 2 * 3);
  const present = new Set<number>();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const g = prepared.gray.data[y * width + x]!;
      out.set([g, g, g], (y * width + x) * 3);
      const c = map.data[Math.min(map.height - 1, y >> 1) * map.width + Math.min(map.width - 1, x >> 1)]!;
      present.add(c);
      out.set(palette[c]!, ((height + y) * width + x) * 3);
    }
  }
  mkdirSync(values.out, { recursive: true });
  const file = join(values.out, `${id}-${condition}-${wanted + 1}.png`);
  writeFileSync(file, encodePng({ width, height: height * 2, channels: 3, data: out }));
  console.log(`${file}: ${width} × ${height * 2} (page above, classes below); ${staves.length} staves`);
  for (const c of [...present].sort((a, b) => a - b)) console.log(`  ${String(c).padStart(2)} ${SYMBOL_CLASSES[c]} rgb(${palette[c]!.join(', ')})`);
  process.exit(0);
}
throw new Error(`${id} / ${condition} has ${index} pages`);
