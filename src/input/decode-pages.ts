/**
 * The input stage of recognition: the user's files in, page rasters out, in
 * order — every page of a PDF or a multi-page TIFF, every image of a HEIF
 * file, one page per other image.
 *
 * Pages are produced lazily, one at a time: the generator holds no raster
 * once it has yielded it, and a document's next page is decoded only when
 * asked for, so memory holds one page however long the upload. Every file's
 * type and size are checked before the first page is decoded, so a batch
 * with one unusable file fails at once rather than after minutes of work.
 */
import { OmrError } from '../errors.js';
import { resizeArea, type Raster } from '../image/raster.js';
import { detectFileType, PAGE_TYPES, type FileType } from './file-type.js';
import { openHeic } from './heic.js';
import { fileLabel, tooLarge } from './input-error.js';
import { decodeJpeg } from './jpeg.js';
import { DEFAULT_PDF_DPI, MAX_FILE_BYTES, MAX_WORKING_PIXELS } from './limits.js';
import { openPdf, type PdfDocument } from './pdf.js';
import { decodePng } from './png.js';
import { openTiff } from './tiff.js';
import { decodeWebp } from './webp.js';

export interface InputFile {
  filename: string;
  data: Uint8Array;
  mimeType?: string;
}

export interface DecodePagesOptions {
  /** Resolution PDF pages are rendered at (default 300), or first rendered at where `pdfResolution` is given. */
  dpi?: number;
  /**
   * Chooses the resolution a PDF page is rendered at from its rendering at
   * `dpi` (recognition: from the staff size it shows); the page is rendered
   * again at the resolution returned when that differs.
   */
  pdfResolution?: (page: Raster, dpi: number) => number;
  /** The pages wanted, as 0-based indices over all files (default every page); the others are never decoded. */
  pages?: ReadonlySet<number>;
  /** Most pixels a yielded page may have (default {@link MAX_WORKING_PIXELS}); larger images are reduced to it. */
  maxPixels?: number;
}

export interface DecodedPage {
  /** Index of the file in the input list. */
  file: number;
  /** Index of the page within its file, from 0. */
  page: number;
  /** Index of the page over all files, from 0. */
  index: number;
  raster: Raster;
}

type PageFileType = Exclude<FileType, 'musicxml' | 'mxl'>;

/**
 * Yields every page of every file, in order. Throws `UNSUPPORTED_FILE_TYPE`
 * for MusicXML and MXL files (scores to convert, not pages to recognise) and
 * for types ScoreSight does not read, `OMR_MIME_REQUIRED` when a file's type
 * cannot be told, and the decoders' errors (`CORRUPTED_FILE`, `ENCRYPTED_PDF`,
 * `FILE_TOO_LARGE`, `UNSUPPORTED_FILE_TYPE`) for the file they concern.
 */
export async function* decodePages(files: readonly InputFile[], options: DecodePagesOptions = {}): AsyncGenerator<DecodedPage, void, undefined> {
  if (files.length === 0) throw new OmrError('INVALID_ARGUMENT', 'No files were given to recognise.');
  const types = files.map(pageFileType);
  let index = 0;
  for (let file = 0; file < files.length; file++) {
    let page = 0;
    const first = index;
    const wanted = (page: number) => !options.pages || options.pages.has(first + page);
    for await (const raster of pagesOf(types[file]!, files[file]!, options, wanted)) {
      if (raster) yield { file, page, index, raster: toWorkingSize(raster, options.maxPixels ?? MAX_WORKING_PIXELS) };
      page++;
      index++;
    }
  }
}

/** A PDF page at `options.dpi`, or rendered again at the resolution `options.pdfResolution` chooses from that. */
async function renderPdfPage(pdf: PdfDocument, page: number, options: DecodePagesOptions): Promise<Raster> {
  const first = await pdf.renderPage(page, { dpi: options.dpi });
  const dpi = options.dpi ?? DEFAULT_PDF_DPI;
  const chosen = options.pdfResolution?.(first, dpi) ?? dpi;
  return chosen === dpi ? first : pdf.renderPage(page, { dpi: chosen });
}

