/**
 * TIFF pages: scanners and fax software write one page per image directory,
 * so every directory is a page, in order, as a PDF's pages are (reduced-
 * resolution copies, such as thumbnails, are not pages). Read: uncompressed,
 * CCITT Group 3 and 4, LZW, Deflate, PackBits and JPEG data, in strips or
 * tiles; bilevel, gray, palette, RGB, YCbCr (JPEG) and CMYK pages of 1 to
 * 16 bits a sample.
 *
 * Everything is checked before it is used: the directories are read once
 * each, so a chain of them that loops ends; a page's size is checked
 * against the limits, and its strips or tiles against the file's length,
 * before anything the size of the page is allocated; and each strip is
 * decoded into a buffer of exactly its rows' size by decoders that stop
 * when their input or output is used up (`tiff-compression.ts`; JPEG data
 * goes through `decodeJpeg`, with its checks).
 *
 * (The utif package was the first choice, but it trusts its input: its
 * directory reader follows a chain that loops forever, its LZW decoder never
 * stops on a strip that lacks its end code, and its CCITT decoder, after one
 * flipped bit in a 53 KB Group 4 page, spends a minute on the rest of it.)
 *
 * Bilevel and gray pages come out as one-channel rasters (a 300-dpi bilevel
 * A4 scan takes 9 MB instead of 26 as RGB), black ink on white paper
 * whichever way the file's PhotometricInterpretation codes them; colour
 * pages as RGB, with any alpha laid over white paper. The Orientation tag is
 * applied as Exif orientation is for JPEGs.
 */
import { OmrError } from '../errors.js';
import type { Raster } from '../image/raster.js';
import type { Orientation } from './exif-orientation.js';
import { checkImageBytes, checkImageSize, corruptedFile, fileLabel, tooLarge } from './input-error.js';
import { decodeJpeg } from './jpeg.js';
import { DEFAULT_IMAGE_LIMITS, MAX_IMAGE_PAGES, type ImageLimits } from './limits.js';
import { orientRaster } from './orientation.js';
import { inflateCcitt, inflateDeflate, inflateLzw, unpackBits, type CcittScheme } from './tiff-compression.js';

export interface TiffDecodeOptions {
  /** Named in error messages. */
  filename?: string;
  /** Tighter pixel bounds than the defaults. */
  limits?: Partial<ImageLimits>;
  /** Whether to turn pages upright by their Orientation tag (default true). */
  applyOrientation?: boolean;
}

export interface TiffDocument {
  pageCount: number;
  /** Decodes page `index` (from 0) into an upright raster: one channel for bilevel and gray pages, else RGB. */
  decodePage(index: number): Raster;
}

const TAG = {
  subfileType: 254,
  width: 256,
  height: 257,
  bitsPerSample: 258,
  compression: 259,
  photometric: 262,
  fillOrder: 266,
  stripOffsets: 273,
  orientation: 274,
  samplesPerPixel: 277,
  rowsPerStrip: 278,
  stripByteCounts: 279,
  planarConfiguration: 284,
  t4Options: 292,
  predictor: 317,
  colorMap: 320,
  tileWidth: 322,
  tileLength: 323,
  tileOffsets: 324,
  tileByteCounts: 325,
  extraSamples: 338,
  sampleFormat: 339,
  jpegTables: 347,
} as const;
const TAGS = new Set<number>(Object.values(TAG));

/** Bytes of one value of each TIFF field type. */
const TYPE_SIZES: Partial<Record<number, number>> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };

const COMPRESSION = { none: 1, g3: 3, g4: 4, lzw: 5, jpeg: 7, deflate: 8, adobeDeflate: 32946, packBits: 32773 } as const;
const COMPRESSIONS = new Set<number>(Object.values(COMPRESSION));
/** Schemes named when refused. */
const COMPRESSION_NAMES: Partial<Record<number, string>> = {
  2: 'CCITT modified Huffman compression',
  6: 'old-style JPEG compression',
  32809: 'ThunderScan compression',
  34661: 'JBIG compression',
  34712: 'JPEG 2000 compression',
  34925: 'LZMA compression',
  50000: 'Zstandard compression',
  50001: 'WebP compression',
};

