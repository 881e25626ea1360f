/**
 * Symbol segmentation: the ONNX model (models/symbols.onnx) labels every
 * pixel of a prepared page with a symbol class (symbol-classes: staff line,
 * stem, beam, notehead kinds, rests, accidentals, clefs …) at half resolution.
 *
 * It runs through onnxruntime-web's WebAssembly backend, the same code in
 * Node and in browsers, or in Node onnxruntime-node's native one where it is
 * installed (onnx-model.ts). Only bands around detected staves are processed:
 * margins and blank paper cost nothing.
 */
import * as ort from 'onnxruntime-web';
import type { GrayImage } from '../image/gray.js';
import type { Staff } from '../staves/detect-staves.js';
import { onnxModel, type OnnxModel } from './onnx-model.js';
import { nextTurn } from '../workers/next-turn.js';

export const SYMBOL_MODEL_FILE = 'symbols.onnx';
/** Version of the committed model (its card's `version`), written into every recognised MusicXML. */
export const SYMBOL_MODEL_VERSION = 'symbols-3';

/** Class index per pixel at half the prepared page's resolution (0 = background). */
export interface ClassMap {
  width: number;
  height: number;
  data: Uint8Array;
  /**
   * How sure the model is of each pixel's class, 0–255: the logistic of the
   * margin between the best and the second-best logit (cheaper than a softmax
   * over 40 classes, and it ranks pixels the same way where it matters).
   */
  confidence: Uint8Array;
}

/** The model sees inputs whose sides are multiples of 16 (four poolings of its U-Net). */
const MULTIPLE = 16;

/**
 * Segments the bands of the page that hold staves (each staff with room for
 * ledger lines, lyrics and dynamics around it) and returns one class map for
 * the whole page; everything outside the bands is background.
 */
export async function segmentSymbols(page: GrayImage, staves: readonly Staff[]): Promise<ClassMap> {
  const model = await onnxModel(SYMBOL_MODEL_FILE);
  const width2 = Math.ceil(page.width / 2);
  const height2 = Math.ceil(page.height / 2);
  const map: ClassMap = { width: width2, height: height2, data: new Uint8Array(width2 * height2), confidence: new Uint8Array(width2 * height2) };
  const [left, right] = staffColumns(page, staves);
  for (const [bandTop, bandBottom] of staffBands(page, staves)) {
    // Windows of bounded size keep the WebAssembly heap small (it never shrinks once grown, so the
    // widest page a process ever read would set it for good); each sees some context around it,
    // and only its own pixels are kept.
    for (let top = bandTop; top < bandBottom; top += WINDOW_ROWS) {
      const bottom = Math.min(bandBottom, top + WINDOW_ROWS);
      const y0 = Math.max(0, top - WINDOW_CONTEXT);
      const height = Math.ceil((Math.min(page.height, bottom + WINDOW_CONTEXT) - y0) / MULTIPLE) * MULTIPLE;
      for (let start = left; start < right; start += WINDOW_COLUMNS) {
        const end = Math.min(right, start + WINDOW_COLUMNS);
        const x0 = Math.max(left, start - WINDOW_CONTEXT);
        const x1 = Math.min(right, end + WINDOW_CONTEXT);
        await segmentWindow(model, page, map, { x0, x1, y0, height }, { left: start, right: end, top, bottom });
        await nextTurn(); // the model's run holds this thread: other threads' messages get through between windows
      }
    }
  }
  return map;
}

/**
 * Rows and columns a window keeps, and the context it sees beyond them on each side (multiples of
 * 16 and of 2, for the model's grid and the half-resolution map).
 */
const WINDOW_ROWS = 256;
const WINDOW_COLUMNS = 1024;
const WINDOW_CONTEXT = 32;

/**
 * Runs the model on page columns [x0, x1) and rows [y0, y0 + height) and writes its classes for
 * the part `keep` into the map.
 */
async function segmentWindow(
  model: OnnxModel,
  page: GrayImage,
  map: ClassMap,
  { x0, x1, y0, height }: { x0: number; x1: number; y0: number; height: number },
  keep: { left: number; right: number; top: number; bottom: number },
): Promise<void> {
  const width = Math.ceil((x1 - x0) / MULTIPLE) * MULTIPLE;
  const input = new Float32Array(width * height).fill(1);
  for (let y = 0; y < height && y0 + y < page.height; y++) {
    const row = (y0 + y) * page.width;
    for (let x = x0; x < x1; x++) input[y * width + x - x0] = page.data[row + x]! / 255;
  }
  const output = await model.run({ image: new ort.Tensor('float32', input, [1, 1, height, width]) }, SEGMENT_OUTPUTS);
  // The model's head (training/model/top_two.py) gives each pixel's best class and its two best logits.
  const best = output.best!.data as Uint8Array;
  const top = output.top!.data as Float32Array;
  const [, h2, w2] = output.best!.dims as [number, number, number];
  const plane = h2 * w2;
  for (let y = Math.max(0, (keep.top - y0) >> 1); y < Math.min(h2, (keep.bottom - y0 + 1) >> 1); y++) {
    const my = (y0 >> 1) + y;
    if (my >= map.height) break;
    for (let x = (keep.left - x0) >> 1; x < Math.min(w2, (keep.right - x0 + 1) >> 1, map.width - (x0 >> 1)); x++) {
      const k = y * w2 + x;
      const i = my * map.width + (x0 >> 1) + x;
      map.data[i] = best[k]!;
      map.confidence[i] = Math.round(255 / (1 + Math.exp(top[plane + k]! - top[k]!)));
    }
  }
}

/** The outputs a window needs: the model's other output, all 40 logit planes, stays inside the runtime. */
const SEGMENT_OUTPUTS = ['best', 'top'];

/** Room left of the staves, in spaces, for braces, brackets and a clef sticking out … */
const LEFT_ROOM = 6;
/** … and right of them for a final barline. */
const RIGHT_ROOM = 3;
/** Spaces over and under each staff that its band covers: ledger lines, lyrics, dynamics. */
const BAND_MARGIN = 6;

/**
 * The columns [left, right) that hold the staves (on the model's pooling grid), with room on the left for braces,
 * brackets and a clef sticking out, and on the right for a final barline: the margins beyond, and on
 * a photo the table around the page, are not worth the model's time.
 */
function staffColumns(page: GrayImage, staves: readonly Staff[]): [number, number] {
  const space = Math.max(...staves.map((s) => s.space));
  const left = Math.max(0, Math.floor((Math.min(...staves.map((s) => s.x0)) - space * LEFT_ROOM) / MULTIPLE) * MULTIPLE);
  const right = Math.min(page.width, Math.ceil(Math.max(...staves.map((s) => s.x1)) + space * RIGHT_ROOM));
  return right > left ? [left, right] : [0, page.width];
}

/** Vertical bands (even-aligned, merged where they overlap) covering every staff and its surroundings. */
function staffBands(page: GrayImage, staves: readonly Staff[]): [number, number][] {
  const bands: [number, number][] = staves
    .map((s) => {
      const top = Math.min(...s.lines[0]!);
      const bottom = Math.max(...s.lines[4]!);
      const margin = s.space * BAND_MARGIN;
      return [Math.max(0, Math.floor((top - margin) / 2) * 2), Math.min(page.height, Math.ceil(bottom + margin))] as [number, number];
    })
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const band of bands) {
    const last = merged[merged.length - 1];
    if (last && band[0] <= last[1]) last[1] = Math.max(last[1], band[1]);
    else merged.push([...band]);
  }
  return merged;
}
