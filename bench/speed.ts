/**
 * `npm run bench:speed` — seconds per page of the whole recognition, as users feel it, with a
 * profile of where each page's time goes and the peak resident memory:
 *
 *   npm run bench:speed [-- --kinds quartet,melody,scan,photo] [--pages 3] [--cold] [--warm]
 *                          [--backend wasm|native | --compare-backends] [--without-text]
 *   npm run bench:speed -- --document long.pdf [--backend wasm|native]
 *
 * Page kinds: `quartet` (held-out MuseScore 4 string-quartet pages, dense: four staves in four
 * systems; from .data/dev-set, else the three committed ones), `melody` (the committed one-staff
 * melody, test/fixtures/recognition/melody.pdf), `scan` and `photo` (the committed dev set's
 * degraded pages, spread over its categories). `--pages` pages of each kind (the melody repeated).
 *
 * Modes:
 * - warm (default): one process per kind and backend recognises its pages one after another with
 *   `recognizeScore`, as a server or script does: the models are loaded by an untimed first
 *   recognition (the kind's first page), and the peak memory is that process's.
 * - `--cold`: one `scoresight recognize <file> --pages N --json` process per page (the built
 *   command line: `npm run build` first), as someone running the command once per page: Node's
 *   start, loading the library and the models, and the OCR worker's start all count. Peak memory
 *   is each process's. `--cold --warm` runs both.
 *
 * Backends (env.backend): the default is whatever `'auto'` picks here (onnxruntime-node where it is
 * installed); `--backend` forces one; `--compare-backends` runs both, alternating page by page
 * (cold) or kind by kind (warm) so that a busy machine's load falls on both alike, and prints
 * their ratio.
 *
 * `--document <file>` recognises one (long) document in one call, in this process, and prints
 * each page's seconds and the resident memory after it: time should grow linearly, memory stay flat.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { env } from '../src/env.js';
import { OmrError } from '../src/errors.js';
import type { PageStage } from '../src/recognize/recognize-page.js';
import { recognizeScore } from '../src/recognize/recognize-score.js';
import { activeBackend } from '../src/symbols/onnx-model.js';

const ROOT = resolve(import.meta.dirname, '..');
const COMMITTED_DEV_SET = join(ROOT, 'bench/dev-set');
const GENERATED_DEV_SET = join(ROOT, '.data/dev-set');
const MELODY = join(ROOT, 'test/fixtures/recognition/melody.pdf');
const CLI = join(ROOT, 'bin/scoresight.js');
const BUILT_CLI = join(ROOT, 'dist/node/cli.js');
/** Marks the line a warm child prints its results on. */
const RESULT = 'bench-speed-result ';

const KINDS = ['quartet', 'melody', 'scan', 'photo'] as const;
type Kind = (typeof KINDS)[number];
type Backend = 'wasm' | 'native';

/** One page to recognise: a file, its 1-based page, the languages of its text. */
interface PageSpec {
  kind: Kind;
  label: string;
  file: string;
  page: number;
  locales: string[];
}

/** One page's recognition: its seconds, where they went, the backend that ran it. */
interface PageRun {
  label: string;
  seconds: number;
  stages: Record<string, number>;
  backend: Awaited<ReturnType<typeof activeBackend>>;
  /** Peak resident bytes of the process that read it (cold: its own process). */
  maxRss?: number;
  failed?: string;
}

interface WarmResult {
  runs: PageRun[];
  maxRss: number;
}

/** What each stage a page reports covers, as the profile names it. */
const STAGE_NAMES: Record<PageStage, string> = { prepared: 'prepare + staves', staves: 'systems', symbols: 'segment + symbols', assembled: 'read music' };

interface DevEntry {
  id: string;
  split?: string;
  locales?: string[];
  files: { pdf: string; scan: string[]; photo: string[] };
}

const manifest = (dir: string) => (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { documents: DevEntry[] }).documents;

/** `count` entries spread evenly over `list` (its categories, in manifest order). */
const spread = <T>(list: readonly T[], count: number): T[] =>
  Array.from({ length: Math.min(count, list.length) }, (_, i) => list[Math.floor((i * list.length) / Math.min(count, list.length))]!);

/** The pages of a kind that the run reads. */
function pagesOf(kind: Kind, count: number): PageSpec[] {
  if (kind === 'melody') return Array.from({ length: count }, () => ({ kind, label: 'melody.pdf', file: MELODY, page: 1, locales: ['en'] }));
  if (kind === 'quartet') {
    const dir = existsSync(join(GENERATED_DEV_SET, 'manifest.json')) ? GENERATED_DEV_SET : COMMITTED_DEV_SET;
    const docs = manifest(dir).filter((d) => d.split === 'heldout');
    return docs.slice(0, count).map((d) => ({ kind, label: d.id, file: join(dir, d.files.pdf), page: 1, locales: d.locales ?? ['en'] }));
  }
  return spread(manifest(COMMITTED_DEV_SET), count).map((d) => ({ kind, label: `${d.id} (${kind})`, file: join(COMMITTED_DEV_SET, d.files[kind][0]!), page: 1, locales: d.locales ?? ['en'] }));
}

