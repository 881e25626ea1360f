/**
 * Digit samples for the time-signature digit model, cut from generated
 * training pages with the engine's own code (page preparation, staff
 * detection, src/symbols/digits.ts):
 *
 *   npm run data:digits -- --in .data/train --out .data/digits.bin
 *
 *   npm run data:digits -- --synthetic 60 --seed 1   (also engrave pages of time signatures)
 *
 * The generated pages hold few 5s, 7s, 9s and 0s, so `--synthetic N` adds N
 * Verovio pages (every font, staff sizes drawn from the seed) whose measures
 * each change to a random signature, numerators 1–99 over 1–64.
 *
 * Every time signature on a clean page is split at its staff's middle line
 * into numerator and denominator; a half whose ink splits into as many
 * digits as its label has becomes one sample per digit. Output: `count ×
 * (1 label byte + DIGIT_HEIGHT·DIGIT_WIDTH bytes, 0 ink … 255 paper)`, with
 * `<out>.json` describing it, read by train_digits.py.
 */
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { decodePng } from '../../src/input/png.js';
import type { Raster } from '../../src/image/raster.js';
import { frac } from '../../src/score/fraction.js';
import type { Measure, Score } from '../../src/score/model.js';
import { CANONICAL_STAFF_SPACE, preparePage } from '../../src/preparation/prepare-page.js';
import { toPreparedPoint } from '../../src/reading/page-transform.js';
import { detectStaves, staffLineY } from '../../src/staves/detect-staves.js';
import { nearestStaff } from '../../src/staves/staff-geometry.js';
import { DIGIT_HEIGHT, DIGIT_WIDTH, digitCells, signatureHalves } from '../../src/symbols/digits.js';
import type { TrainingLabels } from '../data/generate-training.js';
import { createRng } from '../data/prng.js';
import { renderPages, VEROVIO_FONTS, type PageLabels } from '../data/render-pages.js';

/** A page's image and the time signatures on it: box in page pixels, numerator and denominator text. */
interface MeterPage {
  image: Raster;
  meters: { x: number; y: number; width: number; height: number; count: string; unit: string }[];
}

function metersOf(labels: PageLabels): MeterPage['meters'] {
  return labels.symbols
    .filter((s) => s.kind === 'meterSig' && s.attrs?.count && s.attrs?.unit && !s.attrs?.sym)
    .map((s) => ({ ...s.bbox, count: s.attrs!.count!, unit: s.attrs!.unit! }));
}

function* trainingPages(dir: string): Generator<MeterPage> {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const labels = JSON.parse(readFileSync(join(dir, file), 'utf8')) as TrainingLabels;
    if (labels.condition !== 'clean') continue;
    const meters = metersOf(labels);
    if (meters.length) yield { image: decodePng(readFileSync(join(dir, file.replace(/\.json$/, '.png')))), meters };
  }
}

/** A one-staff score whose every measure changes time signature, engraved in turn by every font. */
async function* syntheticPages(count: number, seed: number): AsyncGenerator<MeterPage> {
  const rng = createRng(seed);
  for (let n = 0; n < count; n++) {
    const measures: Measure[] = Array.from({ length: 24 }, (_, i) => {
      const beats = rng.int(1, 99);
      const beatType = rng.pick([1, 2, 4, 8, 16, 32, 64]);
      return {
        number: String(i + 1),
        time: { beats, beatType },
        clefs: i === 0 ? [{ sign: 'G', line: 2, staff: 1, offset: frac(0) }] : [],
        voices: [{ id: '1', events: [{ kind: 'rest', duration: frac(beats * 4, beatType), dots: 0, staff: 1, measureRest: true }] }],
        directions: [],
        ...(i === 0 ? { key: { fifths: 0 } } : {}),
      };
    });
    const score: Score = { credits: {}, partGroups: [], parts: [{ id: 'P1', name: '', instrumentId: 'keyboard.piano', midiProgram: 0, staves: 1, measures }] };
    const font = VEROVIO_FONTS[n % VEROVIO_FONTS.length]!;
    const pages = await renderPages(score, { font, pageWidth: 2100, pageHeight: 2970, staffSpacePx: rng.int(9, 24), hideEmptyStaves: false });
    for (const page of pages) yield { image: page.image, meters: metersOf(page.labels) };
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      in: { type: 'string', default: '.data/train' },
      out: { type: 'string', default: '.data/digits.bin' },
      synthetic: { type: 'string', default: '0' },
      seed: { type: 'string', default: '1' },
    },
  });
  const fd = openSync(values.out, 'w');
  const counts = new Array<number>(10).fill(0);
  let skipped = 0;
  const take = (page: MeterPage) => {
    const prepared = preparePage(page.image);
    let staves;
    try {
      staves = detectStaves(prepared.ink, { staffSpace: CANONICAL_STAFF_SPACE });
    } catch {
      return;
    }
    const thickness = Math.max(1, prepared.source.lineThickness * prepared.transform.scale);
    for (const meter of page.meters) {
      const [x0, y0] = toPreparedPoint(prepared.transform, meter.x, meter.y);
      const [x1, y1] = toPreparedPoint(prepared.transform, meter.x + meter.width, meter.y + meter.height);
      const staff = staves[nearestStaff(staves, (x0 + x1) / 2, (y0 + y1) / 2)];
      if (!staff) continue;
      const lines = [0, 1, 2, 3, 4].map((l) => staffLineY(staff, l, (x0 + x1) / 2));
      const [top, bottom] = signatureHalves(lines, x0, x1, staff.space, thickness);
      const halves = [
        { text: meter.count, region: top },
        { text: meter.unit, region: bottom },
      ];
      for (const { text, region } of halves) {
        if (!/^\d+$/.test(text)) continue;
        const cells = digitCells(prepared.gray, region, lines, thickness);
        if (cells.length !== text.length) {
          skipped++;
          continue;
        }
        cells.forEach((cell, i) => {
          const digit = Number(text[i]);
          const record = new Uint8Array(1 + DIGIT_HEIGHT * DIGIT_WIDTH);
          record[0] = digit;
          for (let k = 0; k < cell.cell.length; k++) record[1 + k] = Math.round(cell.cell[k]! * 255);
          writeSync(fd, record);
          counts[digit]!++;
        });
      }
    }
  };
  for (const page of trainingPages(values.in)) take(page);
  for await (const page of syntheticPages(Number(values.synthetic), Number(values.seed))) take(page);
  closeSync(fd);
  const count = counts.reduce((a, b) => a + b, 0);
  writeFileSync(`${values.out}.json`, `${JSON.stringify({ count, height: DIGIT_HEIGHT, width: DIGIT_WIDTH, perDigit: counts, skippedHalves: skipped }, null, 2)}\n`);
  console.log(`${count} digits (${counts.join(' ')}), ${skipped} halves skipped (digit count mismatch) → ${values.out}`);
}

await main();
