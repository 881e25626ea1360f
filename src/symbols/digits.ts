/**
 * Reading the numbers printed on a staff — time signatures — digit by digit.
 *
 * The region is cut out of the prepared page, staff lines are erased (a line
 * pixel is ink whose vertical run is no taller than a line), the remaining
 * ink is split into digits by connected components, and each digit, scaled
 * to a fixed cell, is classified by a small ONNX model (models/digits.onnx).
 * Training (training/model/export-digits.ts) cuts its samples with this same
 * code, so the model sees exactly what it will be asked about.
 */
import * as ort from 'onnxruntime-web';
import type { GrayImage } from '../image/gray.js';
import { onnxModel } from './onnx-model.js';

export const DIGIT_MODEL_FILE = 'digits.onnx';
export const DIGIT_MODEL_VERSION = 'digits-1';
/** Cell a digit is scaled into: height, width. */
export const DIGIT_HEIGHT = 24;
export const DIGIT_WIDTH = 16;

export interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A time signature's halves reach this many spaces above the top line and below the bottom one. */
const SIGNATURE_PAD = 0.4;

/**
 * The two halves of a time signature between x0 and x1: numerator from a
 * little above the top line down to the middle line, denominator from there
 * to a little below the bottom line. The middle line itself (and a line's
 * width around it) belongs to neither, so the tip of one number never
 * shows up as a speck in the other.
 */
export function signatureHalves(lineYs: readonly number[], x0: number, x1: number, space: number, thickness: number): [Region, Region] {
  const pad = space * SIGNATURE_PAD;
  const middle = lineYs[2]!;
  const gap = Math.max(1, thickness);
  return [
    { x0: x0 - 2, x1: x1 + 2, y0: lineYs[0]! - pad, y1: middle - gap },
    { x0: x0 - 2, x1: x1 + 2, y0: middle + gap, y1: lineYs[4]! + pad },
  ];
}

/** One digit cut out of the page: its box and its cell (0 ink … 1 paper, row-major). */
export interface DigitCell extends Region {
  cell: Float32Array;
}

/**
 * The digits inside a region, left to right. `lineYs` are the y of the staff
 * lines crossing it and `lineThickness` their thickness, so they can be erased.
 */
export function digitCells(gray: GrayImage, region: Region, lineYs: readonly number[], lineThickness: number): DigitCell[] {
  const x0 = Math.max(0, Math.floor(region.x0));
  const y0 = Math.max(0, Math.floor(region.y0));
  const x1 = Math.min(gray.width, Math.ceil(region.x1));
  const y1 = Math.min(gray.height, Math.ceil(region.y1));
  const w = x1 - x0;
  const h = y1 - y0;
  if (w < 2 || h < 4) return [];
  let lo = 255;
  let hi = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const v = gray.data[y * gray.width + x]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (hi - lo < 40) return [];
  const threshold = (lo + hi) / 2;
  const ink = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) ink[y * w + x] = gray.data[(y + y0) * gray.width + x + x0]! < threshold ? 1 : 0;
  eraseLines(ink, w, h, lineYs.map((ly) => ly - y0), lineThickness);
  const groups = columnGroups(ink, w, h);
  return groups.map((g) => ({ x0: g.x0 + x0, y0: g.y0 + y0, x1: g.x1 + x0, y1: g.y1 + y0, cell: toCell(gray, g.x0 + x0, g.y0 + y0, g.x1 + x0, g.y1 + y0, threshold) }));
}

/** Erases staff-line pixels: ink near a line whose vertical run is not much taller than the line. */
function eraseLines(ink: Uint8Array, w: number, h: number, lineYs: readonly number[], thickness: number): void {
  const maxRun = Math.max(2, Math.round(thickness) + 1);
  for (const ly of lineYs) {
    const ya = Math.max(0, Math.floor(ly - thickness));
    const yb = Math.min(h - 1, Math.ceil(ly + thickness));
    for (let x = 0; x < w; x++) {
      for (let y = ya; y <= yb; y++) {
        if (!ink[y * w + x]) continue;
        let top = y;
        while (top > 0 && ink[(top - 1) * w + x]) top--;
        let bottom = y;
        while (bottom < h - 1 && ink[(bottom + 1) * w + x]) bottom++;
        if (bottom - top + 1 <= maxRun) for (let yy = top; yy <= bottom; yy++) ink[yy * w + x] = 0;
        y = bottom;
      }
    }
  }
}

/**
 * Digits side by side, told apart by the columns between them that hold no
 * ink once the lines are gone. (Connected components would split a digit
 * whose thin stroke lies along a staff line.) Slivers of ink — what is left
 * of a line where it meets a digit — are dropped.
 */
