/**
 * `scoresight recognize`: pages in, a score out beside them (or in `--out`),
 * with progress on stderr, and with `--json` one summary on stdout for
 * scripts.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { OmrError } from '../errors.js';
import type { Raster } from '../image/raster.js';
import { countPages, type InputFile } from '../input/decode-pages.js';
import { pageWarnings, type PageReport } from '../recognize/page-report.js';
import { RECOGNITION_MODEL_VERSION, recognizeScore, startTextReader } from '../recognize/recognize-score.js';
import type { PageStages } from '../recognize/recognize-page.js';
import { pageViews, scoreViews } from '../recognize/stage-views.js';
import { encodePng } from '../image/png-encode.js';
import type { Score } from '../score/model.js';
import { activeBackend } from '../symbols/onnx-model.js';
import { checkPagesExist } from './page-list.js';
import { createProgress, type PageTiming } from './progress.js';

/**
 * A measure whose notes and rests were read with less mean confidence than
 * this is listed for a person to check: below it, about one symbol in two
 * of the measure is a guess.
 */
export const LOW_CONFIDENCE = 0.5;

/** What recognize writes a format with. */
export type FormatWriter = (output: { score: Score; firstPage?: Raster; modelVersion?: string }) => string | Uint8Array;

export interface RecognizeCommand {
  inputs: string[];
  /** Folder for the outputs; undefined: the first input's folder. */
  outDir: string | undefined;
  formats: { name: string; ext: string; write: FormatWriter }[];
  locale?: string;
  /** 1-based pages of the document; undefined: every page. */
  pages?: number[];
  readText: boolean;
  json: boolean;
  quiet: boolean;
  /** Folder for pictures of each page's recognition stages (stage-views.ts); undefined: none. */
  debugDir?: string;
}

export interface RecognizeIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stderr is a terminal: progress is a redrawn bar there, plain lines elsewhere. */
  isTTY: boolean;
}

/** The `--json` summary: one object on stdout. */
export interface RecognizeSummary {
  ok: true;
  inputs: string[];
  /** Pages of the document (all files), and the 1-based pages recognised. */
  pages: { total: number; recognised: number[]; withoutMusic: number[] };
  parts: { id: string; name: string; instrumentId: string; staves: number; measures: number; notes: number }[];
  measures: number;
  notes: number;
  seconds: number;
  pageTimings: PageTiming[];
  /**
   * Each page recognised (1-based): how far it was turned to stand upright, how sure its reading is, why it was
   * skipped, the staff space of staves too small to read well, and whether its text could not be read.
   */
  pageReadings: { page: number; turned: number; confidence: number; skipped?: PageReport['skipped']; tinyStaffSpace?: number; textUnread?: true }[];
  warnings: string[];
  lowConfidenceMeasures: { part: string; measure: string; index: number; page: number; confidence: number }[];
  outputs: { format: string; path: string }[];
  modelVersion: string;
  /** What ran the models: onnxruntime-node's native CPU backend where it is installed, else WebAssembly (env.backend). */
  backend: 'wasm' | 'native' | 'webgpu';
  textRead: boolean;
}

