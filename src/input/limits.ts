/**
 * Bounds on what the input decoders accept, checked before anything large is
 * allocated, so a hostile or mistaken upload fails fast with `FILE_TOO_LARGE`
 * instead of exhausting a browser tab's memory. Real scores, scans and phone
 * photos stay well inside them.
 */

/** Largest file accepted, in bytes; a 300-dpi colour scan of a whole opera vocal score stays below it. */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

/**
 * Most pixels in one decoded image. Phone cameras save 12–50 megapixels; a
 * decoded 64-megapixel RGB page is already 192 MB, and jpeg-js needs several
 * times that while decoding.
 */
export const MAX_IMAGE_PIXELS = 64_000_000;

/** Longest side of an image, so a 1-pixel-high strip cannot pass the pixel limit. */
export const MAX_IMAGE_SIDE = 32_768;

/** The pixel bounds an image decoder applies; tests and callers may tighten them. */
export interface ImageLimits {
  maxPixels: number;
  maxSide: number;
}

export const DEFAULT_IMAGE_LIMITS: ImageLimits = { maxPixels: MAX_IMAGE_PIXELS, maxSide: MAX_IMAGE_SIDE };

/** Memory jpeg-js may use while decoding one image (its own accounting, in MiB). */
export const MAX_JPEG_DECODER_MB = 1024;

/**
 * Most pixels in one rendered PDF page (an A3 page at 300 dpi is 35 Mpx).
 * Larger pages are rendered at a lower resolution rather than refused.
 */
export const MAX_PDF_PAGE_PIXELS = 36_000_000;

/** Default rendering resolution of PDF pages: what a 300-dpi scan of the same page would give. */
export const DEFAULT_PDF_DPI = 300;

/** Highest resolution a caller may ask for; beyond this notation gains nothing. */
export const MAX_PDF_DPI = 1200;

/** Most pages read from one PDF; larger documents are books, not scores to recognise at once. */
export const MAX_PDF_PAGES = 2000;

/** Most pages read from one multi-image file (a TIFF's directories, a HEIF's images), as for PDFs. */
export const MAX_IMAGE_PAGES = MAX_PDF_PAGES;
