/**
 * PNG decoder in plain JavaScript, for page images users upload: every
 * colour type and bit depth, palettes with transparency, Adam7 interlacing,
 * and the eXIf orientation some phones and editors write.
 *
 * It trusts nothing in the file. Every chunk's length and CRC is checked, the
 * image size is checked against the limits before any pixel memory is
 * allocated, and the compressed data is inflated as a stream into rows that
 * are unfiltered as they arrive, so a "zip bomb" stops as soon as it yields
 * more bytes than the image can hold, and only two rows of filtered data are
 * ever in memory.
 *
 * It shares no code with the PNG encoder (`src/image/png-encode.ts`), so
 * tests that decode the encoder's output check the encoder.
 */
import { Unzlib } from 'fflate';
import { OmrError } from '../errors.js';
import { crc32 } from '../image/crc32.js';
import type { Raster } from '../image/raster.js';
import { exifOrientation, type Orientation } from './exif-orientation.js';
import { checkImageSize, corruptedFile } from './input-error.js';
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from './limits.js';
import { orientRaster } from './orientation.js';

export interface PngDecodeOptions {
  /** Named in error messages. */
  filename?: string;
  /** Tighter pixel bounds than the defaults. */
  limits?: Partial<ImageLimits>;
  /** Whether to turn the image upright by its eXIf orientation (default true). */
  applyOrientation?: boolean;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Samples per pixel in the file, by colour type: gray, RGB, palette index, gray + alpha, RGBA. */
const SAMPLES: Partial<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Bit depths the standard allows for each colour type. */
const DEPTHS: Partial<Record<number, number[]>> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/** Adam7 passes: first column, first row, column step, row step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** Compressed data is fed to the inflater in pieces of at most this size. */
const INFLATE_PIECE = 16 * 1024;

interface Header {
  width: number;
  height: number;
  depth: number;
  colorType: number;
  interlaced: boolean;
}

/** What a decoded row's samples become in the output raster. */
interface Palette {
  /** RGBA of each entry; entries past the table read as opaque black. */
  rgba: Uint8Array;
}

/** Decodes a PNG file into an 8-bit raster (16-bit samples are rounded to 8). */
export function decodePng(bytes: Uint8Array, options: PngDecodeOptions = {}): Raster {
  const { filename } = options;
  const fail = (detail: string, cause?: unknown) => corruptedFile(filename, 'PNG', detail, cause);
  if (bytes.length < SIGNATURE.length || SIGNATURE.some((b, i) => bytes[i] !== b)) throw fail('it does not start with the PNG signature');

  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let header: Header | undefined;
  let palette: Uint8Array | undefined;
  let transparency: Uint8Array | undefined;
  let exif: Uint8Array | undefined;
  const idat: Uint8Array[] = [];
  let sawIdat = false;
  let idatEnded = false;
  let ended = false;
  let offset = SIGNATURE.length;
  while (!ended) {
    if (offset + 12 > bytes.length) throw fail(offset === bytes.length ? 'it ends before its IEND chunk (truncated)' : 'it ends inside a chunk (truncated)');
    const length = view.getUint32(offset);
    const type = String.fromCharCode(bytes[offset + 4]!, bytes[offset + 5]!, bytes[offset + 6]!, bytes[offset + 7]!);
    if (!/^[A-Za-z]{4}$/.test(type)) throw fail(`a chunk at byte ${offset} has an invalid type`);
    if (length > 0x7fffffff || offset + 12 + length > bytes.length) throw fail(`its ${type} chunk runs past the end of the file (truncated)`);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (view.getUint32(offset + 8 + length) !== crc32(bytes.subarray(offset + 4, offset + 8 + length))) throw fail(`bad CRC in ${type} chunk`);
    offset += 12 + length;

    if (!header && type !== 'IHDR') throw fail(`its first chunk is ${type}, not IHDR`);
    if (sawIdat && type !== 'IDAT') idatEnded = true;
    switch (type) {
      case 'IHDR':
        if (header) throw fail('it has two IHDR chunks');
        header = readHeader(data, fail);
        // Refuse oversized images before anything the size of the image exists.
        checkImageSize(filename, 'PNG', header.width, header.height, { ...DEFAULT_IMAGE_LIMITS, ...options.limits });
        break;
      case 'PLTE':
        if (sawIdat) throw fail('its palette comes after the image data');
        if (length === 0 || length % 3 !== 0 || length > 256 * 3) throw fail(`its palette has ${length} bytes`);
        palette = data;
        break;
      case 'tRNS':
        if (!sawIdat) transparency = data;
        break;
      case 'eXIf':
        exif = data;
        break;
      case 'IDAT':
        if (idatEnded) throw fail('its image data is split by other chunks');
        sawIdat = true;
        // Fed to the inflater in pieces, so an oversized stream is caught soon after it overflows.
        for (let at = 0; at < length; at += INFLATE_PIECE) idat.push(data.subarray(at, at + INFLATE_PIECE));
        break;
      case 'IEND':
        ended = true;
        break;
      default:
        // Bit 5 of the first letter marks ancillary chunks, which may be skipped; critical ones may not.
        if ((type.charCodeAt(0) & 0x20) === 0) throw fail(`it has an unknown critical chunk ${type}`);
    }
  }
  if (!header) throw fail('it has no IHDR chunk');
  if (!sawIdat) throw fail('it has no image data');
  if (header.colorType === 3 && !palette) throw fail('it is a palette image without a palette');

  const raster = decodePixels(header, idat, paletteOf(header, palette, transparency), grayOrColorKey(header, transparency), fail);
  const orientation: Orientation = exif && options.applyOrientation !== false ? exifOrientation(exif) : 1;
  return orientRaster(raster, orientation);
}

function readHeader(data: Uint8Array, fail: (detail: string) => OmrError): Header {
  if (data.length !== 13) throw fail(`its IHDR chunk has ${data.length} bytes, not 13`);
  const view = new DataView(data.buffer, data.byteOffset, 13);
  const width = view.getUint32(0);
  const height = view.getUint32(4);
  const depth = data[8]!;
  const colorType = data[9]!;
  if (!DEPTHS[colorType]?.includes(depth)) throw fail(`colour type ${colorType} with bit depth ${depth} is not a valid combination`);
  if (data[10] !== 0 || data[11] !== 0) throw fail('it names an unknown compression or filter method');
  if (data[12]! > 1) throw fail(`it names an unknown interlace method ${data[12]}`);
  if (width > 0x7fffffff || height > 0x7fffffff) throw fail(`its size ${width}×${height} exceeds the PNG maximum`);
  return { width, height, depth, colorType, interlaced: data[12] === 1 };
}

/** The palette as RGBA, with tRNS alphas applied; undefined for images without a palette. */
function paletteOf(header: Header, plte: Uint8Array | undefined, trns: Uint8Array | undefined): Palette | undefined {
  if (header.colorType !== 3 || !plte) return undefined;
  const rgba = new Uint8Array(256 * 4);
  for (let i = 0; i < 256; i++) rgba[i * 4 + 3] = 255;
  for (let i = 0; i < plte.length / 3; i++) {
    rgba[i * 4] = plte[i * 3]!;
    rgba[i * 4 + 1] = plte[i * 3 + 1]!;
    rgba[i * 4 + 2] = plte[i * 3 + 2]!;
    if (trns && i < trns.length) rgba[i * 4 + 3] = trns[i]!;
  }
  return { rgba };
}

/**
 * The colour that tRNS makes transparent in a gray or RGB image, as raw
 * samples at the image's bit depth. Malformed tRNS chunks are ignored, as
 * browsers do: transparency is decoration, not content.
 */
function grayOrColorKey(header: Header, trns: Uint8Array | undefined): number[] | undefined {
  if (!trns) return undefined;
  const samples = header.colorType === 0 ? 1 : header.colorType === 2 ? 3 : 0;
  if (samples === 0 || trns.length !== samples * 2) return undefined;
  const mask = (1 << header.depth) - 1;
  return Array.from({ length: samples }, (_, i) => ((trns[i * 2]! << 8) | trns[i * 2 + 1]!) & mask);
}

function outputChannels(header: Header, palette: Palette | undefined, key: number[] | undefined): Raster['channels'] {
  switch (header.colorType) {
    case 0:
      return key ? 4 : 1;
    case 2:
      return key ? 4 : 3;
    case 3:
      // Only a palette with some transparency needs an alpha channel.
      for (let i = 3; palette && i < palette.rgba.length; i += 4) if (palette.rgba[i] !== 255) return 4;
      return 3;
    default:
      return 4;
  }
}

function decodePixels(
  header: Header,
  /** The compressed image data, in pieces. */
  idat: Uint8Array[],
  palette: Palette | undefined,
  key: number[] | undefined,
  fail: (detail: string, cause?: unknown) => OmrError,
): Raster {
  const { width, height, depth, colorType } = header;
  const channels = outputChannels(header, palette, key);
  const out = new Uint8Array(width * height * channels);
  const writer = pixelWriter(header, channels, out, palette, key);
  const samples = SAMPLES[colorType]!;
  const bitsPerPixel = samples * depth;
  // The filters look back this many bytes: one pixel, or one byte below 8 bits a pixel.
  const filterStep = Math.max(1, bitsPerPixel >> 3);

  const passes = (header.interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const))
    .map(([x0, y0, dx, dy]) => ({ x0, y0, dx, dy, w: Math.ceil(Math.max(0, width - x0) / dx), h: Math.ceil(Math.max(0, height - y0) / dy) }))
    .filter((p) => p.w > 0 && p.h > 0);
  const maxRow = 1 + Math.ceil((width * bitsPerPixel) / 8);
  let row = new Uint8Array(maxRow);
  let above = new Uint8Array(maxRow);
  let pass = 0;
  let y = 0;
  let filled = 0;
  let rowBytes = 1 + Math.ceil((passes[0]!.w * bitsPerPixel) / 8);

