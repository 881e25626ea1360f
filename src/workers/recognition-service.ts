/**
 * The recognition API's one implementation, run inside a worker
 * (`recognition-worker.ts`) or on the calling thread (`in-process.ts`).
 *
 * It is written for both: callbacks may be the caller's functions or
 * comlink proxies of them (whose calls return promises), and results mark
 * their PNG buffers for transfer, which comlink honours when they leave a
 * worker and nothing else notices.
 */
import { transfer } from 'comlink';
import { env } from '../env.js';
import { OmrError } from '../errors.js';
import { writeThumbnail } from '../exports/thumbnail.js';
import type { Raster } from '../image/raster.js';
import { decodePages } from '../input/decode-pages.js';
import { detectFileType } from '../input/file-type.js';
import { openPdf } from '../input/pdf.js';
import { RECOGNITION_MODEL_VERSION, RECOGNITION_PDF_DPI, recognizeScore, type PageReport } from '../recognize/recognize-score.js';
import type { RecognitionApi } from './recognition-api.js';

export function createRecognitionService(): RecognitionApi {
  return {
    async recognize({ files, dpi, locales }, events) {
      let thumbnail: Uint8Array = new Uint8Array(0);
      let pageCount = 0;
      const pages: PageReport[] = [];
      const notices: Promise<void>[] = [];
      try {
        const score = await recognizeScore(files, {
          dpi,
          ...(locales ? { locales } : {}),
          // Every run that returns a score saw a first page, so the thumbnail is always replaced.
          onFirstPage: (raster) => void (thumbnail = writeThumbnail(raster)),
          beforePage: async (page) => {
            pageCount = page + 1;
            await events.beforePage(page);
          },
          onProgress: ({ page, stage }) => void notices.push(advise(() => events.onStage(page, stage))),
          onPage: (report) => void pages.push(report),
        });
        return transfer({ score, thumbnail, pageCount, pages, modelVersion: RECOGNITION_MODEL_VERSION }, [thumbnail.buffer as ArrayBuffer]);
      } finally {
        // From a worker, stages travel on their own message channel; the outcome must not overtake them.
        await Promise.all(notices);
      }
    },

    async countPages(file) {
      if (detectFileType(file) === 'pdf') {
        const pdf = await openPdf(file.data, { filename: file.filename });
        await pdf.close();
        return pdf.pageCount;
      }
      // Decoding an image is the only way to know it is readable, and some formats hold several.
      let count = 0;
      for await (const _page of decodePages([file])) count++;
      return count;
    },

    async renderPage(files, page, maxSide) {
      if (!Number.isSafeInteger(page) || page < 0) throw new OmrError('INVALID_ARGUMENT', `page must be a whole number from 0, got ${page}.`);
      let first = 0; // the current file's first page, over all files
      for (const file of files) {
        const type = detectFileType(file);
        if (type === 'pdf') {
          // Only the requested page is rendered; a PDF before it is opened just for its page count.
          const pdf = await openPdf(file.data, { filename: file.filename });
          try {
            if (page < first + pdf.pageCount) return png(await pdf.renderPage(page - first, { dpi: RECOGNITION_PDF_DPI }), maxSide);
            first += pdf.pageCount;
          } finally {
            await pdf.close();
          }
        } else if ((type === 'png' || type === 'jpeg') && page > first) {
          first += 1; // one page, skipped without decoding it
        } else {
          for await (const { raster } of decodePages([file])) {
            if (first++ === page) return png(raster, maxSide);
          }
        }
      }
      throw new OmrError('INVALID_ARGUMENT', `Page ${page} does not exist: the files have ${first} page${first === 1 ? '' : 's'}.`);
    },

    configure(values) {
      Object.assign(env, values);
    },
  };
}

/** A page as PNG bytes, shrunk to fit `maxSide` when given (never enlarged), marked for transfer. */
function png(page: Raster, maxSide: number | undefined): Uint8Array {
  const bytes = writeThumbnail(page, { maxWidth: maxSide ?? page.width, maxHeight: maxSide ?? page.height });
  return transfer(bytes, [bytes.buffer as ArrayBuffer]);
}

/**
 * Tells a progress listener. Its failure, thrown or (across a worker)
 * rejected, is ignored: cancelling is `beforePage`'s job. The promise
 * settles once the listener has been told.
 */
function advise(listener: () => unknown): Promise<void> {
  try {
    return Promise.resolve(listener()).then(
      () => undefined,
      () => undefined,
    );
  } catch {
    return Promise.resolve();
  }
}
