/**
 * Whether notehead paint lies near a point of the class map, answered from a
 * summed-area table of the map's notehead classes: a ledger line stands by
 * its note's head, and two ties in a row meet beside the head they share.
 */
import type { ClassMap } from './segment.js';
import { CLASS_INDEX } from './symbol-classes.js';

const HEAD_CLASSES: ReadonlySet<number> = new Set([CLASS_INDEX.noteheadBlack, CLASS_INDEX.noteheadHalf, CLASS_INDEX.noteheadWhole]);

/**
 * A test of whether any notehead pixel lies within `across` columns and `upDown` rows (class-map
 * pixels) of a point of the map; the point is rounded to its pixel.
 */
export function headsNear(map: ClassMap, across: number, upDown: number): (col: number, row: number) => boolean {
  const w = map.width + 1;
  const sums = new Int32Array(w * (map.height + 1));
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      sums[(y + 1) * w + x + 1] = (HEAD_CLASSES.has(map.data[y * map.width + x]!) ? 1 : 0) + sums[y * w + x + 1]! + sums[(y + 1) * w + x]! - sums[y * w + x]!;
    }
  }
  return (col, row) => {
    const [x, y] = [Math.round(col), Math.round(row)];
    const [x0, x1] = [Math.max(0, x - across), Math.min(map.width, x + across + 1)];
    const [y0, y1] = [Math.max(0, y - upDown), Math.min(map.height, y + upDown + 1)];
    return x1 > x0 && y1 > y0 && sums[y1 * w + x1]! - sums[y0 * w + x1]! - sums[y1 * w + x0]! + sums[y0 * w + x0]! > 0;
  };
}
