/**
 * Generates a training split: Verovio-engraved pages with exact labels.
 *
 *   npm run data:train -- --count 2000 --seed 1 --out .data/train
 *
 * Each sample is a pure function of (seed, sample index): regenerating with
 * the same arguments gives the same pages. Sources are drawn per sample: the
 * seeded random-music generator (45 %), an excerpt of a MusicXML corpus
 * piece (40 %) or of a Humdrum piece of the Polish corpus, read through
 * Verovio's Humdrum build and the MEI reader (15 %; see humdrum.ts) —
 * never a dev piece (see dev-split.ts). Engraving options (font, page size,
 * staff size) and the condition (clean, scan, photo) are drawn per sample.
 *
 * Per page it writes `<name>.png` (the image), `<name>.mask.png` (pixel
 * classes, see symbol-classes.ts), `<name>.json` (labels) and
 * `<name>.musicxml` (the page's ground truth), and prints throughput.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeMusicXml } from '../../src/exports/musicxml.js';
import { encodePng } from '../../src/image/png-encode.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import type { Box, Score } from '../../src/score/model.js';
import { degradePhoto, degradeScan, warpMask, type Geometry } from './degrade.js';
import { isDevPiece } from './dev-split.js';
import { excerpt } from './excerpt.js';
import { readHumdrum } from './humdrum.js';
import { createRng, type Rng } from './prng.js';
import { generateRandomScore } from './random-score.js';
import { renderPages, VEROVIO_FONTS, type PageLabels, type RenderOptions } from './render-pages.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CORPUS = resolve(ROOT, '../shared/corpus');

export type Condition = 'clean' | 'scan' | 'photo';

export interface SampleSource {
  /** `corpus`: MusicXML (lieder, orchestral); `humdrum`: the Polish corpus (CC BY 4.0); `random`: generated. */
  kind: 'corpus' | 'humdrum' | 'random';
  file?: string;
  seed: number;
  measures?: [number, number];
  parts?: number[];
}

/** Labels written beside each training page: the render's labels, moved through any degradation. */
export interface TrainingLabels extends PageLabels {
  source: SampleSource;
  condition: Condition;
  render: RenderOptions;
  /** Each staff's five lines as points along the staff, after degradation (lines curve on photos). */
  linePoints: [number, number][][][];
}

/** Training corpus files: lieder and orchestral MusicXML, minus the dev set. */
export function trainingCorpusFiles(): string[] {
  return ['lieder', 'orchestral'].flatMap((folder) =>
    readdirSync(join(CORPUS, folder))
      .filter((f) => f.endsWith('.mxl'))
      .sort()
      .map((f) => `${folder}/${f}`)
      .filter((f) => !isDevPiece(f)),
  );
}

/** Training Humdrum files: the Polish corpus (none of it is in the dev set, but the split decides). */
export function trainingHumdrumFiles(): string[] {
  return readdirSync(join(CORPUS, 'polish'))
    .filter((f) => f.endsWith('.krn'))
    .sort()
    .map((f) => `polish/${f}`)
    .filter((f) => !isDevPiece(f));
}

/** The corpus files a sample is drawn from, by kind. */
export interface TrainingFiles {
  musicXml: string[];
  humdrum: string[];
}

export const SOURCE_WEIGHTS: readonly (readonly [SampleSource['kind'], number])[] = [
  ['random', 0.45],
  ['corpus', 0.4],
  ['humdrum', 0.15],
];

/** Humdrum files Verovio or the MEI reader cannot read are few; a sample tries a few others before giving up. */
const HUMDRUM_ATTEMPTS = 5;

