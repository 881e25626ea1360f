/**
 * The local engine: the service's job interface, run on this machine.
 *
 * Requests check and record state through the pure job machine
 * (`job-machine.ts`); the pipeline runs in the recognition pool and reports
 * back through the same machine, so every state a caller can observe is one
 * the service's transition table allows. Everything is written through to
 * the store, so jobs, files and results survive a reload or restart; a job
 * found running after a restart starts over, and one that keeps dying ends
 * in `error` with its credits reverted.
 */
import { OmrError } from '../errors.js';
import type { InputFile } from '../input/decode-pages.js';
import { countPages } from '../input/decode-pages.js';
import { MIME_TYPES, detectFileType, type FileType } from '../input/file-type.js';
import type { PageStage } from '../recognize/recognize-page.js';
import { pageWarnings, type PageReport } from '../recognize/page-report.js';
import type { Score } from '../score/model.js';
import type { Store } from '../storage/store.js';
import { createMemoryStore } from '../storage/memory-store.js';
import type { ScoreSightClient } from './client.js';
import { openLedger, type CreditLedger } from './credits.js';
import { applyDetails, detectDetails, isResolved, validateSubmission } from './details.js';
import { availableFormats, writeExport } from './exports.js';
import { MAX_FILE_SIZE, fileBytes } from './file-input.js';
import { assertDownloadable, createJobState, isRecognizing, isTerminal, transition, type JobEvent } from './job-machine.js';
import { JobTable, type LongPollTimer } from './job-table.js';
import { turnsFor } from './pool-turns.js';
import { ScoreLibrary } from './library.js';
import { LOCALES, LOCALES_DETAILS, isLanguageTag } from './locales.js';
import type { FileMeta, JobRecord, ResultRecord } from './records.js';
import type { RecognitionPool } from '../workers/pool.js';
import type { ScoreParser } from '../workers/parse-api.js';
import { createInProcessParser } from '../workers/parse-service.js';
import { isMidiFile } from '../import/midi/smf-scan.js';
import type {
  AddFileResult,
  Capabilities,
  CreateJobBody,
  DetailsSubmission,
  Download,
  ImportScoreBody,
  ImportScoreResult,
  Job,
  JobFileInput,
  JobPage,
  JobProgress,
  LibraryScore,
  ListJobsQuery,
  Task,
} from './types.js';

export type { LongPollTimer } from './job-table.js';

export interface LocalClientOptions {
  /** Where jobs live. Default: IndexedDB in browsers, memory elsewhere (pass `createFileStore(dir)` in Node to keep them). */
  store?: Store;
  /** Recognition workers. Default: a worker pool sized to the machine. */
  pool?: RecognitionPool;
  /**
   * Where uploads are read: score imports (MusicXML, MXL, MIDI) and the
   * page counts of PDF, TIFF and HEIF files. Default: as recognition runs —
   * a parse worker (`createParseWorker`) where the client makes its own
   * worker pool, the calling thread where a `pool` is passed in. Pass a
   * parse worker wherever uploads come from others (a server does): on the
   * calling thread a large score holds it for seconds.
   */
  parser?: ScoreParser;
  /** Jobs recognised at once; more wait in `OMR_QUEUED`. Default 10, as the service. */
  maxParallelJobs?: number;
  /** Pages per job (`maxPages`). Default 200. */
  maxPages?: number;
  /** Retention of `output: musicxml` jobs, in days. Default 30. */
  retentionDays?: number;
  /** A credit balance to charge (one per page); unlimited when absent. */
  credits?: number;
  /** The clock; tests move it to check retention. */
  now?: () => Date;
  /**
   * Starts the timer that ends a long-poll (`getJob`'s `wait`) when the job
   * has not changed: calls `end` after `ms` unless the function it returns
   * is called first. Default `setTimeout`; tests pass their own to end a
   * wait on cue, and so tell a wait the job's change or an abort ended from
   * one its deadline did, without a clock.
   */
  longPollTimer?: LongPollTimer;
  /** How often erasure of expired jobs runs. Default hourly; 0 turns the timer off (call `sweepRetention`). */
  sweepIntervalMs?: number;
  /** Resolution PDF pages are rendered at for recognition. */
  dpi?: number;
  /**
   * How long one page may be recognised, in milliseconds, before its job
   * ends in `error` with `ENGINE_TIMEOUT` (its worker is ended and
   * replaced). Applies to the pool the client makes itself; a pool passed
   * in `pool` has its own (`createRecognitionPool({ pageTimeoutMs })`).
   * Default `DEFAULT_PAGE_TIMEOUT_MS`, two minutes.
   */
  pageTimeoutMs?: number;
  /**
   * The most resident memory, in MiB, the process may hold while a page is
   * recognised; past it, the job whose page has run longest ends in `error`
   * with `ENGINE_OUT_OF_MEMORY` (its worker is ended and replaced). Applies
   * to the pool the client makes itself, in Node. Default
   * `defaultMemoryBudgetMb()`: 4 GiB, or three quarters of the machine's
   * memory where that is less.
   */
  memoryBudgetMb?: number;
  /**
   * Told about what the engine repaired or could not do on its own: a
   * damaged record moved to the store's quarantine (`DAMAGED_RECORD`), a
   * credit balance rebuilt from the jobs (`CREDITS_REBUILT`), a store that
   * failed (`STORAGE_FAILED`). Default: a warning on the console.
   */
  onWarning?: (warning: EngineWarning) => void;
}

export interface EngineWarning {
  code: 'DAMAGED_RECORD' | 'CREDITS_REBUILT' | 'STORAGE_FAILED' | (string & {});
  message: string;
}

/** How often a job may be found reading a page after a restart (a crash) before it is failed rather than retried. */
const MAX_ATTEMPTS = 3;
const MAX_WAIT_SECONDS = 25;
const DAY_MS = 86_400_000;
const DEFAULT_LIST_LIMIT = 20;
/** Failures caused by the page itself: a job that failed so is not resumed, it would only fail again. */
const PAGE_AT_FAULT: ReadonlySet<string> = new Set(['WORKER_CRASHED', 'ENGINE_TIMEOUT', 'ENGINE_OUT_OF_MEMORY']);

