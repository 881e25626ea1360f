/**
 * A bound on the request-body bytes the server holds in memory at once,
 * over all requests together. Each body is buffered whole (it is JSON with
 * a Base64 file inside), so without a bound a crowd of simultaneous uploads
 * could take any amount of memory. A request reserves its declared length
 * before reading (or its bytes as they arrive, without a Content-Length)
 * and keeps the reservation until it is answered, since the parsed body and
 * the decoded file live that long. One that does not fit is refused with
 * 503 `SERVICE_UNAVAILABLE` and `Retry-After`, never queued: a refused
 * client retries, a queued one would still hold its connection.
 */
import { OmrError } from '../errors.js';

/** Seconds a client refused for want of upload room is asked to wait (`Retry-After`). */
export const UPLOAD_RETRY_AFTER_SECONDS = 5;

export class UploadBudget {
  private used = 0;
  private peak = 0;

  /** `capacity`: the most body bytes held at once. */
  constructor(readonly capacity: number) {}

  /** Bytes reserved now. */
  get held(): number {
    return this.used;
  }

  /** The most reserved at once so far. */
  get peakHeld(): number {
    return this.peak;
  }

  /** A reservation for one request, empty until it grows. */
  open(): UploadReservation {
    let mine = 0;
    return {
      grow: (bytes) => {
        if (bytes <= mine) return;
        const more = bytes - mine;
        if (this.used + more > this.capacity) throw busy(this.capacity);
        this.used += more;
        this.peak = Math.max(this.peak, this.used);
        mine = bytes;
      },
      release: () => {
        this.used -= mine;
        mine = 0;
      },
    };
  }
}

export interface UploadReservation {
  /** Makes the reservation `bytes` in all; throws 503 `SERVICE_UNAVAILABLE` when that does not fit. */
  grow(bytes: number): void;
  /** Gives everything back (idempotent). */
  release(): void;
}

function busy(capacity: number): OmrError {
  const mib = (capacity / 1024 / 1024).toFixed(0);
  return new OmrError(
    'SERVICE_UNAVAILABLE',
    `The server is receiving as many uploads as it holds at once (${mib} MiB of request bodies); retry after ${UPLOAD_RETRY_AFTER_SECONDS} s (Retry-After).`,
  );
}
