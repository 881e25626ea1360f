/** Access to the shared corpus of real music beside the project (`../shared/corpus`). */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const CORPUS_DIR = resolve(import.meta.dirname, '../../../shared/corpus');

/** Sorted .mxl paths of one corpus folder (`lieder`, `orchestral`). */
export function corpusFiles(folder: 'lieder' | 'orchestral'): string[] {
  const dir = join(CORPUS_DIR, folder);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.mxl'))
    .sort()
    .map((f) => join(dir, f));
}

/** Every `step`-th file, starting at the first: a fixed, spread-out sample. */
export function sample<T>(items: T[], step: number): T[] {
  return items.filter((_, i) => i % step === 0);
}

export function readBytes(path: string): Uint8Array {
  return new Uint8Array(readFileSync(path));
}
