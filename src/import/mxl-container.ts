/**
 * Compressed MusicXML (.mxl): a zip whose `META-INF/container.xml` names the
 * root score file. An entry that declares more than the limit is refused
 * before inflating, and every entry is inflated as a stream that stops as
 * soon as it yields more than the limit, more than the entry declares, or
 * (past a few megabytes) more than any real score inflates from the bytes
 * read, so a zip bomb is refused after a few megabytes of work whatever its
 * headers say.
 */
import { Inflate } from 'fflate';
import { OmrError } from '../errors.js';
import { MAX_MXL_SCORE_BYTES } from './limits.js';
import { child, children, parseXml } from './xml-tree.js';

export { MAX_MXL_SCORE_BYTES };

const CONTAINER_PATH = 'META-INF/container.xml';

/** Compressed data is fed to the inflater in pieces of this size, so an overflow is caught within ~1000× of it. */
const INFLATE_PIECE = 16 * 1024;
/**
 * An entry that has inflated past RATIO_FLOOR bytes and to more than MAX_INFLATE_RATIO times the
 * compressed bytes read so far is a zip bomb. Of the 1,510 real .mxl scores in the corpora, none
 * inflates more than 59-fold (the median 31-fold); deflate's ceiling is about 1,030-fold, which a
 * bomb of repeated bytes reaches. Below the floor nothing is refused on its ratio: it costs little.
 */
const MAX_INFLATE_RATIO = 400;
const RATIO_FLOOR = 4 * 1024 * 1024;

/** Signatures of the zip records read here. */
const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** A 32-bit size or offset with this value is in the entry's zip64 extra field instead. */
const ZIP64_MARK = 0xffffffff;

/** A zip starts with a local file header, or, when it holds no files, with the end-of-directory record. */
export function isZip(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) return false;
  return (bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06);
}

/**
 * Returns the bytes of the score file inside an .mxl archive. `maxBytes`
 * bounds what one entry may inflate to.
 */
export function extractMxlScore(bytes: Uint8Array, maxBytes = MAX_MXL_SCORE_BYTES): Uint8Array {
  const entries = readDirectory(bytes);
  let rootPath: string | undefined;
  const containerEntry = entries.find((e) => e.name === CONTAINER_PATH);
  if (containerEntry) {
    const root = parseXml(inflateEntry(bytes, containerEntry, maxBytes), { ...CONTAINER_XML_LIMITS }, 'CORRUPTED_FILE');
    const rootfile = children(child(root, 'rootfiles'), 'rootfile')
      .map((el) => ({ path: el.attrs['full-path'], type: el.attrs['media-type'] }))
      .find((r) => r.path && (!r.type || r.type.includes('musicxml') || r.type === 'application/xml'));
    rootPath = rootfile?.path;
  }
  // Archives without a container (written by some tools) hold one score at the top level.
  const wanted = (name: string) =>
    rootPath !== undefined ? name === rootPath : !name.includes('/') && /\.(musicxml|xml)$/i.test(name);
  const score = entries.find((e) => wanted(e.name));
  if (!score) {
    throw new OmrError(
      'CORRUPTED_FILE',
      rootPath ? `The .mxl archive names ${rootPath} as its score, but that file is missing.` : 'The .mxl archive contains no MusicXML score.',
    );
  }
  return inflateEntry(bytes, score, maxBytes);
}

/** container.xml is a few hundred bytes listing the root files. */
const CONTAINER_XML_LIMITS = { maxBytes: 1024 * 1024, maxDepth: 16, maxElements: 10_000 };

/** One file of the archive, as its central directory describes it. */
interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  /** What the archive says the entry inflates to; not trusted beyond bounding the work. */
  declaredSize: number;
  localOffset: number;
}

function corrupted(detail: string, cause?: unknown): OmrError {
  return new OmrError('CORRUPTED_FILE', `The .mxl file is not a readable zip archive (${detail}).`, cause === undefined ? undefined : { cause });
}

