/**
 * Every failure ScoreSight reports is an `OmrError`: a stable `code` to branch
 * on, the HTTP `status` the hosted service would answer with, and a message a
 * person can act on. Codes are the service's where it defines one.
 *
 * Errors cross worker boundaries and storage as plain objects
 * ({@link OmrError.toJSON} / {@link OmrError.from}), keeping their code.
 */
export type OmrErrorCode =
  // The service's codes.
  | 'OMR_JOB_NOT_DRAFT'
  | 'OMR_MIME_REQUIRED'
  | 'OMR_STEP_MISMATCH'
  | 'OMR_NOT_AWAITING_STEP'
  | 'OMR_JOB_NOT_RESUMABLE'
  | 'OMR_JOB_NOT_DONE'
  | 'OMR_JOB_NOT_CANCELLABLE'
  | 'OMR_JOB_IN_PROGRESS'
  | 'OMR_JOB_NOT_EXPIRABLE'
  | 'OMR_JOB_EXPIRED'
  | 'OMR_SCOPE_REQUIRED'
  | 'API_RATE_LIMIT_EXCEEDED'
  // The service shows a status but no code for these; the names are ours.
  | 'OMR_JOB_NOT_FOUND'
  | 'OMR_JOB_NO_FILES'
  | 'OMR_TOO_MANY_PAGES'
  | 'OMR_INSUFFICIENT_CREDITS'
  | 'OMR_FORMAT_NOT_AVAILABLE'
  | 'OMR_FILE_NOT_FOUND'
  | 'OMR_JOB_CANCELED'
  | 'SCORE_NOT_FOUND'
  | 'TASK_NOT_FOUND'
  | 'UNAUTHORIZED'
  // The caller's AbortSignal fired.
  | 'ABORTED'
  // The hosted-service adapter and the self-hosted server (src/remote, src/server).
  | 'TIMEOUT'
  | 'SERVICE_UNAVAILABLE'
  | 'SCORES_SCOPE_REQUIRED'
  | 'TASKS_SCOPE_REQUIRED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  // Input files.
  | 'CORRUPTED_FILE'
  | 'ENCRYPTED_PDF'
  | 'FILE_TOO_LARGE'
  | 'UNSUPPORTED_FILE_TYPE'
  | 'INVALID_MUSICXML'
  // Recognition.
  | 'NO_MUSIC_DETECTED'
  | 'UNSUPPORTED_TABLATURE'
  // A recognition worker died (out of memory, a crash); only its job fails.
  | 'WORKER_CRASHED'
  // A page ran past the page budget (`pageTimeoutMs`); its worker was ended and replaced, and only its job fails.
  | 'ENGINE_TIMEOUT'
  // Reading a page took the process past the memory budget (`memoryBudgetMb`); its worker was ended and replaced, and only its job fails.
  | 'ENGINE_OUT_OF_MEMORY'
  // The inference backend asked for (env.backend 'native': onnxruntime-node) cannot be loaded here.
  | 'BACKEND_UNAVAILABLE'
  // The job store failed (permissions, a full disk: 507); only the account it belongs to is affected.
  | 'STORAGE_FAILED'
  // Anything else; the message says what happened.
  | 'INVALID_ARGUMENT'
  | 'INTERNAL_ERROR';

/** Serialised form, as it crosses a worker boundary or is stored with a job. */
export interface OmrErrorData {
  name: 'OmrError';
  code: string;
  status: number;
  message: string;
}

const DEFAULT_STATUS: Partial<Record<OmrErrorCode, number>> = {
  OMR_NOT_AWAITING_STEP: 409,
  OMR_JOB_NOT_RESUMABLE: 409,
  OMR_JOB_NOT_DONE: 409,
  OMR_JOB_NOT_CANCELLABLE: 409,
  OMR_JOB_IN_PROGRESS: 409,
  OMR_JOB_NOT_EXPIRABLE: 409,
  OMR_JOB_EXPIRED: 409,
  OMR_SCOPE_REQUIRED: 403,
  API_RATE_LIMIT_EXCEEDED: 403,
  OMR_JOB_NOT_FOUND: 404,
  OMR_INSUFFICIENT_CREDITS: 402,
  OMR_FORMAT_NOT_AVAILABLE: 404,
  OMR_FILE_NOT_FOUND: 404,
  OMR_JOB_CANCELED: 409,
  SCORE_NOT_FOUND: 404,
  TASK_NOT_FOUND: 404,
  UNAUTHORIZED: 401,
  ABORTED: 499,
  TIMEOUT: 504,
  SERVICE_UNAVAILABLE: 503,
  SCORES_SCOPE_REQUIRED: 403,
  TASKS_SCOPE_REQUIRED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  WORKER_CRASHED: 500,
  ENGINE_TIMEOUT: 504,
  ENGINE_OUT_OF_MEMORY: 413,
  STORAGE_FAILED: 500,
  BACKEND_UNAVAILABLE: 500,
  FILE_TOO_LARGE: 413,
  INTERNAL_ERROR: 500,
};

export class OmrError extends Error {
  override readonly name = 'OmrError';
  /** Stable machine-readable code; open-ended, so keep a fallback when branching. */
  readonly code: OmrErrorCode | (string & {});
  /** HTTP status the hosted service answers with for this error. */
  readonly status: number;

  constructor(code: OmrErrorCode | (string & {}), message: string, options?: { status?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options?.status ?? DEFAULT_STATUS[code as OmrErrorCode] ?? 400;
  }

  toJSON(): OmrErrorData {
    return { name: 'OmrError', code: this.code, status: this.status, message: this.message };
  }

  /**
   * Revives an error that crossed a boundary. Anything that is not already an
   * `OmrError` (a bug, a runtime failure) becomes `INTERNAL_ERROR`, keeping
   * its message so the report stays useful.
   */
  static from(value: unknown): OmrError {
    if (value instanceof OmrError) return value;
    if (isOmrErrorData(value)) return new OmrError(value.code, value.message, { status: value.status });
    const message = value instanceof Error ? value.message : String(value);
    return new OmrError('INTERNAL_ERROR', message, { cause: value });
  }
}

function isOmrErrorData(value: unknown): value is OmrErrorData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.name === 'OmrError' && typeof v.code === 'string' && typeof v.message === 'string' && typeof v.status === 'number';
}
