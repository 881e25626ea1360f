/**
 * What the cell exporters (export-dynamics.ts, export-pedals.ts) share: the
 * loop that engraves random scores and cuts cells from their pages, the
 * measure a labelled box of an engraved page stands in, and the prepared
 * page's ink components inside a labelled box.
 */
import { parseArgs } from 'node:util';
import type { Box, Score } from '../../src/score/model.js';
import { DYNAMIC_CELL_HEIGHT, DYNAMIC_CELL_WIDTH, type CellBox } from '../../src/text/dynamic-cells.js';
import { labelInk, type InkComponents } from '../../src/text/text-regions.js';
import { preparePage, type PreparedPage } from '../../src/preparation/prepare-page.js';
import { toPreparedPoint } from '../../src/reading/page-transform.js';
import { createRng, type Rng } from '../data/prng.js';
import { generateRandomScore } from '../data/random-score.js';
import { renderPages, VEROVIO_FONTS, type RenderedPage } from '../data/render-pages.js';
import { openCellFile } from './cell-file.js';

/** An exporter of cells: what it marks each random score with, and how it cuts a page's cells. */
export interface CellExporter<Marks> {
  defaultOut: string;
  classes: readonly string[];
  /** The cell's size in pixels; default the dynamics' cell. */
  cellHeight?: number;
  cellWidth?: number;
  /** Pages cut when `--pages` is not given; default 150. */
  defaultPages?: number;
  /** Most staves a score has (one at least). */
  maxStaves: number;
  draw(score: Score, rng: Rng): Marks;
  sample(page: RenderedPage, marks: Marks, rng: Rng, write: (label: number, cell: Float32Array) => void): void;
}

/**
 * Engraves random scores (8 to 20 measures) by Verovio, in its fonts in turn and a staff size drawn from the
 * seed, until `--pages` pages are cut into `--out`; prints the cells per class.
 */
export async function exportCells<Marks>(exporter: CellExporter<Marks>): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: String(exporter.defaultPages ?? 150) },
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: exporter.defaultOut },
    },
  });
  const rng = createRng(Number(values.seed));
  const file = openCellFile(values.out!, exporter.classes, exporter.cellHeight ?? DYNAMIC_CELL_HEIGHT, exporter.cellWidth ?? DYNAMIC_CELL_WIDTH);
  let pagesDone = 0;
  for (let n = 0; pagesDone < Number(values.pages); n++) {
    const scoreRng = rng.fork();
    const score = generateRandomScore(rng.int(1, 1e9), { staves: scoreRng.int(1, exporter.maxStaves), measures: scoreRng.int(8, 20) });
    const marks = exporter.draw(score, scoreRng);
    const pages = await renderPages(score, {
      font: VEROVIO_FONTS[n % VEROVIO_FONTS.length]!,
      pageWidth: scoreRng.int(1800, 2400),
      pageHeight: 2970,
      staffSpacePx: scoreRng.int(10, 26),
      hideEmptyStaves: false,
    });
    for (const page of pages) {
      exporter.sample(page, marks, scoreRng, file.write);
      if (++pagesDone >= Number(values.pages)) break;
    }
    if (n % 10 === 9) console.log(`${pagesDone} pages, ${file.count()} cells`);
  }
  const perClass = file.close(pagesDone, Number(values.seed));
  console.log(`${file.count()} cells from ${pagesDone} pages → ${values.out}`, perClass);
}

/** The measure index a labelled box stands in: the measure across its centre, of the system nearest it. */
export function measureOf(page: RenderedPage, box: Box): number | undefined {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const { systems, measures } = page.labels;
  let system = -1;
  let best = Infinity;
  systems.forEach((s, i) => {
    const d = cy < s.bbox.y ? s.bbox.y - cy : cy > s.bbox.y + s.bbox.height ? cy - s.bbox.y - s.bbox.height : 0;
    if (d < best) {
      best = d;
      system = i;
    }
  });
  return measures.find((m) => m.system === system && cx >= m.bbox.x && cx < m.bbox.x + m.bbox.width)?.index;
}

/** The ink components no larger than a box of the prepared page whose centres lie inside it of the prepared page, left to right. */
export function componentsIn(components: InkComponents, box: CellBox, slack: number): number[] {
  const found: number[] = [];
  components.boxes.forEach((b, label) => {
    if (label === 0) return;
    const cx = (b.x0 + b.x1) / 2;
    const cy = (b.y0 + b.y1) / 2;
    const fits = b.x1 - b.x0 <= box.x1 - box.x0 + 2 * slack && b.y1 - b.y0 <= box.y1 - box.y0 + 2 * slack;
    if (fits && cx >= box.x0 - slack && cx <= box.x1 + slack && cy >= box.y0 - slack && cy <= box.y1 + slack) found.push(label);
  });
  return found.sort((a, b) => components.boxes[a]!.x0 - components.boxes[b]!.x0);
}

export function unionBox(components: InkComponents, labels: readonly number[]): CellBox {
  const boxes = labels.map((l) => components.boxes[l]!);
  return { x0: Math.min(...boxes.map((b) => b.x0)), y0: Math.min(...boxes.map((b) => b.y0)), x1: Math.max(...boxes.map((b) => b.x1)), y1: Math.max(...boxes.map((b) => b.y1)) };
}

/** A rendered page prepared as recognition prepares it, its ink components, and labelled boxes carried onto it. */
export function preparedPage(page: RenderedPage): { prepared: PreparedPage; components: InkComponents; toPrepared: (b: Box) => CellBox } {
  const prepared = preparePage(page.image);
  const t = prepared.transform;
  const toPrepared = (b: Box): CellBox => {
    const [x0, y0] = toPreparedPoint(t, b.x, b.y);
    const [x1, y1] = toPreparedPoint(t, b.x + b.width, b.y + b.height);
    return { x0, y0, x1, y1 };
  };
  return { prepared, components: labelInk(prepared.ink), toPrepared };
}
