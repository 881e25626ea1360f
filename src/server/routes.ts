/**
 * The spec's endpoints, each a thin translation between HTTP and one call
 * of the caller's account client: path and query in, the client's object
 * out as JSON, unchanged, so the server answers exactly what the local
 * engine would.
 */
import { OmrError } from '../errors.js';
import type { LocalClient } from '../jobs/local-client.js';
import type { Capabilities, ExportFormat, ImportScoreBody, ListJobsQuery } from '../jobs/types.js';
import { exportFile, type DownloadSigner } from './downloads.js';
import type { EraseGate } from './erase-gate.js';
import type { Reply } from './http-io.js';
import type { BodyKind } from './request-limits.js';
import { requireScope, type TokenEntry } from './tokens.js';

export interface RouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  /** The caller's token entry and account client; absent on anonymous calls. */
  entry?: TokenEntry;
  client?: LocalClient;
  /** The JSON body, read under the size limit of its `kind` and checked against the field limits of `request-limits.ts`. */
  body(kind: BodyKind): Promise<unknown>;
  /** Aborted when the caller disconnects or the server shuts down. */
  signal: AbortSignal;
  /** The base URL clients reach this server at, `/v2` included. */
  baseUrl: string;
  server: {
    signer: DownloadSigner;
    /** Downloads of a job's files and results run wholly before or wholly after its erasure. */
    gate: EraseGate;
    clientOf(account: string): LocalClient | undefined;
    anonymousCapabilities(): Promise<Capabilities>;
  };
}

/** A call made with a valid token (with the `omr` scope). */
export interface AccountContext extends RouteContext {
  entry: TokenEntry;
  client: LocalClient;
}

interface RouteBase {
  method: 'GET' | 'POST' | 'DELETE';
  /** Segments; `:name` captures one. */
  path: string;
}

export type Route =
  /** Answers without a token (a token, when sent, must still be valid). */
  | (RouteBase & { anonymous: true; handle(ctx: RouteContext): Promise<Reply> })
  | (RouteBase & { anonymous?: false; handle(ctx: AccountContext): Promise<Reply> });

const ok = (json: unknown, status = 200, headers?: Record<string, string>): Reply => ({ status, json, ...(headers ? { headers } : {}) });

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: '/omr/capabilities',
    anonymous: true,
    // With a token the account-scoped fields (credits) come too.
    handle: async (ctx) => ok(ctx.client ? await ctx.client.getCapabilities() : await ctx.server.anonymousCapabilities()),
  },
  {
    method: 'POST',
    path: '/omr/jobs',
    async handle(ctx) {
      const body = (await ctx.body('createJob')) as { output?: unknown; autoStart?: unknown; files?: unknown } | undefined;
      if ((body?.output ?? 'library') === 'library') requireScope(ctx.entry, 'scores');
      const job = await ctx.client.createJob(body as never);
      // 202 for a one-shot job, as the spec says; 201 for a draft, a resource created and waiting.
      return ok(job, body?.autoStart === true ? 202 : 201);
    },
  },
  {
    method: 'GET',
    path: '/omr/jobs',
    async handle(ctx) {
      const query = listQuery(ctx.query);
      const page = await ctx.client.listJobs(query);
      if (!page.nextCursor) return ok(page.jobs);
      const next = new URL(`${ctx.baseUrl}/omr/jobs`);
      for (const [key, value] of Object.entries({ ...query, cursor: page.nextCursor })) if (value !== undefined) next.searchParams.set(key, String(value));
      return ok(page.jobs, 200, { Link: `<${next.href}>; rel="next"` });
    },
  },
  {
    method: 'GET',
    path: '/omr/jobs/:job',
    handle: async (ctx) => ok(await ctx.client.getJob(ctx.params.job!, { wait: queryInteger(ctx.query, 'wait') ?? 0, signal: ctx.signal })),
  },
  {
    method: 'DELETE',
    path: '/omr/jobs/:job',
    handle: async (ctx) => ok(await ctx.server.gate.erase(ctx.entry.account, () => ctx.client.deleteJob(ctx.params.job!))),
  },
  {
    method: 'POST',
    path: '/omr/jobs/:job/files',
    async handle(ctx) {
      return ok(await ctx.client.addJobFile(ctx.params.job!, (await ctx.body('addFile')) as never));
    },
  },
  {
    method: 'GET',
    path: '/omr/jobs/:job/files/:index',
    async handle(ctx) {
      const index = fileIndex(ctx.params.job!, ctx.params.index!);
      return { status: 200, file: await ctx.server.gate.download(ctx.entry.account, () => ctx.client.getJobFile(ctx.params.job!, index)) };
    },
  },
  {
    method: 'POST',
    path: '/omr/jobs/:job/start',
    handle: async (ctx) => ok(await ctx.client.startJob(ctx.params.job!)),
  },
  {
    method: 'POST',
    path: '/omr/jobs/:job/steps/:step',
    handle: async (ctx) => ok(await ctx.client.submitJobStep(ctx.params.job!, ctx.params.step!, (await ctx.body('details')) as never)),
  },
  {
    method: 'POST',
    path: '/omr/jobs/:job/cancel',
    handle: async (ctx) => ok(await ctx.client.cancelJob(ctx.params.job!)),
  },
  {
    method: 'GET',
    path: '/omr/jobs/:job/exports/:format',
    // Any format from the path goes to the engine unchecked: it checks the job first and then the
    // format against what the job offers, answering OMR_FORMAT_NOT_AVAILABLE as the service does.
    handle: async (ctx) => ({ status: 200, file: await ctx.server.gate.download(ctx.entry.account, () => ctx.client.exportJob(ctx.params.job!, ctx.params.format! as ExportFormat)) }),
  },
  {
    method: 'POST',
    path: '/scores',
    async handle(ctx) {
      requireScope(ctx.entry, 'scores');
      const answer = await ctx.client.importScore((await ctx.body('importScore')) as ImportScoreBody);
      if (answer.status === 202) return ok(answer.task, 202);
      return ok(answer.score, 200, { 'x-service-score-revision': answer.revision, 'x-service-score-revision-date': answer.revisionDate });
    },
  },
  {
    method: 'GET',
    path: '/scores/:score',
    async handle(ctx) {
      requireScope(ctx.entry, 'scores');
      return ok(await ctx.client.getScore(ctx.params.score!));
    },
  },
  {
    method: 'POST',
    path: '/scores/:score/revisions/:revision/:format/task',
    async handle(ctx) {
      requireScope(ctx.entry, 'scores');
      const task = await ctx.client.exportScore(ctx.params.score!, ctx.params.revision!, ctx.params.format!);
      return ok(ctx.server.signer.publish(task, ctx.entry.account, ctx.baseUrl), 202);
    },
  },
  {
    method: 'GET',
    path: '/tasks/:task',
    async handle(ctx) {
      requireScope(ctx.entry, 'tasks.readonly');
      return ok(ctx.server.signer.publish(await ctx.client.getTask(ctx.params.task!), ctx.entry.account, ctx.baseUrl));
    },
  },
  {
    method: 'GET',
    path: '/exports/:task',
    anonymous: true,
    // The signed URL of an export task's result: the signature names the account.
    async handle(ctx) {
      const account = ctx.server.signer.verify(ctx.params.task!, ctx.query);
      const client = ctx.server.clientOf(account);
      if (!client) throw new OmrError('NOT_FOUND', `No download ${ctx.params.task} exists here.`);
      const task = await client.getTask(ctx.params.task!);
      const title = task.score ? (await client.getScore(task.score)).title : 'score';
      return { status: 200, file: exportFile(task, title) };
    },
  },
];

