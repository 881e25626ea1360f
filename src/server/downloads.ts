/**
 * Export task downloads. The local engine finishes a score export at once
 * and keeps the file in the task as a `data:` URL; the server hands out an
 * http URL instead (`GET /exports/{task}?account=…&sig=…`), so task polls
 * stay small and a browser can download with a plain link, without the
 * token — the signature is the permission, as with a presigned URL. It is
 * an HMAC under a key made when the server starts: a URL works while that
 * server runs, and reading the task again gives a fresh one.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { OmrError } from '../errors.js';
import { downloadName } from '../jobs/exports.js';
import { EXPORT_CONTENT_TYPES, type ExportFormat, type Task } from '../jobs/types.js';

export class DownloadSigner {
  private readonly key = randomBytes(32);

  /** The task with a `data:` result URL replaced by a signed download URL under `baseUrl`. */
  publish(task: Task, account: string, baseUrl: string): Task {
    if (!task.result?.url?.startsWith('data:')) return task;
    const url = new URL(`${baseUrl}/exports/${encodeURIComponent(task.id)}`);
    url.searchParams.set('account', account);
    url.searchParams.set('sig', this.sign(account, task.id));
    return { ...task, result: { ...task.result, url: url.href } };
  }

  /** The account a download URL was signed for; refuses a URL this server did not sign. */
  verify(taskId: string, query: URLSearchParams): string {
    const account = query.get('account') ?? '';
    const given = Buffer.from(query.get('sig') ?? '');
    const expected = Buffer.from(this.sign(account, taskId));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new OmrError('NOT_FOUND', `No download ${taskId} exists here, or its link is from before the server restarted; read the task again for a fresh result.url.`);
    }
    return account;
  }

  private sign(account: string, taskId: string): string {
    return createHmac('sha256', this.key).update(`${account}\n${taskId}`).digest('base64url');
  }
}

/** The file a finished export task holds, named after the score's title. */
export function exportFile(task: Task, title: string): { data: Uint8Array; contentType: string; filename: string } {
  const match = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(task.result?.url ?? '');
  if (!match) throw new OmrError('NOT_FOUND', `Task ${task.id} has no file to download (state ${task.state}).`);
  const contentType = match[1]!;
  const format = (Object.keys(EXPORT_CONTENT_TYPES) as ExportFormat[]).find((f) => EXPORT_CONTENT_TYPES[f] === contentType) ?? 'musicxml';
  return { data: new Uint8Array(Buffer.from(match[2]!, 'base64')), contentType, filename: downloadName(title, format) };
}
