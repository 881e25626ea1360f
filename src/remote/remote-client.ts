/**
 * The hosted service behind the one client interface: every method of
 * `ScoreSightClient` as the spec's HTTP call, taking and returning exactly
 * what the local engine does, so switching between them is one line:
 *
 *   const client = createRemoteClient({ baseUrl: 'https://omr.example.com/v2', token });
 *   // const client = createClient();   // the same calls, on this machine
 *
 * Works wherever `fetch` does (browsers, Node 18+, workers).
 */
import type { CallOptions, ScoreSightClient } from '../jobs/client.js';
import { EXPORT_EXTENSIONS, type AddFileResult, type Capabilities, type CreateJobBody, type DetailsSubmission, type Download, type ImportScoreBody, type ImportScoreResult, type Job, type JobFileInput, type JobPage, type LibraryScore, type ListJobsQuery, type Task } from '../jobs/types.js';
import { Transport, jsonBody, type HttpResponse } from './http.js';
import type { RateLimit } from './rate-limit.js';
import { dispositionFilename, nextLink, wireData, wireFile } from './wire.js';

export type { RateLimit } from './rate-limit.js';

export interface RemoteClientOptions {
  /** The service's base URL, version prefix included, e.g. `https://omr.example.com/v2`. */
  baseUrl: string;
  /** Personal access token or OAuth 2.0 access token. Only `getCapabilities` works without one. */
  token?: string;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
  /**
   * Per request, in milliseconds; `getJob` adds its long-poll wait on top.
   * Default 30 s. Uploads of large files over slow links may need more.
   */
  timeoutMs?: number;
  /**
   * How long one call may wait in all for the rate-limit window to reset
   * (`API_RATE_LIMIT_EXCEEDED`) and try again, in milliseconds. Default 0:
   * the call fails at once and `rateLimit.reset` tells when to come back,
   * since the service's window is an hour and a hidden wait that long
   * would surprise an interactive caller. Batch jobs can pass up to an hour.
   */
  rateLimitRetryBudgetMs?: number;
}

export type RemoteClient = ScoreSightClient & {
  /** The rate-limit headers of the latest response (`undefined` before the first). */
  readonly rateLimit: RateLimit | undefined;
  /** Every page of the job list, newest first, following the `Link: rel="next"` header. */
  listAllJobs(query?: Omit<ListJobsQuery, 'cursor'>, options?: CallOptions): AsyncGenerator<JobPage, void, undefined>;
};

export const DEFAULT_TIMEOUT_MS = 30_000;

