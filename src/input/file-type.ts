/**
 * What kind of file a user gave: decided from the bytes first, because names
 * and MIME types lie (a phone's "scan.jpg" that is really a HEIC, a download
 * saved without an extension), then from the filename extension, then from
 * the MIME type. Formats we recognise but do not read are refused by name, so
 * the user learns what to convert instead of reading "corrupted file".
 */
import { OmrError } from '../errors.js';
import { isZip } from '../import/mxl-container.js';
import { fileLabel } from './input-error.js';

/** The types ScoreSight accepts: page images and PDFs to recognise, and scores to convert. */
export type FileType = 'pdf' | 'png' | 'jpeg' | 'heic' | 'webp' | 'tiff' | 'musicxml' | 'mxl';

/** The MIME type ScoreSight reports for each accepted type. */
export const MIME_TYPES: Record<FileType, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  heic: 'image/heic',
  webp: 'image/webp',
  tiff: 'image/tiff',
  musicxml: 'application/vnd.recordare.musicxml+xml',
  mxl: 'application/vnd.recordare.musicxml',
};

/** The types of pages ScoreSight recognises, as messages name them. */
export const PAGE_TYPES = 'PDF, PNG, JPEG, HEIC, WebP or TIFF files of pages';

/** Said in every refusal, so the user knows what would work. */
export const ACCEPTED_TYPES = `${PAGE_TYPES}, or MusicXML scores (.musicxml, .xml, .mxl)`;

export interface FileDescription {
  filename?: string;
  data: Uint8Array;
  mimeType?: string;
}

interface Format {
  /** How messages name it, with its article. */
  name: string;
  /** The accepted type, or none for a format that is recognised only to be refused. */
  type?: FileType;
  extensions: string[];
  mimeTypes: string[];
}

const FORMATS = {
  pdf: { name: 'a PDF document', type: 'pdf', extensions: ['pdf'], mimeTypes: ['application/pdf', 'application/x-pdf'] },
  png: { name: 'a PNG image', type: 'png', extensions: ['png', 'apng'], mimeTypes: ['image/png', 'image/x-png', 'image/apng'] },
  jpeg: {
    name: 'a JPEG image',
    type: 'jpeg',
    extensions: ['jpg', 'jpeg', 'jpe', 'jfif', 'pjpeg', 'pjp'],
    mimeTypes: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  },
  musicxml: {
    name: 'a MusicXML score',
    type: 'musicxml',
    extensions: ['musicxml', 'xml'],
    mimeTypes: ['application/vnd.recordare.musicxml+xml', 'application/xml', 'text/xml'],
  },
  mxl: { name: 'an MXL score', type: 'mxl', extensions: ['mxl'], mimeTypes: ['application/vnd.recordare.musicxml'] },
  webp: { name: 'a WebP image', type: 'webp', extensions: ['webp'], mimeTypes: ['image/webp'] },
  gif: { name: 'a GIF image', extensions: ['gif'], mimeTypes: ['image/gif'] },
  tiff: { name: 'a TIFF image', type: 'tiff', extensions: ['tif', 'tiff'], mimeTypes: ['image/tiff', 'image/tiff-fx'] },
  heic: {
    name: 'a HEIC image',
    type: 'heic',
    extensions: ['heic', 'heif', 'hif', 'heics', 'heifs'],
    mimeTypes: ['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence'],
  },
  avif: { name: 'an AVIF image', extensions: ['avif'], mimeTypes: ['image/avif'] },
  bmp: { name: 'a BMP image', extensions: ['bmp', 'dib'], mimeTypes: ['image/bmp', 'image/x-bmp', 'image/x-ms-bmp'] },
  jp2: { name: 'a JPEG 2000 image', extensions: ['jp2', 'j2k', 'jpf', 'jpx', 'jpm'], mimeTypes: ['image/jp2', 'image/jpx', 'image/jpm'] },
  jxl: { name: 'a JPEG XL image', extensions: ['jxl'], mimeTypes: ['image/jxl'] },
  svg: { name: 'an SVG image', extensions: ['svg', 'svgz'], mimeTypes: ['image/svg+xml'] },
  mei: { name: 'an MEI score', extensions: ['mei'], mimeTypes: ['application/mei+xml'] },
  zip: { name: 'a ZIP archive', extensions: ['zip'], mimeTypes: ['application/zip', 'application/x-zip-compressed'] },
} satisfies Record<string, Format>;

