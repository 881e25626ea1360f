/**
 * Dynamics read by their own model (models/dynamics.onnx) rather than by
 * tesseract: each mark the text finding groups from the symbol model's
 * dynamics pixels ("sfz", "mp") is cut into a cell (dynamic-cells.ts) and
 * classified whole. The model may also say it is none (a piece of a word or
 * of a hairpin painted as dynamics); a reading it is unsure of is left to
 * the OCR.
 */
import * as ort from 'onnxruntime-web';
import type { GrayImage } from '../image/gray.js';
import { onnxModel } from '../symbols/onnx-model.js';
import { DYNAMIC_CELL_HEIGHT, DYNAMIC_CELL_WIDTH, DYNAMIC_CLASSES, dynamicCell } from './dynamic-cells.js';
import type { TextLine } from './text-regions.js';

export const DYNAMICS_MODEL_FILE = 'dynamics.onnx';
export const DYNAMICS_MODEL_VERSION = 'dynamics-1';

/** Below this probability the model's reading is a guess, and the OCR reads the mark instead. */
export const MIN_DYNAMIC_PROBABILITY = 0.8;

/** A mark as the model reads it: a MusicXML dynamics element name, or `none`, with its probability. */
export interface DynamicReading {
  mark: (typeof DYNAMIC_CLASSES)[number];
  probability: number;
}

/** The model's reading of each line (of kind `dynamics`), in order; `labels` are the page's ink components the lines' glyphs name. */
export async function readDynamicMarks(gray: GrayImage, labels: Int32Array, lines: readonly TextLine[]): Promise<DynamicReading[]> {
  if (!lines.length) return [];
  const model = await onnxModel(DYNAMICS_MODEL_FILE);
  const size = DYNAMIC_CELL_WIDTH * DYNAMIC_CELL_HEIGHT;
  const input = new Float32Array(lines.length * size);
  // A dynamics line's box is its glyphs' (text-regions.ts), as the training's cells are centred on theirs.
  lines.forEach((line, i) => input.set(dynamicCell(gray, labels, new Set(line.glyphs), line), i * size));
  const output = await model.run({ image: new ort.Tensor('float32', input, [lines.length, 1, DYNAMIC_CELL_HEIGHT, DYNAMIC_CELL_WIDTH]) });
  const logits = output.logits!.data as Float32Array;
  const k = DYNAMIC_CLASSES.length;
  return lines.map((_, i) => best(logits.subarray(i * k, (i + 1) * k)));
}

/** The most likely class and its probability. */
function best(row: Float32Array): DynamicReading {
  let index = 0;
  for (let k = 1; k < row.length; k++) if (row[k]! > row[index]!) index = k;
  const total = row.reduce((s, v) => s + Math.exp(v - row[index]!), 0);
  return { mark: DYNAMIC_CLASSES[index]!, probability: 1 / total };
}
