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
import type { ScoreParser } from '../workers/parse-api.js';
import type { Capabilities } from '../jobs/types.js';
import { createFileStore } from '../storage/fs-store.js';
import { createMemoryStore } from '../storage/memory-store.js';
import { DownloadSigner } from './downloads.js';
import { EraseGate } from './erase-gate.js';
import { answerPreflight, readJsonBody, sendError, sendReply, setCorsHeaders, type Reply } from './http-io.js';
import { RateLimiter, type RateLimitState } from './rate-limiter.js';
import { checkRequestBody, MAX_JSON_BODY_BYTES, type BodyKind } from './request-limits.js';
import { matchRoute, type AccountContext, type RouteContext } from './routes.js';
import { requireScope, validateTokens, type TokenEntry } from './tokens.js';
import { UPLOAD_RETRY_AFTER_SECONDS, UploadBudget, type UploadReservation } from './upload-budget.js';

/** The version prefix every path lives under. */
export const API_PREFIX = '/v2';

export interface ServerLimits {
  /** Requests per window for each account; a token's `rateLimit` overrides it. Default 7,200, as the service. */
  authenticated: number;
  /** Requests per window for each IP address without a token. Default 1,800. */
  unauthenticated: number;
  /** The rate-limit window, in milliseconds. Default one hour. */
  windowMs: number;
  /**
   * Largest body of a request that carries a file. Default: one
   * `maxFileSize` file in Base64 (4/3 larger) plus 64 KiB of JSON. Bodies
   * without a file (a details submission) are held to `MAX_JSON_BODY_BYTES`.
   */
  maxBodyBytes: number;
  /** Request-body bytes held at once over all requests; beyond, 503 with Retry-After. Default four largest bodies. */
  maxBufferedBytes: number;
  /** Time a client has to send its request headers. */
  headersTimeoutMs: number;
  /** Time a client has to send its whole request, body included (not the time to answer it: long-polls are unaffected). */
  requestTimeoutMs: number;
  /** Time an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** Connections open at once; more are closed as they arrive. */
  maxConnections: number;
}

/** Largest body of a request that carries a file: one `maxFileSize` file in Base64 plus 64 KiB of JSON. */
const MAX_FILE_BODY_BYTES = Math.ceil(MAX_FILE_SIZE / 3) * 4 + 64 * 1024;
/** Headers arrive in one packet from any real client; 20 s leaves room for a slow link without letting a trickler sit for Node's 60 s. */
export const HEADERS_TIMEOUT_MS = 20_000;
/** A 34 MiB body (the largest) in 2 minutes needs 2.3 Mbit/s; Node's default lets a slow sender hold its buffer for 5. */
export const REQUEST_TIMEOUT_MS = 120_000;
/** Idle keep-alive connections are closed after 5 s, as Node's default, named so it is not changed by accident. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Open connections at once: ample for a self-hosted service, and a bound on the sockets a crowd of idle clients can hold. */
export const MAX_CONNECTIONS = 512;
/** How often the timeouts above are checked (Node's default is 30 s, longer than the headers timeout). */
const CONNECTION_CHECK_INTERVAL_MS = 1_000;

export const DEFAULT_LIMITS: ServerLimits = {
  authenticated: 7_200,
  unauthenticated: 1_800,
  windowMs: 3_600_000,
  maxBodyBytes: MAX_FILE_BODY_BYTES,
  maxBufferedBytes: 4 * MAX_FILE_BODY_BYTES,
  headersTimeoutMs: HEADERS_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
  maxConnections: MAX_CONNECTIONS,
};

export interface OmrServerOptions {
  /** Accepted bearer tokens (see `tokens.ts` for the file format `loadTokens` reads). */
  tokens: TokenEntry[];
  /** Keeps each account's jobs in `<storeDirectory>/<account>`, so they survive a restart; memory when absent. */
  storeDirectory?: string;
  /**
   * Options for every account's local client: `pool` (shared by all; default
   * a worker pool the server owns), `parser` (shared by all; default a parse
   * worker the server owns, so that no import or page count holds the thread
   * that answers requests), `credits` (each account's starting
   * balance), `now`, `retentionDays`, `maxParallelJobs` (default 10 per
   * account), `pageTimeoutMs` and `memoryBudgetMb` (the page and memory
   * budgets of the pool the server makes), `sweepIntervalMs`…
   */
  clientOptions?: Omit<LocalClientOptions, 'store'>;
  limits?: Partial<ServerLimits>;
  /**
   * The base URL clients reach the server at, `/v2` included (behind a
   * proxy): signed download links and `Link` pages are built on it. Without
   * it a request's Host header is used only when it names this server's own
   * address (or localhost) and port, else the listening address is.
   */
  publicUrl?: string;
}

export interface ServerStats {
  /** Requests received (preflights included). */
  requests: number;
  /** Requests being answered now. */
  inFlight: number;
  /** The most answered at once. */
  peakInFlight: number;
  /** Request-body bytes held now (reserved by uploads being read or answered). */
  readonly bufferedBytes: number;
  /** The most held at once. */
  readonly peakBufferedBytes: number;
}