const PHOTOMETRIC = { whiteIsZero: 0, blackIsZero: 1, rgb: 2, palette: 3, cmyk: 5, yCbCr: 6 } as const;
/** Samples of colour in a pixel, by photometric interpretation; more are extra samples, such as alpha. */
const COLOUR_SAMPLES: Partial<Record<number, number>> = { 0: 1, 1: 1, 2: 3, 3: 1, 5: 4, 6: 3 };

/** A directory entry: its type, value count and where its values are. */
interface Entry {
  type: number;
  count: number;
  at: number;
}

/** One image directory, with what reading its tags needs. */
class Directory {
  constructor(
    private readonly file: TiffFile,
    private readonly entries: Map<number, Entry>,
  ) {}

  has(tag: number): boolean {
    return this.entries.has(tag);
  }

  /** The tag's first value, when it is an integer. */
  get(tag: number): number | undefined {
    const entry = this.entries.get(tag);
    return entry && entry.count > 0 ? this.file.read(entry, 0) : undefined;
  }

  /** The tag's first `n` values, when it has that many. */
  values(tag: number, n: number): number[] | undefined {
    const entry = this.entries.get(tag);
    return entry && entry.count >= n ? Array.from({ length: n }, (_, i) => this.file.read(entry, i)) : undefined;
  }

  /** An UNDEFINED or BYTE tag's bytes. */
  bytes(tag: number): Uint8Array | undefined {
    const entry = this.entries.get(tag);
    return entry && (entry.type === 1 || entry.type === 7) ? this.file.bytes.subarray(entry.at, entry.at + entry.count) : undefined;
  }
}

interface TiffFile {
  bytes: Uint8Array;
  little: boolean;
  filename: string | undefined;
  limits: ImageLimits;
  /** A tag's value `i` as an integer; NaN for types that are not integers. */
  read(entry: Entry, i: number): number;
}

/**
 * Reads a TIFF's header and directories. Throws `CORRUPTED_FILE` when they
 * cannot be read, `UNSUPPORTED_FILE_TYPE` for BigTIFF, and `FILE_TOO_LARGE`
 * beyond {@link MAX_IMAGE_PAGES} pages.
 */
export function openTiff(bytes: Uint8Array, options: TiffDecodeOptions = {}): TiffDocument {
  const { filename } = options;
  const fail = (detail: string) => corruptedFile(filename, 'TIFF', detail);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const order = String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0);
  if (bytes.length < 8 || (order !== 'II' && order !== 'MM')) throw fail('it does not start with a TIFF header');
  const little = order === 'II';
  const u16 = (at: number) => view.getUint16(at, little);
  const u32 = (at: number) => view.getUint32(at, little);
  if (u16(2) === 43) {
    throw new OmrError('UNSUPPORTED_FILE_TYPE', `${fileLabel(filename)} is a BigTIFF file, which ScoreSight cannot decode; save it as an ordinary TIFF, or as PNG.`);
  }
  if (u16(2) !== 42) throw fail('it does not start with a TIFF header');
  const file: TiffFile = {
    bytes,
    little,
    filename,
    limits: { ...DEFAULT_IMAGE_LIMITS, ...options.limits },
    read: ({ type, at }, i) => (type === 3 ? u16(at + 2 * i) : type === 4 || type === 13 ? u32(at + 4 * i) : type === 1 || type === 7 ? bytes[at + i]! : NaN),
  };

  const pages: Directory[] = [];
  const seen = new Set<number>();
  for (let at = u32(4); at !== 0; ) {
    if (seen.has(at)) throw fail('its chain of image directories loops');
    if (seen.size === 2 * MAX_IMAGE_PAGES) throw tooLarge(filename, `it has more than ${MAX_IMAGE_PAGES} pages`);
    seen.add(at);
    if (at + 2 > bytes.length || at + 2 + 12 * u16(at) + 4 > bytes.length) throw fail(`its image directory at byte ${at} runs past the end of the file (truncated)`);
    const end = at + 2 + 12 * u16(at);
    const entries = new Map<number, Entry>();
    for (let e = at + 2; e < end; e += 12) {
      const tag = u16(e);
      const size = TYPE_SIZES[u16(e + 2)];
      // Tags not read here, and (as the standard says) types unknown to it, are skipped.
      if (!TAGS.has(tag) || !size) continue;
      const entry = { type: u16(e + 2), count: u32(e + 4), at: size * u32(e + 4) <= 4 ? e + 8 : u32(e + 8) };
      if (entry.at + size * entry.count > bytes.length) throw fail(`its tag ${tag} points past the end of the file (truncated)`);
      entries.set(tag, entry);
    }
    const directory = new Directory(file, entries);
    // Reduced-resolution copies (bit 0) and transparency masks (bit 2) are not pages.
    const isPage = ((directory.get(TAG.subfileType) ?? 0) & 0b101) === 0;
    if (isPage && pages.push(directory) > MAX_IMAGE_PAGES) throw tooLarge(filename, `it has more than ${MAX_IMAGE_PAGES} pages`);
    at = u32(end);
  }
  if (pages.length === 0) throw fail('it has no pages');

  return {
    pageCount: pages.length,
    decodePage(index) {
      const directory = pages[index];
      if (!directory) throw new OmrError('INVALID_ARGUMENT', `${fileLabel(filename)} has no page ${index + 1}.`);
      const format = pageFormat(file, directory, index);
      const raster = toRaster(pageSamples(file, directory, format, index), format);
      const orientation = directory.get(TAG.orientation) ?? 1;
      return options.applyOrientation === false || !(orientation >= 1 && orientation <= 8) ? raster : orientRaster(raster, orientation as Orientation);
    },
  };
}

