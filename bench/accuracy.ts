/**
 * `npm run bench:accuracy` — recognises every page of the dev set and
 * compares the result with its ground truth. The dev set is the committed
 * one (bench/dev-set/) and, when `npm run data:dev-set` has built it, the
 * generated one (.data/dev-set/). Every figure is reported twice: for the
 * held-out engraver (the real MuseScore 4 string-quartet pages, which no rule
 * or model was tuned on) and for the engravers recognition was tuned on.
 *
 * Per split, category and condition (clean, scan, photo): the notation error
 * rate, note F1 with ties merged and per head, clef/key/time, staves and
 * parts (bench/evaluate/notation.ts, evaluate.ts); precision and recall per
 * element class; the note table of earlier releases; and the text (title,
 * part names, lyric syllables, also on bench/text-set/). All of it is also
 * written as JSON to bench/results/, and an HTML report beside it shows each
 * document's page, our output and the truth engraved, and the errors per
 * measure.
 *
 *   npm run bench:accuracy [-- --recognizer <name>] [--only <prefix>[,<prefix>…]]
 *                          [--condition clean|scan|photo] [--without-text] [--documents]
 *                          [--set committed|all] [--split tuned|heldout] [--jobs <n>] [--no-html]
 *                          [--save <file>] [--combine <file>,<file>…]
 *
 * `--save` keeps a run's full results (with the outputs the HTML report
 * shows) in a file; `--combine` reports on saved runs together instead of
 * recognising, as one run: the splits can be run apart and reported as one.
 * `--jobs` runs the documents in that many processes (the machine's cores
 * by default are not assumed: 1 unless asked).
 *
 * `--condition` and `--without-text` make a quick run while working on the
 * engine (one condition, the music only: about a minute per condition);
 * `--documents` lists every document's figures under the table. A run so
 * narrowed is not the benchmark: quote figures from the full one.
 *
 * The default recogniser is `engine`, ScoreSight's own pipeline with the
 * committed model. `empty-baseline` reads nothing and returns an empty
 * score: it marks the floor (every note metric 0) and is labelled as such.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeMusicXml } from '../src/exports/musicxml.js';
import { readMusicXml } from '../src/import/musicxml/read-score.js';
import { recognizeScore } from '../src/recognize/recognize-score.js';
import type { Score } from '../src/score/model.js';
import { LIBRARY_VERSION } from '../src/version.js';
import { DEV_CATEGORIES } from '../training/data/dev-split.js';
import { aggregate, evaluateScore, type AggregateMetrics, type ScoreMetrics } from './evaluate/evaluate.js';
import { writeHtmlReport, type ReportDocument } from './evaluate/html-report.js';
import { evaluateNotation, type MeasureEdits } from './evaluate/notation.js';
import { formatElementTable, formatNotationTable, formatTable, formatTextTable, type ReportRow } from './evaluate/report.js';

const ROOT = resolve(import.meta.dirname, '..');
/** The committed dev set: small, in git, and the source of the test suite's accuracy guard. */
export const DEV_SET = join(ROOT, 'bench/dev-set');
/** The full dev set built by `npm run data:dev-set` (not in git). */
export const GENERATED_DEV_SET = join(ROOT, '.data/dev-set');
/** Short songs with text in the languages the dev set lacks (training/data/build-text-set.ts): judged on text only. */
const TEXT_SET = join(ROOT, 'bench/text-set');
const RESULTS = join(ROOT, 'bench/results');

export type Condition = 'clean' | 'scan' | 'photo';
export const CONDITIONS: readonly Condition[] = ['clean', 'scan', 'photo'];

/** Whether anything was tuned on a document's engraver. */
export type Split = 'tuned' | 'heldout';
export const SPLITS: readonly Split[] = ['heldout', 'tuned'];
const SPLIT_TITLES: Record<Split, string> = {
  heldout: 'HELD OUT — real MuseScore 4 string-quartet pages; no rule, model or threshold was tuned on them',
  tuned: 'TUNED — engravers the rules and models were fitted on (MuseScore 3, LilyPond) and Verovio with a music font training never used',
};

/** One input file of a recognition job, as a caller would hand it over. */
export interface PageFile {
  filename: string;
  data: Uint8Array;
}

