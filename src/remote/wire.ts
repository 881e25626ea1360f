/**
 * What crosses the wire besides JSON resources: files in (Base64 in JSON
 * bodies, from the same inputs the local client takes) and downloads out
 * (bytes with a filename from `Content-Disposition`), plus the `Link`
 * header that pages the job list.
 */
import { encodeBase64, fileBytes } from '../jobs/file-input.js';
import type { JobFileInput } from '../jobs/types.js';

/**
 * A file as the service's `{ file, filename, mimeType }` with Base64 data.
 * Bytes and Blobs are checked against the size limit here, with the local
 * client's messages, before anything is uploaded; a string is sent as it
 * is, for the service to judge. Anything malformed goes through untouched
 * so the service answers it exactly as the local client would.
 */
export async function wireFile(file: JobFileInput, label: string): Promise<unknown> {
  if (typeof file !== 'object' || file === null || typeof file.file === 'string') return file;
  return { ...file, file: await wireData(file.file, file.filename || label) };
}

export async function wireData(data: unknown, label: string): Promise<unknown> {
  return typeof data === 'string' ? data : encodeBase64(await fileBytes(data, label));
}

/** The filename of a `Content-Disposition` header: `filename*` (RFC 6266/8187) first, then `filename`. */
export function dispositionFilename(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*([\w!#$%&+^`{}~-]*)'[^']*'([^;\s]+)/i.exec(header);
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  const name = extended ? percentDecode(extended[2]!, extended[1]!) : plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]!.trim()) : undefined;
  // A name is only ever a name: no directories, whatever the server sent.
  const base = name?.replace(/^.*[\\/]/, '').trim();
  return base || undefined;
}

function percentDecode(value: string, charset: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const hex = value[i] === '%' ? value.slice(i + 1, i + 3) : '';
    if (/^[0-9a-f]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(value.charCodeAt(i) & 0xff);
    }
  }
  return new TextDecoder(charset.toLowerCase() === 'iso-8859-1' ? 'latin1' : 'utf-8').decode(new Uint8Array(bytes));
}

/** The `rel="next"` target of a `Link` header, if any. */
export function nextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel\s*=\s*"?(?:[^";]*\s)?next(?:\s[^";]*)?"?\s*(?:;|$)/i.test(match[2]!)) return match[1];
  }
  return undefined;
}