/** How a page's samples are stored and what they mean. */
interface PageFormat {
  width: number;
  height: number;
  bits: number;
  samples: number;
  photometric: number;
  compression: number;
  predictor: number;
  colorMap: number[] | undefined;
  alpha: { sample: number; premultiplied: boolean } | undefined;
  little: boolean;
}

function failPage(file: TiffFile, index: number, detail: string, cause?: unknown): OmrError {
  return corruptedFile(file.filename, 'TIFF', `its page ${index + 1} ${detail}`, cause);
}

/** The page's size and sample format, checked: against the limits, and against what is decoded here. */
function pageFormat(file: TiffFile, directory: Directory, index: number): PageFormat {
  const refuse = (what: string) =>
    new OmrError(
      'UNSUPPORTED_FILE_TYPE',
      `${fileLabel(file.filename)} has a page (${index + 1}) with ${what}, which ScoreSight cannot decode; save it as PNG, or as TIFF with LZW, ZIP or CCITT Group 4 compression.`,
    );
  const width = directory.get(TAG.width);
  const height = directory.get(TAG.height);
  if (width === undefined || height === undefined) throw failPage(file, index, 'has no image size');
  checkImageSize(file.filename, 'TIFF', width, height, file.limits);

  const compression = directory.get(TAG.compression) ?? COMPRESSION.none;
  const samples = directory.get(TAG.samplesPerPixel) ?? 1;
  const bits = directory.get(TAG.bitsPerSample) ?? 1;
  const ccitt = compression === COMPRESSION.g3 || compression === COMPRESSION.g4;
  const photometric = directory.get(TAG.photometric) ?? (samples >= 3 ? PHOTOMETRIC.rgb : ccitt ? PHOTOMETRIC.whiteIsZero : PHOTOMETRIC.blackIsZero);
  const predictor = directory.get(TAG.predictor) ?? 1;
  const colourSamples = COLOUR_SAMPLES[photometric];

  if (!COMPRESSIONS.has(compression)) throw refuse(COMPRESSION_NAMES[compression] ?? `compression scheme ${compression}`);
  if (colourSamples === undefined) throw refuse(`photometric interpretation ${photometric}`);
  if (![1, 4].includes(directory.get(TAG.sampleFormat) ?? 1)) throw refuse('signed or floating-point samples');
  if (![1, 2, 4, 8, 16].includes(bits)) throw refuse(`${bits}-bit samples`);
  if (!(samples >= colourSamples && samples <= 16)) throw failPage(file, index, `has ${samples} samples a pixel`);
  if (directory.values(TAG.bitsPerSample, samples)?.some((b) => b !== bits)) throw refuse('samples of different sizes');
  if (samples > 1 && directory.get(TAG.planarConfiguration) === 2) throw refuse('its colours in separate planes');
  if (colourSamples > 1 && bits < 8) throw refuse(`${bits}-bit colour`);
  if (photometric === PHOTOMETRIC.cmyk && bits !== 8) throw refuse('16-bit CMYK');
  if (ccitt && (bits !== 1 || samples !== 1)) throw failPage(file, index, 'is CCITT-compressed but not bilevel');
  if (compression === COMPRESSION.jpeg && (bits !== 8 || (samples !== 1 && samples !== 3))) throw refuse('JPEG compression of other than gray or RGB 8-bit samples');
  // The JPEG decoder turns YCbCr into RGB; other YCbCr data would need its subsampling undone here.
  if (photometric === PHOTOMETRIC.yCbCr && compression !== COMPRESSION.jpeg) throw refuse('YCbCr colour without JPEG compression');
  if (predictor !== 1 && (predictor !== 2 || bits < 8)) throw refuse(predictor === 3 ? 'a floating-point predictor' : `predictor ${predictor} on ${bits}-bit samples`);
  const colorMap = photometric === PHOTOMETRIC.palette ? directory.values(TAG.colorMap, 3 << bits) : undefined;
  if (photometric === PHOTOMETRIC.palette && !colorMap) throw failPage(file, index, 'is a palette image without a full colour map');
  // The page's samples as stored and the raster made of them (gray, or RGB) are held at once.
  const gray = photometric === PHOTOMETRIC.whiteIsZero || photometric === PHOTOMETRIC.blackIsZero;
  checkImageBytes(file.filename, width, height, (bits * samples) / 8 + (gray ? 1 : 3), file.limits);
  const extra = directory.get(TAG.extraSamples);
  const alpha = samples > colourSamples && (extra === 1 || extra === 2) ? { sample: colourSamples, premultiplied: extra === 1 } : undefined;
  return { width, height, bits, samples, photometric, compression, predictor, colorMap, alpha, little: file.little };
}