/** Recognises the files of one job (the pages of one document, in the languages it declares) into a score. */
export type Recognizer = (files: PageFile[], locales?: readonly string[], options?: { readText?: boolean }) => Promise<Score>;

export const RECOGNIZERS: Record<string, { description: string; recognize: Recognizer }> = {
  engine: {
    description: 'ScoreSight engine (src/recognize) with the committed model, Node, one WebAssembly thread',
    recognize: (files, locales, options) => recognizeScore(files, { ...(locales ? { locales } : {}), readText: options?.readText ?? true }),
  },
  'empty-baseline': {
    description: 'TRIVIAL BASELINE — no recognition engine yet: returns an empty score for every document',
    recognize: async () => ({ credits: {}, parts: [], partGroups: [] }),
  },
};

export interface ManifestEntry {
  id: string;
  category: string;
  pages: number;
  /** Who engraved it: `musescore` (3), `lilypond`, `verovio-emmentaler`, `musescore4`. */
  engraver?: string;
  /** Absent in older manifests: tuned. */
  split?: Split;
  /** The languages of its text, as a job declares them. */
  locales?: string[];
  /** `pdf` is the clean input: a PDF, or page images where the engraver gives no PDF. */
  files: { pdf: string | string[]; truth: string; scan: string[]; photo: string[] };
}

export interface DocumentResult {
  id: string;
  /** `dev` set or the `text` set. */
  set: 'dev' | 'text';
  split: Split;
  engraver: string;
  category: string;
  condition: Condition;
  pages: number;
  seconds: number;
  metrics: ScoreMetrics;
  /** The errors per measure, worded, and the sources: for the HTML report. */
  errors?: MeasureEdits[];
  sources?: string[];
  predictedXml?: string;
  truthPath?: string;
}

export function sourcesFor(dir: string, entry: ManifestEntry, condition: Condition): string[] {
  const paths = condition === 'clean' ? [entry.files.pdf].flat() : entry.files[condition];
  return paths.map((p) => join(dir, p));
}

export function filesFor(dir: string, entry: ManifestEntry, condition: Condition): PageFile[] {
  return sourcesFor(dir, entry, condition).map((p) => ({ filename: p.split('/').pop()!, data: new Uint8Array(readFileSync(p)) }));
}

export function manifestOf(dir: string): ManifestEntry[] {
  return (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { documents: ManifestEntry[] }).documents;
}

export interface BenchmarkOptions {
  /** Documents whose id starts with one of these (comma-separated); all by default. */
  only?: string;
  /** One condition instead of all three. */
  condition?: Condition;
  /** Leave the text unread (the text table is then empty). */
  withoutText?: boolean;
  /** `committed` reads bench/dev-set only; `all` (default) adds the generated set when it is built. */
  set?: 'committed' | 'all';
  /** Keep what the HTML report needs (the output and the errors per measure). */
  details?: boolean;
  /** One split only (the text set goes with `tuned`). */
  split?: Split;
  /** Run only the documents `k` of every `n` (0-based `k`): one process of a `--jobs` run. */
  shard?: { k: number; n: number };
}

interface Job {
  entry: ManifestEntry;
  set: 'dev' | 'text';
  dir: string;
}

/** The documents a run reads, committed ones first; an id found twice is read once. */
export function benchmarkDocuments(options: Pick<BenchmarkOptions, 'only' | 'set' | 'withoutText' | 'split'> = {}): Job[] {
  const prefixes = options.only?.split(',').filter(Boolean) ?? [];
  const sets: Job[] = manifestOf(DEV_SET).map((entry) => ({ entry, set: 'dev' as const, dir: DEV_SET }));
  if (options.set !== 'committed' && existsSync(join(GENERATED_DEV_SET, 'manifest.json'))) {
    sets.push(...manifestOf(GENERATED_DEV_SET).map((entry) => ({ entry, set: 'dev' as const, dir: GENERATED_DEV_SET })));
  }
  // The text set (MuseScore songs, a tuned engraver) goes with the tuned split.
  if (!options.withoutText && options.split !== 'heldout') sets.push(...manifestOf(TEXT_SET).map((entry) => ({ entry, set: 'text' as const, dir: TEXT_SET })));
  const seen = new Set<string>();
  return sets.filter(({ entry, set }) => {
    if (seen.has(entry.id) || (prefixes.length && !prefixes.some((p) => entry.id.startsWith(p)))) return false;
    if (options.split && (entry.split ?? 'tuned') !== options.split) return false;
    seen.add(entry.id);
    return true;
  });
}