  // Called with each piece of inflated data: completes rows, unfilters and stores them.
  const consume = (chunk: Uint8Array) => {
    let at = 0;
    while (at < chunk.length) {
      if (pass === passes.length) throw fail('its image data is longer than the image');
      const take = Math.min(rowBytes - filled, chunk.length - at);
      row.set(chunk.subarray(at, at + take), filled);
      filled += take;
      at += take;
      if (filled < rowBytes) break;
      const p = passes[pass]!;
      unfilter(row, above, rowBytes, filterStep, fail);
      writer(row, p.w, p.y0 + y * p.dy, p.x0, p.dx);
      [row, above] = [above, row];
      filled = 0;
      if (++y === p.h) {
        y = 0;
        if (++pass < passes.length) {
          rowBytes = 1 + Math.ceil((passes[pass]!.w * bitsPerPixel) / 8);
          // Each pass starts with a row of zeros above it.
          above.fill(0);
        }
      }
    }
  };

  const inflater = new Unzlib((chunk) => consume(chunk));
  try {
    if (idat.length === 0) inflater.push(new Uint8Array(0), true);
    idat.forEach((piece, i) => inflater.push(piece, i === idat.length - 1));
  } catch (err) {
    if (err instanceof OmrError) throw err;
    throw fail(`its compressed image data is damaged (${err instanceof Error ? err.message : String(err)})`, err);
  }
  if (pass < passes.length) throw fail('its image data ends early (truncated)');
  return { width, height, channels, data: out };
}

