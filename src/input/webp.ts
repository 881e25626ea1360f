/**
 * WebP decoding through @jsquash/webp: libwebp compiled to WebAssembly (the
 * Squoosh build), the same decoder in Node and browsers.
 *
 * The RIFF container is walked here first. That gives the image size, to
 * check against the limits before the decoder allocates anything; whether
 * the file is animated (refused by name: a page is one still picture); and
 * the Exif block, whose orientation libwebp leaves to its caller, as JPEG
 * decoders do.
 *
 * The WebAssembly module is loaded when the first WebP is decoded. Browsers
 * fetch it from beside the decoder's script, where bundlers put it (they
 * follow the script's `new URL('webp_dec.wasm', import.meta.url)`). Node
 * cannot fetch files, so there it is compiled from the installed package's
 * file, through Node's own module resolver and `fs`, reached through
 * `process.getBuiltinModule` so that browser bundles see no `node:` import.
 */
import { OmrError } from '../errors.js';
import type { Raster } from '../image/raster.js';
import { exifOrientation, type Orientation } from './exif-orientation.js';
import { checkImageSize, corruptedFile, fileLabel } from './input-error.js';
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from './limits.js';
import { orientRaster } from './orientation.js';
import { rasterFromRgba } from './rgba.js';

export interface WebpDecodeOptions {
  /** Named in error messages. */
  filename?: string;
  /** Tighter pixel bounds than the defaults. */
  limits?: Partial<ImageLimits>;
  /** Whether to turn the image upright by its Exif orientation (default true). */
  applyOrientation?: boolean;
}

/** What the RIFF chunks say before the image data is decoded. */
export interface WebpHeader {
  width: number;
  height: number;
  animated: boolean;
  orientation: Orientation;
}

/** Decodes a still WebP (lossy or lossless) into an upright RGB raster, or RGBA when it has transparent pixels. */
export async function decodeWebp(bytes: Uint8Array, options: WebpDecodeOptions = {}): Promise<Raster> {
  const { filename } = options;
  const header = readWebpHeader(bytes, filename);
  if (header.animated) {
    throw new OmrError('UNSUPPORTED_FILE_TYPE', `${fileLabel(filename)} is an animated WebP, which ScoreSight does not read as a page; save the page as a still image.`);
  }
  checkImageSize(filename, 'WebP', header.width, header.height, { ...DEFAULT_IMAGE_LIMITS, ...options.limits });

  const decode = await webpDecoder();
  let image: ImageData;
  try {
    // The decoder reads an ArrayBuffer; a copy also keeps the caller's bytes out of its reach.
    image = await decode(bytes.slice().buffer);
  } catch (err) {
    // libwebp reports damage by returning nothing, which @jsquash/webp turns into this error; anything else
    // is a trap in the WebAssembly, after which the module is loaded afresh rather than trusted again.
    if (!(err instanceof Error && err.message === 'Decoding error')) loading = undefined;
    throw corruptedFile(filename, 'WebP', 'its image data is damaged or cut short', err);
  }
  const { width, height, data } = image;
  if (width !== header.width || height !== header.height || data.length !== width * height * 4) {
    throw corruptedFile(filename, 'WebP', 'its header and image data disagree');
  }

  const raster = rasterFromRgba(width, height, data);
  return options.applyOrientation === false ? raster : orientRaster(raster, header.orientation);
}

/**
 * Walks the RIFF chunks: the simple formats hold one `VP8 ` (lossy) or
 * `VP8L` (lossless) chunk; the extended one starts with `VP8X`, which gives
 * the canvas size and flags, and may hold `EXIF`, `ICCP`, `ALPH`, `ANIM` and
 * more before or after the image chunk.
 */
