/**
 * Dynamics read by their own model (models/dynamics.onnx) rather than by
 * tesseract: each mark the text finding groups from the symbol model's
 * dynamics pixels ("sfz", "mp") is cut into a cell (dynamic-cells.ts) and
 * classified whole. The model may also say it is none (a piece of a word or
 * of a hairpin painted as dynamics); a reading it is unsure of is left to
 * the OCR.
 */
import type { GrayImage } from '../image/gray.js';
import { classifyCells, DYNAMIC_CLASSES, inkBox, type CellBox } from './dynamic-cells.js';
import type { TextLine } from './text-regions.js';

export const DYNAMICS_MODEL_FILE = 'dynamics.onnx';
export const DYNAMICS_MODEL_VERSION = 'dynamics-1';

/** Below this probability the model's reading is a guess, and the OCR reads the mark instead. */
export const MIN_DYNAMIC_PROBABILITY = 0.8;

/**
 * Marks so rare in printed music that the model naming one is more likely wrong than right, however
 * sure it is: each is under one in a thousand of the 110,000 dynamics in the corpus's 1,510 scores
 * (sfpp 3, sffz 4, rfz 11, pppp 36), and the model, trained on as many of each as of p or f, reads
 * italic words such as "dim." as sfpp. The OCR reads these, as it reads a mark the model is unsure of.
 */
export const RARE_DYNAMICS: ReadonlySet<string> = new Set(['pppp', 'sffz', 'sfpp', 'rfz']);

/** A mark as the model reads it: a MusicXML dynamics element name, or `none`, with its probability. */
export interface DynamicReading {
  mark: (typeof DYNAMIC_CLASSES)[number];
  probability: number;
}

/** Whether the model's reading of a line stands without the OCR: it names marks, none of them rare, each surely. */
export function trustedReading(read: readonly DynamicReading[]): boolean {
  return read.length > 0 && read.every((r) => r.mark !== 'none' && !RARE_DYNAMICS.has(r.mark) && r.probability >= MIN_DYNAMIC_PROBABILITY);
}

/** A mark read off a line: the model's reading and the mark's box in prepared pixels. */
export interface DynamicMark extends DynamicReading, CellBox {}

/**
 * The model's reading of each line (of kind `dynamics`), in order: one mark, or two where the line
 * is two marks side by side ("fz" and a "p" just after it, their letters as close as a mark's own)
 * that the model reads each more surely than the whole. `labels` are the page's ink components the
 * lines' glyphs name.
 */
export async function readDynamicMarks(gray: GrayImage, labels: Int32Array, lines: readonly TextLine[]): Promise<DynamicMark[][]> {
  if (!lines.length) return [];
  // The whole line first, then each split at a gap between its inks into a left and a right part.
  const cells: { own: Set<number>; box: CellBox }[] = [];
  const plans = lines.map((line) => {
    const own = new Set(line.glyphs);
    const whole = cells.push({ own, box: line }) - 1;
    const splits = line.spans.slice(1).map((span, i) => {
      const left = inkBox(labels, gray.width, own, { x0: line.x0, y0: line.y0, x1: line.spans[i]![1], y1: line.y1 });
      const right = inkBox(labels, gray.width, own, { x0: span[0], y0: line.y0, x1: line.x1, y1: line.y1 });
      return { left: cells.push({ own, box: left }) - 1, right: cells.push({ own, box: right }) - 1, boxes: [left, right] };
    });
    return { whole, splits };
  });
  // A dynamics line's box is its glyphs' (text-regions.ts), as the training's cells are centred on theirs.
  const read = (await classifyCells(DYNAMICS_MODEL_FILE, gray, labels, cells)).map(({ index, probability }): DynamicReading => ({ mark: DYNAMIC_CLASSES[index]!, probability }));
  return lines.map((line, n) => {
    const { whole, splits } = plans[n]!;
    let chosen: DynamicMark[] = [{ ...read[whole]!, x0: line.x0, y0: line.y0, x1: line.x1, y1: line.y1 }];
    let sureness = read[whole]!.mark === 'none' ? 0 : read[whole]!.probability;
    for (const split of splits) {
      const [a, b] = [read[split.left]!, read[split.right]!];
      const both = a.mark !== 'none' && b.mark !== 'none' && Math.min(a.probability, b.probability) >= MIN_DYNAMIC_PROBABILITY ? a.probability * b.probability : 0;
      if (both > sureness) {
        sureness = both;
        chosen = [{ ...a, ...split.boxes[0]! }, { ...b, ...split.boxes[1]! }];
      }
    }
    return chosen;
  });
}