/** Reads the central directory: every entry's name, sizes and where its data starts. */
function readDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record is the last thing in the file, followed only by a comment of at most 65,535 bytes.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw corrupted('it has no end-of-directory record; it may be truncated');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== DIRECTORY_ENTRY) throw corrupted(`directory entry ${i + 1} is missing or damaged`);
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > bytes.length) throw corrupted(`directory entry ${i + 1} runs past the end of the file`);
    const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength);
    // Bit 11 marks UTF-8 names; others are in the legacy code page, of which ASCII is all that matters here.
    const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'latin1').decode(nameBytes);
    const entry: ZipEntry = {
      name,
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      declaredSize: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    };
    readZip64(view, at + 46 + nameLength, extraLength, entry);
    entries.push(entry);
    at = next;
  }
  return entries;
}

/** Replaces 32-bit fields marked as too large with their 64-bit values from the zip64 extra field. */
function readZip64(view: DataView, from: number, length: number, entry: ZipEntry): void {
  const fields = (['declaredSize', 'compressedSize', 'localOffset'] as const).filter((f) => entry[f] === ZIP64_MARK);
  if (!fields.length) return;
  for (let at = from; at + 4 <= from + length; ) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      fields.forEach((f, i) => {
        if (at + 4 + 8 * (i + 1) <= from + length) entry[f] = Number(view.getBigUint64(at + 4 + 8 * i, true));
      });
      return;
    }
    at += 4 + size;
  }
}

/**
 * Inflates one entry, refusing it once it yields more than `maxBytes`, and
 * as damaged once it yields more than it declares.
 */
function inflateEntry(bytes: Uint8Array, entry: ZipEntry, maxBytes: number): Uint8Array {
  const { name } = entry;
  if (entry.declaredSize > maxBytes) {
    throw new OmrError('FILE_TOO_LARGE', `${name} inflates to ${entry.declaredSize} bytes; at most ${maxBytes} are accepted.`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = entry.localOffset;
  if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL_HEADER) throw corrupted(`the header of ${name} is missing or damaged`);
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  if (start + entry.compressedSize > bytes.length) throw corrupted(`${name} runs past the end of the file; it may be truncated`);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) {
    if (data.length > entry.declaredSize) throw corrupted(`${name} holds more than the ${entry.declaredSize} bytes it declares`);
    return data;
  }
  if (entry.method !== 8) throw corrupted(`${name} uses compression method ${entry.method}; only deflate is read`);

  // The declared size is at most the limit, and output beyond it is refused: it bounds the buffer.
  const out = new Uint8Array(entry.declaredSize);
  let total = 0;
  let fed = 0;
  const inflater = new Inflate((chunk) => {
    if (total + chunk.length > maxBytes) throw new OmrError('FILE_TOO_LARGE', `${name} inflates to more than ${maxBytes} bytes, the most accepted.`);
    if (total + chunk.length > entry.declaredSize) throw corrupted(`${name} inflates to more than the ${entry.declaredSize} bytes it declares`);
    if (total + chunk.length > RATIO_FLOOR && total + chunk.length > fed * MAX_INFLATE_RATIO) {
      throw new OmrError('FILE_TOO_LARGE', `${name} inflates more than ${MAX_INFLATE_RATIO}-fold, as no score does: the archive is refused as a zip bomb.`);
    }
    out.set(chunk, total);
    total += chunk.length;
  });
  try {
    for (let at = 0; at < data.length || at === 0; at += INFLATE_PIECE) {
      fed = Math.min(data.length, at + INFLATE_PIECE);
      inflater.push(data.subarray(at, at + INFLATE_PIECE), fed === data.length);
    }
  } catch (err) {
    if (err instanceof OmrError) throw err;
    throw corrupted(`${name} cannot be inflated: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  return total === out.length ? out : out.subarray(0, total);
}