export type LocalClient = ScoreSightClient & {
  /** Erases the files and results of `musicxml` jobs past their retention; returns how many. */
  sweepRetention(): Promise<number>;
  /**
   * A done job's score as the score model, with recognition evidence (page,
   * box, confidence) on every measure and note — what an editor needs to
   * show uncertain places. Local only: the service has no such endpoint.
   */
  getJobResult(jobId: string): Promise<JobScoreResult>;
  /**
   * Settles once stored jobs are loaded and interrupted ones resumed. A
   * store that fails with `STORAGE_FAILED` still lets it resolve: calls then
   * answer that error until the store works again. Rejects on other failures.
   */
  readonly ready: Promise<void>;
};

export interface JobScoreResult {
  score: Score;
  /** Pages recognised. */
  pageCount: number;
  /** What became of each page: read (how far it was turned, how sure the reading is) or skipped and why. */
  pages: PageReport[];
  /** The models that read the pages. */
  modelVersion: string;
}

/** Every operation of the client interface, in the spec's order. */
export const CLIENT_METHODS = [
  'getCapabilities',
  'createJob',
  'addJobFile',
  'startJob',
  'getJob',
  'listJobs',
  'submitJobStep',
  'cancelJob',
  'getJobFile',
  'exportJob',
  'deleteJob',
  'importScore',
  'getTask',
  'getScore',
  'exportScore',
  'close',
] as const satisfies readonly (keyof ScoreSightClient)[];

/**
 * The local engine, mirroring the hosted service. Returns at once; the
 * store opens and interrupted jobs resume in the background, and every
 * call waits for that first.
 */
export function createClient(options: LocalClientOptions = {}): LocalClient {
  const engine = (async () => {
    const store = options.store ?? (await defaultStore());
    const pool = options.pool ?? (await defaultPool(options));
    const parser = options.parser ?? (options.pool ? createInProcessParser() : await defaultParser());
    const opened = new LocalEngine(store, pool, parser, options, { pool: !options.pool, parser: !options.parser });
    await opened.open();
    return opened;
  })();
  const ready = engine.then(() => undefined);
  void ready.catch(() => {}); // surfaced by the first call instead
  const client: Record<string, unknown> = {
    ready,
    sweepRetention: async () => (await engine).sweepRetention(),
    getJobResult: async (jobId: string) => {
      const opened = await engine;
      await opened.available();
      return opened.getJobResult(jobId);
    },
  };
  for (const name of CLIENT_METHODS) {
    client[name] = async (...args: unknown[]) => {
      const opened = await engine;
      if (name !== 'close') await opened.available();
      return (opened[name] as (...a: unknown[]) => Promise<unknown>)(...args);
    };
  }
  return client as unknown as LocalClient;
}

async function defaultStore(): Promise<Store> {
  if (typeof indexedDB !== 'undefined') {
    const { openIndexedDbStore } = await import('../storage/idb-store.js');
    return openIndexedDbStore();
  }
  return createMemoryStore();
}

async function defaultPool({ pageTimeoutMs, memoryBudgetMb }: LocalClientOptions): Promise<RecognitionPool> {
  const { createRecognitionPool } = await import('../workers/worker-pool.js');
  return createRecognitionPool({ ...(pageTimeoutMs !== undefined ? { pageTimeoutMs } : {}), ...(memoryBudgetMb !== undefined ? { memoryBudgetMb } : {}) });
}

async function defaultParser(): Promise<ScoreParser> {
  const { createParseWorker } = await import('../workers/parse-pool.js');
  return createParseWorker();
}

/** A job's run in the pool: aborting `controller` stops it (a cancel); `done` settles once the run has recorded how it ended. */
interface Run {
  controller: AbortController;
  done: Promise<void>;
}

