/**
 * One HTTP exchange with the service, as the adapter needs it: the bearer
 * token, a finite timeout, the caller's AbortSignal, the rate-limit headers
 * recorded from every response, failures as `OmrError`s, and a wait for the
 * rate-limit window to reset where the caller allowed one.
 */
import { OmrError } from '../errors.js';
import { errorFromResponse } from './errors.js';
import { msUntilReset, readRateLimit, type RateLimit } from './rate-limit.js';

export interface TransportOptions {
  /** The service's `{base_url}`, version prefix included. */
  baseUrl: string;
  token?: string;
  fetch: typeof fetch;
  timeoutMs: number;
  rateLimitRetryBudgetMs: number;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** A path below the base URL (`/omr/jobs`), or an absolute URL on the same origin (a `Link` target). */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** Only `GET /omr/capabilities` goes without the token. */
  anonymous?: boolean;
  signal?: AbortSignal | undefined;
  /** Time the server may legitimately hold the request (a long-poll's wait), on top of the timeout. */
  extraTimeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
  /** The URL that was fetched, for resolving relative links. */
  url: string;
}

export class Transport {
  /** The rate-limit headers of the latest response that carried them. */
  rateLimit: RateLimit | undefined;
  private readonly base: URL;
  /** Stops every request and wait in flight, for `close()` (a set, not one signal with a listener per request). */
  private readonly inFlight = new Set<(reason: OmrError) => void>();
  private closed: OmrError | undefined;

  constructor(private readonly options: TransportOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new OmrError('INVALID_ARGUMENT', `baseUrl ${JSON.stringify(options.baseUrl)} is not a URL; pass the service's base URL with its version prefix, e.g. https://omr.example.com/v2.`);
    }
    if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new OmrError('INVALID_ARGUMENT', `baseUrl must be an http(s) URL, got ${base.protocol}.`);
    if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) throw new OmrError('INVALID_ARGUMENT', `timeoutMs must be a positive number of milliseconds, got ${options.timeoutMs}.`);
    base.pathname = base.pathname.replace(/\/+$/, '');
    this.base = base;
  }

  /** Every later and in-flight request rejects: the client was closed. */
  close(): void {
    this.closed ??= new OmrError('INTERNAL_ERROR', 'This client is closed; create a new one.', { status: 503 });
    for (const stop of this.inFlight) stop(this.closed);
  }

  async json<T>(request: HttpRequest): Promise<T> {
    return jsonBody<T>(await this.send(request), describe(request));
  }

  /** Sends the request, waiting out a rate limit and retrying while the caller's budget allows. */
  async send(request: HttpRequest): Promise<HttpResponse> {
    let budget = this.options.rateLimitRetryBudgetMs;
    for (;;) {
      const response = await this.attempt(request);
      if (response.status < 400) return response;
      const error = errorFromResponse(response.status, response.body, describe(request));
      // Refused before anything happened, so even a POST is safe to send again.
      const wait = error.code === 'API_RATE_LIMIT_EXCEEDED' && this.rateLimit ? msUntilReset(this.rateLimit) : Infinity;
      if (wait > budget) throw error;
      budget -= wait;
      await this.sleep(wait, request.signal);
    }
  }

  private async attempt(request: HttpRequest): Promise<HttpResponse> {
    const url = this.url(request);
    const controller = new AbortController();
    const abort = (reason: unknown) => controller.abort(reason);
    const onCaller = () => abort(aborted(request));
    this.throwIfStopped(request.signal);
    request.signal?.addEventListener('abort', onCaller, { once: true });
    this.inFlight.add(abort);
    const ms = this.options.timeoutMs + (request.extraTimeoutMs ?? 0);
    const timer = setTimeout(() => abort(new OmrError('TIMEOUT', `${describe(request)} got no complete answer within ${ms} ms; the service may be slow or unreachable. Raise timeoutMs or try again.`)), ms);
    try {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (!request.anonymous && this.options.token) headers.authorization = `Bearer ${this.options.token}`;
      if (request.body !== undefined) headers['content-type'] = 'application/json';
      const response = await this.options.fetch(url, {
        method: request.method,
        headers,
        ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
        signal: controller.signal,
      });
      // Read inside the timeout: a stalled body is as much a timeout as a stalled header.
      const body = new Uint8Array(await response.arrayBuffer());
      this.rateLimit = readRateLimit(response.headers) ?? this.rateLimit;
      return { status: response.status, headers: response.headers, body, url: url.href };
    } catch (err) {
      if (controller.signal.aborted) throw controller.signal.reason;
      throw new OmrError('SERVICE_UNAVAILABLE', `${describe(request)}: could not reach ${this.base.origin} (${(err as Error).cause ?? (err as Error).message}). Check the base URL and the network.`, { cause: err });
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onCaller);
      this.inFlight.delete(abort);
    }
  }

  private url(request: HttpRequest): URL {
    const url = /^https?:/i.test(request.path) ? new URL(request.path) : new URL(this.base.href + request.path);
    // The token goes only where the base URL points, whatever a Link header says.
    if (url.origin !== this.base.origin) {
      throw new OmrError('INTERNAL_ERROR', `The service pointed to ${url.origin}, not ${this.base.origin}; not sending the token there.`, { status: 502 });
    }
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }

  private sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    this.throwIfStopped(signal);
    return new Promise((resolve, reject) => {
      const settle = (reason?: OmrError) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onCaller);
        this.inFlight.delete(settle);
        if (reason) reject(reason);
        else resolve();
      };
      const onCaller = () => settle(new OmrError('ABORTED', 'The wait for the rate limit to reset was aborted by the signal.'));
      const timer = setTimeout(settle, ms);
      signal?.addEventListener('abort', onCaller, { once: true });
      this.inFlight.add(settle);
    });
  }

  private throwIfStopped(signal: AbortSignal | undefined): void {
    if (this.closed) throw this.closed;
    if (signal?.aborted) throw new OmrError('ABORTED', 'The request was not sent: the signal was already aborted.');
  }
}

export function jsonBody<T>(response: HttpResponse, what: string): T {
  try {
    return JSON.parse(new TextDecoder().decode(response.body)) as T;
  } catch {
    throw new OmrError('INTERNAL_ERROR', `${what} answered HTTP ${response.status} with a body that is not JSON.`, { status: 502 });
  }
}

function aborted(request: HttpRequest): OmrError {
  return new OmrError('ABORTED', `${describe(request)} was aborted by the signal.`);
}

function describe(request: HttpRequest): string {
  return `${request.method} ${request.path.replace(/\?.*$/, '')}`;
}