/** Recognises and scores every document (of this shard), one condition after another. */
export async function recognizeDocuments(recognizerName: string, options: BenchmarkOptions = {}): Promise<DocumentResult[]> {
  const recognizer = RECOGNIZERS[recognizerName];
  if (!recognizer) throw new Error(`unknown recognizer ${recognizerName}; known: ${Object.keys(RECOGNIZERS).join(', ')}`);
  if (options.condition && !CONDITIONS.includes(options.condition)) throw new Error(`unknown condition ${options.condition}; known: ${CONDITIONS.join(', ')}`);
  const documents = benchmarkDocuments(options).filter((_, i) => !options.shard || i % options.shard.n === options.shard.k);
  const results: DocumentResult[] = [];
  for (const { entry, set, dir } of documents) {
    const truthPath = join(dir, entry.files.truth);
    const truth = readMusicXml(new Uint8Array(readFileSync(truthPath)));
    for (const condition of options.condition ? [options.condition] : CONDITIONS) {
      const files = filesFor(dir, entry, condition);
      const started = performance.now();
      let predicted: Score;
      try {
        predicted = await recognizer.recognize(files, entry.locales, { readText: !options.withoutText });
      } catch (err) {
        // A document the recogniser refuses scores nothing, and the run goes on.
        console.error(`${entry.id} / ${condition}: ${(err as { code?: string }).code ?? ''} ${(err as Error).message}`);
        predicted = { credits: {}, parts: [], partGroups: [] };
      }
      const seconds = (performance.now() - started) / 1000;
      const result: DocumentResult = {
        id: entry.id,
        set,
        split: entry.split ?? 'tuned',
        engraver: entry.engraver ?? 'unknown',
        category: entry.category,
        condition,
        pages: entry.pages,
        seconds,
        metrics: evaluateScore(predicted, truth),
      };
      if (options.details) {
        result.errors = evaluateNotation(predicted, truth, true).measures;
        result.sources = sourcesFor(dir, entry, condition);
        result.predictedXml = writeMusicXml(predicted);
        result.truthPath = truthPath;
      }
      results.push(result);
    }
  }
  return results;
}

export async function runBenchmark(recognizerName: string, options: BenchmarkOptions = {}): Promise<{ table: string; results: DocumentResult[] }> {
  const results = await recognizeDocuments(recognizerName, options);
  return { table: formatReport(results, options), results };
}

/** Groups of results, each with its counts summed. */
function rowsOf(results: readonly DocumentResult[], groups: readonly [string, (r: DocumentResult) => boolean][], timed = true): ReportRow[] {
  const rows: ReportRow[] = [];
  for (const [category, pick] of groups) {
    const group = results.filter(pick);
    if (!group.length) continue;
    const pages = group.reduce((s, r) => s + r.pages, 0);
    const row: ReportRow = { category, metrics: aggregate(group.map((r) => r.metrics)), pages };
    if (timed) row.secondsPerPage = group.reduce((s, r) => s + r.seconds, 0) / pages;
    rows.push(row);
  }
  return rows;
}

const byCategoryAndCondition = (split: Split): [string, (r: DocumentResult) => boolean][] =>
  DEV_CATEGORIES.flatMap((category) =>
    CONDITIONS.map((condition): [string, (r: DocumentResult) => boolean] => [`${category} / ${condition}`, (r) => r.set === 'dev' && r.split === split && r.category === category && r.condition === condition]),
  );

