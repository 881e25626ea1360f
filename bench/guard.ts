/**
 * The accuracy guard: a fixed handful of dev pages across the categories,
 * both splits and all three conditions, recognised without text so that it
 * runs in a few minutes. `test/bench/accuracy-guard.test.ts` fails when a
 * figure falls past its floor in bench/guard.json; `npm run bench:guard`
 * prints the figures, so that the floors can be raised when the engine
 * improves (set them a little below what it prints).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readMusicXml } from '../src/import/musicxml/read-score.js';
import { recognizeScore } from '../src/recognize/recognize-score.js';
import { DEV_SET, filesFor, manifestOf, type Condition, type Split } from './accuracy.js';
import { aggregate, evaluateScore, type ScoreMetrics } from './evaluate/evaluate.js';
import { recall, type ElementClass } from './evaluate/notation.js';

const GUARD = resolve(import.meta.dirname, 'guard.json');

/** The figures a guard run is judged on, per split. */
export interface GuardFigures {
  /** Notation error rate, 0..1: a ceiling. */
  errorRate: number;
  /** Note F1 with ties merged, and per head: floors. */
  tieMergedF1: number;
  strictF1: number;
  /** Recall per element class: floors. */
  recall: Partial<Record<ElementClass, number>>;
}

export interface GuardSpec {
  documents: { id: string; condition: Condition }[];
  /** Recall is guarded for these classes. */
  classes: ElementClass[];
  floors: Record<Split, GuardFigures>;
}

export function guardSpec(): GuardSpec {
  return JSON.parse(readFileSync(GUARD, 'utf8')) as GuardSpec;
}

/** Recognises the guard's pages and sums their figures per split. */
export async function runGuard(spec: GuardSpec = guardSpec()): Promise<{ figures: Record<Split, GuardFigures>; pages: Record<Split, number> }> {
  const manifest = new Map(manifestOf(DEV_SET).map((e) => [e.id, e]));
  const metrics: Record<Split, ScoreMetrics[]> = { tuned: [], heldout: [] };
  const pages: Record<Split, number> = { tuned: 0, heldout: 0 };
  for (const { id, condition } of spec.documents) {
    const entry = manifest.get(id);
    if (!entry) throw new Error(`guard document ${id} is not in bench/dev-set/manifest.json`);
    const truth = readMusicXml(new Uint8Array(readFileSync(join(DEV_SET, entry.files.truth))));
    const predicted = await recognizeScore(filesFor(DEV_SET, entry, condition), { readText: false });
    const split = entry.split ?? 'tuned';
    metrics[split].push(evaluateScore(predicted, truth));
    pages[split] += entry.pages;
  }
  const figures = (all: ScoreMetrics[]): GuardFigures => {
    const m = aggregate(all);
    return {
      errorRate: m.notation.errorRate,
      tieMergedF1: m.tieMerged.f1,
      strictF1: m.strict.f1,
      recall: Object.fromEntries(spec.classes.map((c) => [c, recall(m.notation.elements[c])])),
    };
  };
  return { figures: { tuned: figures(metrics.tuned), heldout: figures(metrics.heldout) }, pages };
}

/** Each figure that fell past its floor, worded. */
export function guardFailures(figures: Record<Split, GuardFigures>, floors: Record<Split, GuardFigures>): string[] {
  const failures: string[] = [];
  for (const split of ['heldout', 'tuned'] as const) {
    const got = figures[split];
    const floor = floors[split];
    if (got.errorRate > floor.errorRate) failures.push(`${split}: error rate ${pct(got.errorRate)} above its ceiling ${pct(floor.errorRate)}`);
    if (got.tieMergedF1 < floor.tieMergedF1) failures.push(`${split}: tie-merged note F1 ${got.tieMergedF1.toFixed(3)} below ${floor.tieMergedF1}`);
    if (got.strictF1 < floor.strictF1) failures.push(`${split}: per-head note F1 ${got.strictF1.toFixed(3)} below ${floor.strictF1}`);
    for (const [cls, min] of Object.entries(floor.recall) as [ElementClass, number][]) {
      const value = got.recall[cls] ?? 0;
      if (value < min) failures.push(`${split}: ${cls} recall ${value.toFixed(3)} below ${min}`);
    }
  }
  return failures;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

async function main(): Promise<void> {
  const started = performance.now();
  const spec = guardSpec();
  const { figures, pages } = await runGuard(spec);
  for (const split of ['heldout', 'tuned'] as const) {
    const f = figures[split];
    const recalls = Object.entries(f.recall)
      .map(([c, r]) => `${c} ${r!.toFixed(3)}`)
      .join(', ');
    console.log(`${split.padEnd(7)} (${pages[split]} pages): error rate ${pct(f.errorRate)}, tie-merged F1 ${f.tieMergedF1.toFixed(3)}, per-head F1 ${f.strictF1.toFixed(3)}; recall: ${recalls}`);
  }
  const failures = guardFailures(figures, spec.floors);
  console.log(failures.length ? `\nbelow the floors:\n${failures.join('\n')}` : '\nevery floor holds');
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