const fileOf = (path: string) => ({ filename: path.split('/').pop()!, data: new Uint8Array(readFileSync(path)) });

/** Recognises one page as the library's users do, timing each stage. */
async function recognizeTimed(spec: PageSpec, readText: boolean): Promise<PageRun> {
  const started = performance.now();
  let mark = started;
  const stages: Record<string, number> = {};
  const lap = (stage: string) => {
    const now = performance.now();
    stages[stage] = (stages[stage] ?? 0) + (now - mark) / 1000;
    mark = now;
  };
  let failed: string | undefined;
  try {
    await recognizeScore([fileOf(spec.file)], {
      pages: [spec.page - 1],
      locales: spec.locales,
      readText,
      beforePage: () => lap('read + decode'),
      onProgress: ({ stage }) => lap(STAGE_NAMES[stage]),
    });
  } catch (err) {
    if (!(err instanceof OmrError)) throw err;
    failed = err.code;
  }
  lap('text + score');
  return { label: spec.label, seconds: (performance.now() - started) / 1000, stages, backend: await activeBackend(), ...(failed ? { failed } : {}) };
}

/** The warm child: its pages in one process, after an untimed first recognition that loads the models. */
async function warmChild(pages: PageSpec[], readText: boolean): Promise<void> {
  await recognizeTimed(pages[0]!, readText);
  const runs: PageRun[] = [];
  for (const spec of pages) runs.push(await recognizeTimed(spec, readText));
  const result: WarmResult = { runs, maxRss: process.resourceUsage().maxRSS * 1024 };
  console.log(RESULT + JSON.stringify(result));
}

/** Runs a process to its end, collecting its output. */
function run(args: string[], environment: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string; seconds: number }> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: environment });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? 1, stdout, stderr, seconds: (performance.now() - started) / 1000 }));
  });
}

/** `backend` undefined: whatever 'auto' picks. */
async function warm(pages: PageSpec[], backend: Backend | undefined, readText: boolean): Promise<WarmResult> {
  const args = ['--import', './bench/node/register.mjs', 'bench/speed.ts', '--child', JSON.stringify({ pages, backend, readText })];
  const r = await run(args);
  const line = r.stdout.split('\n').find((l) => l.startsWith(RESULT));
  if (r.code !== 0 || !line) throw new Error(`the warm run failed (exit ${r.code}):\n${r.stderr}`);
  return JSON.parse(line.slice(RESULT.length)) as WarmResult;
}

/** One `scoresight recognize` process for one page, timed from its spawn to its exit. */
async function cold(spec: PageSpec, backend: Backend | undefined, readText: boolean, out: string): Promise<PageRun> {
  const report = join(out, 'report.json');
  rmSync(report, { force: true });
  const args = ['--import', './bench/node/cold-start.mjs', CLI, 'recognize', spec.file, '--pages', String(spec.page), '--json', '--out', out];
  if (!readText) args.push('--no-text');
  else args.push('--locale', spec.locales[0]!);
  const r = await run(args, { ...process.env, SCORESIGHT_BENCH_REPORT: report, ...(backend ? { SCORESIGHT_BENCH_BACKEND: backend } : {}) });
  const summary = JSON.parse(r.stdout || '{}') as { ok?: boolean; error?: { code: string }; seconds?: number; backend?: Backend; pageTimings?: { seconds: number }[] };
  if (!existsSync(report)) throw new Error(`scoresight recognize ${spec.file} wrote no report (exit ${r.code}):\n${r.stderr}`);
  const process_ = JSON.parse(readFileSync(report, 'utf8')) as { started: number; exited: number; maxRss: number };
  const recognition = summary.seconds ?? 0;
  const page = (summary.pageTimings ?? []).reduce((n, t) => n + t.seconds, 0);
  const stages = {
    'start Node': process_.started / 1000,
    'load library, write, exit': (process_.exited - process_.started) / 1000 - recognition,
    'count pages + text': recognition - page,
    'page (models load)': page,
    'spawn + teardown': r.seconds - process_.exited / 1000,
  };
  return {
    label: spec.label,
    seconds: r.seconds,
    stages,
    backend: summary.backend ?? backend ?? 'wasm',
    maxRss: process_.maxRss,
    ...(summary.ok ? {} : { failed: summary.error?.code ?? `exit ${r.code}` }),
  };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[sorted.length >> 1]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
};
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** Prints one kind's runs on one backend in one mode; returns the median seconds per page. */
function summarise(kind: Kind, mode: 'warm' | 'cold', runs: PageRun[], maxRss: number): number {
  const seconds = runs.map((r) => r.seconds);
  const backends = [...new Set(runs.map((r) => r.backend))].join('+');
  const m = median(seconds);
  console.log(
    `${kind} ${mode} ${backends}: ${runs.length} pages, median ${m.toFixed(2)} s/page (${Math.min(...seconds).toFixed(2)}–${Math.max(...seconds).toFixed(2)}), peak RSS ${mb(maxRss)}`,
  );
  for (const stage of Object.keys(runs[0]?.stages ?? {})) console.log(`    ${stage.padEnd(26)} median ${median(runs.map((r) => r.stages[stage] ?? 0)).toFixed(2)} s`);
  for (const r of runs.filter((r) => r.failed)) console.log(`    failed: ${r.label}: ${r.failed}`);
  return m;
}