/**
 * The samples of the whole page, rows padded to whole bytes, in the file's
 * byte order, decoded strip by strip or tile by tile. Strips run the width
 * of the page; tiles are blocks of one size, left to right, top to bottom.
 */
function pageSamples(file: TiffFile, directory: Directory, format: PageFormat, index: number): Uint8Array {
  const { width, height, bits, samples, compression, predictor } = format;
  const fail = (detail: string, cause?: unknown) => failPage(file, index, detail, cause);
  const tiled = directory.has(TAG.tileWidth);
  const blockWidth = tiled ? (directory.get(TAG.tileWidth) ?? 0) : width;
  const blockRows = tiled ? (directory.get(TAG.tileLength) ?? 0) : Math.min(directory.get(TAG.rowsPerStrip) ?? height, height);
  if (!(blockWidth > 0 && blockRows > 0)) throw fail(`has ${tiled ? 'no valid tile size' : 'no rows a strip'}`);
  if (tiled) {
    // The standard's multiples of 16 also keep tiles apart in whole bytes, and their number bounded.
    if (blockWidth % 16 !== 0 || blockRows % 16 !== 0) throw fail(`has ${blockWidth}×${blockRows} tiles, not multiples of 16`);
    checkImageSize(file.filename, 'TIFF', blockWidth, blockRows, file.limits);
  }
  const across = Math.ceil(width / blockWidth);
  const blocks = across * Math.ceil(height / blockRows);
  const rowBytes = Math.ceil((width * bits * samples) / 8);
  const blockRowBytes = Math.ceil((blockWidth * bits * samples) / 8);
  const offsets = directory.values(tiled ? TAG.tileOffsets : TAG.stripOffsets, blocks);
  // Uncompressed files may leave out the sizes, which their rows give.
  const counts =
    directory.values(tiled ? TAG.tileByteCounts : TAG.stripByteCounts, blocks) ??
    (compression === COMPRESSION.none && !tiled ? offsets?.map((_, i) => Math.min(blockRows, height - i * blockRows) * rowBytes) : undefined);
  if (!offsets || !counts) throw fail(`lacks the places or sizes of its ${blocks} ${tiled ? 'tiles' : 'strips'}`);
  for (let i = 0; i < blocks; i++) {
    if (!(offsets[i]! + counts[i]! <= file.bytes.length)) throw fail('has image data past the end of the file (truncated)');
  }

  const page = new Uint8Array(rowBytes * height);
  const tile = tiled ? new Uint8Array(blockRowBytes * blockRows) : undefined;
  const scheme: CcittScheme = compression === COMPRESSION.g4 ? 'g4' : (directory.get(TAG.t4Options) ?? 0) & 1 ? 'g3-2d' : 'g3';
  const reverse = directory.get(TAG.fillOrder) === 2 && compression !== COMPRESSION.jpeg;
  const jpegTables = directory.bytes(TAG.jpegTables);
  for (let i = 0; i < blocks; i++) {
    const x0 = (i % across) * blockWidth;
    const y0 = Math.floor(i / across) * blockRows;
    // A strip's last rows may lie below the page; a tile is always whole.
    const rows = tiled ? blockRows : Math.min(blockRows, height - y0);
    const target = tile ?? page.subarray(y0 * rowBytes, (y0 + rows) * rowBytes);
    let data = file.bytes.subarray(offsets[i]!, offsets[i]! + counts[i]!);
    if (reverse) data = data.map((b) => REVERSED_BITS[b]!);
    let filled: number;
    try {
      if (compression === COMPRESSION.jpeg) {
        filled = decodeJpegBlock(data, jpegTables, target, blockWidth, rows, samples, file);
      } else if (compression === COMPRESSION.g3 || compression === COMPRESSION.g4) {
        filled = inflateCcitt(data, target, blockWidth, rows, scheme);
      } else if (compression === COMPRESSION.lzw) {
        filled = inflateLzw(data, target);
      } else if (compression === COMPRESSION.deflate || compression === COMPRESSION.adobeDeflate) {
        filled = inflateDeflate(data, target);
      } else if (compression === COMPRESSION.packBits) {
        filled = unpackBits(data, target);
      } else {
        filled = Math.min(data.length, target.length);
        target.set(data.subarray(0, filled));
      }
    } catch (err) {
      // The JPEG decoder's own refusals (too large, an unsupported kind of JPEG) stand as they are.
      if (err instanceof OmrError && err.code !== 'CORRUPTED_FILE') throw err;
      throw fail(err instanceof OmrError ? 'has damaged JPEG data' : `has damaged image data (${err instanceof Error ? err.message : String(err)})`, err);
    }
    if (filled < target.length) throw fail('has image data that ends early');
    if (predictor === 2) undoPredictor(target, blockWidth, rows, samples, bits, format.little);
    if (tile) placeTile(tile, blockRowBytes, page, rowBytes, height, x0, y0, bits * samples);
  }
  return page;
}