export interface OmrServer {
  /** Opens every account's store, then listens (port 0: any free port). Resolves with `url`. */
  listen(port?: number, host?: string): Promise<string>;
  /**
   * Graceful: stops accepting connections, answers long-polls at once with
   * the job as it is, lets requests in flight finish, then closes the
   * account clients (running jobs stay `processing` in the store and
   * resume on the next start) and the pool and parser the server made.
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
  if (limits.maxBufferedBytes < limits.maxBodyBytes) {
    throw new OmrError('INVALID_ARGUMENT', `limits.maxBufferedBytes (${limits.maxBufferedBytes}) must be at least maxBodyBytes (${limits.maxBodyBytes}), or no largest upload could ever be read.`);
  }
  const publicUrl = options.publicUrl === undefined ? undefined : publicBase(options.publicUrl);
  const limiter = new RateLimiter(limits.windowMs);
  const signer = new DownloadSigner();
  const gate = new EraseGate();
  const budget = new UploadBudget(limits.maxBufferedBytes);
  const sweepIntervalMs = options.clientOptions?.sweepIntervalMs ?? 3_600_000;
  let sweepTimer: ReturnType<typeof setInterval> | undefined;
  const clients = new Map<string, LocalClient>();
  /** One per request being answered: aborted when its caller goes away or the server closes. */
  const answering = new Set<AbortController>();
  let closing = false;
  const stats: ServerStats = {
    requests: 0,
    inFlight: 0,
    peakInFlight: 0,
    get bufferedBytes() {
      return budget.held;
    },
    get peakBufferedBytes() {
      return budget.peakHeld;
    },
  };
  let pool: RecognitionPool | undefined;
  let parser: ScoreParser | undefined;
  let server: Server | undefined;
  let url = '';
  let drained: (() => void) | undefined;
  let closed: Promise<void> | undefined;

  const shared: RouteContext['server'] = {
    signer,
    gate,
    clientOf: (account) => clients.get(account),
    async anonymousCapabilities() {
      // From the first account that answers: one whose storage fails must not hide the service's capabilities.
      let failure: unknown;
      for (const account of accounts) {
        try {
          const { costPerPage: _cost, remainingCredits: _credits, ...general } = await clients.get(account)!.getCapabilities();
          return general satisfies Capabilities;
        } catch (err) {
          failure ??= err;
        }
      }
      throw failure;
    },
  };

  async function openClients(): Promise<void> {
    const { pool: given, parser: givenParser, ...clientOptions } = options.clientOptions ?? {};
    // The pool made here holds every account's pages to the clients' page and memory budgets.
    const { pageTimeoutMs, memoryBudgetMb } = clientOptions;
    pool =
      given ??
      (await import('../workers/worker-pool.js')).createRecognitionPool({
        ...(pageTimeoutMs !== undefined ? { pageTimeoutMs } : {}),
        ...(memoryBudgetMb !== undefined ? { memoryBudgetMb } : {}),
      });
    // Uploads are read in a worker of their own: a large score or a crafted one costs that worker, never the server.
    parser = givenParser ?? (await import('../workers/parse-pool.js')).createParseWorker();
    for (const account of accounts) {
      const store = options.storeDirectory ? await createFileStore(join(options.storeDirectory, account)) : createMemoryStore();
      // The server sweeps retention itself (see sweepRetention), so that erasure waits for downloads in flight.
      clients.set(account, createClient({ maxParallelJobs: 10, ...clientOptions, sweepIntervalMs: 0, store, pool, parser }));
    }
    await Promise.all([...clients.values()].map((client) => client.ready));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    stats.requests++;
    stats.peakInFlight = Math.max(stats.peakInFlight, ++stats.inFlight);
    const stop = new AbortController();
    const upload = budget.open();
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
      sendReply(res, await route(req, res, stop.signal, upload));
    } catch (err) {
      const error = httpError(err);
      // The rest of an oversized body is never read, so this connection cannot carry another request.
      if (!req.complete) res.setHeader('Connection', 'close');
      if (error.status === 503) res.setHeader('Retry-After', String(UPLOAD_RETRY_AFTER_SECONDS));
      if (error.status === 401) res.setHeader('WWW-Authenticate', req.headers.authorization === undefined ? 'Bearer' : 'Bearer error="invalid_token"');
      sendError(res, error);
    } finally {
      // The parsed body and the file decoded from it are let go with the answer.
      upload.release();
      answering.delete(stop);
      if (--stats.inFlight === 0) drained?.();
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse, signal: AbortSignal, upload: UploadReservation): Promise<Reply> {
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
    const requested = new URL(req.url ?? '/', 'http://server');
    if (!requested.pathname.startsWith(`${API_PREFIX}/`)) throw new OmrError('NOT_FOUND', `Nothing is served at ${requested.pathname}; the interface lives under ${API_PREFIX}/.`);
    const found = matchRoute(req.method ?? 'GET', requested.pathname.slice(API_PREFIX.length));
    if (found === 'not-found') throw new OmrError('NOT_FOUND', `No endpoint ${req.method} ${requested.pathname} exists.`);
    if (found === 'method-not-allowed') throw new OmrError('METHOD_NOT_ALLOWED', `${requested.pathname} does not take ${req.method}.`);
    if (authorization !== undefined && !entry) throw unauthorized('The bearer token is not one this server knows (or the Authorization header is not "Bearer <token>").');
    const ctx: RouteContext = {
      params: found.params,
      query: requested.searchParams,
      ...(entry ? { entry, client: clients.get(entry.account)! } : {}),
      body: (kind) => readBody(req, kind, upload),
      signal,
      baseUrl: publicUrl ?? requestBase(req, url),
      server: shared,
    };
    if (found.route.anonymous) return found.route.handle(ctx);
    if (!entry) throw unauthorized('This endpoint needs a token: send Authorization: Bearer <token>.');
    requireScope(entry, 'omr');
    return found.route.handle(ctx as AccountContext);
  }