/** The whole document in one call: each page's seconds and the resident memory after it. */
async function document(path: string, backend: Backend | undefined): Promise<void> {
  if (backend) env.backend = backend;
  const seconds: number[] = [];
  const rss: number[] = [];
  let mark = performance.now();
  const started = mark;
  await recognizeScore([fileOf(path)], {
    readText: true,
    onPage: () => {
      const now = performance.now();
      seconds.push((now - mark) / 1000);
      rss.push(process.memoryUsage().rss);
      mark = now;
      console.log(`  page ${String(seconds.length).padStart(3)}: ${seconds.at(-1)!.toFixed(2)} s, RSS ${mb(rss.at(-1)!)}`);
    },
  });
  const total = (performance.now() - started) / 1000;
  const tenth = Math.max(1, Math.floor(seconds.length / 5));
  console.log(`${seconds.length} pages on ${await activeBackend()} in ${total.toFixed(1)} s (${(total / seconds.length).toFixed(2)} s/page)`);
  console.log(`  median s/page: first ${tenth} pages ${median(seconds.slice(0, tenth)).toFixed(2)}, last ${tenth} ${median(seconds.slice(-tenth)).toFixed(2)}`);
  console.log(`  RSS after page 1 ${mb(rss[0]!)}, after page ${tenth} ${mb(rss[tenth - 1]!)}, after the last ${mb(rss.at(-1)!)}; peak ${mb(process.resourceUsage().maxRSS * 1024)}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kinds: { type: 'string', default: 'quartet,melody' },
      pages: { type: 'string', default: '3' },
      cold: { type: 'boolean', default: false },
      warm: { type: 'boolean', default: false },
      backend: { type: 'string' },
      'compare-backends': { type: 'boolean', default: false },
      'without-text': { type: 'boolean', default: false },
      document: { type: 'string' },
      child: { type: 'string' },
    },
  });
  if (values.child) {
    const { pages, backend, readText } = JSON.parse(values.child) as { pages: PageSpec[]; backend?: Backend; readText: boolean };
    if (backend) env.backend = backend;
    return warmChild(pages, readText);
  }
  if (values.backend !== undefined && values.backend !== 'wasm' && values.backend !== 'native') throw new Error(`--backend is wasm or native, not ${values.backend}`);
  const backends: (Backend | undefined)[] = values['compare-backends'] ? ['wasm', 'native'] : [values.backend as Backend | undefined];
  if (values.document) return document(values.document, backends[0]);
  const kinds = values.kinds.split(',').map((k) => k.trim()) as Kind[];
  const unknown = kinds.filter((k) => !KINDS.includes(k));
  if (unknown.length) throw new Error(`unknown page kind(s) ${unknown.join(', ')}: choose from ${KINDS.join(', ')}`);
  const count = Number(values.pages);
  const modes = [...(values.warm || !values.cold ? (['warm'] as const) : []), ...(values.cold ? (['cold'] as const) : [])];
  if (values.cold && !existsSync(BUILT_CLI)) throw new Error('--cold runs the built command line: npm run build first');
  const readText = !values['without-text'];
  const out = mkdtempSync(join(tmpdir(), 'scoresight-bench-speed-'));
  const ratios: string[] = [];
  try {
    for (const [k, kind] of kinds.entries()) {
      const pages = pagesOf(kind, count);
      // Alternate which backend goes first, so that neither always meets the same load.
      const order = k % 2 ? [...backends].reverse() : backends;
      for (const mode of modes) {
        const medians = new Map<Backend | undefined, number>();
        if (mode === 'warm') {
          for (const backend of order) {
            const result = await warm(pages, backend, readText);
            medians.set(backend, summarise(kind, mode, result.runs, result.maxRss));
          }
        } else {
          const runs = new Map<Backend | undefined, PageRun[]>(order.map((b) => [b, []]));
          for (const [i, spec] of pages.entries()) {
            for (const backend of i % 2 ? [...order].reverse() : order) runs.get(backend)!.push(await cold(spec, backend, readText, out));
          }
          for (const backend of backends) {
            const list = runs.get(backend)!;
            medians.set(backend, summarise(kind, mode, list, Math.max(...list.map((r) => r.maxRss ?? 0))));
          }
        }
        if (backends.length === 2) ratios.push(`${kind} ${mode}: wasm/native ${(medians.get('wasm')! / medians.get('native')!).toFixed(2)}×`);
      }
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  if (ratios.length) console.log(`speed-up of the native backend (median s/page, wasm ÷ native):\n  ${ratios.join('\n  ')}`);
  console.log(`text ${readText ? 'read' : 'not read'}; ${count} page(s) per kind`);
}

await main();
