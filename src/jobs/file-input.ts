/**
 * Files as callers hand them over — a Base64 string (the service's wire
 * form), bytes, an ArrayBuffer or a Blob — turned into bytes, with the
 * service's per-file limit checked first.
 */
import { OmrError } from '../errors.js';

/** The service's per-file limit (`maxFileSize`): 25 MiB. */
export const MAX_FILE_SIZE = 25 * 1024 * 1024;

export async function fileBytes(file: unknown, label: string): Promise<Uint8Array> {
  let bytes: Uint8Array;
  if (typeof file === 'string') bytes = decodeBase64(file, label);
  // A Node Buffer is seen as a plain Uint8Array of the same bytes: pdf.js refuses Buffers, and a Buffer's `slice` is a view, not the copy a worker is sent.
  else if (file instanceof Uint8Array) bytes = file.constructor === Uint8Array ? file : new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  else if (file instanceof ArrayBuffer) bytes = new Uint8Array(file);
  else if (typeof Blob !== 'undefined' && file instanceof Blob) {
    if (file.size > MAX_FILE_SIZE) throw tooLarge(label, file.size);
    bytes = new Uint8Array(await file.arrayBuffer());
  } else {
    throw new OmrError('INVALID_ARGUMENT', `${label}: file must be a Base64 string, a Uint8Array, an ArrayBuffer or a Blob.`);
  }
  if (bytes.length > MAX_FILE_SIZE) throw tooLarge(label, bytes.length);
  if (bytes.length === 0) throw new OmrError('CORRUPTED_FILE', `${label} is empty (0 bytes).`);
  return bytes;
}

function tooLarge(label: string, size: number): OmrError {
  const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
  return new OmrError('FILE_TOO_LARGE', `${label} is ${mib(size)} MiB; files may be at most ${mib(MAX_FILE_SIZE)} MiB. Split the PDF or lower the image resolution.`);
}

export function decodeBase64(text: string, label: string): Uint8Array {
  // Data URLs are a common way to hold Base64 in a browser; accept them.
  const payload = text.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (payload.length > Math.ceil((MAX_FILE_SIZE * 4) / 3) + 4) throw tooLarge(label, Math.floor((payload.length * 3) / 4));
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(payload) || payload.length % 4 === 1) {
    throw new OmrError('INVALID_ARGUMENT', `${label}: file is a string but not valid Base64.`);
  }
  const standard = payload.replace(/-/g, '+').replace(/_/g, '/');
  if (typeof Buffer !== 'undefined') return new Uint8Array(Buffer.from(standard, 'base64'));
  const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function encodeBase64(bytes: Uint8Array): string {
  if (typeof Buffer !== 'undefined') return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
