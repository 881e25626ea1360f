/**
 * A failed HTTP response as an `OmrError`: the body's `code` when the
 * service sent one (the client branches on it, as the spec asks), else a
 * code that fits the status, so a proxy's HTML error page still yields
 * something stable to branch on.
 */
import { OmrError, type OmrErrorCode } from '../errors.js';

const CODE_BY_STATUS: Record<number, OmrErrorCode> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHORIZED',
  402: 'OMR_INSUFFICIENT_CREDITS',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'TIMEOUT',
  409: 'CONFLICT',
  413: 'FILE_TOO_LARGE',
  // The service limits with 403 and a code; an intermediary may use 429.
  429: 'API_RATE_LIMIT_EXCEEDED',
  502: 'SERVICE_UNAVAILABLE',
  503: 'SERVICE_UNAVAILABLE',
  504: 'TIMEOUT',
};

export function errorFromResponse(status: number, body: Uint8Array, what: string): OmrError {
  const text = new TextDecoder().decode(body);
  const parsed = parseJson(text);
  if (parsed && typeof parsed.code === 'string' && parsed.code) {
    let message = typeof parsed.message === 'string' && parsed.message ? parsed.message : `${what} failed with ${parsed.code} (HTTP ${status}).`;
    // An upstream provider's own (localized) explanation, when the service passes one on.
    if (typeof parsed.providerMessage === 'string' && parsed.providerMessage) message += ` (${parsed.providerMessage})`;
    return new OmrError(parsed.code, message, { status });
  }
  const code = CODE_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_ARGUMENT');
  const snippet = text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return new OmrError(code, `${what} failed with HTTP ${status} and no error code${snippet ? `: ${snippet}` : '.'}`, { status });
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