async function pickSource(rng: Rng, files: TrainingFiles): Promise<{ score: Score; source: SampleSource }> {
  const seed = rng.int(0, 2 ** 31 - 1);
  const kind = rng.weighted(SOURCE_WEIGHTS);
  if (kind === 'corpus') {
    const file = rng.pick(files.musicXml);
    return excerptOf(rng, readMusicXml(new Uint8Array(readFileSync(join(CORPUS, file)))), { kind, file, seed });
  }
  if (kind === 'humdrum' && files.humdrum.length) {
    for (let attempt = 0; attempt < HUMDRUM_ATTEMPTS; attempt++) {
      const file = rng.pick(files.humdrum);
      let full: Score;
      try {
        full = await readHumdrum(readFileSync(join(CORPUS, file), 'utf8'));
      } catch {
        continue;
      }
      if (full.parts[0]?.measures.length) return excerptOf(rng, full, { kind, file, seed });
    }
  }
  return { score: generateRandomScore(seed), source: { kind: 'random', seed } };
}

/** A stretch of measures of a corpus piece, now and then of one part only. */
function excerptOf(rng: Rng, full: Score, source: SampleSource): { score: Score; source: SampleSource } {
  const total = full.parts[0]!.measures.length;
  const orchestral = full.parts.length > 6;
  const length = Math.min(total, orchestral ? rng.int(3, 10) : rng.int(6, 24));
  const from = rng.int(0, total - length);
  // Now and then a single part alone, as printed in instrumental parts.
  const parts = full.parts.length > 1 && rng.chance(0.2) ? [rng.int(0, full.parts.length - 1)] : undefined;
  const score = excerpt(full, { measures: [from, from + length], ...(parts && { parts }) });
  return { score, source: { ...source, measures: [from, from + length], ...(parts && { parts }) } };
}

/**
 * What a split is drawn from, beyond its seed. The defaults are the original split's; a focused split
 * (small staves on scans and photos, steep beams) changes the ranges without changing the random
 * stream, so the same (seed, index) still picks the same music.
 */
export interface SplitOptions {
  /** Staff space in pixels, drawn log-uniform between the two. */
  staffSpace: [number, number];
  /** Relative weights of the clean, scan and photo conditions. */
  conditions: [number, number, number];
  /** Verovio's steepest beam, when not its default. */
  beamMaxSlope?: number;
}

export const DEFAULT_SPLIT: SplitOptions = { staffSpace: [8, 30], conditions: [0.4, 0.3, 0.3] };

function pickRender(rng: Rng, score: Score, split: SplitOptions): RenderOptions {
  const pageWidth = rng.int(1700, 2600);
  const [small, large] = split.staffSpace;
  return {
    font: rng.pick(VEROVIO_FONTS),
    pageWidth,
    pageHeight: Math.round(pageWidth * rng.range(1.29, 1.42)),
    // Log-uniform: small staves are as common as large ones.
    staffSpacePx: Math.round(small * Math.exp(rng.next() * Math.log(large / small))),
    hideEmptyStaves: score.parts.length > 8 && rng.chance(0.5),
    ...(split.beamMaxSlope !== undefined && { beamMaxSlope: split.beamMaxSlope }),
  };
}

/** Moves the labels through a degradation's geometry. */
function moveLabels(labels: PageLabels, geometry: Geometry | undefined): { labels: PageLabels; linePoints: TrainingLabels['linePoints'] } {
  const fwd = (x: number, y: number): [number, number] => (geometry ? geometry.forward(x, y) : [x, y]);
  const box = (b: Box): Box => {
    if (!geometry) return b;
    const [x0, y0, x1, y1] = geometry.forwardBox(b.x, b.y, b.x + b.width, b.y + b.height);
    return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  };
  const linePoints = labels.staves.map((s) =>
    s.lines.map((y) => Array.from({ length: 17 }, (_, i) => fwd(s.x0 + ((s.x1 - s.x0) * i) / 16, y))),
  );
  return {
    labels: {
      ...labels,
      width: geometry?.width ?? labels.width,
      height: geometry?.height ?? labels.height,
      systems: labels.systems.map((s) => ({ ...s, bbox: box(s.bbox) })),
      staves: labels.staves.map((s) => ({ ...s, bbox: box(s.bbox), lines: s.lines.map((y) => fwd(s.x0, y)[1]) })),
      measures: labels.measures.map((m) => ({ ...m, bbox: box(m.bbox) })),
      symbols: labels.symbols.map((s) => ({ ...s, bbox: box(s.bbox) })),
    },
    linePoints,
  };
}