class LocalEngine implements ScoreSightClient {
  private readonly jobs: JobTable;
  private readonly library: ScoreLibrary;
  /** Opened with the jobs, since a damaged balance is rebuilt from them. */
  private ledger!: CreditLedger;
  private readonly maxParallel: number;
  private readonly maxPages: number;
  private readonly retentionDays: number;
  private readonly clock: () => Date;
  private readonly queue: string[] = [];
  private readonly running = new Map<string, Run>();
  /** Cancels asked for while a page was being recognised, honoured when the run stops (at once where the pool can end its worker). */
  private readonly cancels = new Set<string>();
  private readonly idempotency = new Map<string, string>();
  /** Creations under way, by idempotency key: a repeat sent meanwhile waits for the same job. */
  private readonly creating = new Map<string, Promise<Job>>();
  private sweepTimer: ReturnType<typeof setInterval> | undefined;
  /** Why the store could not be loaded, while it cannot; calls answer it. */
  private unavailable: OmrError | undefined;
  /** A retry of loading under way, shared by the calls that wait for it. */
  private loading: Promise<void> | undefined;
  /**
   * Jobs whose run ended while the store refused to record how: still
   * `processing`, with nothing running them. Each call tries to put them
   * back on their way (see `reviveStranded`).
   */
  private readonly stranded = new Set<string>();
  /** A retry of the stranded jobs under way, shared by the calls that wait for it. */
  private reviving: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly pool: RecognitionPool,
    private readonly parser: ScoreParser,
    private readonly options: LocalClientOptions,
    /** What the client made itself, and so closes. */
    private readonly owns: { pool: boolean; parser: boolean },
  ) {
    this.jobs = new JobTable(store, options.longPollTimer);
    this.clock = options.now ?? (() => new Date());
    this.library = new ScoreLibrary(store, newId, () => this.now());
    this.maxParallel = options.maxParallelJobs ?? 10;
    this.maxPages = options.maxPages ?? 200;
    this.retentionDays = options.retentionDays ?? 30;
  }

  /**
   * Opens the engine. A store that fails (`STORAGE_FAILED`: an unreadable
   * directory) does not fail it: the engine opens unavailable, each call
   * tries the store again and answers that error until it works, so one
   * account's broken storage never keeps a server from serving the others.
   */
  async open(): Promise<void> {
    await this.tryLoad();
    const interval = this.options.sweepIntervalMs ?? 3_600_000;
    if (interval > 0) {
      this.sweepTimer = setInterval(() => void this.sweepRetention().catch(() => {}), interval);
      (this.sweepTimer as { unref?: () => void }).unref?.();
    }
  }

  /**
   * Waits until the store has loaded, trying it again if it failed before;
   * rejects with its `STORAGE_FAILED` while it still fails. Jobs stranded by
   * a store that failed mid-run are tried again first.
   */
  async available(): Promise<void> {
    if (this.unavailable) {
      this.loading ??= this.tryLoad().finally(() => (this.loading = undefined));
      await this.loading;
      if (this.unavailable) throw this.unavailable;
    }
    if (this.stranded.size) {
      this.reviving ??= this.reviveStranded().finally(() => (this.reviving = undefined));
      await this.reviving;
    }
  }

  /**
   * Puts stranded jobs back on their way, as a restart would, once the store
   * takes writes again: without this a job whose store failed as its run
   * ended would stay `processing`, its credits held, until the next restart.
   * One the store still refuses stays stranded for the next call.
   */
  private async reviveStranded(): Promise<void> {
    for (const id of [...this.stranded]) {
      const record = this.jobs.find(id);
      if (this.closed || !record || record.job.status !== 'processing' || this.running.has(id)) {
        this.stranded.delete(id);
        continue;
      }
      try {
        await this.proceed(record);
        this.stranded.delete(id);
      } catch {
        // The store still fails: the job waits for a later call.
      }
    }
  }

  private async tryLoad(): Promise<void> {
    try {
      await this.load();
      this.unavailable = undefined;
    } catch (err) {
      const error = OmrError.from(err);
      if (error.code !== 'STORAGE_FAILED') throw error;
      if (!this.unavailable) this.warn('STORAGE_FAILED', `${error.message} Until it works, every call answers STORAGE_FAILED.`);
      this.unavailable = error;
    }
  }

  /** Loads the jobs and resumes them. One damaged record or failing job is reported and set aside, never a reason not to open. */
  private async load(): Promise<void> {
    const damaged = await this.jobs.load();
    for (const { id, problem } of damaged) {
      await this.setAside(id, problem).catch((err) => this.warn(OmrError.from(err).code, `The files of job ${id}, whose record was damaged, could not be set aside: ${OmrError.from(err).message}`));
    }
    this.ledger = await openLedger(this.store, this.options.credits, {
      held: this.jobs.all().reduce((sum, record) => sum + record.charged, 0),
      jobsDamaged: damaged.length > 0,
      warn: (code, message) => this.warn(code, message),
    });
    for (const record of this.jobs.all()) {
      if (record.idempotencyKey) this.idempotency.set(record.idempotencyKey, record.job.id);
    }
    // Jobs interrupted by a crash or a closed tab: in creation order, so they keep their places.
    const interrupted = this.jobs.all().filter((r) => r.job.status === 'processing').sort((a, b) => a.seq - b.seq);
    for (const record of interrupted) {
      await this.resume(record).catch((err) => {
        // Stored but not writable: tried again on a later call, like a job whose run could not record its end.
        this.stranded.add(record.job.id);
        this.warn(OmrError.from(err).code, `Job ${record.job.id} could not be resumed yet: ${OmrError.from(err).message}`);
      });
    }
    await this.sweepRetention().catch((err) => this.warn(OmrError.from(err).code, `Erasing expired jobs failed: ${OmrError.from(err).message}`));
  }

  // -------------------------------------------------------------------------
  // Capabilities

  async getCapabilities(): Promise<Capabilities> {
    const remaining = await this.ledger.remaining();
    return {
      locales: [...LOCALES],
      localesDetails: LOCALES_DETAILS.map((l) => ({ ...l })),
      maxPages: this.maxPages,
      maxFileSize: MAX_FILE_SIZE,
      retentionDays: this.retentionDays,
      ...(remaining === undefined ? {} : { costPerPage: 1, remainingCredits: remaining }),
    };
  }

  // -------------------------------------------------------------------------
  // Jobs

  async createJob(body: CreateJobBody = {}): Promise<Job> {
    this.assertOpen();
    validateCreateBody(body);
    const key = body.idempotencyKey;
    if (key === undefined) return this.createNewJob(body);
    const existing = this.idempotency.get(key);
    if (existing) return this.view(existing);
    // The same request sent again while the first is still being created joins it: one job, one charge.
    const pending = this.creating.get(key);
    if (pending) return this.view((await pending).id);
    const creation = this.createNewJob(body);
    this.creating.set(key, creation);
    try {
      return await creation;
    } finally {
      this.creating.delete(key);
    }
  }

  private async createNewJob(body: CreateJobBody): Promise<Job> {
    if (body.autoStart && !body.files?.length) {
      throw new OmrError('OMR_JOB_NO_FILES', 'autoStart needs files: send them in the same request, or create a draft and add them.');
    }
    // Files are read and checked before anything is stored: a bad file creates no job.
    const files = await Promise.all((body.files ?? []).map((file, i) => this.readFile(file, `files[${i}]`)));
    const job = await this.insertJob(body, files, {}, body.autoStart === true);
    if (job.status === 'processing') this.enqueue(job.id);
    return structuredClone(job);
  }

  /**
   * Stores a new job with files already read: a draft, or with `start` a
   * job already started and charged. Credits are charged before anything
   * is written, so a refused start (402) leaves no draft, no files and no
   * idempotency key behind; the caller queues a started job.
   */
  private async insertJob(body: CreateJobBody, files: readonly ReadFile[], extra: Partial<JobRecord> = {}, start = false): Promise<Job> {
    const id = newId('job');
    let state = createJobState({
      id,
      now: this.now(),
      output: body.output,
      interactiveSteps: body.interactiveSteps,
      locales: body.locales,
      retentionDays: this.retentionDays,
    });
    const pages = pagesOf(files);
    if (pages > this.maxPages) throw this.tooManyPages(pages);
    if (start) state = transition(state, { type: 'start', pages });
    if (state.charged) await this.ledger.charge(state.charged);
    try {
      for (const [index, file] of files.entries()) await this.store.put('blobs', fileKey(id, index), file.data);
      await this.jobs.insert({
        job: state.job,
        seq: this.jobs.seq(),
        files: files.map(({ data: _data, ...meta }) => meta),
        charged: state.charged,
        ...(body.idempotencyKey !== undefined ? { idempotencyKey: body.idempotencyKey } : {}),
        ...(body.collection !== undefined ? { collection: body.collection } : {}),
        ...extra,
      });
    } catch (err) {
      // Nothing of a job that could not be stored may stay: not its files, not its charge.
      for (const index of files.keys()) await this.store.delete('blobs', fileKey(id, index)).catch(() => {});
      if (state.charged) await this.ledger.refund(state.charged).catch(() => {}); // kept in memory even if unwritten
      throw err;
    }
    if (body.idempotencyKey !== undefined) this.idempotency.set(body.idempotencyKey, id);
    return state.job;
  }

  async addJobFile(jobId: string, file: JobFileInput): Promise<AddFileResult> {
    this.assertOpen();
    this.machine(this.jobs.get(jobId), { type: 'addFile' });
    const read = await this.readFile(file, 'file');
    let index = -1;
    const record = await this.jobs.update(jobId, async (current) => {
      this.machine(current, { type: 'addFile' });
      const pages = pagesOf(current.files) + read.pages;
      if (pages > this.maxPages) throw this.tooManyPages(pages);
      index = current.files.length;
      await this.store.put('blobs', fileKey(jobId, index), read.data);
      const { data: _data, ...meta } = read;
      return { ...current, files: [...current.files, meta] };
    });
    return { fileIndex: index, fileCount: record.files.length };
  }

  async startJob(jobId: string): Promise<Job> {
    this.assertOpen();
    const record = await this.mutate(jobId, async (current) => {
      const pages = pagesOf(current.files);
      if (pages > this.maxPages) throw this.tooManyPages(pages);
      const next = this.machine(current, { type: 'start', pages });
      await this.ledger.charge(next.charged);
      return next;
    });
    this.enqueue(jobId);
    return record.job;
  }

  async getJob(jobId: string, options: { wait?: number; signal?: AbortSignal } = {}): Promise<Job> {
    const wait = options.wait ?? 0;
    if (!Number.isFinite(wait) || wait < 0 || wait > MAX_WAIT_SECONDS) {
      throw new OmrError('INVALID_ARGUMENT', `wait must be 0 to ${MAX_WAIT_SECONDS} seconds, got ${wait}.`);
    }
    this.jobs.get(jobId);
    if (wait > 0 && !this.closed && !options.signal?.aborted) await this.jobs.changed(jobId, wait * 1000, options.signal);
    return this.view(jobId);
  }

  async listJobs(query: ListJobsQuery = {}): Promise<JobPage> {
    const limit = query.limit ?? DEFAULT_LIST_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new OmrError('INVALID_ARGUMENT', `limit must be an integer from 1 to 100, got ${limit}.`);
    let after = Infinity;
    if (query.cursor !== undefined) {
      const m = /^c(\d+)$/.exec(query.cursor);
      if (!m) throw new OmrError('INVALID_ARGUMENT', `cursor ${JSON.stringify(query.cursor)} is not one this client gave out.`);
      after = Number(m[1]);
    }
    const matching = this.jobs
      .all()
      .filter((r) => !r.task && r.seq < after)
      .filter((r) => query.status === undefined || r.job.status === query.status)
      .filter((r) => query.expired === undefined || !!r.job.retention?.expiredDate === query.expired)
      .sort((a, b) => b.seq - a.seq);
    const page = matching.slice(0, limit);
    const last = page[page.length - 1];
    return { jobs: page.map((r) => structuredClone(r.job)), ...(matching.length > limit && last ? { nextCursor: `c${last.seq}` } : {}) };
  }

  async submitJobStep(jobId: string, step: string, body: DetailsSubmission): Promise<Job> {
    this.assertOpen();
    const record = await this.jobs.update(jobId, async (current) => {
      const next = this.machine(current, { type: 'submitStep', step, bodyStep: body?.step });
      const result = await this.result(jobId);
      validateSubmission(body, result.recognized.parts.length);
      await this.store.put('results', jobId, { ...result, score: applyDetails(result.recognized, body) });
      return { ...next, ...(body.mainLanguage !== undefined ? { mainLanguage: body.mainLanguage } : {}) };
    });
    // Only the cheap finishing stages run again: the review changed metadata, not what was read.
    void this.finishInBackground(jobId);
    return structuredClone(record.job);
  }

  /**
   * Cancels a job. One whose page is being read is stopped by ending its
   * worker, where the pool can (`abortsAtOnce`), and answered canceled once
   * that is stored; with a pool that cannot, the answer is the service's
   * 409 `OMR_JOB_NOT_CANCELLABLE`, and the job stops at its next page, so
   * the caller's retry finds it canceled.
   */
  async cancelJob(jobId: string): Promise<Job> {
    let record: JobRecord;
    try {
      record = await this.mutate(jobId, (current) => this.machine(current, { type: 'cancel' }));
    } catch (err) {
      if (!(err instanceof OmrError) || err.code !== 'OMR_JOB_NOT_CANCELLABLE') throw err;
      this.cancels.add(jobId);
      const run = this.running.get(jobId);
      if (!run || !this.pool.abortsAtOnce) throw err;
      run.controller.abort(canceled(jobId));
      await run.done;
      const job = this.jobs.get(jobId).job;
      if (!isTerminal(job)) throw err;
      return structuredClone(job);
    }
    // A run still waiting in the pool's queue leaves it.
    this.running.get(jobId)?.controller.abort(canceled(jobId));
    return structuredClone(record.job);
  }

  async getJobFile(jobId: string, index: number): Promise<Download> {
    const record = this.jobs.get(jobId);
    if (record.job.retention?.expiredDate) throw expired(record.job);
    const total = pagesOf(record.files);
    if (!Number.isInteger(index) || index < 0 || index >= total) {
      throw new OmrError('OMR_FILE_NOT_FOUND', `Job ${jobId} has ${total} page(s); index ${index} is out of range (0-based).`);
    }
    let page = index;
    let file = 0;
    while (page >= record.files[file]!.pages) page -= record.files[file++]!.pages;
    const meta = record.files[file]!;
    const data = await this.fileData(jobId, file);
    const stem = meta.filename.replace(/\.[^.]*$/, '') || `page-${index + 1}`;
    if (BROWSER_IMAGE_TYPES.includes(meta.mimeType) && meta.pages === 1) {
      return { data, contentType: meta.mimeType, filename: meta.filename || `page-${index + 1}` };
    }
    const png = await this.pool.renderPage([{ filename: meta.filename, data, mimeType: meta.mimeType }], page);
    return { data: png, contentType: 'image/png', filename: `${stem}${meta.pages > 1 ? `-${page + 1}` : ''}.png` };
  }

  async exportJob(jobId: string, format: string): Promise<Download> {
    const record = this.jobs.get(jobId);
    assertDownloadable(record.job);
    const exports = record.job.result?.exports ?? [];
    if (!exports.includes(format)) {
      throw new OmrError('OMR_FORMAT_NOT_AVAILABLE', `Job ${jobId} offers ${exports.join(', ')}; ${JSON.stringify(format)} is not one of them.`);
    }
    const result = await this.result(jobId);
    const thumbnail = await this.store.get('blobs', thumbnailKey(jobId));
    return writeExport({ score: result.score, modelVersion: result.modelVersion, thumbnail }, format);
  }

  async getJobResult(jobId: string): Promise<JobScoreResult> {
    assertDownloadable(this.jobs.get(jobId).job);
    const { score, pageCount, pages = [], modelVersion } = await this.result(jobId);
    return { score, pageCount, pages, modelVersion };
  }

  async deleteJob(jobId: string): Promise<Job> {
    const record = await this.jobs.update(jobId, (current) => this.eraseRecord(current, false));
    return structuredClone(record.job);
  }

  /** Erases a job's files and results, leaving the stripped record; `sweep` when retention passed (drafts too). */
  private async eraseRecord(current: JobRecord, sweep: boolean): Promise<JobRecord> {
    const next = this.machine(current, { type: 'erase', now: this.now(), sweep });
    if (next === current) return current;
    await this.erase(current);
    return { ...next, files: strip(current.files) };
  }

  /**
   * Erases what is past retention: finished `musicxml` jobs and drafts of
   * either output, whose uploads would otherwise be kept for ever. A
   * `musicxml` draft keeps its stripped record (listable, expired, no longer
   * startable); a `library` draft, which has no retention to show it, is
   * removed whole.
   */
  async sweepRetention(): Promise<number> {
    const now = this.clock().getTime();
    let erased = 0;
    for (const record of this.jobs.all()) {
      const { job } = record;
      if (job.status === 'draft' && job.output === 'library') {
        if (Date.parse(job.creationDate) + this.retentionDays * DAY_MS > now) continue;
        if (await this.removeDraft(job.id)) erased++;
        continue;
      }
      const retention = job.retention;
      if (!retention || retention.expiredDate || Date.parse(retention.expiryDate) > now) continue;
      const erasable = (current: JobRecord) => isTerminal(current.job) || current.job.status === 'draft';
      if (!erasable(record)) continue;
      // Checked again in turn with other changes: a draft may have been started meanwhile.
      const after = await this.jobs.update(job.id, (current) => (erasable(current) ? this.eraseRecord(current, true) : current));
      if (after.job.retention?.expiredDate) erased++;
    }
    return erased;
  }

  /** Removes a library draft past retention with its uploads; false if it was started meanwhile. */
  private removeDraft(jobId: string): Promise<boolean> {
    return this.jobs.remove(jobId, async (current) => {
      if (current.job.status !== 'draft') return false;
      await this.erase(current);
      if (current.idempotencyKey !== undefined && this.idempotency.get(current.idempotencyKey) === jobId) this.idempotency.delete(current.idempotencyKey);
      return true;
    });
  }

  // -------------------------------------------------------------------------
  // Library and tasks

  async importScore(body: ImportScoreBody): Promise<ImportScoreResult> {
    this.assertOpen();
    const filename = body?.filename ?? '';
    const data = await fileBytes(body?.data, filename || 'data');
    const type = isMidiFile(data) ? 'midi' : detectFileType({ filename, data });
    if (type === 'musicxml' || type === 'mxl' || type === 'midi') {
      // Read and serialised by the parser: a large score takes seconds, which a worker spends off this thread.
      // A MIDI file has no title of its own: its name stands for one.
      const title = body.title ?? (type === 'midi' ? filename.replace(/\.[^.]*$/, '') || undefined : undefined);
      const score = await this.parser.readScore({ kind: type, data }, title === undefined ? {} : { title });
      return { status: 200, ...(await this.library.createFromText(score)) };
    }
    if (type !== 'pdf') {
      throw new OmrError('UNSUPPORTED_FILE_TYPE', `Score import takes PDF (read by OMR), MusicXML, MXL or MIDI; ${filename || 'this file'} is ${type}. Use an OMR job for page images.`);
    }
    if (body.supportsTasks !== true) {
      throw new OmrError('INVALID_ARGUMENT', 'A PDF is imported through OMR, which answers with a task: send supportsTasks: true.');
    }
    // An invalid or password-protected PDF is refused here, with 400, before anything is charged.
    const file = { filename: filename || 'import.pdf', data, mimeType: MIME_TYPES.pdf, size: data.length };
    const pages = await this.pageCount(file);
    const taskId = newId('task');
    // Started as it is stored, so a refused charge (402) leaves neither a draft nor a task behind.
    const job = await this.insertJob({ output: 'library' }, [{ ...file, pages }], { task: taskId, ...(body.title !== undefined ? { title: body.title } : {}) }, true);
    await this.store.put('tasks', taskId, { task: { id: taskId, type: 'import-omr', state: 'created', progress: { percent: 0 }, creationDate: job.creationDate }, job: job.id });
    this.enqueue(job.id);
    return { status: 202, task: await this.getTask(taskId) };
  }

  async getTask(taskId: string): Promise<Task> {
    const stored = await this.store.get('tasks', taskId);
    if (!stored) throw new OmrError('TASK_NOT_FOUND', `No task ${JSON.stringify(taskId)} exists.`);
    if (!stored.job) return stored.task;
    // An import task is a view of the OMR job that runs it.
    const { job } = this.jobs.get(stored.job);
    const task: Task = { ...stored.task };
    if (job.status === 'processing' || job.status === 'awaitingInput') {
      task.state = job.progress?.key === 'OMR_QUEUED' ? 'created' : 'doing';
      task.progress = { percent: job.progress?.percent ?? 0 };
    } else if (job.status === 'done' && job.result?.score) {
      const score = await this.library.get(job.result.score);
      Object.assign(task, { state: 'done', progress: { percent: 100 }, score: score.id, revision: score.revision, doneDate: score.creationDate });
    } else if (job.status === 'canceled') {
      task.state = 'canceled';
    } else if (job.status === 'error') {
      Object.assign(task, { state: 'error', result: { error: `${job.errorCode}: ${job.errorMessage}` } });
    }
    return task;
  }

  getScore(scoreId: string): Promise<LibraryScore> {
    return this.library.get(scoreId);
  }

  exportScore(scoreId: string, revision: string, format: string): Promise<Task> {
    return this.library.exportTask(scoreId, revision, format);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweepTimer);
    this.jobs.wakeAll();
    if (this.owns.pool) await this.pool.close();
    if (this.owns.parser) await this.parser.close();
    // Running jobs stay `processing` in the store and resume when a client opens it again. A page
    // being read is given up here, on purpose: stored as queued, it is no interruption to count.
    await Promise.allSettled([...this.running.keys()].map((id) => this.jobs.update(id, (r) => (isRecognizing(r.job) ? this.machine(r, { type: 'requeue' }) : r))));
    await this.store.close();
  }

  // -------------------------------------------------------------------------
  // The pipeline

  private enqueue(jobId: string): void {
    if (!this.queue.includes(jobId) && !this.running.has(jobId)) this.queue.push(jobId);
    this.drain();
  }

  private drain(): void {
    while (!this.closed && this.running.size < this.maxParallel && this.queue.length) {
      const id = this.queue.shift()!;
      const controller = new AbortController();
      const done = this.recognize(id, controller.signal)
        .catch((err) => this.strand(id, err))
        .finally(() => {
          this.running.delete(id);
          this.drain();
        });
      this.running.set(id, { controller, done });
    }
  }

  private async recognize(jobId: string, signal: AbortSignal): Promise<void> {
    const record = this.jobs.find(jobId);
    if (!record || record.job.status !== 'processing') return; // canceled while queued
    try {
      const files: InputFile[] = await Promise.all(
        record.files.map(async (meta, i) => ({ filename: meta.filename, mimeType: meta.mimeType, data: await this.fileData(jobId, i) })),
      );
      const total = pagesOf(record.files);
      const stopped = () => {
        const current = this.jobs.get(jobId);
        return this.closed || current.job.status !== 'processing' || this.cancels.has(jobId);
      };
      // Engines sharing the pool (the server's accounts) take turns at it: see pool-turns.ts.
      const outcome = await turnsFor(this.pool).run(this, (started) => {
        if (stopped()) throw canceled(jobId); // while it waited for its turn
        return this.pool.recognize(
          // Text is read in the job's languages; a details submission's mainLanguage, kept on the record, leads
          // them when the job is recognised again (a resumed job): lyrics are read once, before the review.
          { files, ...(this.options.dpi ? { dpi: this.options.dpi } : {}), locales: jobLocales(record) },
          {
            beforePage: async (page) => {
              if (stopped()) throw canceled(jobId);
              await this.progress(jobId, pageProgress('OMR_DETECTING_STAVES', page, total, 0));
            },
            onStage: (page: number, stage: PageStage) => {
              const [key, within] = STAGE_PROGRESS[stage];
              void this.progress(jobId, pageProgress(key, page, total, within)).catch(() => {});
            },
          },
          {
            signal,
            onStart: () => {
              started();
              void this.progress(jobId, pageProgress('OMR_DETECTING_STAVES', 0, total, 0)).catch(() => {});
            },
          },
        );
      });
      if (this.cancels.has(jobId)) throw canceled(jobId);
      await this.progress(jobId, { percent: 90, text: 'Assembling the score', key: 'OMR_ASSEMBLING' });
      const details = detectDetails(outcome.score);
      const stored = this.jobs.get(jobId);
      if (stored.title !== undefined) outcome.score.credits.title = stored.title;
      await this.store.put('blobs', thumbnailKey(jobId), outcome.thumbnail);
      const result: ResultRecord = { recognized: outcome.score, score: outcome.score, modelVersion: outcome.modelVersion, pageCount: outcome.pageCount, pages: outcome.pages };
      await this.store.put('results', jobId, result);
      if (stored.job.interactiveSteps.includes('details') && !isResolved(details)) {
        await this.apply(jobId, { type: 'awaitInput', data: details });
        return;
      }
      await this.finish(jobId);
    } catch (err) {
      await this.stop(jobId, err);
    }
  }

  /**
   * The finishing stages: the library score (for `output: library`), then
   * `done`. The score is created in turn with the job's other changes, so a
   * cancel lands either before (no score is made) or after (a no-op on a
   * done job): never a score whose job was canceled.
   */
  private async finish(jobId: string): Promise<void> {
    let created: string | undefined;
    try {
      const record = this.jobs.get(jobId);
      if (record.job.status !== 'processing') return;
      await this.progress(jobId, { percent: 95, text: 'Creating the score', key: 'OMR_CREATING_SCORE' });
      const result = await this.result(jobId);
      const thumbnail = await this.store.get('blobs', thumbnailKey(jobId));
      const exports = availableFormats({ thumbnail });
      const warnings = pageWarnings(result.pages ?? []);
      await this.mutate(jobId, async (current) => {
        if (current.job.status !== 'processing') return current; // canceled meanwhile
        if (current.job.output === 'library') {
          created = (await this.library.create(result.score, { job: jobId, modelVersion: result.modelVersion })).score.id;
        }
        return this.machine(current, { type: 'finish', result: { exports, ...(created ? { score: created } : {}), ...(warnings.length ? { warnings } : {}) } });
      });
    } catch (err) {
      // The job could not be stored as done: the score it made must not outlive that.
      if (created && this.jobs.find(jobId)?.job.status !== 'done') await this.library.discard(created).catch(() => {});
      await this.stop(jobId, err);
    }
  }

  /** The finishing stages run without a caller waiting: a failure to even record the error strands the job. */
  private finishInBackground(jobId: string): Promise<void> {
    return this.finish(jobId).catch((err) => this.strand(jobId, err));
  }

  /** A run that ended without its end stored (the store failed): reported, and the job kept to be tried again. */
  private strand(jobId: string, err: unknown): void {
    const error = OmrError.from(err);
    const retried = !this.closed && this.jobs.find(jobId)?.job.status === 'processing';
    if (retried) this.stranded.add(jobId);
    this.warn(error.code, `Job ${jobId} could not record how its run ended: ${error.message}${retried ? ' It is run again on the account’s next request once the store works.' : ''}`);
  }

  /** A run ended early: canceled between pages, or failed (credits reverted either way). */
  private async stop(jobId: string, err: unknown): Promise<void> {
    const error = OmrError.from(err);
    // Resumes on the next open, unless the page itself is at fault: it would only crash or hang again.
    if (this.closed && !PAGE_AT_FAULT.has(error.code)) return;
    const record = this.jobs.find(jobId);
    if (!record || isTerminal(record.job)) return;
    if (error.code === 'OMR_JOB_CANCELED') {
      this.cancels.delete(jobId);
      await this.apply(jobId, { type: 'cancel', runStopped: true });
    } else {
      await this.apply(jobId, { type: 'fail', code: error.code, message: error.message });
    }
  }

  /**
   * Resumes a job found `processing` when the client opens. Only a job
   * stored while a page was being read was cut short by a crash, and counts
   * as an interruption; a queued job, or one a graceful close stopped (it
   * stores its jobs as queued), just takes its place again.
   */
  private async resume(record: JobRecord): Promise<void> {
    const id = record.job.id;
    if (isRecognizing(record.job)) {
      const attempts = (record.attempts ?? 0) + 1;
      if (attempts > MAX_ATTEMPTS) {
        await this.apply(id, { type: 'fail', code: 'WORKER_CRASHED', message: `Job ${id} was interrupted ${attempts} times while a page was being read, and was stopped.` });
        return;
      }
      await this.jobs.update(id, (r) => ({ ...r, attempts }));
    }
    await this.proceed(record);
  }

  /**
   * A `processing` job with no run behind it goes on: to its finishing
   * stages where its result is stored, else back in the queue to be read.
   */
  private async proceed(record: JobRecord): Promise<void> {
    const id = record.job.id;
    const finishing = record.job.progress?.key === 'OMR_ASSEMBLING' || record.job.progress?.key === 'OMR_CREATING_SCORE';
    if (finishing && (await this.store.get('results', id))) {
      void this.finishInBackground(id);
      return;
    }
    await this.apply(id, { type: 'requeue' });
    this.enqueue(id);
  }

  /** Live progress; none once the client is closing, so a page given up by `close` stays queued in the store. */
  private async progress(jobId: string, progress: JobProgress): Promise<void> {
    await this.jobs.update(jobId, (r) => (r.job.status === 'processing' && !this.closed ? { ...r, ...transition(r, { type: 'progress', progress }) } : r));
  }

  private async apply(jobId: string, event: JobEvent): Promise<JobRecord> {
    return this.mutate(jobId, (r) => this.machine(r, event));
  }

  /**
   * Every change that can move credits: what a job no longer owes (it failed
   * or was canceled) goes back to the account as the change is stored.
   */
  private async mutate(jobId: string, change: (record: JobRecord) => JobRecord | Promise<JobRecord>): Promise<JobRecord> {
    let refund = 0;
    const record = await this.jobs.update(jobId, async (current) => {
      const next = await change(current);
      refund = Math.max(0, current.charged - next.charged);
      return next;
    });
    if (refund) {
      // The change is stored: the refund stands in memory even if its write fails, and the next write keeps it.
      await this.ledger.refund(refund).catch((err) => this.warn(OmrError.from(err).code, `Refunding ${refund} credit(s) for job ${jobId} could not be stored yet: ${OmrError.from(err).message}`));
    }
    return record;
  }

  /** Runs the pure machine on a record; the record keeps its bookkeeping. */
  private machine(record: JobRecord, event: JobEvent): JobRecord {
    const next = transition({ job: record.job, charged: record.charged }, event);
    return next.job === record.job && next.charged === record.charged ? record : { ...record, ...next };
  }

  // -------------------------------------------------------------------------
  // Helpers

  private async readFile(file: JobFileInput, label: string): Promise<ReadFile> {
    if (typeof file !== 'object' || file === null) throw new OmrError('INVALID_ARGUMENT', `${label} must be an object with file, filename and mimeType.`);
    const filename = file.filename ?? '';
    const data = await fileBytes(file.file, filename || label);
    const type = detectFileType({ filename: filename || undefined, data, mimeType: file.mimeType });
    if (type === 'musicxml' || type === 'mxl') {
      throw new OmrError('UNSUPPORTED_FILE_TYPE', `${filename || label} is already a score (${type}); import it with importScore instead of recognising it.`);
    }
    const mimeType = MIME_TYPES[type];
    // A document whose pages cannot be counted (a damaged or encrypted PDF), or that has more than are
    // read, is refused now with the reader's error, before any credit is charged for it: taken for
    // one page, it would be charged for what it is not.
    const pages = await this.pageCount({ filename: filename || `${label}.${type}`, data, mimeType });
    return { filename, data, mimeType, size: data.length, pages };
  }

  /**
   * Pages of a file to recognise. A PDF, TIFF or HEIF file's structure is
   * read by the parser (a worker, where the client has one) rather than the
   * recognition pool, so adding a file never waits behind recognitions;
   * other images are one page, told without reading them.
   */
  private pageCount(file: InputFile): Promise<number> {
    return MULTI_PAGE_TYPES.has(detectFileType(file)) ? this.parser.countPages(file) : countPages(file);
  }

  private async fileData(jobId: string, index: number): Promise<Uint8Array> {
    const data = await this.store.get('blobs', fileKey(jobId, index));
    if (!data) throw new OmrError('INTERNAL_ERROR', `The stored file ${index} of job ${jobId} is missing from the store.`, { status: 500 });
    return data;
  }

  private async result(jobId: string): Promise<ResultRecord> {
    const result = await this.store.get('results', jobId);
    if (!result) throw new OmrError('INTERNAL_ERROR', `The stored result of job ${jobId} is missing from the store.`, { status: 500 });
    return result;
  }

  private async erase(record: JobRecord): Promise<void> {
    const id = record.job.id;
    for (const key of await this.store.keys('blobs', `${id}:`)) await this.store.delete('blobs', key);
    await this.store.delete('results', id);
  }

  /**
   * A job whose record was damaged: its files and result follow the record
   * into the store's quarantine, kept for a person to look at instead of
   * lingering unreachable; the ledger refunds what it held.
   */
  private async setAside(jobId: string, problem: string): Promise<void> {
    for (const key of await this.store.keys('blobs', `${jobId}:`)) await this.store.quarantine('blobs', key);
    await this.store.quarantine('results', jobId);
    this.warn('DAMAGED_RECORD', `The record of job ${jobId} was damaged (${problem}); it was moved to the store's quarantine with its files and result, and the job no longer lists.`);
  }

  private warn(code: string, message: string): void {
    (this.options.onWarning ?? warnOnConsole)({ code, message });
  }

  private view(jobId: string): Job {
    return structuredClone(this.jobs.get(jobId).job);
  }

  private now(): string {
    return this.clock().toISOString();
  }

  private tooManyPages(pages: number): OmrError {
    return new OmrError('OMR_TOO_MANY_PAGES', `A job may have at most ${this.maxPages} pages (maxPages); these files hold ${pages}. Split the score into several jobs.`);
  }

  private assertOpen(): void {
    if (this.closed) throw new OmrError('INTERNAL_ERROR', 'This client is closed; create a new one.', { status: 503 });
  }
}

