/**
 * Islands of ink: pieces of the page's ink (eight neighbours) that start
 * inside a box and end near it. A mark clear of a slur's ink, a staccato
 * dot the symbol model left unpainted: each is such a piece, where a line,
 * a stem or a slur running through the box runs on past it.
 */
import type { BinaryImage } from '../preparation/binarize.js';

/** A box in prepared pixels, ends exclusive. */
export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A piece of ink: its box, and its pixels as indices into the page. */
export interface InkIsland extends PixelBox {
  pixels: number[];
}

/**
 * The pieces of ink with a pixel in `box` that stay within `margin` pixels of it, in the order their first
 * pixels are met, row by row. Ink that reaches further (not the page's edge) runs on, and is none.
 */
export function inkIslands(ink: BinaryImage, box: PixelBox, margin: number): InkIsland[] {
  const fx0 = Math.max(0, Math.floor(box.x0 - margin));
  const fy0 = Math.max(0, Math.floor(box.y0 - margin));
  const fx1 = Math.min(ink.width - 1, Math.ceil(box.x1 + margin));
  const fy1 = Math.min(ink.height - 1, Math.ceil(box.y1 + margin));
  const w = fx1 - fx0 + 1;
  const seen = new Uint8Array(w * (fy1 - fy0 + 1));
  const inked = (x: number, y: number) => ink.data[y * ink.width + x] !== 0;
  const islands: InkIsland[] = [];
  for (let sy = Math.max(fy0, Math.floor(box.y0)); sy <= Math.min(fy1, Math.ceil(box.y1)); sy++) {
    for (let sx = Math.max(fx0, Math.floor(box.x0)); sx <= Math.min(fx1, Math.ceil(box.x1)); sx++) {
      if (seen[(sy - fy0) * w + (sx - fx0)] || !inked(sx, sy)) continue;
      const piece = { x0: sx, y0: sy, x1: sx, y1: sy, pixels: [] as number[] };
      // Reaching the frame (not the page's edge) is ink running on.
      let runsOn = false;
      const stack = [sx, sy];
      seen[(sy - fy0) * w + (sx - fx0)] = 1;
      while (stack.length) {
        const y = stack.pop()!;
        const x = stack.pop()!;
        piece.pixels.push(y * ink.width + x);
        piece.x0 = Math.min(piece.x0, x);
        piece.x1 = Math.max(piece.x1, x);
        piece.y0 = Math.min(piece.y0, y);
        piece.y1 = Math.max(piece.y1, y);
        if ((x === fx0 && fx0 > 0) || (x === fx1 && fx1 < ink.width - 1) || (y === fy0 && fy0 > 0) || (y === fy1 && fy1 < ink.height - 1)) runsOn = true;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const [nx, ny] = [x + dx, y + dy];
            if (nx < fx0 || ny < fy0 || nx > fx1 || ny > fy1) continue;
            const k = (ny - fy0) * w + (nx - fx0);
            if (seen[k] || !inked(nx, ny)) continue;
            seen[k] = 1;
            stack.push(nx, ny);
          }
        }
      }
      if (!runsOn) islands.push({ ...piece, x1: piece.x1 + 1, y1: piece.y1 + 1 });
    }
  }
  return islands;
}