/** The whole printed report: per split the notation and element tables; then the note table and the text table. */
export function formatReport(results: readonly DocumentResult[], options: Pick<BenchmarkOptions, 'withoutText'> = {}): string {
  const sections: string[] = [];
  for (const split of SPLITS) {
    const dev = results.filter((r) => r.set === 'dev' && r.split === split);
    if (!dev.length) continue;
    const engravers = [...new Set(dev.map((r) => r.engraver))].join(', ');
    const perCondition = CONDITIONS.filter((c) => dev.some((r) => r.condition === c)).map((condition) => ({
      label: condition,
      metrics: aggregate(dev.filter((r) => r.condition === condition).map((r) => r.metrics)),
    }));
    sections.push(
      `== ${SPLIT_TITLES[split]} (${engravers}) ==\n\n${formatNotationTable(rowsOf(results, byCategoryAndCondition(split)))}\n\n${formatElementTable(perCondition)}`,
    );
  }
  const noteGroups = SPLITS.flatMap((split) => byCategoryAndCondition(split).map(([name, pick]): [string, (r: DocumentResult) => boolean] => [`${split} ${name}`, pick]));
  sections.push(`== Notes per head, as in earlier releases ==\n\n${formatTable(rowsOf(results, noteGroups))}`);
  // Text is judged where there is text to read: the vocal categories of the dev set, the text set, and everything.
  if (!options.withoutText) {
    const textRows = rowsOf(
      results,
      TEXT_GROUPS.flatMap(([name, pick]) => CONDITIONS.map((condition): [string, (r: DocumentResult) => boolean] => [`${name} / ${condition}`, (r) => r.condition === condition && pick(r)])),
      false,
    );
    sections.push(`== Text ==\n\n${formatTextTable(textRows)}`);
  }
  return sections.join('\n\n');
}

const TEXT_GROUPS: [string, (r: DocumentResult) => boolean][] = [
  ['voice-piano (de, fr, en)', (r) => r.set === 'dev' && r.category === 'voice-piano'],
  ['choir (de, en)', (r) => r.set === 'dev' && r.category === 'choir'],
  ['voice-piano + choir', (r) => r.set === 'dev' && (r.category === 'voice-piano' || r.category === 'choir')],
  ['text set (de, la, it, pl)', (r) => r.set === 'text'],
  ['all', () => true],
];

/** One line per document and condition: error rate, tie-merged and per-head F1, clef, key and time accuracy, measures. */
function formatDocuments(results: readonly DocumentResult[]): string {
  const f = (x: number) => x.toFixed(3);
  return results
    .map((r) => {
      const m = r.metrics;
      return `${`${r.id} / ${r.condition}`.padEnd(40)} ${r.split.padEnd(7)} error ${(m.notation.errorRate * 100).toFixed(1).padStart(5)} %  tie-merged ${f(m.tieMerged.f1)}  strict ${f(m.strict.f1)}  clef ${f(m.clef.accuracy)}  key ${f(m.key.accuracy)}  time ${f(m.time.accuracy)}  measures ${m.measures.predicted}/${m.measures.truth}  ${(r.seconds / r.pages).toFixed(1)} s/page`;
    })
    .join('\n');
}

