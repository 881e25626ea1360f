/**
 * What the mark classifier (models/marks.onnx) reads: its classes, in the
 * order of its outputs, and the cell of the prepared page it sees a mark in.
 */
import { MARK_KINDS } from '../reading/mark-kinds.js';

/** The mark classifier's classes, in the order of its outputs: `none` (not a mark) first. */
export const MARK_CLASSES = ['none', ...MARK_KINDS] as const;

/** The cell a mark is cut into, centred on it, in prepared-page pixels (4 × 3 canonical staff spaces): width, height. */
export const MARK_CELL_WIDTH = 48;
export const MARK_CELL_HEIGHT = 36;

/**
 * The cell centred on (x, y) of the prepared page, at its own resolution (the
 * page is already at the canonical staff space): 0 ink … 1 paper, row-major;
 * paper beyond the page's edge.
 */
export function markCell(gray: { width: number; height: number; data: Uint8Array }, x: number, y: number): Float32Array {
  const cell = new Float32Array(MARK_CELL_WIDTH * MARK_CELL_HEIGHT).fill(1);
  const left = Math.round(x - MARK_CELL_WIDTH / 2);
  const top = Math.round(y - MARK_CELL_HEIGHT / 2);
  for (let cy = 0; cy < MARK_CELL_HEIGHT; cy++) {
    const py = top + cy;
    if (py < 0 || py >= gray.height) continue;
    for (let cx = 0; cx < MARK_CELL_WIDTH; cx++) {
      const px = left + cx;
      if (px >= 0 && px < gray.width) cell[cy * MARK_CELL_WIDTH + cx] = gray.data[py * gray.width + px]! / 255;
    }
  }
  return cell;
}
