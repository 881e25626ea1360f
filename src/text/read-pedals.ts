/**
 * Piano pedal marks read by their own model (models/pedals.onnx): the sign
 * that presses the sustain pedal (Ped., `start`) and the one that lets it
 * go (*, `stop`). Music fonts draw both as ornate glyphs tesseract reads as
 * "Reo.", "QOD." or nothing, and the symbol model paints them as text. So
 * each word of the lines found as text under or between the staves, its
 * letters cut into the dynamics' cell (dynamic-cells.ts), is first shown to
 * a classifier trained on engraved pedal marks; the words it is sure of
 * become pedal marks, and the rest of the line goes to the OCR as before.
 */
import type { GrayImage } from '../image/gray.js';
import { classifyCells, inkBox, type CellBox } from './dynamic-cells.js';

export const PEDALS_MODEL_FILE = 'pedals.onnx';
export const PEDALS_MODEL_VERSION = 'pedals-1';

/** What the classifier tells apart, in the order of its outputs: `none` (no pedal mark) first, then MusicXML pedal types. */
export const PEDAL_CLASSES = ['none', 'start', 'stop'] as const;

/** Below this probability the model's reading is a guess, and the word stays text for the OCR. */
export const MIN_PEDAL_PROBABILITY = 0.9;

/** Ink spans of a line closer than this, in staff spaces, are one word (Ped. and its dot; a word's letters). */
export const WORD_GAP = 0.5;

/** A pedal mark read off a line: `start` or `stop`, its probability, and its box in prepared pixels. */
export interface PedalMark extends CellBox {
  pedal: Exclude<(typeof PEDAL_CLASSES)[number], 'none'>;
  probability: number;
}

/** A line as the pedal reading sees it: its box, its glyphs' component labels and its ink spans (text-regions.ts TextLine), and the staff space of its staff. */
export interface PedalLine extends CellBox {
  glyphs: readonly number[];
  spans: readonly (readonly [number, number])[];
  space: number;
}

/**
 * The pedal marks among each line's words, in order: words are its ink spans
 * grouped where they stand closer than {@link WORD_GAP} staff spaces, each
 * cut into a cell of its own glyphs and classified;
 * those the model reads as a pedal mark at {@link MIN_PEDAL_PROBABILITY} or
 * more are kept. `labels` are the page's ink components the glyphs name.
 */
export async function readPedalMarks(gray: GrayImage, labels: Int32Array, lines: readonly PedalLine[]): Promise<PedalMark[][]> {
  const owns = lines.map((line) => new Set(line.glyphs));
  const words = lines.map((line, i) => lineWords(line).map((word) => inkBox(labels, gray.width, owns[i]!, word)));
  const cells = words.flatMap((boxes, i) => boxes.map((box) => ({ own: owns[i]!, box })));
  if (!cells.length) return lines.map(() => []);
  const read = await classifyCells(PEDALS_MODEL_FILE, gray, labels, cells);
  let n = 0;
  return words.map((boxes) =>
    boxes.flatMap((box): PedalMark[] => {
      const { index, probability } = read[n++]!;
      const pedal = PEDAL_CLASSES[index]!;
      return pedal !== 'none' && probability >= MIN_PEDAL_PROBABILITY ? [{ pedal, probability, ...box }] : [];
    }),
  );
}

/** A line's words: its ink spans grouped where the gap between them is under {@link WORD_GAP} staff spaces, each over the line's height. */
export function lineWords(line: PedalLine): CellBox[] {
  const words: CellBox[] = [];
  for (const [a, b] of line.spans) {
    const last = words[words.length - 1];
    if (last && a - last.x1 < WORD_GAP * line.space) last.x1 = Math.max(last.x1, b);
    else words.push({ x0: a, y0: line.y0, x1: b, y1: line.y1 });
  }
  return words;
}

/** The component labels of `own` with ink inside `box`: the glyphs a pedal mark takes from its line. */
export function glyphsIn(labels: Int32Array, width: number, own: ReadonlySet<number>, box: CellBox): Set<number> {
  const found = new Set<number>();
  for (let y = Math.floor(box.y0); y < box.y1; y++) {
    for (let x = Math.floor(box.x0); x < box.x1; x++) {
      const label = labels[y * width + x]!;
      if (own.has(label)) found.add(label);
    }
  }
  return found;
}