/**
 * How many pages {@link decodePages} yields for a file, read from its
 * structure without decoding any: a PDF's page tree, a TIFF's directories, a
 * HEIF file's images; 1 for other images. Throws as `decodePages` does when
 * the type is refused or that structure cannot be read.
 */
export async function countPages(input: InputFile): Promise<number> {
  const { filename, data } = input;
  switch (pageFileType(input)) {
    case 'pdf': {
      const pdf = await openPdf(data, { filename });
      await pdf.close();
      return pdf.pageCount;
    }
    case 'tiff':
      return openTiff(data, { filename }).pageCount;
    case 'heic': {
      const heic = await openHeic(data, { filename });
      heic.close();
      return heic.pageCount;
    }
    default:
      return 1;
  }
}

/** The pages of one file, decoded as they are asked for; undefined for each page not `wanted`, which is never decoded. */
async function* pagesOf(
  type: PageFileType,
  { filename, data }: InputFile,
  options: DecodePagesOptions,
  wanted: (page: number) => boolean,
): AsyncGenerator<Raster | undefined, void, undefined> {
  switch (type) {
    case 'png':
      yield wanted(0) ? decodePng(data, { filename }) : undefined;
      return;
    case 'jpeg':
      yield wanted(0) ? decodeJpeg(data, { filename }) : undefined;
      return;
    case 'webp':
      yield wanted(0) ? await decodeWebp(data, { filename }) : undefined;
      return;
    case 'tiff': {
      const tiff = openTiff(data, { filename });
      for (let page = 0; page < tiff.pageCount; page++) yield wanted(page) ? tiff.decodePage(page) : undefined;
      return;
    }
    case 'heic': {
      const heic = await openHeic(data, { filename });
      try {
        for (let page = 0; page < heic.pageCount; page++) yield wanted(page) ? await heic.decodePage(page) : undefined;
      } finally {
        heic.close();
      }
      return;
    }
    case 'pdf': {
      const pdf = await openPdf(data, { filename });
      try {
        for (let page = 0; page < pdf.pageCount; page++) yield wanted(page) ? await renderPdfPage(pdf, page, options) : undefined;
      } finally {
        // Also when the consumer stops early or a page fails.
        await pdf.close();
      }
    }
  }
}

/**
 * A page over `maxPixels`, reduced by area averaging (which keeps thin staff
 * lines) to fit it, keeping its shape, before anything else holds it: the
 * decoded image is garbage once this returns, and recognition's cost per
 * pixel applies only to the reduced page. PDF pages are rendered within the
 * limit already.
 */
function toWorkingSize(raster: Raster, maxPixels: number): Raster {
  const pixels = raster.width * raster.height;
  if (pixels <= maxPixels) return raster;
  const scale = Math.sqrt(maxPixels / pixels);
  return resizeArea(raster, Math.max(1, Math.floor(raster.width * scale)), Math.max(1, Math.floor(raster.height * scale)));
}

/** A file's type, when it is one that has pages; otherwise the error that refuses it. */
function pageFileType(input: InputFile): PageFileType {
  if (!(input.data instanceof Uint8Array)) throw new OmrError('INVALID_ARGUMENT', `${fileLabel(input.filename)} has no bytes (data must be a Uint8Array).`);
  if (input.data.length === 0) throw new OmrError('CORRUPTED_FILE', `${fileLabel(input.filename)} is empty.`);
  if (input.data.length > MAX_FILE_BYTES) {
    throw tooLarge(input.filename, `${input.data.length} bytes, and at most ${MAX_FILE_BYTES} are accepted`);
  }
  const type = detectFileType(input);
  if (type === 'musicxml' || type === 'mxl') {
    throw new OmrError(
      'UNSUPPORTED_FILE_TYPE',
      `${fileLabel(input.filename)} is a ${type === 'mxl' ? 'compressed MusicXML (.mxl)' : 'MusicXML'} score, not a page to recognise; convert it directly instead. Accepted for recognition: ${PAGE_TYPES}.`,
    );
  }
  return type;
}
