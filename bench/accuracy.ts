/**
 * `npm run bench:accuracy` — recognises every page of the dev set
 * (bench/dev-set/) and compares the result with its ground truth: a table per
 * category and condition (clean PDF, scan, photo), also written as JSON to
 * bench/results/ for comparison between runs. A second table judges the text
 * (title exact match, part names, lyric syllables) on the vocal categories
 * and on the text set (bench/text-set/: Latin, Italian, Polish, German songs),
 * each document read in the locales its manifest declares.
 *
 *   npm run bench:accuracy [-- --recognizer <name>] [--only <prefix>[,<prefix>…]]
 *                          [--condition clean|scan|photo] [--without-text] [--documents]
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
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readMusicXml } from '../src/import/musicxml/read-score.js';
import { recognizeScore } from '../src/recognize/recognize-score.js';
import type { Score } from '../src/score/model.js';
import { LIBRARY_VERSION } from '../src/version.js';
import { DEV_CATEGORIES } from '../training/data/dev-split.js';
import { aggregate, evaluateScore, type ScoreMetrics } from './evaluate/evaluate.js';
import { formatTable, formatTextTable, type ReportRow } from './evaluate/report.js';

const ROOT = resolve(import.meta.dirname, '..');
export const DEV_SET = join(ROOT, 'bench/dev-set');
/** Short songs with text in the languages the dev set lacks (training/data/build-text-set.ts): judged on text only. */
const TEXT_SET = join(ROOT, 'bench/text-set');
const RESULTS = join(ROOT, 'bench/results');

export type Condition = 'clean' | 'scan' | 'photo';
export const CONDITIONS: readonly Condition[] = ['clean', 'scan', 'photo'];

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
  /** The languages of its text, as a job declares them. */
  locales?: string[];
  files: { pdf: string; truth: string; scan: string[]; photo: string[] };
}

interface DocumentResult {
  id: string;
  /** `dev` set or the `text` set. */
  set: 'dev' | 'text';
  category: string;
  condition: Condition;
  pages: number;
  seconds: number;
  metrics: ScoreMetrics;
}

export function filesFor(dir: string, entry: ManifestEntry, condition: Condition): PageFile[] {
  const paths = condition === 'clean' ? [entry.files.pdf] : entry.files[condition];
  return paths.map((p) => ({ filename: p.split('/').pop()!, data: new Uint8Array(readFileSync(join(dir, p))) }));
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
}

export async function runBenchmark(recognizerName: string, options: BenchmarkOptions = {}): Promise<{ table: string; results: DocumentResult[] }> {
  const recognizer = RECOGNIZERS[recognizerName];
  if (!recognizer) throw new Error(`unknown recognizer ${recognizerName}; known: ${Object.keys(RECOGNIZERS).join(', ')}`);
  if (options.condition && !CONDITIONS.includes(options.condition)) throw new Error(`unknown condition ${options.condition}; known: ${CONDITIONS.join(', ')}`);
  const prefixes = options.only?.split(',').filter(Boolean) ?? [];
  const documents = [
    ...manifestOf(DEV_SET).map((entry) => ({ entry, set: 'dev' as const, dir: DEV_SET })),
    ...(options.withoutText ? [] : manifestOf(TEXT_SET).map((entry) => ({ entry, set: 'text' as const, dir: TEXT_SET }))),
  ].filter(({ entry }) => !prefixes.length || prefixes.some((p) => entry.id.startsWith(p)));
  const results: DocumentResult[] = [];
  for (const { entry, set, dir } of documents) {
    const truth = readMusicXml(new Uint8Array(readFileSync(join(dir, entry.files.truth))));
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
      results.push({ id: entry.id, set, category: entry.category, condition, pages: entry.pages, seconds, metrics: evaluateScore(predicted, truth) });
    }
  }
  const rows: ReportRow[] = [];
  for (const category of DEV_CATEGORIES) {
    for (const condition of CONDITIONS) {
      const group = results.filter((r) => r.set === 'dev' && r.category === category && r.condition === condition);
      if (!group.length) continue;
      const pages = group.reduce((s, r) => s + r.pages, 0);
      rows.push({
        category: `${category} / ${condition}`,
        metrics: aggregate(group.map((r) => r.metrics)),
        pages,
        secondsPerPage: group.reduce((s, r) => s + r.seconds, 0) / pages,
      });
    }
  }
  // Text is judged where there is text to read: the vocal categories of the dev set, the text set, and everything.
  const textRows: ReportRow[] = [];
  for (const [name, pick] of TEXT_GROUPS) {
    for (const condition of CONDITIONS) {
      const group = results.filter((r) => r.condition === condition && pick(r));
      if (group.length) textRows.push({ category: `${name} / ${condition}`, metrics: aggregate(group.map((r) => r.metrics)), pages: group.reduce((s, r) => s + r.pages, 0) });
    }
  }
  // Unread text is not a text result: the second table is left out.
  return { table: options.withoutText ? formatTable(rows) : `${formatTable(rows)}\n\n${formatTextTable(textRows)}`, results };
}

const TEXT_GROUPS: [string, (r: DocumentResult) => boolean][] = [
  ['voice-piano (de, fr, en)', (r) => r.set === 'dev' && r.category === 'voice-piano'],
  ['choir (de, en)', (r) => r.set === 'dev' && r.category === 'choir'],
  ['voice-piano + choir', (r) => r.set === 'dev' && (r.category === 'voice-piano' || r.category === 'choir')],
  ['text set (de, la, it, pl)', (r) => r.set === 'text'],
  ['all', () => true],
];

/** One line per document and condition: strict and loose F1, clef, key and time accuracy, measures. */
function formatDocuments(results: readonly DocumentResult[]): string {
  const f = (x: number) => x.toFixed(3);
  return results
    .map((r) => {
      const m = r.metrics;
      return `${`${r.id} / ${r.condition}`.padEnd(36)} strict ${f(m.strict.f1)}  loose ${f(m.loose.f1)}  clef ${f(m.clef.accuracy)}  key ${f(m.key.accuracy)}  time ${f(m.time.accuracy)}  measures ${m.measures.predicted}/${m.measures.truth}  ${(r.seconds / r.pages).toFixed(1)} s/page`;
    })
    .join('\n');
}

/** Peak resident set size of this process so far, in bytes. */
function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      recognizer: { type: 'string', default: 'engine' },
      only: { type: 'string' },
      condition: { type: 'string' },
      'without-text': { type: 'boolean', default: false },
      documents: { type: 'boolean', default: false },
    },
  });
  const name = values.recognizer;
  const started = performance.now();
  const { table, results } = await runBenchmark(name, { only: values.only, condition: values.condition as Condition | undefined, withoutText: values['without-text'] });
  console.log(`Recognizer: ${name} — ${RECOGNIZERS[name]!.description}\n`);
  console.log(table);
  if (values.documents) console.log(`\n${formatDocuments(results)}`);
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n${results.length} recognitions in ${seconds.toFixed(1)} s; peak RSS ${Math.round(peakRss() / 2 ** 20)} MB`);
  mkdirSync(RESULTS, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const report = { recognizer: name, description: RECOGNIZERS[name]!.description, library: LIBRARY_VERSION, date: new Date().toISOString(), seconds, peakRssMB: Math.round(peakRss() / 2 ** 20), table, results };
  const file = join(RESULTS, `accuracy-${name}-${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  // Only a full run stands for the benchmark; a narrowed one keeps its dated file alone.
  const narrowed = values.only || values.condition || values['without-text'];
  if (!narrowed) writeFileSync(join(RESULTS, `accuracy-${name}-latest.json`), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`written to ${file}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