function warnOnConsole(warning: EngineWarning): void {
  console.warn(`scoresight: ${warning.code}: ${warning.message}`);
}

/** An uploaded file, read and checked: its bytes and what the job record keeps of it. */
type ReadFile = InputFile & FileMeta;

/** File types that may hold several pages, counted by reading their structure. */
const MULTI_PAGE_TYPES: ReadonlySet<FileType> = new Set<FileType>(['pdf', 'tiff', 'heic']);

/** Page images every browser shows as they are: returned as uploaded rather than re-encoded. */
const BROWSER_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** Where each finished page stage puts the progress, within the page. */
const STAGE_PROGRESS: Record<PageStage, [JobProgress['key'], number]> = {
  prepared: ['OMR_DETECTING_STAVES', 0.1],
  staves: ['OMR_READING_NOTES', 0.25],
  symbols: ['OMR_READING_NOTES', 0.8],
  assembled: ['OMR_READING_NOTES', 1],
};

const PROGRESS_TEXT: Record<string, string> = {
  OMR_DETECTING_STAVES: 'Detecting staves',
  OMR_READING_NOTES: 'Reading notes',
};

/** Pages take 5–90 % of the bar, in proportion. */
function pageProgress(key: JobProgress['key'], page: number, total: number, within: number): JobProgress {
  const pages = Math.max(total, page + 1);
  const percent = Math.round((5 + (85 * (page + within)) / pages) * 10) / 10;
  return { percent, text: `${PROGRESS_TEXT[key] ?? 'Working'} on page ${page + 1} of ${pages}`, key, current: page + 1, total: pages };
}