export function readWebpHeader(bytes: Uint8Array, filename?: string): WebpHeader {
  const fail = (detail: string) => corruptedFile(filename, 'WebP', detail);
  const ascii = (from: number) => String.fromCharCode(...bytes.subarray(from, from + 4));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || ascii(0) !== 'RIFF' || ascii(8) !== 'WEBP') throw fail('it does not start with the WebP RIFF header');
  const end = 8 + view.getUint32(4, true);
  if (end > bytes.length) throw fail('it ends before the length its header gives (truncated)');

  let canvas: { width: number; height: number } | undefined;
  let frame: { width: number; height: number } | undefined;
  let animated = false;
  let orientation: Orientation = 1;
  for (let at = 12; at + 8 <= end; ) {
    const type = ascii(at);
    const length = view.getUint32(at + 4, true);
    const start = at + 8;
    if (length > end - start) throw fail(`its ${type.trim()} chunk runs past the end of the file (truncated)`);
    const chunk = bytes.subarray(start, start + length);
    const u24 = (i: number) => chunk[i]! | (chunk[i + 1]! << 8) | (chunk[i + 2]! << 16);
    if (at === 12 && !['VP8 ', 'VP8L', 'VP8X'].includes(type)) throw fail(`its first chunk is ${JSON.stringify(type)}, not an image`);
    if (type === 'VP8X') {
      if (at !== 12 || length < 10) throw fail('its VP8X chunk is misplaced or too short');
      animated = (chunk[0]! & 0x02) !== 0;
      canvas = { width: 1 + u24(4), height: 1 + u24(7) };
    } else if ((type === 'VP8 ' || type === 'VP8L') && !frame) {
      frame = type === 'VP8 ' ? lossySize(chunk) : losslessSize(chunk);
      if (!frame) throw fail(`its ${type.trim()} image chunk has no valid frame header`);
    } else if (type === 'EXIF') {
      orientation = exifOrientation(chunk);
    }
    at = start + length + (length & 1);
  }
  if (canvas && animated) return { ...canvas, animated, orientation };
  if (!frame) throw fail('it has no image chunk (truncated?)');
  if (canvas && (canvas.width !== frame.width || canvas.height !== frame.height)) throw fail('its canvas and image sizes disagree');
  return { ...frame, animated, orientation };
}

/** A VP8 key frame: a 3-byte frame tag, the start code 9D 01 2A, then 14-bit width and height. */
function lossySize(chunk: Uint8Array): { width: number; height: number } | undefined {
  if (chunk.length < 10 || (chunk[0]! & 1) !== 0 || chunk[3] !== 0x9d || chunk[4] !== 0x01 || chunk[5] !== 0x2a) return undefined;
  return { width: (chunk[6]! | (chunk[7]! << 8)) & 0x3fff, height: (chunk[8]! | (chunk[9]! << 8)) & 0x3fff };
}

/** A VP8L stream: the signature byte 2F, then width − 1 and height − 1 in 14 bits each. */
function losslessSize(chunk: Uint8Array): { width: number; height: number } | undefined {
  if (chunk.length < 5 || chunk[0] !== 0x2f) return undefined;
  const bits = (chunk[1]! | (chunk[2]! << 8) | (chunk[3]! << 16) | (chunk[4]! << 24)) >>> 0;
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
}

// ---------------------------------------------------------------- loading the decoder

type WebpDecode = (data: ArrayBuffer) => Promise<ImageData>;

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

let loading: Promise<WebpDecode> | undefined;

/** The WebAssembly decoder, loaded once (and again after a trap). */
function webpDecoder(): Promise<WebpDecode> {
  loading ??= loadDecoder().catch((err: unknown) => {
    loading = undefined;
    throw new OmrError('INTERNAL_ERROR', `WebP decoding is unavailable here: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  });
  return loading;
}

/** A 1×1 white lossless WebP, decoded once on loading so that a module that cannot load says so there. */
const PROBE = new Uint8Array([
  0x52, 0x49, 0x46, 0x46, 0x1e, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x4c, 0x11, 0, 0, 0, 0x2f, 0, 0, 0, 0, 0x07, 0xd0, 0xff, 0xfe,
  0xf7, 0xbf, 0xff, 0x81, 0x88, 0xe8, 0x7f, 0, 0,
]);

async function loadDecoder(): Promise<WebpDecode> {
  const { default: decode, init } = await import('@jsquash/webp/decode.js');
  // `init` starts a fresh instance, also after a trap; `decode` waits for it.
  if (isNode) {
    const { createRequire } = process.getBuiltinModule('module');
    const { readFileSync } = process.getBuiltinModule('fs');
    const wasm = readFileSync(createRequire(import.meta.url).resolve('@jsquash/webp/codec/dec/webp_dec.wasm'));
    await init(await WebAssembly.compile(wasm));
  } else {
    await init();
  }
  await decode(PROBE.slice().buffer);
  return decode;
}
