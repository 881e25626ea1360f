/**
 * The service's rate-limit headers, as the adapter last saw them. Every
 * response carries them, so the state is always as fresh as the last call.
 */

export interface RateLimit {
  /** Requests allowed in the window (`X-RateLimit-Limit`). */
  limit: number;
  /** Requests left in the window; negative once over quota (`X-RateLimit-Remaining`). */
  remaining: number;
  /** When the window resets, UTC epoch seconds (`X-RateLimit-Reset`). */
  reset: number;
}

/** The three headers, or `undefined` when a response lacks any of them (a proxy's error page, say). */
export function readRateLimit(headers: Headers): RateLimit | undefined {
  const limit = integer(headers.get('x-ratelimit-limit'));
  const remaining = integer(headers.get('x-ratelimit-remaining'));
  const reset = integer(headers.get('x-ratelimit-reset'));
  return limit === undefined || remaining === undefined || reset === undefined ? undefined : { limit, remaining, reset };
}

/** Milliseconds until the window resets (0 when it already has). */
export function msUntilReset(rateLimit: RateLimit, now = Date.now()): number {
  return Math.max(0, rateLimit.reset * 1000 - now);
}

function integer(value: string | null): number | undefined {
  if (value === null || !/^\s*-?\d+\s*$/.test(value)) return undefined;
  return Number(value);
}
