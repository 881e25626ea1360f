/**
 * The input stage of recognition: the user's files in, page rasters out, in
 * order — every page of a PDF, one page per image.
 *
 * Pages are produced lazily, one at a time: the generator holds no raster
 * once it has yielded it, and a PDF's next page is rendered only when asked
 * for, so memory holds one page however long the upload. Every file's type
 * and size are checked before the first page is decoded, so a batch with one
 * unusable file fails at once rather than after minutes of work.
 */
import { OmrError } from '../errors.js';
import type { Raster } from '../image/raster.js';
import { detectFileType, type FileType } from './file-type.js';
import { fileLabel, tooLarge } from './input-error.js';
import { decodeJpeg } from './jpeg.js';
import { MAX_FILE_BYTES } from './limits.js';
import { openPdf } from './pdf.js';
import { decodePng } from './png.js';

export interface InputFile {
  filename: string;
  data: Uint8Array;
  mimeType?: string;
}

export interface DecodePagesOptions {
  /** Resolution PDF pages are rendered at (default 300). */
  dpi?: number;
}

export interface DecodedPage {
  /** Index of the file in the input list. */
  file: number;
  /** Index of the page within its file, from 0. */
  page: number;
  raster: Raster;
}

/**
 * Yields every page of every file, in order. Throws `UNSUPPORTED_FILE_TYPE`
 * for MusicXML and MXL files (scores to convert, not pages to recognise) and
 * for types ScoreSight does not read, `OMR_MIME_REQUIRED` when a file's type
 * cannot be told, and the decoders' errors (`CORRUPTED_FILE`, `ENCRYPTED_PDF`,
 * `FILE_TOO_LARGE`) for the file they concern.
 */
export async function* decodePages(files: readonly InputFile[], options: DecodePagesOptions = {}): AsyncGenerator<DecodedPage, void, undefined> {
  if (files.length === 0) throw new OmrError('INVALID_ARGUMENT', 'No files were given to recognise.');
  const types = files.map(pageFileType);
  for (let file = 0; file < files.length; file++) {
    const { filename, data } = files[file]!;
    const type = types[file]!;
    if (type === 'png') {
      yield { file, page: 0, raster: decodePng(data, { filename }) };
    } else if (type === 'jpeg') {
      yield { file, page: 0, raster: decodeJpeg(data, { filename }) };
    } else {
      const pdf = await openPdf(data, { filename });
      try {
        for (let page = 0; page < pdf.pageCount; page++) {
          yield { file, page, raster: await pdf.renderPage(page, { dpi: options.dpi }) };
        }
      } finally {
        // Also when the consumer stops early or a page fails.
        await pdf.close();
      }
    }
  }
}

/** A file's type, when it is one that has pages; otherwise the error that refuses it. */
function pageFileType(input: InputFile): Exclude<FileType, 'musicxml' | 'mxl'> {
  if (!(input.data instanceof Uint8Array)) throw new OmrError('INVALID_ARGUMENT', `${fileLabel(input.filename)} has no bytes (data must be a Uint8Array).`);
  if (input.data.length === 0) throw new OmrError('CORRUPTED_FILE', `${fileLabel(input.filename)} is empty.`);
  if (input.data.length > MAX_FILE_BYTES) {
    throw tooLarge(input.filename, `${input.data.length} bytes, and at most ${MAX_FILE_BYTES} are accepted`);
  }
  const type = detectFileType(input);
  if (type === 'musicxml' || type === 'mxl') {
    throw new OmrError(
      'UNSUPPORTED_FILE_TYPE',
      `${fileLabel(input.filename)} is a ${type === 'mxl' ? 'compressed MusicXML (.mxl)' : 'MusicXML'} score, not a page to recognise; convert it directly instead. Accepted for recognition: PDF, PNG or JPEG files of pages.`,
    );
  }
  return type;
}
