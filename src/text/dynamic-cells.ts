/**
 * What the dynamics classifier (models/dynamics.onnx) reads: its classes, in
 * the order of its outputs, and the cell a dynamic mark ("p", "mf", "sfz") is
 * cut into. Tesseract, trained on book type, reads the bold italic letters of
 * music fonts poorly (an f as I, F or S, a z as y), so a mark found among the
 * symbol model's dynamics pixels is read whole by a model trained on engraved
 * dynamics instead. Training (training/model/export-dynamics.ts) cuts its
 * samples with this same cell, so the model sees what it will be asked about.
 */
import * as ort from 'onnxruntime-web';
import { onnxModel, softmaxBest } from '../symbols/onnx-model.js';

/** The marks the classifier tells apart, MusicXML element names: `none` (not a dynamic) first. */
export const DYNAMIC_CLASSES = [
  'none', 'pppp', 'ppp', 'pp', 'p', 'mp', 'mf', 'f', 'ff', 'fff', 'ffff', 'sf', 'sfz', 'sffz', 'sfp', 'sfpp', 'fp', 'fz', 'rf', 'rfz',
] as const;

/** The cell a dynamic is cut into, in prepared-page pixels (8 × 4 canonical staff spaces): width, height. */
export const DYNAMIC_CELL_WIDTH = 96;
export const DYNAMIC_CELL_HEIGHT = 48;

/** Paper around the mark inside the cell when it has to be shrunk to fit, in cell pixels. */
const CELL_MARGIN = 2;

export interface CellBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The cell of one mark: the ink of the components `own` (labels of `labels`)
 * inside `box` ([x0, x1) × [y0, y1)), on paper, centred in the cell at the page's own scale (the
 * prepared page is at the canonical staff space, so a mark's size says
 * something), shrunk only when it does not fit. 0 ink … 1 paper, row-major.
 */
export function dynamicCell(gray: { width: number; height: number; data: Uint8Array }, labels: Int32Array, own: ReadonlySet<number>, box: CellBox): Float32Array {
  const cell = new Float32Array(DYNAMIC_CELL_WIDTH * DYNAMIC_CELL_HEIGHT).fill(1);
  const w = Math.max(1, box.x1 - box.x0);
  const h = Math.max(1, box.y1 - box.y0);
  const scale = Math.min(1, (DYNAMIC_CELL_WIDTH - 2 * CELL_MARGIN) / w, (DYNAMIC_CELL_HEIGHT - 2 * CELL_MARGIN) / h);
  const cx = (box.x0 + box.x1) / 2;
  const cy = (box.y0 + box.y1) / 2;
  for (let y = 0; y < DYNAMIC_CELL_HEIGHT; y++) {
    for (let x = 0; x < DYNAMIC_CELL_WIDTH; x++) {
      // The page pixel under the cell pixel's centre (nearest: the cell is at most as fine as the page).
      const px = Math.floor(cx + (x + 0.5 - DYNAMIC_CELL_WIDTH / 2) / scale);
      const py = Math.floor(cy + (y + 0.5 - DYNAMIC_CELL_HEIGHT / 2) / scale);
      // Only what lies inside the box: a mark cut from a line leaves the mark beside it out.
      if (px < Math.max(0, box.x0) || py < Math.max(0, box.y0) || px >= Math.min(gray.width, box.x1) || py >= Math.min(gray.height, box.y1)) continue;
      const i = py * gray.width + px;
      if (own.has(labels[i]!)) cell[y * DYNAMIC_CELL_WIDTH + x] = gray.data[i]! / 255;
    }
  }
  return cell;
}

/** The box of the ink of `own` inside a box of the page (a word of a line, a part of a mark), or the box itself where it holds none. */
export function inkBox(labels: Int32Array, width: number, own: ReadonlySet<number>, box: CellBox): CellBox {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let y = Math.floor(box.y0); y < box.y1; y++) {
    for (let x = Math.floor(box.x0); x < box.x1; x++) {
      if (!own.has(labels[y * width + x]!)) continue;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x + 1), Math.max(y1, y + 1)];
    }
  }
  return x0 <= x1 ? { x0, y0, x1, y1 } : box;
}

/**
 * Runs a cell classifier (`file`, among the shipped models) on the cells of
 * `cells` (each the ink of its components `own` inside `box`), and gives each
 * cell's best class index with its probability, in order.
 */
export async function classifyCells(
  file: string,
  gray: { width: number; height: number; data: Uint8Array },
  labels: Int32Array,
  cells: readonly { own: ReadonlySet<number>; box: CellBox }[],
): Promise<{ index: number; probability: number }[]> {
  const model = await onnxModel(file);
  const size = DYNAMIC_CELL_WIDTH * DYNAMIC_CELL_HEIGHT;
  const read: { index: number; probability: number }[] = [];
  // A batch at a time: a page's words are hundreds of cells, and the network's first maps are 12 times a cell's size.
  for (let start = 0; start < cells.length; start += CELL_BATCH) {
    const batch = cells.slice(start, start + CELL_BATCH);
    const input = new Float32Array(batch.length * size);
    batch.forEach(({ own, box }, i) => input.set(dynamicCell(gray, labels, own, box), i * size));
    const output = await model.run({ image: new ort.Tensor('float32', input, [batch.length, 1, DYNAMIC_CELL_HEIGHT, DYNAMIC_CELL_WIDTH]) });
    const logits = output.logits!.data as Float32Array;
    const k = logits.length / batch.length;
    for (let i = 0; i < batch.length; i++) read.push(softmaxBest(logits.subarray(i * k, (i + 1) * k)));
  }
  return read;
}

/** Cells a classifier reads at once. */
const CELL_BATCH = 64;
