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

/**
 * Most bytes one image's decoding may hold at once: the samples as the file
 * stores them and the 8-bit raster made of them. The pixel bound alone is
 * not enough where a pixel is large: a 64-megapixel TIFF page of sixteen
 * 16-bit samples would hold 2 GB. 512 MiB still takes every 8-bit image the
 * pixel bound takes (an RGBA TIFF page needs 7 bytes a pixel), and 16-bit
 * RGB pages up to some 59 megapixels. TIFF is where it binds: the other
 * decoders hold at most 8 bytes a pixel (PNG streams its rows, jpeg-js has
 * {@link MAX_JPEG_DECODER_MB}), within it by the pixel bound, and
 * recognition itself works on a page reduced to {@link MAX_WORKING_PIXELS}.
 */
export const MAX_IMAGE_BYTES = 512 * 1024 * 1024;

/** The bounds an image decoder applies; tests and callers may tighten them. */
export interface ImageLimits {
  maxPixels: number;
  maxSide: number;
  /** Bytes the decoding of one image may hold at once ({@link MAX_IMAGE_BYTES}). */
  maxBytes: number;
}

export const DEFAULT_IMAGE_LIMITS: ImageLimits = { maxPixels: MAX_IMAGE_PIXELS, maxSide: MAX_IMAGE_SIDE, maxBytes: MAX_IMAGE_BYTES };

/** Memory jpeg-js may use while decoding one image (its own accounting, in MiB). */
export const MAX_JPEG_DECODER_MB = 1024;

/**
 * Most pixels of a page handed to recognition. Recognition costs some 70
 * bytes a pixel at its peak and rescales every page to a 12-pixel staff
 * space anyway, which an A3 page reaches at 250 dpi (12 Mpx): larger images
 * are reduced to this by area averaging as soon as they are decoded, so a
 * 64-megapixel photo costs recognition no more than a 16-megapixel one.
 */
export const MAX_WORKING_PIXELS = 16_000_000;

/**
 * Most pixels in one rendered PDF page (an A3 page at 300 dpi is 17 Mpx, at
 * recognition's 200 dpi 8 Mpx). Larger pages are rendered at a lower
 * resolution rather than refused, down to {@link MIN_PDF_DPI}.
 */
export const MAX_PDF_PAGE_PIXELS = MAX_WORKING_PIXELS;

/**
 * Lowest resolution a PDF page is rendered at to fit {@link MAX_PDF_PAGE_PIXELS}:
 * even 5 mm staff spaces come out at 7 pixels. A page too large for the
 * limit at this resolution (a MediaBox or UserUnit of hundreds of metres) is
 * refused.
 */
export const MIN_PDF_DPI = 36;

/** Default rendering resolution of PDF pages: what a 300-dpi scan of the same page would give. */
export const DEFAULT_PDF_DPI = 300;

/** Highest resolution a caller may ask for; beyond this notation gains nothing. */
export const MAX_PDF_DPI = 1200;

/** Most pages read from one PDF; larger documents are books, not scores to recognise at once. */
export const MAX_PDF_PAGES = 2000;

/** Most pages read from one multi-image file (a TIFF's directories, a HEIF's images), as for PDFs. */
export const MAX_IMAGE_PAGES = MAX_PDF_PAGES;

/**
 * Most drawing operations one PDF page may produce; a dense engraved page
 * has some 15,000. Nested forms multiply: a 3 KB file whose forms each draw
 * the next ten times, ten deep, draws 10¹⁰ times.
 */
export const MAX_PDF_PAGE_OPERATIONS = 1_000_000;

/**
 * Most slices one PDF page may be drawn in. pdf.js draws a page in slices
 * of some 15 ms each (resuming as the parsed drawing arrives); a dense
 * engraved page takes about 40, a page of nested forms thousands.
 */
export const MAX_PDF_RENDER_STEPS = 1_000;

/** How much drawing rendering one PDF page may cost; tests and callers may tighten it. */
export interface PdfPageBudget {
  maxOperations: number;
  maxSteps: number;
}

export const DEFAULT_PDF_PAGE_BUDGET: PdfPageBudget = { maxOperations: MAX_PDF_PAGE_OPERATIONS, maxSteps: MAX_PDF_RENDER_STEPS };
