/**
 * A self-hosted `/v2` Music Recognition Service on node:http: the spec's
 * endpoints over one local engine per account, all sharing one recognition
 * pool, behind bearer tokens, scopes and rate limits.
 *
 * Accounts are kept apart by construction: each has its own client and
 * store (a directory per account, or memory), so another account's job id
 * is simply not there and answers 404 like any missing one.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { OmrError } from '../errors.js';
import { MAX_FILE_SIZE } from '../jobs/file-input.js';
import { createClient, type LocalClient, type LocalClientOptions } from '../jobs/local-client.js';
import type { RecognitionPool } from '../workers/pool.js';
import type { Capabilities } from '../jobs/types.js';
import { createFileStore } from '../storage/fs-store.js';
import { createMemoryStore } from '../storage/memory-store.js';
import { DownloadSigner } from './downloads.js';
import { answerPreflight, readJsonBody, sendError, sendReply, setCorsHeaders, type Reply } from './http-io.js';
import { RateLimiter, type RateLimitState } from './rate-limiter.js';
import { matchRoute, type AccountContext, type RouteContext } from './routes.js';
import { requireScope, validateTokens, type TokenEntry } from './tokens.js';

/** The version prefix every path lives under. */
export const API_PREFIX = '/v2';

export interface ServerLimits {
  /** Requests per window for each account; a token's `rateLimit` overrides it. Default 7,200, as the service. */
  authenticated: number;
  /** Requests per window for each IP address without a token. Default 1,800. */
  unauthenticated: number;
  /** The rate-limit window, in milliseconds. Default one hour. */
  windowMs: number;
  /** Largest request body read. Default: one `maxFileSize` file in Base64 (4/3 larger) plus 64 KiB of JSON. */
  maxBodyBytes: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  authenticated: 7_200,
  unauthenticated: 1_800,
  windowMs: 3_600_000,
  maxBodyBytes: Math.ceil(MAX_FILE_SIZE / 3) * 4 + 64 * 1024,
};

export interface OmrServerOptions {
  /** Accepted bearer tokens (see `tokens.ts` for the file format `loadTokens` reads). */
  tokens: TokenEntry[];
  /** Keeps each account's jobs in `<storeDirectory>/<account>`, so they survive a restart; memory when absent. */
  storeDirectory?: string;
  /**
   * Options for every account's local client: `pool` (shared by all; default
   * a worker pool the server owns), `credits` (each account's starting
   * balance), `now`, `retentionDays`, `maxParallelJobs` (default 10 per
   * account), `sweepIntervalMs`…
   */
  clientOptions?: Omit<LocalClientOptions, 'store'>;
  limits?: Partial<ServerLimits>;
  /** The base URL clients reach the server at, `/v2` included (behind a proxy). Default: from each request's Host header. */
  publicUrl?: string;
}

export interface ServerStats {
  /** Requests received (preflights included). */
  requests: number;
  /** Requests being answered now. */
  inFlight: number;
  /** The most answered at once. */
  peakInFlight: number;
}

export interface OmrServer {
  /** Opens every account's store, then listens (port 0: any free port). Resolves with `url`. */
  listen(port?: number, host?: string): Promise<string>;
  /**
   * Graceful: stops accepting connections, answers long-polls at once with
   * the job as it is, lets requests in flight finish, then closes the
   * account clients (running jobs stay `processing` in the store and
   * resume on the next start) and the pool the server made.
   */
  close(): Promise<void>;
  /** `http://host:port/v2`, once listening. */
  readonly url: string;
  readonly stats: Readonly<ServerStats>;
  /** Erases expired `musicxml` jobs of every account now (the clients also do it on their own timer). */
  sweepRetention(): Promise<number>;
}