function listQuery(query: URLSearchParams): ListJobsQuery {
  const result: ListJobsQuery = {};
  const status = query.get('status');
  const expired = query.get('expired');
  const cursor = query.get('cursor');
  const limit = query.get('limit');
  if (status !== null) result.status = status;
  if (expired !== null) {
    if (expired !== 'true' && expired !== 'false') throw new OmrError('INVALID_ARGUMENT', `expired must be true or false, got ${JSON.stringify(expired)}.`);
    result.expired = expired === 'true';
  }
  if (cursor !== null) result.cursor = cursor;
  if (limit !== null) result.limit = queryInteger(query, 'limit');
  return result;
}

/** A non-negative integer written the one way (`7`, not `07`, `7.0`, `0x7`, ` 7` or `-0`). */
const CANONICAL_INTEGER = /^(?:0|[1-9][0-9]{0,8})$/;

/**
 * A page index of `/files/{index}`: only the canonical decimal form names a
 * page, so one page has one URL; anything else names no page (404, as an
 * index past the last page).
 */
function fileIndex(jobId: string, segment: string): number {
  if (!CANONICAL_INTEGER.test(segment)) {
    throw new OmrError('OMR_FILE_NOT_FOUND', `Job ${jobId} has no page ${JSON.stringify(segment)}: a page index is a 0-based decimal integer such as 0 or 12.`);
  }
  return Number(segment);
}

/** An integer query parameter, absent or in canonical decimal form, else 400. */
function queryInteger(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (!CANONICAL_INTEGER.test(value)) throw new OmrError('INVALID_ARGUMENT', `${name} must be a non-negative decimal integer, got ${JSON.stringify(value)}.`);
  return Number(value);
}

/** The route for a method and path (below the version prefix), or why there is none. */
export function matchRoute(method: string, path: string): { route: Route; params: Record<string, string> } | 'not-found' | 'method-not-allowed' {
  const segments = path.split('/').slice(1);
  let pathMatched = false;
  for (const route of ROUTES) {
    const pattern = route.path.split('/').slice(1);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      const segment = segments[i]!;
      if (!part.startsWith(':')) return part === segment;
      if (!segment) return false;
      params[part.slice(1)] = decodeSegment(segment);
      return true;
    });
    if (!matches) continue;
    if (route.method === method) return { route, params };
    pathMatched = true;
  }
  return pathMatched ? 'method-not-allowed' : 'not-found';
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new OmrError('INVALID_ARGUMENT', `The path segment ${JSON.stringify(segment)} is not valid percent-encoding.`);
  }
}
