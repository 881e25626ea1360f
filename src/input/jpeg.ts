/**
 * JPEG decoding through jpeg-js (plain JavaScript, so the same in Node and
 * browsers), with the checks jpeg-js leaves to its caller.
 *
 * The file's markers are walked first: that gives the frame size to check
 * against the limits before jpeg-js allocates anything, the coding process
 * (jpeg-js reads only Huffman-coded 8-bit baseline, extended and progressive
 * JPEGs, so lossless and arithmetic-coded files are refused by name instead
 * of failing as "corrupted"), and the Exif orientation, which phones rely on
 * instead of turning the pixels.
 */
import jpeg from 'jpeg-js';
import { OmrError } from '../errors.js';
import type { Raster } from '../image/raster.js';
import { exifOrientation, type Orientation } from './exif-orientation.js';
import { checkImageSize, corruptedFile, fileLabel, tooLarge } from './input-error.js';
import { DEFAULT_IMAGE_LIMITS, MAX_JPEG_DECODER_MB, type ImageLimits } from './limits.js';
import { orientRaster } from './orientation.js';

export interface JpegDecodeOptions {
  /** Named in error messages. */
  filename?: string;
  /** Tighter pixel bounds than the defaults. */
  limits?: Partial<ImageLimits>;
  /** Whether to turn the image upright by its Exif orientation (default true). */
  applyOrientation?: boolean;
}

/** What the markers before the image data say. */
export interface JpegHeader {
  width: number;
  height: number;
  /** Colour components: 1 gray, 3 YCbCr/RGB, 4 CMYK. */
  components: number;
  /** Bits per sample. */
  precision: number;
  /** The SOF marker's low nibble: 0 baseline, 1 extended, 2 progressive, others lossless, hierarchical or arithmetic. */
  process: number;
  orientation: Orientation;
  /** Where the first scan's entropy-coded data begins. */
  scanStart: number;
}

const PROCESS_NAMES: Partial<Record<number, string>> = {
  3: 'lossless',
  5: 'hierarchical',
  6: 'hierarchical progressive',
  7: 'hierarchical lossless',
  9: 'arithmetic-coded',
  10: 'arithmetic-coded progressive',
  11: 'arithmetic-coded lossless',
  13: 'arithmetic-coded hierarchical',
  14: 'arithmetic-coded hierarchical progressive',
  15: 'arithmetic-coded hierarchical lossless',
};