/** Reverses the row's filter in place; `row[0]` is the filter type and `above` the previous unfiltered row. */
function unfilter(row: Uint8Array, above: Uint8Array, length: number, step: number, fail: (detail: string) => OmrError): void {
  const filter = row[0]!;
  switch (filter) {
    case 0:
      return;
    case 1:
      for (let i = 1 + step; i < length; i++) row[i] = (row[i]! + row[i - step]!) & 0xff;
      return;
    case 2:
      for (let i = 1; i < length; i++) row[i] = (row[i]! + above[i]!) & 0xff;
      return;
    case 3:
      for (let i = 1; i < length; i++) row[i] = (row[i]! + ((i > step ? row[i - step]! : 0) + above[i]!) / 2) & 0xff;
      return;
    case 4:
      for (let i = 1; i < length; i++) {
        const a = i > step ? row[i - step]! : 0;
        const b = above[i]!;
        const c = i > step ? above[i - step]! : 0;
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        row[i] = (row[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff;
      }
      return;
    default:
      throw fail(`a row has the unknown filter type ${filter}`);
  }
}

/**
 * A function that writes one unfiltered row of `count` pixels into the
 * output at row `y`, starting at column `x0` and stepping `dx` columns (the
 * interlace passes fill the image in a lattice).
 */
function pixelWriter(
  header: Header,
  channels: number,
  out: Uint8Array,
  palette: Palette | undefined,
  key: number[] | undefined,
): (row: Uint8Array, count: number, y: number, x0: number, dx: number) => void {
  const { width, depth, colorType } = header;
  const samples = SAMPLES[colorType]!;
  const max = (1 << depth) - 1;
  // Raw sample i of the row (the row's byte 0 is the filter type).
  const sample =
    depth === 8
      ? (row: Uint8Array, i: number) => row[1 + i]!
      : depth === 16
        ? (row: Uint8Array, i: number) => (row[1 + 2 * i]! << 8) | row[2 + 2 * i]!
        : (row: Uint8Array, i: number) => (row[1 + ((i * depth) >> 3)]! >> (8 - depth - ((i * depth) & 7))) & max;
  // 8-bit value of a raw sample: low depths stretch to the full range, 16-bit rounds to nearest.
  const to8 = depth === 8 ? (v: number) => v : depth === 16 ? (v: number) => Math.round(v / 257) : (v: number) => (v * 255) / max;

  return (row, count, y, x0, dx) => {
    let o = (y * width + x0) * channels;
    const skip = dx * channels;
    for (let x = 0; x < count; x++, o += skip) {
      const s = x * samples;
      if (palette) {
        const e = sample(row, s) * 4;
        out[o] = palette.rgba[e]!;
        out[o + 1] = palette.rgba[e + 1]!;
        out[o + 2] = palette.rgba[e + 2]!;
        if (channels === 4) out[o + 3] = palette.rgba[e + 3]!;
      } else if (colorType === 0 || colorType === 4) {
        const g = sample(row, s);
        const v = to8(g);
        if (channels === 1) {
          out[o] = v;
        } else {
          out[o] = out[o + 1] = out[o + 2] = v;
          out[o + 3] = colorType === 4 ? to8(sample(row, s + 1)) : g === key![0] ? 0 : 255;
        }
      } else {
        const r = sample(row, s);
        const g = sample(row, s + 1);
        const b = sample(row, s + 2);
        out[o] = to8(r);
        out[o + 1] = to8(g);
        out[o + 2] = to8(b);
        if (colorType === 6) out[o + 3] = to8(sample(row, s + 3));
        else if (channels === 4) out[o + 3] = r === key![0] && g === key![1] && b === key![2] ? 0 : 255;
      }
    }
  };
}