function columnGroups(ink: Uint8Array, w: number, h: number): Region[] {
  const columns = new Uint32Array(w);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) columns[x]! += ink[y * w + x]!;
  const ranges: { x0: number; x1: number; mass: number }[] = [];
  for (let x = 0; x < w; x++) {
    if (!columns[x]) continue;
    const last = ranges[ranges.length - 1];
    if (last && last.x1 === x) {
      last.x1 = x + 1;
      last.mass += columns[x]!;
    } else ranges.push({ x0: x, x1: x + 1, mass: columns[x]! });
  }
  const heaviest = Math.max(0, ...ranges.map((r) => r.mass));
  const pieces = ranges.filter((r) => r.mass >= Math.max(4, heaviest * 0.15));
  // A digit whose strokes along a line were erased falls apart into narrow pieces; a digit is about
  // 0.8 of the number's height wide, so a narrow piece joins the neighbour it makes a digit with.
  const digit = 0.8 * h;
  for (;;) {
    let best = -1;
    let bestWidth = Infinity;
    pieces.forEach((p, i) => {
      const width = p.x1 - p.x0;
      if (width >= digit * 0.6) return;
      for (const j of [i - 1, i + 1]) {
        const q = pieces[j];
        if (!q) continue;
        const joined = Math.max(p.x1, q.x1) - Math.min(p.x0, q.x0);
        if (joined <= digit * 1.15 && joined < bestWidth) {
          bestWidth = joined;
          best = Math.min(i, j);
        }
      }
    });
    if (best < 0) break;
    const [a, b] = [pieces[best]!, pieces[best + 1]!];
    pieces.splice(best, 2, { x0: a.x0, x1: b.x1, mass: a.mass + b.mass });
  }
  return pieces.map((r) => {
      let y0 = h;
      let y1 = 0;
      for (let y = 0; y < h; y++) {
        for (let x = r.x0; x < r.x1; x++) {
          if (ink[y * w + x]) {
            y0 = Math.min(y0, y);
            y1 = Math.max(y1, y + 1);
          }
        }
      }
      return { x0: r.x0, x1: r.x1, y0, y1 };
    });
}

/** The box scaled (aspect kept, by area averaging) and centred into the digit cell. */
function toCell(gray: GrayImage, x0: number, y0: number, x1: number, y1: number, threshold: number): Float32Array {
  const cell = new Float32Array(DIGIT_HEIGHT * DIGIT_WIDTH).fill(1);
  const w = x1 - x0;
  const h = y1 - y0;
  const scale = Math.min((DIGIT_HEIGHT - 2) / h, (DIGIT_WIDTH - 2) / w);
  const ox = (DIGIT_WIDTH - w * scale) / 2;
  const oy = (DIGIT_HEIGHT - h * scale) / 2;
  for (let cy = 0; cy < DIGIT_HEIGHT; cy++) {
    for (let cx = 0; cx < DIGIT_WIDTH; cx++) {
      // Sample the source at the cell pixel's centre, 2×2 supersampled.
      let sum = 0;
      for (const sy of [0.25, 0.75]) {
        for (const sx of [0.25, 0.75]) {
          const x = Math.floor(x0 + (cx + sx - ox) / scale);
          const y = Math.floor(y0 + (cy + sy - oy) / scale);
          sum += x >= x0 && x < x1 && y >= y0 && y < y1 ? Math.min(1, gray.data[y * gray.width + x]! / Math.max(1, 2 * threshold)) : 1;
        }
      }
      cell[cy * DIGIT_WIDTH + cx] = sum / 4;
    }
  }
  return cell;
}

/** Classifies digit cells: each digit 0–9 with the model's probability. */
export async function readDigits(cells: readonly DigitCell[]): Promise<{ digit: number; probability: number }[]> {
  if (!cells.length) return [];
  const model = await onnxModel(DIGIT_MODEL_FILE);
  const size = DIGIT_HEIGHT * DIGIT_WIDTH;
  const input = new Float32Array(cells.length * size);
  cells.forEach((c, i) => input.set(c.cell, i * size));
  const output = await model.run({ image: new ort.Tensor('float32', input, [cells.length, 1, DIGIT_HEIGHT, DIGIT_WIDTH]) });
  const logits = output.logits!.data as Float32Array;
  const classes = logits.length / cells.length;
  return cells.map((_, i) => {
    const row = logits.subarray(i * classes, (i + 1) * classes);
    const best = row.indexOf(Math.max(...row));
    const total = row.reduce((s, v) => s + Math.exp(v - row[best]!), 0);
    return { digit: best, probability: 1 / total };
  });
}

/** Below this probability a digit is a guess, and a guessed number is worse than none. */
const MIN_DIGIT_PROBABILITY = 0.6;

/** Reads groups of digit cells (left to right) as numbers in one model run; undefined when any digit is a guess. */
export async function readNumbers(groups: readonly (readonly DigitCell[])[]): Promise<number[] | undefined> {
  const digits = await readDigits(groups.flat());
  if (digits.some((d) => d.probability < MIN_DIGIT_PROBABILITY)) return undefined;
  let at = 0;
  return groups.map((group) => Number(digits.slice(at, (at += group.length)).map((d) => d.digit).join('')));
}
