/**
 * Thumbnail writer: a small PNG of the first input page, for job lists and
 * file pickers.
 */
import { OmrError } from '../errors.js';
import { encodePng } from '../image/png-encode.js';
import { assertRaster, resizeArea, type Raster } from '../image/raster.js';

/** Thumbnail bounds when none are given: 512 × 512, enough for a readable first system on a high-density screen. */
const DEFAULT_MAX_SIZE = 512;

export interface ThumbnailOptions {
  /** Largest width in pixels; default 512. */
  maxWidth?: number;
  /** Largest height in pixels; default 512. */
  maxHeight?: number;
}

/**
 * Encodes a page (the caller passes the first input page) as a PNG that fits
 * within `maxWidth` × `maxHeight` (512 × 512 by default), keeping its aspect
 * ratio. Pages already small enough keep their size: enlarging only blurs.
 *
 * Transparency is composited onto white, as paper, so the thumbnail looks the
 * same on any background; gray pages stay one channel, colour pages become RGB.
 */
export function writeThumbnail(page: Raster, options: ThumbnailOptions = {}): Uint8Array {
  assertRaster(page);
  const maxWidth = options.maxWidth ?? DEFAULT_MAX_SIZE;
  const maxHeight = options.maxHeight ?? DEFAULT_MAX_SIZE;
  if (!Number.isSafeInteger(maxWidth) || maxWidth < 1 || !Number.isSafeInteger(maxHeight) || maxHeight < 1) {
    throw new OmrError('INVALID_ARGUMENT', `thumbnail bounds must be positive integers, got ${maxWidth}×${maxHeight}`);
  }
  const { width, height } = fitWithin(page.width, page.height, maxWidth, maxHeight);
  // Composite before averaging: averaging straight (not premultiplied) alpha would bleed the colour of transparent pixels.
  const opaque = page.channels === 4 ? onWhite(page) : page;
  const small = width === page.width && height === page.height ? opaque : resizeArea(opaque, width, height);
  return encodePng(small);
}

/** The largest size within the bounds with the page's aspect ratio, never larger than the page. */
function fitWithin(width: number, height: number, maxWidth: number, maxHeight: number): { width: number; height: number } {
  if (width <= maxWidth && height <= maxHeight) return { width, height };
  // Compare width/height with maxWidth/maxHeight without dividing.
  if (width * maxHeight >= height * maxWidth) {
    return { width: maxWidth, height: Math.max(1, Math.round((height * maxWidth) / width)) };
  }
  return { width: Math.max(1, Math.round((width * maxHeight) / height)), height: maxHeight };
}

/** An RGBA raster composited over opaque white, as RGB. */
function onWhite(page: Raster): Raster {
  const { width, height, data } = page;
  const out = new Uint8Array(width * height * 3);
  for (let p = 0, q = 0; p < data.length; p += 4, q += 3) {
    const alpha = data[p + 3]!;
    const white = 255 * (255 - alpha);
    for (let c = 0; c < 3; c++) out[q + c] = Math.round((data[p + c]! * alpha + white) / 255);
  }
  return { width, height, channels: 3, data: out };
}
