/**
 * The errors every input decoder throws, worded the same way: which file,
 * what it was expected to be, and what is wrong with it. Decoders name the
 * file because a user uploads several at once and must know which one to fix.
 */
import { OmrError } from '../errors.js';
import type { ImageLimits } from './limits.js';

/** How a file is named in messages: its name when the caller gave one. */
export function fileLabel(filename: string | undefined): string {
  return filename ? `"${filename}"` : 'The file';
}

/** `CORRUPTED_FILE`: the file claims to be `format` but cannot be read as one. */
export function corruptedFile(filename: string | undefined, format: string, detail: string, cause?: unknown): OmrError {
  return new OmrError('CORRUPTED_FILE', `${fileLabel(filename)} is not a readable ${format} file: ${detail}.`, { cause });
}

/** `FILE_TOO_LARGE`, saying which bound was exceeded. */
export function tooLarge(filename: string | undefined, detail: string): OmrError {
  return new OmrError('FILE_TOO_LARGE', `${fileLabel(filename)} is too large: ${detail}.`);
}

/**
 * Checks a decoded image's size against the pixel bounds before its pixels
 * are allocated.
 */
export function checkImageSize(filename: string | undefined, format: string, width: number, height: number, limits: ImageLimits): void {
  if (!(width > 0 && height > 0)) throw corruptedFile(filename, format, `its size is ${width}×${height} pixels`);
  if (width > limits.maxSide || height > limits.maxSide) {
    throw tooLarge(filename, `${width}×${height} pixels, and no side may exceed ${limits.maxSide}`);
  }
  if (width * height > limits.maxPixels) {
    const mp = (n: number) => `${Math.round(n / 1e5) / 10} megapixels`;
    throw tooLarge(filename, `${width}×${height} pixels is ${mp(width * height)}, and at most ${mp(limits.maxPixels)} are accepted`);
  }
}

/**
 * Checks the memory an image's decoding holds at once, `bytesPerPixel`
 * over the buffers alive together (the file's samples and the raster made
 * of them), before any of it is allocated: large pixels are refused even
 * where their count passes {@link checkImageSize}.
 */
export function checkImageBytes(filename: string | undefined, width: number, height: number, bytesPerPixel: number, limits: ImageLimits): void {
  const bytes = Math.ceil(width * height * bytesPerPixel);
  if (bytes <= limits.maxBytes) return;
  const mib = (n: number) => `${Math.round((n / 2 ** 20) * 10) / 10} MiB`;
  throw tooLarge(filename, `${width}×${height} pixels at ${bytesPerPixel} bytes a pixel need ${mib(bytes)} to decode, and at most ${mib(limits.maxBytes)} is accepted (the decoding memory limit)`);
}
