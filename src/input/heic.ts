/**
 * HEIC and other HEIF images (what phones save photos as) through
 * heic-decode, which runs libheif and its HEVC decoder, libde265, compiled to
 * WebAssembly: the same code in Node and browsers. It is loaded when the
 * first HEIC file is opened, since it is large (about 2 MB of script).
 *
 * Every top-level image of the file is a page, in file order: a phone photo
 * has one (its thumbnail, depth map and the tiles of its grid are not
 * top-level), and a file that collects several pictures shows each, as a
 * TIFF's pages are.
 *
 * Phones store photos as the sensor saw them and record the turn in the
 * file's `irot` and `imir` boxes; libheif applies those (and any `clap`
 * crop) while decoding, and reports the size after them, so the pages come
 * out upright and that size is what the limits are checked against, before
 * anything is decoded. HEIF readers ignore the Exif orientation that phones
 * also write (the boxes say the same, and applying both would turn the page
 * twice), so it is ignored here too.
 */
import type { DecodedHeicImage, HeicImage } from 'heic-decode';
import { OmrError } from '../errors.js';
import type { Raster } from '../image/raster.js';
import { checkImageSize, corruptedFile, fileLabel, tooLarge } from './input-error.js';
import { DEFAULT_IMAGE_LIMITS, MAX_IMAGE_PAGES, type ImageLimits } from './limits.js';
import { rasterFromRgba } from './rgba.js';

export interface HeicOpenOptions {
  /** Named in error messages. */
  filename?: string;
  /** Tighter pixel bounds than the defaults. */
  limits?: Partial<ImageLimits>;
}

export interface HeicDocument {
  pageCount: number;
  /** Decodes page `index` (from 0) into an upright RGB raster, or RGBA when it has transparent pixels. */
  decodePage(index: number): Promise<Raster>;
  /** Frees the parsed file; pages cannot be decoded after it. */
  close(): void;
}

/**
 * Parses a HEIF file. Throws `CORRUPTED_FILE` when its boxes cannot be read
 * and `UNSUPPORTED_FILE_TYPE` for an ISO media file that is not a HEIF image
 * libheif reads.
 */
export async function openHeic(bytes: Uint8Array, options: HeicOpenOptions = {}): Promise<HeicDocument> {
  const { filename } = options;
  const limits = { ...DEFAULT_IMAGE_LIMITS, ...options.limits };
  const fail = (detail: string, cause?: unknown) => corruptedFile(filename, 'HEIC', detail, cause);
  if (bytes.length < 12 || String.fromCharCode(...bytes.subarray(4, 8)) !== 'ftyp') throw fail('it does not start with a file-type box');

  const decode = await heicDecoder();
  let images: HeicImage[] & { dispose(): void };
  try {
    images = await decode.all({ buffer: bytes });
  } catch (err) {
    if (err instanceof TypeError && /not a HEIC image/.test(err.message)) {
      const brand = String.fromCharCode(...bytes.subarray(8, 12));
      throw new OmrError(
        'UNSUPPORTED_FILE_TYPE',
        `${fileLabel(filename)} is an ISO media file of brand ${JSON.stringify(brand)}, not a HEIC image ScoreSight can decode; save the page as JPEG or PNG.`,
        { cause: err },
      );
    }
    throw fail('its boxes are damaged or cut short, or it holds no image', err);
  }

  if (images.length > MAX_IMAGE_PAGES) {
    images.dispose();
    throw tooLarge(filename, `it has ${images.length} images, and at most ${MAX_IMAGE_PAGES} are accepted`);
  }
  let closed = false;
  return {
    pageCount: images.length,
    async decodePage(index) {
      if (closed) throw new OmrError('INVALID_ARGUMENT', `${fileLabel(filename)} was closed; reopen it to decode pages.`);
      const image: HeicImage | undefined = images[index];
      if (!image) throw new OmrError('INVALID_ARGUMENT', `${fileLabel(filename)} has no page ${index + 1}.`);
      checkImageSize(filename, 'HEIC', image.width, image.height, limits);
      let decoded: DecodedHeicImage;
      try {
        decoded = await image.decode();
      } catch (err) {
        throw fail(`the image data of its page ${index + 1} is damaged`, err);
      }
      const { width, height, data } = decoded;
      if (width !== image.width || height !== image.height || data.length !== width * height * 4) {
        throw fail(`the size of its page ${index + 1} and its decoded pixels disagree`);
      }
      return rasterFromRgba(width, height, data);
    },
    close() {
      if (closed) return;
      closed = true;
      images.dispose();
    },
  };
}

type HeicDecode = typeof import('heic-decode').default;

let loading: Promise<HeicDecode> | undefined;

/** heic-decode and its WebAssembly, loaded once. */
function heicDecoder(): Promise<HeicDecode> {
  loading ??= import('heic-decode')
    .then((module) => module.default)
    .catch((err: unknown) => {
      loading = undefined;
      throw new OmrError('INTERNAL_ERROR', `HEIC decoding is unavailable here: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    });
  return loading;
}
