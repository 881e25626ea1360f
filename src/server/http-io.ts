/**
 * Reading requests and writing replies on node:http: JSON bodies under a
 * size limit (refused as they stream in, never buffered whole), JSON and
 * file replies, errors as the service's `{ message, code }`, and the CORS
 * headers that let browser clients call the server and read its headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OmrError } from '../errors.js';
import { contentDisposition } from './content-disposition.js';
import type { UploadReservation } from './upload-budget.js';

export type Reply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; file: { data: Uint8Array; contentType: string; filename: string } };

/** Headers a browser script may read from a cross-origin answer. */
const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Link',
  'Content-Disposition',
  'Retry-After',
  'WWW-Authenticate',
  'x-service-score-revision',
  'x-service-score-revision-date',
].join(', ');

/**
 * Bearer tokens, not cookies, carry the credentials, so any origin may call:
 * a page can only use a token it already holds.
 */
export function setCorsHeaders(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
}

export function answerPreflight(res: ServerResponse): void {
  res.writeHead(204, {
    'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type',
    'Access-Control-Max-Age': '86400',
    'Content-Length': '0',
  });
  res.end();
}

/**
 * The JSON body, or `undefined` when there is none. Over `maxBytes` it
 * fails with 413 `FILE_TOO_LARGE` as soon as the declared length or the
 * bytes received so far tell, keeping nothing of the rest. The bytes held
 * are reserved in `reservation`, which fails with 503 when the server holds
 * as many upload bytes as it may.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number, reservation?: UploadReservation): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  // The whole declared length is reserved before the first byte, so a slow sender holds its room from the start.
  if (declared > 0) reservation?.grow(declared);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      reservation?.grow(size);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof OmrError) throw err;
    // The stream fails only when the client goes away mid-body: its matter, not a server fault to log.
    throw new OmrError('ABORTED', `The client closed the connection before its whole request body arrived (${(err as Error).message}).`);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
  } catch (err) {
    throw new OmrError('INVALID_ARGUMENT', `The request body is not valid JSON (${(err as Error).message}); send a JSON object with Content-Type: application/json.`);
  }
}

function tooLarge(maxBytes: number): OmrError {
  const size = maxBytes < 1024 * 1024 ? `${Math.round(maxBytes / 1024)} KiB` : `${(maxBytes / 1024 / 1024).toFixed(1)} MiB`;
  return new OmrError(
    'FILE_TOO_LARGE',
    `The request body is over ${size}, the most this endpoint reads (where a file is sent: one Base64 file of maxFileSize plus the JSON around it). Send one file per request with POST /omr/jobs/{job}/files.`,
  );
}

export function sendReply(res: ServerResponse, reply: Reply): void {
  if ('file' in reply) {
    const { data, contentType, filename } = reply.file;
    res.writeHead(reply.status, {
      'Content-Type': contentType,
      'Content-Length': String(data.byteLength),
      'Content-Disposition': contentDisposition(filename),
      'Cache-Control': 'private, no-store',
    });
    res.end(data);
    return;
  }
  const body = Buffer.from(JSON.stringify(reply.json));
  res.writeHead(reply.status, {
    ...reply.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(body.length),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

export function sendError(res: ServerResponse, error: OmrError): void {
  if (res.headersSent) {
    res.destroy(error);
    return;
  }
  sendReply(res, { status: error.status, json: { message: error.message, code: error.code } });
}
