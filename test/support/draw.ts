/** Minimal drawing on gray rasters for synthetic test pages. */
import type { Raster } from '../../src/image/raster.js';

export function blankPage(width: number, height: number, paper = 255): Raster {
  return { width, height, channels: 1, data: new Uint8Array(width * height).fill(paper) };
}

export function fillRect(page: Raster, x: number, y: number, w: number, h: number, ink = 0): void {
  for (let yy = Math.max(0, Math.round(y)); yy < Math.min(page.height, Math.round(y + h)); yy++) {
    for (let xx = Math.max(0, Math.round(x)); xx < Math.min(page.width, Math.round(x + w)); xx++) page.data[yy * page.width + xx] = ink;
  }
}

/** Horizontal lines `count` of them, `space` apart, starting at `top`; returns their centre ys. */
export function drawLines(page: Raster, top: number, count: number, space: number, thickness: number, x0: number, x1: number): number[] {
  const ys: number[] = [];
  for (let l = 0; l < count; l++) {
    const y = top + l * space;
    fillRect(page, x0, y - thickness / 2, x1 - x0, thickness);
    ys.push(y);
  }
  return ys;
}