export async function generateSample(seed: number, index: number, files: TrainingFiles, out: string, split = DEFAULT_SPLIT): Promise<number> {
  const rng = createRng(seed * 1_000_003 + index);
  const { score, source } = await pickSource(rng, files);
  const render = pickRender(rng, score, split);
  const pages = await renderPages(score, render);
  const [clean, scan, photo] = split.conditions;
  // Long excerpts spill over several pages; the first two are plenty per sample.
  for (const [p, page] of pages.slice(0, 2).entries()) {
    const condition = rng.weighted<Condition>([['clean', clean], ['scan', scan], ['photo', photo]]);
    const degradeSeed = rng.int(0, 2 ** 31 - 1);
    const degraded = condition === 'scan' ? degradeScan(page.image, degradeSeed) : condition === 'photo' ? degradePhoto(page.image, degradeSeed) : undefined;
    const image = degraded?.image ?? page.image;
    const mask = degraded ? warpMask(page.mask, degraded.geometry) : page.mask;
    const moved = moveLabels(page.labels, degraded?.geometry);
    const labels: TrainingLabels = { ...moved.labels, source, condition, render, linePoints: moved.linePoints };
    const name = join(out, `${String(index).padStart(6, '0')}-${p + 1}`);
    writeFileSync(`${name}.png`, encodePng(image));
    writeFileSync(`${name}.mask.png`, encodePng(mask));
    writeFileSync(`${name}.json`, JSON.stringify(labels));
    writeFileSync(`${name}.musicxml`, writeMusicXml(page.truth, { encodingDate: '2026-01-01' }));
  }
  return Math.min(pages.length, 2);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      count: { type: 'string', default: '100' },
      seed: { type: 'string', default: '1' },
      start: { type: 'string', default: '0' },
      out: { type: 'string', default: '.data/train' },
      // e.g. --staff-space 5,12 --conditions 0.2,0.4,0.4 --beam-max-slope 20
      'staff-space': { type: 'string' },
      conditions: { type: 'string' },
      'beam-max-slope': { type: 'string' },
    },
  });
  const numbers = (text: string | undefined, length: number, name: string): number[] | undefined => {
    if (text === undefined) return undefined;
    const list = text.split(',').map(Number);
    if (list.length !== length || list.some((n) => !Number.isFinite(n) || n < 0)) throw new Error(`--${name} takes ${length} numbers separated by commas`);
    return list;
  };
  const split: SplitOptions = {
    staffSpace: (numbers(values['staff-space'], 2, 'staff-space') as [number, number] | undefined) ?? DEFAULT_SPLIT.staffSpace,
    conditions: (numbers(values.conditions, 3, 'conditions') as [number, number, number] | undefined) ?? DEFAULT_SPLIT.conditions,
    ...(values['beam-max-slope'] !== undefined && { beamMaxSlope: Number(values['beam-max-slope']) }),
  };
  const count = Number(values.count);
  const seed = Number(values.seed);
  const start = Number(values.start);
  const out = resolve(values.out);
  mkdirSync(out, { recursive: true });
  const files: TrainingFiles = { musicXml: trainingCorpusFiles(), humdrum: trainingHumdrumFiles() };
  const started = performance.now();
  let pages = 0;
  for (let i = start; i < start + count; i++) {
    pages += await generateSample(seed, i, files, out, split);
    if ((i - start + 1) % 10 === 0 || i === start + count - 1) {
      const seconds = (performance.now() - started) / 1000;
      console.log(`${i - start + 1}/${count} samples, ${pages} pages, ${(pages / seconds).toFixed(2)} pages/s`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