/** Peak resident set size of this process so far, in bytes. */
function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/** Runs the documents in `jobs` child processes of this script, each writing its results to a file, and gathers them. */
async function runSharded(jobs: number, args: string[]): Promise<{ results: DocumentResult[]; peakRssMB: number }> {
  const work = mkdtempSync(join(tmpdir(), 'accuracy-'));
  try {
    const children = Array.from({ length: jobs }, (_, k) => {
      const out = join(work, `shard-${k}.json`);
      const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args, '--shard', `${k}/${jobs}`, '--shard-out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
      return new Promise<{ results: DocumentResult[]; peakRssMB: number }>((done, fail) => {
        child.on('error', fail);
        child.on('exit', (code) => (code === 0 ? done(JSON.parse(readFileSync(out, 'utf8'))) : fail(new Error(`shard ${k} exited with ${code}`))));
      });
    });
    const shards = await Promise.all(children);
    return { results: shards.flatMap((s) => s.results), peakRssMB: Math.max(...shards.map((s) => s.peakRssMB)) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Results saved by earlier runs (`--save`), read as one run. */
function combined(files: readonly string[]): { results: DocumentResult[]; peakRssMB: number } {
  const runs = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as { results: DocumentResult[]; peakRssMB: number });
  return { results: runs.flatMap((r) => r.results), peakRssMB: Math.max(...runs.map((r) => r.peakRssMB)) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      recognizer: { type: 'string', default: 'engine' },
      only: { type: 'string' },
      condition: { type: 'string' },
      'without-text': { type: 'boolean', default: false },
      documents: { type: 'boolean', default: false },
      set: { type: 'string', default: 'all' },
      jobs: { type: 'string', default: '1' },
      'no-html': { type: 'boolean', default: false },
      split: { type: 'string' },
      save: { type: 'string' },
      combine: { type: 'string' },
      shard: { type: 'string' },
      'shard-out': { type: 'string' },
      details: { type: 'boolean', default: false },
    },
  });
  const name = values.recognizer;
  if (values.set !== 'all' && values.set !== 'committed') throw new Error(`unknown set ${values.set}; known: all, committed`);
  const options: BenchmarkOptions = {
    only: values.only,
    condition: values.condition as Condition | undefined,
    withoutText: values['without-text'],
    set: values.set,
    // Saved results keep what a later --combine needs for its report.
    details: !values['no-html'] || values.save !== undefined || values.details,
    ...(values.split && { split: values.split as Split }),
  };
  if (options.split && !SPLITS.includes(options.split)) throw new Error(`unknown split ${options.split}; known: ${SPLITS.join(', ')}`);
  if (values.shard) {
    const [k, n] = values.shard.split('/').map(Number) as [number, number];
    const results = await recognizeDocuments(name, { ...options, shard: { k, n } });
    writeFileSync(values['shard-out']!, JSON.stringify({ results, peakRssMB: Math.round(peakRss() / 2 ** 20) }));
    return;
  }
  if (options.set === 'all' && !existsSync(join(GENERATED_DEV_SET, 'manifest.json'))) {
    console.warn('The generated dev set (.data/dev-set) is not built: reading the committed documents only. Build it with `npm run data:dev-set`.\n');
  }
  const started = performance.now();
  const jobs = Math.max(1, Number(values.jobs) || 1);
  const forwarded = process.argv.slice(2).filter((a, i, all) => a !== '--jobs' && all[i - 1] !== '--jobs' && !a.startsWith('--jobs='));
  const forwardedToShards = forwarded.filter((a, i, all) => a !== '--save' && all[i - 1] !== '--save');
  const { results, peakRssMB } = values.combine
    ? combined(values.combine.split(','))
    : jobs > 1
      ? await runSharded(jobs, options.details ? [...forwardedToShards, '--details'] : forwardedToShards)
      : { results: await recognizeDocuments(name, options), peakRssMB: 0 };
  if (values.save) writeFileSync(values.save, JSON.stringify({ results, peakRssMB: Math.max(peakRssMB, Math.round(peakRss() / 2 ** 20)) }));
  const peak = Math.max(peakRssMB, Math.round(peakRss() / 2 ** 20));
  const table = formatReport(results, options);
  console.log(`Recognizer: ${name} — ${RECOGNIZERS[name]!.description}\n`);
  console.log(table);
  if (values.documents) console.log(`\n${formatDocuments(results)}`);
  const seconds = (performance.now() - started) / 1000;
  const pages = results.reduce((s, r) => s + r.pages, 0);
  console.log(`\n${results.length} recognitions (${pages} pages) in ${seconds.toFixed(1)} s with ${jobs} process(es); peak RSS ${peak} MB per process`);
  mkdirSync(RESULTS, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const kept = results.map(({ errors: _errors, sources: _sources, predictedXml: _xml, truthPath: _truth, ...rest }) => rest);
  const report = { recognizer: name, description: RECOGNIZERS[name]!.description, library: LIBRARY_VERSION, date: new Date().toISOString(), seconds, peakRssMB: peak, table, results: kept };
  const file = join(RESULTS, `accuracy-${name}-${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  // Only a full run stands for the benchmark; a narrowed one keeps its dated file alone.
  const narrowed = values.only || values.condition || values['without-text'] || values.set !== 'all' || values.split;
  if (!narrowed) writeFileSync(join(RESULTS, `accuracy-${name}-latest.json`), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`written to ${file}`);
  if (!values['no-html']) {
    const documents: ReportDocument[] = results
      .filter((r) => r.set === 'dev' && r.predictedXml !== undefined)
      .map((r) => ({
        id: r.id,
        condition: r.condition,
        set: r.split,
        category: r.category,
        engraver: r.engraver,
        sources: r.sources!,
        predictedXml: r.predictedXml!,
        truthXml: readFileSync(r.truthPath!, 'utf8'),
        errorRate: r.metrics.notation.errorRate,
        noteF1: r.metrics.tieMerged.f1,
        errors: r.errors ?? [],
      }));
    const index = await writeHtmlReport(documents, table, join(RESULTS, narrowed ? `report-${name}-${stamp}` : `report-${name}-latest`));
    console.log(`report: ${index}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