/** The filename extensions of the given accepted types, in that order (for help texts). */
export function extensionsOf(types: readonly FileType[]): string[] {
  return types.flatMap((type) => Object.values<Format>(FORMATS).find((f) => f.type === type)?.extensions ?? []);
}

/** MIME types that say nothing about the content: browsers send them for unknown extensions. */
const GENERIC_MIME_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown', 'application/binary']);

/**
 * The type of a file. Throws `UNSUPPORTED_FILE_TYPE` for a type ScoreSight
 * does not read (naming it, and what is accepted), and `OMR_MIME_REQUIRED`
 * when neither the bytes, the name nor the MIME type tell.
 */
export function detectFileType(file: FileDescription): FileType {
  const sniffed = sniff(file.data);
  // A zip is only known to be an .mxl from its contents; a name may still say so.
  if (sniffed && sniffed !== FORMATS.zip) return accept(sniffed, file);

  const extension = extensionOf(file.filename);
  const byExtension = extension === undefined ? undefined : formatWith((f) => f.extensions.includes(extension));
  if (byExtension && (!sniffed || byExtension.type === 'mxl')) return accept(byExtension, file);

  const mime = normaliseMime(file.mimeType);
  const byMime = mime === undefined ? undefined : formatWith((f) => f.mimeTypes.includes(mime));
  if (byMime && (!sniffed || byMime.type === 'mxl')) return accept(byMime, file);

  if (sniffed) return accept(sniffed, file);
  if (extension !== undefined) throw refuse(file, `a .${extension} file`);
  if (mime !== undefined) throw refuse(file, `of type ${mime}`);
  throw new OmrError(
    'OMR_MIME_REQUIRED',
    `${fileLabel(file.filename)} has no recognisable content, filename extension or MIME type, so its type is unknown; give its MIME type. Accepted: ${ACCEPTED_TYPES}.`,
  );
}

function accept(format: Format, file: FileDescription): FileType {
  if (format.type) return format.type;
  throw refuse(file, format.name);
}

function refuse(file: FileDescription, what: string): OmrError {
  return new OmrError('UNSUPPORTED_FILE_TYPE', `${fileLabel(file.filename)} is ${what}, which ScoreSight does not read. Accepted: ${ACCEPTED_TYPES}.`);
}

function formatWith(test: (f: Format) => boolean): Format | undefined {
  return Object.values<Format>(FORMATS).find(test);
}

/** The lower-case extension, when the name has a plausible one (`Op. 10` has none). */
function extensionOf(filename: string | undefined): string | undefined {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(filename?.trim() ?? '');
  return match && /[a-z]/i.test(match[1]!) ? match[1]!.toLowerCase() : undefined;
}

function normaliseMime(mimeType: string | undefined): string | undefined {
  const mime = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  return GENERIC_MIME_TYPES.has(mime) ? undefined : mime;
}

// ---------------------------------------------------------------- content sniffing

/** The format the bytes announce, from their signature; undefined when they announce none we know. */
function sniff(data: Uint8Array): Format | undefined {
  const starts = (sig: readonly number[], at = 0) => sig.every((b, i) => data[at + i] === b);
  const ascii = (from: number, to: number) => String.fromCharCode(...data.subarray(from, to));

  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return FORMATS.png;
  if (starts([0xff, 0xd8, 0xff])) return FORMATS.jpeg;
  // PDF readers accept the header anywhere in the first 1024 bytes (some generators prefix junk).
  if (indexOfAscii(data, '%PDF-', 0, 1024) >= 0) return FORMATS.pdf;
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return FORMATS.gif;
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return FORMATS.webp;
  if (['II*\0', 'MM\0*', 'II+\0', 'MM\0+'].includes(ascii(0, 4))) return FORMATS.tiff;
  if (ascii(4, 8) === 'ftyp') return isoMediaFormat(data);
  if (starts([0, 0, 0, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a]) || starts([0xff, 0x4f, 0xff, 0x51])) return FORMATS.jp2;
  if (starts([0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a]) || starts([0xff, 0x0a])) return FORMATS.jxl;
  if (isBmp(data)) return FORMATS.bmp;
  if (isZip(data)) return isMxlArchive(data) ? FORMATS.mxl : FORMATS.zip;
  return xmlFormat(data);
}