export function createRemoteClient(options: RemoteClientOptions): RemoteClient {
  const http = new Transport({
    baseUrl: options.baseUrl,
    ...(options.token !== undefined ? { token: options.token } : {}),
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    rateLimitRetryBudgetMs: options.rateLimitRetryBudgetMs ?? 0,
  });
  const job = (id: string, rest = '') => `/omr/jobs/${encodeURIComponent(id)}${rest}`;

  const download = async (path: string, fallbackName: string, signal?: AbortSignal): Promise<Download> => {
    const response = await http.send({ method: 'GET', path, signal });
    return {
      data: response.body,
      contentType: response.headers.get('content-type')?.split(';')[0]?.trim() || 'application/octet-stream',
      filename: dispositionFilename(response.headers.get('content-disposition')) ?? fallbackName,
    };
  };

  const client: RemoteClient = {
    get rateLimit() {
      return http.rateLimit;
    },

    getCapabilities(call = {}) {
      return http.json<Capabilities>({ method: 'GET', path: '/omr/capabilities', anonymous: !options.token, signal: call.signal });
    },

    async createJob(body: CreateJobBody = {}, call = {}) {
      const files = Array.isArray(body?.files) ? await Promise.all(body.files.map((file, i) => wireFile(file, `files[${i}]`))) : body?.files;
      return http.json<Job>({ method: 'POST', path: '/omr/jobs', body: files === undefined ? body : { ...body, files }, signal: call.signal });
    },

    async addJobFile(jobId: string, file: JobFileInput, call = {}) {
      return http.json<AddFileResult>({ method: 'POST', path: job(jobId, '/files'), body: await wireFile(file, 'file'), signal: call.signal });
    },

    startJob(jobId, call = {}) {
      return http.json<Job>({ method: 'POST', path: job(jobId, '/start'), signal: call.signal });
    },

    async getJob(jobId, { wait = 0, signal } = {}) {
      // As on the local engine, the signal ends the long-poll early with the job as it is then.
      if (wait !== 0 && !signal?.aborted) {
        try {
          return await http.json<Job>({ method: 'GET', path: job(jobId), query: { wait }, signal, extraTimeoutMs: Math.max(0, Number(wait) || 0) * 1000 });
        } catch (err) {
          if (!signal?.aborted) throw err;
        }
      }
      return http.json<Job>({ method: 'GET', path: job(jobId) });
    },

    async listJobs(query = {}, call = {}) {
      return jobPage(await http.send({ method: 'GET', path: '/omr/jobs', query: { ...query }, signal: call.signal }));
    },

    async *listAllJobs(query = {}, call = {}) {
      let response = await http.send({ method: 'GET', path: '/omr/jobs', query: { ...query, cursor: undefined }, signal: call.signal });
      for (;;) {
        yield jobPage(response);
        const next = nextLink(response.headers.get('link'));
        if (!next) return;
        response = await http.send({ method: 'GET', path: new URL(next, response.url).href, signal: call.signal });
      }
    },

    submitJobStep(jobId: string, step: string, body: DetailsSubmission, call = {}) {
      return http.json<Job>({ method: 'POST', path: job(jobId, `/steps/${encodeURIComponent(step)}`), body: body ?? {}, signal: call.signal });
    },

    cancelJob(jobId, call = {}) {
      return http.json<Job>({ method: 'POST', path: job(jobId, '/cancel'), signal: call.signal });
    },

    getJobFile(jobId, index, call = {}) {
      return download(job(jobId, `/files/${encodeURIComponent(String(index))}`), `page-${Number(index) + 1}`, call.signal);
    },

    exportJob(jobId, format, call = {}) {
      const extension = EXPORT_EXTENSIONS[format as keyof typeof EXPORT_EXTENSIONS] ?? format;
      return download(job(jobId, `/exports/${encodeURIComponent(format)}`), `score.${extension}`, call.signal);
    },

    deleteJob(jobId, call = {}) {
      return http.json<Job>({ method: 'DELETE', path: job(jobId), signal: call.signal });
    },

    async importScore(body: ImportScoreBody, call = {}) {
      const data = await wireData(body?.data, body?.filename || 'data');
      const response = await http.send({ method: 'POST', path: '/scores', body: { ...body, data, dataEncoding: 'base64' }, signal: call.signal });
      const parsed = jsonBody<unknown>(response, 'POST /scores');
      // 202: the PDF goes through OMR; follow the task. Otherwise the score is ready.
      if (response.status === 202) return { status: 202, task: parsed as Task };
      const score = parsed as LibraryScore;
      return {
        status: 200,
        score,
        revision: response.headers.get('x-service-score-revision') ?? score.revision,
        revisionDate: response.headers.get('x-service-score-revision-date') ?? score.creationDate,
      } satisfies ImportScoreResult;
    },

    getTask(taskId, call = {}) {
      return http.json<Task>({ method: 'GET', path: `/tasks/${encodeURIComponent(taskId)}`, signal: call.signal });
    },

    getScore(scoreId, call = {}) {
      return http.json<LibraryScore>({ method: 'GET', path: `/scores/${encodeURIComponent(scoreId)}`, signal: call.signal });
    },

    exportScore(scoreId, revision, format, call = {}) {
      const path = `/scores/${encodeURIComponent(scoreId)}/revisions/${encodeURIComponent(revision)}/${encodeURIComponent(format)}/task`;
      return http.json<Task>({ method: 'POST', path, signal: call.signal });
    },

    async close() {
      http.close();
    },
  };
  return client;
}

/** A list response: the jobs (a bare array, or `{ jobs }`) and the cursor of the `Link: rel="next"` page. */
function jobPage(response: HttpResponse): JobPage {
  const body = jsonBody<Job[] | { jobs?: Job[] }>(response, 'GET /omr/jobs');
  const jobs = Array.isArray(body) ? body : (body?.jobs ?? []);
  const next = nextLink(response.headers.get('link'));
  const cursor = next ? new URL(next, response.url).searchParams.get('cursor') : null;
  return { jobs, ...(cursor ? { nextCursor: cursor } : {}) };
}