export async function runRecognize(command: RecognizeCommand, io: RecognizeIO): Promise<number> {
  const files: InputFile[] = [];
  for (const input of command.inputs) {
    try {
      files.push({ filename: basename(input), data: new Uint8Array(await readFile(input)) });
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(err as Error).message})`;
      return fail(new OmrError('INVALID_ARGUMENT', `${input} ${reason}.`), command, io);
    }
  }
  const started = performance.now();
  const chatty = !command.quiet && !command.json;
  let progress: ReturnType<typeof createProgress> | undefined;
  try {
    // The text reader starts while the pages are counted; recognition then finds it started.
    if (command.readText) startTextReader(command.locale ? [command.locale] : undefined);
    let total = 0;
    for (const file of files) total += await countPages(file);
    if (command.pages) {
      try {
        checkPagesExist(command.pages, total);
      } catch (err) {
        // A usage error, though only the files could tell.
        fail(OmrError.from(err), command, io);
        return 2;
      }
    }
    const selected = command.pages ?? Array.from({ length: total }, (_, i) => i + 1);
    progress = createProgress({ total: selected.length, tty: io.isTTY, ...(command.quiet ? {} : { write: io.stderr }) });
    const tracker = progress;
    let firstPage: Raster | undefined;
    const reports: PageReport[] = [];
    const stages: PageStages[] = [];
    const score = await recognizeScore(files, {
      ...(command.debugDir !== undefined ? { onStages: (page: PageStages) => stages.push(page) } : {}),
      onPage: (report) => reports.push(report),
      ...(command.locale ? { locales: [command.locale] } : {}),
      ...(command.pages ? { pages: command.pages.map((p) => p - 1) } : {}),
      readText: command.readText,
      onFirstPage: (raster) => (firstPage = raster),
      beforePage: (page) => tracker.startPage(page),
      onProgress: ({ page, stage }) => tracker.stage(page, stage),
    });
    progress.finish();
    const seconds = (performance.now() - started) / 1000;
    const summary = summarise(score, command, { total, selected, timings: progress.timings, reports, seconds, backend: await activeBackend() });
    if (chatty) io.stdout(`recognised ${summary.parts.length} part(s), ${summary.measures} measures, ${summary.notes} notes in ${seconds.toFixed(1)} s\n`);
    if (!command.quiet) for (const warning of summary.warnings) io.stderr(`warning: ${warning}\n`);
    const outDir = command.outDir ?? dirname(command.inputs[0]!);
    await mkdir(outDir, { recursive: true });
    const name = basename(command.inputs[0]!, extname(command.inputs[0]!));
    for (const format of command.formats) {
      const path = join(outDir, `${name}.${format.ext}`);
      await writeFile(path, format.write({ score, firstPage, modelVersion: RECOGNITION_MODEL_VERSION }));
      summary.outputs.push({ format: format.name, path });
      if (chatty) io.stdout(`wrote ${path}\n`);
    }
    if (command.debugDir !== undefined) {
      const written = await writeStageViews(command.debugDir, stages, score);
      summary.outputs.push({ format: 'debug', path: command.debugDir });
      if (chatty) io.stdout(`wrote ${written} stage pictures to ${command.debugDir}\n`);
    }
    if (command.json) io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
    return 0;
  } catch (err) {
    progress?.finish();
    return fail(OmrError.from(err), command, io);
  }
}

/** Each page's stage pictures and summaries as <dir>/page-<n>/<k>-<stage>.png and .json; returns how many pictures. */
async function writeStageViews(dir: string, stages: readonly PageStages[], score: Score): Promise<number> {
  let written = 0;
  for (const page of stages) {
    const folder = join(dir, `page-${page.page + 1}`);
    await mkdir(folder, { recursive: true });
    const views = [...pageViews(page), ...scoreViews(page, score)];
    for (const [k, view] of views.entries()) {
      const name = `${k + 1}-${view.stage}`;
      await writeFile(join(folder, `${name}.png`), encodePng(view.image));
      await writeFile(join(folder, `${name}.json`), `${JSON.stringify(view.summary, null, 2)}\n`);
      written++;
    }
  }
  return written;
}

function fail(error: OmrError, command: RecognizeCommand, io: RecognizeIO): number {
  io.stderr(`error ${error.code}: ${error.message}\n`);
  if (command.json) io.stdout(`${JSON.stringify({ ok: false, error: { code: error.code, message: error.message } }, null, 2)}\n`);
  return 1;
}

function summarise(
  score: Score,
  command: RecognizeCommand,
  run: { total: number; selected: number[]; timings: readonly PageTiming[]; reports: readonly PageReport[]; seconds: number; backend: 'wasm' | 'native' | 'webgpu' },
): RecognizeSummary {
  const parts = score.parts.map((part) => ({
    id: part.id,
    name: part.name,
    instrumentId: part.instrumentId,
    staves: part.staves,
    measures: part.measures.length,
    notes: part.measures.reduce((n, m) => n + m.voices.reduce((v, voice) => v + voice.events.reduce((e, ev) => e + (ev.kind === 'note' ? ev.notes.length : 0), 0), 0), 0),
  }));
  const lowConfidenceMeasures = score.parts.flatMap((part) =>
    part.measures.flatMap((measure, index) =>
      measure.evidence && measure.evidence.confidence < LOW_CONFIDENCE
        ? [{ part: part.id, measure: measure.number, index, page: measure.evidence.page + 1, confidence: measure.evidence.confidence }]
        : [],
    ),
  );
  const withoutMusic = run.reports.filter((r) => r.skipped).map((r) => r.page + 1);
  const warnings = [
    ...pageWarnings(run.reports),
    ...(lowConfidenceMeasures.length
      ? [`${lowConfidenceMeasures.length} measure(s) were read with low confidence (below ${LOW_CONFIDENCE}); check them: ${lowConfidenceMeasures.slice(0, 10).map((m) => `${m.part} m. ${m.measure} (page ${m.page})`).join(', ')}${lowConfidenceMeasures.length > 10 ? ' …' : ''}.`]
      : []),
  ];
  return {
    ok: true,
    inputs: command.inputs,
    pages: { total: run.total, recognised: run.selected.filter((p) => !withoutMusic.includes(p)), withoutMusic },
    parts,
    measures: score.parts[0]?.measures.length ?? 0,
    notes: parts.reduce((n, p) => n + p.notes, 0),
    seconds: Math.round(run.seconds * 1000) / 1000,
    pageTimings: [...run.timings],
    pageReadings: run.reports.map((r) => ({
      page: r.page + 1,
      turned: r.turned,
      confidence: r.confidence,
      ...(r.skipped ? { skipped: r.skipped } : {}),
      ...(r.tinyStaffSpace ? { tinyStaffSpace: r.tinyStaffSpace } : {}),
      ...(r.textUnread ? { textUnread: r.textUnread } : {}),
    })),
    warnings,
    lowConfidenceMeasures,
    outputs: [],
    modelVersion: RECOGNITION_MODEL_VERSION,
    backend: run.backend,
    textRead: command.readText,
  };
}