  /** A body under its size limit (small unless it carries a file), with every field within `request-limits.ts`. */
  async function readBody(req: IncomingMessage, kind: BodyKind, upload: UploadReservation): Promise<unknown> {
    const maxBytes = kind === 'details' ? Math.min(MAX_JSON_BODY_BYTES, limits.maxBodyBytes) : limits.maxBodyBytes;
    const body = await readJsonBody(req, maxBytes, upload);
    checkRequestBody(kind, body);
    return body;
  }

  /** Erases expired jobs account by account, each while none of that account's downloads runs. */
  async function sweepRetention(): Promise<number> {
    let erased = 0;
    for (const [account, client] of clients) erased += await gate.erase(account, () => client.sweepRetention());
    return erased;
  }

  return {
    async listen(port = 0, host = '127.0.0.1') {
      if (closed) throw new OmrError('INVALID_ARGUMENT', 'This server was closed; create a new one.');
      if (server) throw new OmrError('INVALID_ARGUMENT', 'This server is already listening; create another to listen twice.');
      const http = createServer(
        {
          headersTimeout: limits.headersTimeoutMs,
          requestTimeout: limits.requestTimeoutMs,
          keepAliveTimeout: limits.keepAliveTimeoutMs,
          connectionsCheckingInterval: Math.min(CONNECTION_CHECK_INTERVAL_MS, limits.headersTimeoutMs),
        },
        (req, res) => void handle(req, res),
      );
      http.maxConnections = limits.maxConnections;
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
      if (sweepIntervalMs > 0) {
        sweepTimer = setInterval(() => void sweepRetention().catch((err) => console.error('scoresight server: retention sweep failed', err)), sweepIntervalMs);
        sweepTimer.unref();
      }
      return url;
    },

    close() {
      closed ??= (async () => {
        closing = true;
        clearInterval(sweepTimer);
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
        if (!options.clientOptions?.parser) await parser?.close();
      })();
      return closed;
    },

    get url() {
      return url;
    },

    stats,

    sweepRetention,
  };
}

/** `publicUrl` as links are built on it: an absolute http(s) URL, without a trailing slash. */
function publicBase(publicUrl: string): string {
  let parsed: URL;
  try {
    parsed = new URL(publicUrl);
  } catch {
    throw new OmrError('INVALID_ARGUMENT', `publicUrl ${JSON.stringify(publicUrl)} is not an absolute URL; give one such as https://omr.example.org/v2.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new OmrError('INVALID_ARGUMENT', `publicUrl must be an http or https URL, got ${parsed.protocol}.`);
  if (parsed.search || parsed.hash || parsed.username || parsed.password) throw new OmrError('INVALID_ARGUMENT', 'publicUrl must have no query, fragment or credentials.');
  return parsed.href.replace(/\/+$/, '');
}

/** A Host header is a host name or address and a port, nothing else. */
const HOST_HEADER = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;

/**
 * The base URL for links in an answer without `publicUrl`: the Host the
 * client used when it names the address and port the connection arrived on
 * (or localhost on that port), since then the client reached this very
 * server by it; otherwise the listening URL. A forged Host can thus never
 * put another site's name into a signed download link.
 */
function requestBase(req: IncomingMessage, listening: string): string {
  const host = req.headers.host;
  const socket = req.socket;
  if (!host || !HOST_HEADER.test(host) || !socket.localAddress || !socket.localPort) return listening;
  const parsed = new URL(`http://${host}`);
  const port = parsed.port === '' ? 80 : Number(parsed.port);
  const name = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const local = socket.localAddress.replace(/^::ffff:(?=\d+\.)/, '').toLowerCase();
  const own = name === 'localhost' || name === local || name === new URL(listening).hostname.replace(/^\[|\]$/g, '');
  return own && port === socket.localPort ? `http://${parsed.host}${API_PREFIX}` : listening;
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
