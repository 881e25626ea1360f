/**
 * `npm run bench:staves -- <dir>` — staff detection against the labels of a
 * generated training directory (`npm run data:train -- --out <dir>`): recall,
 * precision, and milliseconds per page for preparation plus detection,
 * by condition (clean, scan, photo).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OmrError } from '../src/errors.js';
import { decodePng } from '../src/input/png.js';
import { CANONICAL_STAFF_SPACE, preparePage } from '../src/preparation/prepare-page.js';
import { toPreparedPoint } from '../src/reading/page-transform.js';
import { detectStaves, staffLineY, type Staff } from '../src/staves/detect-staves.js';
import type { TrainingLabels } from '../training/data/generate-training.js';

interface Tally {
  pages: number;
  truth: number;
  found: number;
  detected: number;
  ms: number[];
}

function main(dir: string): void {
  const tallies = new Map<string, Tally>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const labels = JSON.parse(readFileSync(join(dir, file), 'utf8')) as TrainingLabels;
    const image = decodePng(readFileSync(join(dir, file.replace(/\.json$/, '.png'))));
    const started = performance.now();
    const page = preparePage(image);
    let staves: Staff[] = [];
    try {
      staves = detectStaves(page.ink, { staffSpace: CANONICAL_STAFF_SPACE });
    } catch (err) {
      if (!(err instanceof OmrError)) throw err;
    }
    const ms = performance.now() - started;
    // Each labelled staff's top line at the middle of the staff, in prepared-page pixels.
    const truth = labels.linePoints.map((lines) => toPreparedPoint(page.transform, ...lines[0]![8]!));
    const found = truth.filter(([x, y]) => staves.some((s) => x >= s.x0 && x <= s.x1 && Math.abs(staffLineY(s, 0, x) - y) < CANONICAL_STAFF_SPACE / 3)).length;
    const t = tallies.get(labels.condition) ?? { pages: 0, truth: 0, found: 0, detected: 0, ms: [] };
    t.pages++;
    t.truth += truth.length;
    t.found += found;
    t.detected += staves.length;
    t.ms.push(ms);
    tallies.set(labels.condition, t);
  }
  console.log('condition  pages  staves  recall  precision  median ms/page');
  for (const [condition, t] of tallies) {
    const median = [...t.ms].sort((a, b) => a - b)[Math.floor(t.ms.length / 2)]!;
    const precision = t.detected ? Math.min(t.found, t.detected) / t.detected : 0;
    console.log(`${condition.padEnd(9)}  ${String(t.pages).padStart(5)}  ${String(t.truth).padStart(6)}  ${(t.found / t.truth).toFixed(3).padStart(6)}  ${precision.toFixed(3).padStart(9)}  ${median.toFixed(0).padStart(14)}`);
  }
}

main(process.argv[2] ?? '.data/train');
