/** A blank class map of the given size that a test paints class by class (map pixels: half the prepared page's). */
import type { ClassMap } from '../../src/symbols/segment.js';

export type PaintableMap = ClassMap & { paint(cls: number, x: number, y: number): void };

export function paintableMap(width: number, height: number): PaintableMap {
  const data = new Uint8Array(width * height);
  return {
    width,
    height,
    data,
    confidence: new Uint8Array(width * height).fill(230),
    paint(cls: number, x: number, y: number) {
      if (x >= 0 && x < width && y >= 0 && y < height) data[Math.round(y) * width + Math.round(x)] = cls;
    },
  };
}