/** Each byte with its bits in reverse order, for FillOrder 2 (least significant bit first). */
const REVERSED_BITS = Uint8Array.from({ length: 256 }, (_, b) => {
  let r = 0;
  for (let i = 0; i < 8; i++) r |= ((b >> i) & 1) << (7 - i);
  return r;
});

/**
 * A JPEG strip or tile, through the JPEG decoder. TIFF writers usually put
 * the tables shared by every strip in the JPEGTables tag and leave them out
 * of the strips; joined, they make an ordinary JPEG. Returns the bytes filled.
 */
function decodeJpegBlock(
  data: Uint8Array,
  tables: Uint8Array | undefined,
  target: Uint8Array,
  width: number,
  rows: number,
  samples: number,
  file: TiffFile,
): number {
  let stream = data;
  if (tables && tables.length >= 4) {
    // The tables' stream without its end marker, then the strip's without its start marker.
    const head = tables.subarray(0, tables[tables.length - 2] === 0xff && tables[tables.length - 1] === 0xd9 ? -2 : undefined);
    const body = data[0] === 0xff && data[1] === 0xd8 ? data.subarray(2) : data;
    stream = new Uint8Array(head.length + body.length);
    stream.set(head);
    stream.set(body, head.length);
  }
  const raster = decodeJpeg(stream, { filename: file.filename, limits: file.limits, applyOrientation: false });
  if (raster.channels !== samples || raster.width !== width || raster.height > rows) throw new Error('a JPEG strip does not match the page');
  target.set(raster.data.subarray(0, target.length));
  // A JPEG of fewer rows than the strip's leaves it short, which the caller reports.
  return raster.data.length;
}