export function createOmrServer(options: OmrServerOptions): OmrServer {
  const tokens = new Map(validateTokens(options.tokens).map((entry) => [entry.token, entry]));
  const accounts = [...new Set([...tokens.values()].map((entry) => entry.account))];
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const limiter = new RateLimiter(limits.windowMs);
  const signer = new DownloadSigner();
  const clients = new Map<string, LocalClient>();
  /** One per request being answered: aborted when its caller goes away or the server closes. */
  const answering = new Set<AbortController>();
  let closing = false;
  const stats: ServerStats = { requests: 0, inFlight: 0, peakInFlight: 0 };
  let pool: RecognitionPool | undefined;
  let server: Server | undefined;
  let url = '';
  let drained: (() => void) | undefined;
  let closed: Promise<void> | undefined;

  const shared: RouteContext['server'] = {
    signer,
    clientOf: (account) => clients.get(account),
    async anonymousCapabilities() {
      const { costPerPage: _cost, remainingCredits: _credits, ...general } = await clients.get(accounts[0]!)!.getCapabilities();
      return general satisfies Capabilities;
    },
  };

  async function openClients(): Promise<void> {
    const { pool: given, ...clientOptions } = options.clientOptions ?? {};
    pool = given ?? (await import('../workers/worker-pool.js')).createRecognitionPool();
    for (const account of accounts) {
      const store = options.storeDirectory ? await createFileStore(join(options.storeDirectory, account)) : createMemoryStore();
      clients.set(account, createClient({ maxParallelJobs: 10, ...clientOptions, store, pool }));
    }
    await Promise.all([...clients.values()].map((client) => client.ready));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    stats.requests++;
    stats.peakInFlight = Math.max(stats.peakInFlight, ++stats.inFlight);
    const stop = new AbortController();
    answering.add(stop);
    res.on('close', () => {
      if (!res.writableFinished) stop.abort();
    });
    try {
      setCorsHeaders(res);
      if (closing) {
        stop.abort();
        res.setHeader('Connection', 'close');
      }
      if (req.method === 'OPTIONS') return answerPreflight(res);
      sendReply(res, await route(req, res, stop.signal));
    } catch (err) {
      const error = httpError(err);
      // The rest of an oversized body is never read, so this connection cannot carry another request.
      if (!req.complete) res.setHeader('Connection', 'close');
      sendError(res, error);
    } finally {
      answering.delete(stop);
      if (--stats.inFlight === 0) drained?.();
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<Reply> {
    const authorization = req.headers.authorization;
    const entry = tokens.get(/^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '');
    const limit = entry
      ? limiter.hit(`account:${entry.account}`, entry.rateLimit ?? limits.authenticated)
      : limiter.hit(`ip:${req.socket.remoteAddress}`, limits.unauthenticated);
    setRateLimitHeaders(res, limit);
    if (limit.exceeded) {
      throw new OmrError(
        'API_RATE_LIMIT_EXCEEDED',
        `Rate limit of ${limit.limit} requests per ${windowText(limits.windowMs)} exceeded ${entry ? `for account ${entry.account}` : 'for this address without a token'}; it resets at ${new Date(limit.reset * 1000).toISOString()} (X-RateLimit-Reset).`,
      );
    }
    const url = new URL(req.url ?? '/', 'http://server');
    if (!url.pathname.startsWith(`${API_PREFIX}/`)) throw new OmrError('NOT_FOUND', `Nothing is served at ${url.pathname}; the interface lives under ${API_PREFIX}/.`);
    const found = matchRoute(req.method ?? 'GET', url.pathname.slice(API_PREFIX.length));
    if (found === 'not-found') throw new OmrError('NOT_FOUND', `No endpoint ${req.method} ${url.pathname} exists.`);
    if (found === 'method-not-allowed') throw new OmrError('METHOD_NOT_ALLOWED', `${url.pathname} does not take ${req.method}.`);
    if (authorization !== undefined && !entry) throw unauthorized('The bearer token is not one this server knows (or the Authorization header is not "Bearer <token>").');
    const ctx: RouteContext = {
      params: found.params,
      query: url.searchParams,
      ...(entry ? { entry, client: clients.get(entry.account)! } : {}),
      body: () => readJsonBody(req, limits.maxBodyBytes),
      signal,
      baseUrl: options.publicUrl?.replace(/\/+$/, '') ?? `http://${req.headers.host ?? 'localhost'}${API_PREFIX}`,
      server: shared,
    };
    if (found.route.anonymous) return found.route.handle(ctx);
    if (!entry) throw unauthorized('This endpoint needs a token: send Authorization: Bearer <token>.');
    requireScope(entry, 'omr');
    return found.route.handle(ctx as AccountContext);
  }

  return {
    async listen(port = 0, host = '127.0.0.1') {
      if (closed) throw new OmrError('INVALID_ARGUMENT', 'This server was closed; create a new one.');
      if (server) throw new OmrError('INVALID_ARGUMENT', 'This server is already listening; create another to listen twice.');
      const http = createServer((req, res) => void handle(req, res));
      server = http;
      await openClients();
      await new Promise<void>((resolve, reject) => {
        http.once('error', reject);
        http.listen(port, host, () => {
          http.off('error', reject);
          resolve();
        });
      });
      const address = http.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      url = `http://${shown === '0.0.0.0' || shown === '[::]' ? 'localhost' : shown}:${address.port}${API_PREFIX}`;
      return url;
    },

    close() {
      closed ??= (async () => {
        closing = true;
        for (const stop of answering) stop.abort();
        if (server?.listening) {
          const stopped = new Promise<void>((resolve) => server!.close(() => resolve()));
          server.closeIdleConnections();
          if (stats.inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
          server.closeAllConnections(); // only idle keep-alive sockets are left
          await stopped;
        }
        await Promise.allSettled([...clients.values()].map((client) => client.close()));
        if (!options.clientOptions?.pool) await pool?.close();
      })();
      return closed;
    },

    get url() {
      return url;
    },

    stats,

    async sweepRetention() {
      let erased = 0;
      for (const client of clients.values()) erased += await client.sweepRetention();
      return erased;
    },
  };
}

function setRateLimitHeaders(res: ServerResponse, limit: RateLimitState): void {
  res.setHeader('X-RateLimit-Limit', String(limit.limit));
  res.setHeader('X-RateLimit-Remaining', String(limit.remaining));
  res.setHeader('X-RateLimit-Reset', String(limit.reset));
}

function unauthorized(message: string): OmrError {
  return new OmrError('UNAUTHORIZED', message);
}

function windowText(ms: number): string {
  return ms === 3_600_000 ? 'hour' : `${ms / 1000} s`;
}

/** What the caller sees: our errors as they are; anything else logged here and answered without internals. */
function httpError(err: unknown): OmrError {
  if (err instanceof OmrError) return err;
  console.error('scoresight server: unexpected error', err);
  return new OmrError('INTERNAL_ERROR', 'The server failed unexpectedly; its log has the details.');
}