/** Decodes a JPEG file into an upright 8-bit raster: gray for gray JPEGs, RGB otherwise. */
export function decodeJpeg(bytes: Uint8Array, options: JpegDecodeOptions = {}): Raster {
  const { filename } = options;
  const limits = { ...DEFAULT_IMAGE_LIMITS, ...options.limits };
  const header = readJpegHeader(bytes, filename);
  if (header.process > 2 || header.precision !== 8) {
    const what = header.process > 2 ? PROCESS_NAMES[header.process]! : `${header.precision}-bit`;
    throw new OmrError(
      'UNSUPPORTED_FILE_TYPE',
      `${fileLabel(filename)} is ${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what} JPEG, which ScoreSight cannot decode; save it as an ordinary JPEG or as PNG.`,
    );
  }
  checkImageSize(filename, 'JPEG', header.width, header.height, limits);
  // Entropy-coded data escapes every 0xFF, so an end marker after the first scan is the real end; without it the file was cut off.
  if (indexOfEnd(bytes, header.scanStart) < 0) throw corruptedFile(filename, 'JPEG', 'it ends before its end-of-image marker (truncated)');

  let decoded: { width: number; height: number; data: Uint8Array };
  try {
    decoded = jpeg.decode(bytes, {
      useTArray: true,
      formatAsRGBA: false,
      maxResolutionInMP: limits.maxPixels / 1e6,
      maxMemoryUsageInMB: MAX_JPEG_DECODER_MB,
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/limit exceeded|allocate enough memory/.test(message)) throw tooLarge(filename, `decoding it needs more memory than allowed (${message})`);
    if (/^Unsupported color mode/.test(message)) {
      throw new OmrError('UNSUPPORTED_FILE_TYPE', `${fileLabel(filename)} is a JPEG in a colour mode ScoreSight cannot decode (${message}); save it as RGB JPEG or PNG.`);
    }
    throw corruptedFile(filename, 'JPEG', `its image data is damaged (${message.replace(/\.$/, '')})`, err);
  }
  if (decoded.width !== header.width || decoded.height !== header.height || decoded.data.length !== header.width * header.height * 3) {
    throw corruptedFile(filename, 'JPEG', 'its frame header and image data disagree');
  }

  // jpeg-js always returns RGB; a gray JPEG's three channels are equal, so keep one.
  let raster: Raster = { width: decoded.width, height: decoded.height, channels: 3, data: decoded.data };
  if (header.components === 1) {
    const gray = new Uint8Array(decoded.width * decoded.height);
    for (let i = 0; i < gray.length; i++) gray[i] = decoded.data[i * 3]!;
    raster = { width: decoded.width, height: decoded.height, channels: 1, data: gray };
  }
  return options.applyOrientation === false ? raster : orientRaster(raster, header.orientation);
}

/**
 * Walks the markers from the start of the file to the first scan, reading
 * the frame header and the first Exif segment's orientation.
 */
export function readJpegHeader(bytes: Uint8Array, filename?: string): JpegHeader {
  const fail = (detail: string) => corruptedFile(filename, 'JPEG', detail);
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw fail('it does not start with the JPEG start-of-image marker');
  let frame: Omit<JpegHeader, 'orientation' | 'scanStart'> | undefined;
  let orientation: Orientation | undefined;
  let at = 2;
  for (;;) {
    // Markers may be preceded by any number of 0xFF fill bytes.
    if (bytes[at] !== 0xff) throw fail(at >= bytes.length ? 'it ends before its image data (truncated)' : `expected a marker at byte ${at}`);
    while (bytes[at] === 0xff) at++;
    if (at >= bytes.length) throw fail('it ends before its image data (truncated)');
    const marker = bytes[at++]!;
    // Markers without a length: restart markers, TEM.
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    if (marker === 0xd9) throw fail('it ends before any image data');
    if (at + 2 > bytes.length) throw fail('it ends inside a marker segment (truncated)');
    const length = (bytes[at]! << 8) | bytes[at + 1]!;
    if (length < 2 || at + length > bytes.length) throw fail('it ends inside a marker segment (truncated)');
    const segment = bytes.subarray(at + 2, at + length);
    at += length;

    if (marker === 0xe1 && orientation === undefined && isExif(segment)) orientation = exifOrientation(segment);
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (frame) throw fail('it has more than one frame header');
      if (segment.length < 6) throw fail('its frame header is too short');
      frame = {
        precision: segment[0]!,
        height: (segment[1]! << 8) | segment[2]!,
        width: (segment[3]! << 8) | segment[4]!,
        components: segment[5]!,
        process: marker & 0x0f,
      };
      if (![1, 3, 4].includes(frame.components)) throw fail(`it has ${frame.components} colour components`);
    }
    if (marker === 0xda) {
      if (!frame) throw fail('its image data comes before a frame header');
      return { ...frame, orientation: orientation ?? 1, scanStart: at };
    }
  }
}

function isExif(segment: Uint8Array): boolean {
  return segment[0] === 0x45 && segment[1] === 0x78 && segment[2] === 0x69 && segment[3] === 0x66 && segment[4] === 0 && segment[5] === 0;
}

/** Index of the first end-of-image marker (FF D9) at or after `from`, or −1. */
function indexOfEnd(bytes: Uint8Array, from: number): number {
  for (let i = bytes.indexOf(0xff, from); i >= 0 && i + 1 < bytes.length; i = bytes.indexOf(0xff, i + 1)) {
    if (bytes[i + 1] === 0xd9) return i;
  }
  return -1;
}