/** Undoes horizontal differencing (Predictor 2): each sample was stored as its difference from the one to its left. */
function undoPredictor(block: Uint8Array, width: number, rows: number, samples: number, bits: number, little: boolean): void {
  const rowSamples = width * samples;
  if (bits === 8) {
    for (let y = 0; y < rows; y++) {
      const row = y * rowSamples;
      for (let i = row + samples; i < row + rowSamples; i++) block[i] = (block[i]! + block[i - samples]!) & 0xff;
    }
    return;
  }
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  for (let y = 0; y < rows; y++) {
    const row = y * rowSamples * 2;
    for (let i = row + 2 * samples; i < row + 2 * rowSamples; i += 2) view.setUint16(i, view.getUint16(i, little) + view.getUint16(i - 2 * samples, little), little);
  }
}

/** Copies a tile into its place on the page, leaving out what lies past the page's right and bottom edges. */
function placeTile(tile: Uint8Array, tileRowBytes: number, page: Uint8Array, rowBytes: number, height: number, x0: number, y0: number, bitsPerPixel: number): void {
  const start = (x0 * bitsPerPixel) / 8;
  const length = Math.min(tileRowBytes, rowBytes - start);
  const rows = Math.min(tile.length / tileRowBytes, height - y0);
  for (let r = 0; r < rows; r++) page.set(tile.subarray(r * tileRowBytes, r * tileRowBytes + length), (y0 + r) * rowBytes + start);
}

/**
 * The page's samples as an 8-bit raster: gray (black ink on white paper, as
 * each photometric interpretation defines its values) or RGB, with any
 * alpha laid over white paper.
 */
function toRaster(page: Uint8Array, format: PageFormat): Raster {
  const { width, height, bits, samples, photometric, colorMap, alpha, little } = format;
  const rowBytes = Math.ceil((width * bits * samples) / 8);
  const max = 2 ** bits - 1;
  // Sample i of the row starting at byte `row`, as stored.
  const raw =
    bits === 8
      ? (row: number, i: number) => page[row + i]!
      : bits === 16
        ? little
          ? (row: number, i: number) => page[row + 2 * i]! | (page[row + 2 * i + 1]! << 8)
          : (row: number, i: number) => (page[row + 2 * i]! << 8) | page[row + 2 * i + 1]!
        : (row: number, i: number) => (page[row + ((i * bits) >> 3)]! >> (8 - bits - ((i * bits) & 7))) & max;
  const to8 = bits === 8 ? (v: number) => v : (v: number) => Math.round((v * 255) / max);
  const gray = photometric === PHOTOMETRIC.whiteIsZero || photometric === PHOTOMETRIC.blackIsZero;
  const channels = gray ? 1 : 3;
  const out = new Uint8Array(width * height * channels);
  const colour = [0, 0, 0];
  for (let y = 0, o = 0; y < height; y++) {
    const row = y * rowBytes;
    for (let x = 0; x < width; x++, o += channels) {
      const s = x * samples;
      if (gray) {
        const v = to8(raw(row, s));
        colour[0] = photometric === PHOTOMETRIC.whiteIsZero ? 255 - v : v;
      } else if (photometric === PHOTOMETRIC.palette) {
        const index = raw(row, s);
        for (let c = 0; c < 3; c++) colour[c] = colorMap![c * (max + 1) + index]! >> 8;
      } else if (photometric === PHOTOMETRIC.cmyk) {
        const k = 255 - raw(row, s + 3);
        for (let c = 0; c < 3; c++) colour[c] = Math.round(((255 - raw(row, s + c)) * k) / 255);
      } else {
        for (let c = 0; c < 3; c++) colour[c] = to8(raw(row, s + c));
      }
      if (alpha) {
        const a = to8(raw(row, s + alpha.sample));
        // Over white: a premultiplied colour already holds its share; an unassociated one is weighted here.
        for (let c = 0; c < channels; c++) colour[c] = Math.min(255, alpha.premultiplied ? colour[c]! + 255 - a : Math.round((colour[c]! * a + 255 * (255 - a)) / 255));
      }
      for (let c = 0; c < channels; c++) out[o + c] = colour[c]!;
    }
  }
  return { width, height, channels, data: out };
}
