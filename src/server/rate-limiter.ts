/**
 * The service's rate limit: a fixed window per key (an account, or an IP
 * address for requests without a token) that starts with the key's first
 * request and resets `windowMs` later. Requests over the limit still count,
 * so `remaining` goes negative, as the spec allows.
 */

export interface RateLimitState {
  limit: number;
  /** May be negative when over quota. */
  remaining: number;
  /** UTC epoch seconds when the window resets. */
  reset: number;
  exceeded: boolean;
}

/** Above this many keys, windows that have ended are dropped (IP keys would otherwise grow without end). */
const PRUNE_ABOVE = 10_000;

export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  hit(key: string, limit: number): RateLimitState {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now >= window.resetAt) {
      if (!window && this.windows.size >= PRUNE_ABOVE) this.prune(now);
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    // Rounded up, so a client waiting until `reset` never arrives before the window has ended.
    return { limit, remaining: limit - window.count, reset: Math.ceil(window.resetAt / 1000), exceeded: window.count > limit };
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (now >= window.resetAt) this.windows.delete(key);
  }
}