function pagesOf(files: readonly { pages: number }[]): number {
  return files.reduce((n, f) => n + f.pages, 0);
}

function fileKey(jobId: string, index: number): string {
  return `${jobId}:file:${String(index).padStart(4, '0')}`;
}

function thumbnailKey(jobId: string): string {
  return `${jobId}:thumbnail`;
}

/** After erasure only the stripped record stays: sizes, types and counts, no names. */
function strip(files: JobRecord['files']): JobRecord['files'] {
  return files.map((f) => ({ ...f, filename: '' }));
}

function canceled(jobId: string): OmrError {
  return new OmrError('OMR_JOB_CANCELED', `Job ${jobId} was canceled.`);
}

function expired(job: Job): OmrError {
  return new OmrError('OMR_JOB_EXPIRED', `Job ${job.id}'s files and results were erased on ${job.retention?.expiredDate}.`);
}

function validateCreateBody(body: CreateJobBody): void {
  const bad = (message: string) => {
    throw new OmrError('INVALID_ARGUMENT', message);
  };
  if (typeof body !== 'object' || body === null) bad('The job body must be an object.');
  if (body.output !== undefined && body.output !== 'library' && body.output !== 'musicxml') bad(`output must be "library" or "musicxml", got ${JSON.stringify(body.output)}.`);
  if (body.interactiveSteps !== undefined && (!Array.isArray(body.interactiveSteps) || body.interactiveSteps.some((s) => typeof s !== 'string'))) {
    bad('interactiveSteps must be an array of step names, such as ["details"].');
  }
  if (body.locales !== undefined && (!Array.isArray(body.locales) || !body.locales.every(isLanguageTag))) {
    bad('locales must be an array of BCP 47 language tags, such as ["de", "en"].');
  }
  if (body.files !== undefined && !Array.isArray(body.files)) bad('files must be an array of { file, filename, mimeType }.');
  if (body.idempotencyKey !== undefined && (typeof body.idempotencyKey !== 'string' || body.idempotencyKey.length === 0 || body.idempotencyKey.length > 255)) {
    bad('idempotencyKey must be a non-empty string of at most 255 characters.');
  }
}

/** Random identifiers: `job_…`, `score_…`; `getRandomValues` works where `randomUUID` needs a secure context. */
export function newId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `${prefix}_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The languages a job's text is read in: the reviewed main language first, then the declared locales. */
function jobLocales(record: JobRecord): string[] {
  const locales = [...(record.mainLanguage ? [record.mainLanguage] : []), ...record.job.locales];
  return [...new Set(locales)];
}
