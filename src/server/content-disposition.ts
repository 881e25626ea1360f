/**
 * `Content-Disposition` for downloads. The name comes from the caller (an
 * uploaded file's name) or from a recognised title, so it is made safe to
 * save before a client sees it: no path separators or `..` a careless
 * client would follow out of its download folder, no control characters
 * (`%00` in `filename*`), no bidirectional overrides that make
 * `exe.png` out of `gnp.exe` on screen, and at most 255 UTF-8 bytes, the
 * longest name most file systems and clients take, extension kept.
 */

/** The longest name sent, in UTF-8 bytes, in either form. */
export const MAX_DOWNLOAD_NAME_BYTES = 255;

/** Sent when nothing of the name is left. */
const FALLBACK_NAME = 'download';

/** An extension is kept whole when the name is cut if it is at most this long (dot included). */
const MAX_KEPT_EXTENSION = 16;

/**
 * C0 and C1 controls, bidirectional marks, embeddings, overrides and
 * isolates, zero-width characters and the byte-order mark: none belongs in
 * a filename, and each can hide what a name really is.
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** Characters Windows refuses in names, and both path separators. */
const RESERVED = /[<>:"/\\|?*]/g;

/** `attachment` with an ASCII fallback name and the exact (sanitised) name in RFC 8187 form. */
export function contentDisposition(filename: string): string {
  const name = safeDownloadName(filename);
  // Stem and extension apart, so that a name with no ASCII stem ('日本.png') still keeps its extension.
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const ascii = safeDownloadName(`${asciiOnly(stem).trim() || FALLBACK_NAME}${asciiOnly(extension)}`);
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** Printable ASCII, accents dropped from their letters; `%` (which some clients decode) and separators of the header replaced. */
function asciiOnly(text: string): string {
  return text.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/[%;,']/g, '_');
}

/** A name safe to save as it is: one path segment, printable, at most {@link MAX_DOWNLOAD_NAME_BYTES} bytes. */
export function safeDownloadName(filename: string): string {
  const cleaned = wellFormed(filename)
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(RESERVED, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  return truncate(cleaned || FALLBACK_NAME, MAX_DOWNLOAD_NAME_BYTES);
}

/** Lone surrogates (which `encodeURIComponent` cannot encode) become U+FFFD. */
function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** Cuts the stem, never inside a character, so the name with its extension fits `maxBytes`. */
function truncate(name: string, maxBytes: number): string {
  if (Buffer.byteLength(name, 'utf8') <= maxBytes) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= MAX_KEPT_EXTENSION ? name.slice(dot) : '';
  let budget = maxBytes - Buffer.byteLength(extension, 'utf8');
  let stem = '';
  for (const char of name.slice(0, name.length - extension.length)) {
    budget -= Buffer.byteLength(char, 'utf8');
    if (budget < 0) break;
    stem += char;
  }
  return `${stem.replace(/[.\s]+$/, '')}${extension}`;
}
