/**
 * Connected components of the class map: the pixels of one group of classes
 * (all notehead kinds, all rests …) that touch, each with its box in
 * prepared-page pixels and how many of its pixels each class claims.
 *
 * Grouping related classes before labelling matters: the model may paint one
 * notehead half "black" and half "half"; as one component it is one head, and
 * its majority class decides which.
 */
import type { ClassMap } from './segment.js';

export interface Component {
  /** Majority class of the component's pixels. */
  cls: number;
  /** Box in prepared-page pixels: [x0, x1) × [y0, y1). */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Pixels at class-map resolution. */
  area: number;
  /** Mean model confidence over the component, 0–1. */
  confidence: number;
  /** Pixel count per class index. */
  counts: Map<number, number>;
  /** Class-map pixel indices, for shape measurements. */
  pixels: Int32Array;
}

/** The class map's scale: one class-map pixel is this many prepared-page pixels wide. */
export const MAP_SCALE = 2;

/**
 * Labels 8-connected components of the pixels whose class is in `classes`.
 * Components smaller than `minArea` class-map pixels are noise and dropped.
 */
export function classComponents(map: ClassMap, classes: readonly number[], minArea = 2): Component[] {
  const member = new Uint8Array(256);
  for (const c of classes) member[c] = 1;
  const { width, height, data } = map;
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const found: Component[] = [];
  for (let start = 0; start < data.length; start++) {
    if (seen[start] || !member[data[start]!]) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    const pixels: number[] = [];
    let x0 = width;
    let y0 = height;
    let x1 = -1;
    let y1 = -1;
    let confidence = 0;
    const counts = new Map<number, number>();
    while (top) {
      const i = stack[--top]!;
      pixels.push(i);
      const x = i % width;
      const y = (i - x) / width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      confidence += map.confidence[i]!;
      counts.set(data[i]!, (counts.get(data[i]!) ?? 0) + 1);
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          const j = yy * width + xx;
          if (!seen[j] && member[data[j]!]) {
            seen[j] = 1;
            stack[top++] = j;
          }
        }
      }
    }
    if (pixels.length < minArea) continue;
    let cls = -1;
    let most = 0;
    for (const [c, n] of counts) {
      if (n > most) {
        most = n;
        cls = c;
      }
    }
    found.push({
      cls,
      x0: x0 * MAP_SCALE,
      y0: y0 * MAP_SCALE,
      x1: (x1 + 1) * MAP_SCALE,
      y1: (y1 + 1) * MAP_SCALE,
      area: pixels.length,
      confidence: confidence / pixels.length / 255,
      counts,
      pixels: Int32Array.from(pixels),
    });
  }
  return found;
}

/** Centre of a component's box. */
export function centre(c: Pick<Component, 'x0' | 'x1' | 'y0' | 'y1'>): [number, number] {
  return [(c.x0 + c.x1) / 2, (c.y0 + c.y1) / 2];
}