/** HEIC and AVIF are both ISO media files; the brands in the `ftyp` box tell which. */
function isoMediaFormat(data: Uint8Array): Format | undefined {
  const size = ((data[0]! << 24) | (data[1]! << 16) | (data[2]! << 8) | data[3]!) >>> 0;
  const end = Math.min(data.length, Math.max(16, Math.min(size, 256)));
  const brands: string[] = [];
  for (let at = 8; at + 4 <= end; at += at === 8 ? 8 : 4) brands.push(String.fromCharCode(...data.subarray(at, at + 4)));
  if (brands.some((b) => b === 'avif' || b === 'avis')) return FORMATS.avif;
  if (brands.some((b) => ['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'msf1'].includes(b))) return FORMATS.heic;
  return undefined;
}

/** "BM" alone is too weak a signature; the DIB header that follows has one of a few known sizes. */
function isBmp(data: Uint8Array): boolean {
  if (data.length < 18 || data[0] !== 0x42 || data[1] !== 0x4d) return false;
  const dibSize = data[14]! | (data[15]! << 8) | (data[16]! << 16) | (data[17]! << 24);
  return [12, 40, 52, 56, 64, 108, 124].includes(dibSize);
}

/**
 * An .mxl names its container or its MIME type in plain ASCII: the
 * `mimetype` entry comes first (stored, uncompressed), and the central
 * directory at the end lists `META-INF/container.xml`. Only the two ends are
 * searched, so sniffing a large archive stays cheap.
 */
function isMxlArchive(data: Uint8Array): boolean {
  const head = Math.min(data.length, 4096);
  const tail = Math.max(0, data.length - 1024 * 1024);
  return (
    indexOfAscii(data, 'application/vnd.recordare.musicxml', 0, head) >= 0 ||
    indexOfAscii(data, 'META-INF/container.xml', 0, head) >= 0 ||
    indexOfAscii(data, 'META-INF/container.xml', tail, data.length) >= 0
  );
}

/**
 * MusicXML, MEI and SVG are XML; the root element says which. Text may be
 * UTF-8 or UTF-16 (MusicXML allows both), with or without a byte-order mark.
 */
function xmlFormat(data: Uint8Array): Format | undefined {
  const text = leadingText(data.subarray(0, 8192));
  if (!/^\s*</.test(text)) return undefined;
  if (/<(score-partwise|score-timewise)[\s>/]|<!DOCTYPE\s+score-(partwise|timewise)/.test(text)) return FORMATS.musicxml;
  if (/<mei[\s>:]|<meiHead[\s>]/.test(text)) return FORMATS.mei;
  if (/<svg[\s>:]/.test(text)) return FORMATS.svg;
  return undefined;
}

function leadingText(bytes: Uint8Array): string {
  let encoding = 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) encoding = 'utf-16be';
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) encoding = 'utf-16le';
  else if (bytes[0] === 0 && bytes[1] === 0x3c) encoding = 'utf-16be';
  else if (bytes[0] === 0x3c && bytes[1] === 0) encoding = 'utf-16le';
  // A cut multi-byte character at the end of the window is replaced, not thrown on.
  return new TextDecoder(encoding).decode(bytes).replace(/^\uFEFF/, '');
}

function indexOfAscii(data: Uint8Array, needle: string, from: number, to: number): number {
  const first = needle.charCodeAt(0);
  const last = Math.min(to, data.length) - needle.length;
  outer: for (let i = from; i <= last; i++) {
    if (data[i] !== first) continue;
    for (let k = 1; k < needle.length; k++) if (data[i + k] !== needle.charCodeAt(k)) continue outer;
    return i;
  }
  return -1;
}
