/**
 * Where notehead paint lies near a point of the class map, answered from a
 * summed-area table of the map's notehead classes: a ledger line stands by
 * its note's head, and two ties in a row meet beside the head they share.
 * One table serves a page's readers (read-symbols.ts builds it once).
 */
import type { ClassMap } from './segment.js';
import { CLASS_INDEX } from './symbol-classes.js';

/** Whether any notehead pixel lies within `across` columns and `upDown` rows (class-map pixels) of a point, rounded to its pixel. */
export type HeadsNear = (col: number, row: number, across: number, upDown: number) => boolean;

/** 1 for the notehead classes, by class index. */
const IS_HEAD = new Uint8Array(256);
for (const cls of [CLASS_INDEX.noteheadBlack, CLASS_INDEX.noteheadHalf, CLASS_INDEX.noteheadWhole]) IS_HEAD[cls] = 1;

/** The page's notehead paint, asked of boxes around a point. */
export function headsNear(map: ClassMap): HeadsNear {
  const w = map.width + 1;
  const sums = new Int32Array(w * (map.height + 1));
  for (let y = 0; y < map.height; y++) {
    let row = 0;
    for (let x = 0; x < map.width; x++) {
      row += IS_HEAD[map.data[y * map.width + x]!]!;
      sums[(y + 1) * w + x + 1] = sums[y * w + x + 1]! + row;
    }
  }
  return (col, row, across, upDown) => {
    const [x, y] = [Math.round(col), Math.round(row)];
    const [x0, x1] = [Math.max(0, x - across), Math.min(map.width, x + across + 1)];
    const [y0, y1] = [Math.max(0, y - upDown), Math.min(map.height, y + upDown + 1)];
    return x1 > x0 && y1 > y0 && sums[y1 * w + x1]! - sums[y0 * w + x1]! - sums[y1 * w + x0]! + sums[y0 * w + x0]! > 0;
  };
}
