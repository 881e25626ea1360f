/**
 * The file a cell classifier's samples are written to (export-marks.ts, export-dynamics.ts): one record
 * per cell, a label byte and then the cell's pixels as bytes (0 ink .. 255 paper), and beside it
 * `<file>.json` naming the classes and counting them (what cell_classifier.py reads).
 */
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';

export interface CellFile {
  /** Appends one cell (values 0..1) with its class index. */
  write(label: number, cell: Float32Array): void;
  /** Cells written so far. */
  count(): number;
  /** Closes the file and writes its description; returns the cells per class. */
  close(pages: number, seed: number): Record<string, number>;
}

export function openCellFile(path: string, classes: readonly string[], height: number, width: number): CellFile {
  const fd = openSync(path, 'w');
  const counts = new Array<number>(classes.length).fill(0);
  const count = () => counts.reduce((a, b) => a + b, 0);
  return {
    write(label, cell) {
      const record = new Uint8Array(1 + cell.length);
      record[0] = label;
      for (let k = 0; k < cell.length; k++) record[1 + k] = Math.round(cell[k]! * 255);
      writeSync(fd, record);
      counts[label]!++;
    },
    count,
    close(pages, seed) {
      closeSync(fd);
      const perClass = Object.fromEntries(classes.map((c, i) => [c, counts[i]!]));
      writeFileSync(`${path}.json`, `${JSON.stringify({ count: count(), height, width, classes, perClass, pages, seed }, null, 2)}\n`);
      return perClass;
    },
  };
}
