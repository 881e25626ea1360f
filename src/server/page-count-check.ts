/**
 * Documents with more pages than the decoders read are refused when they
 * are uploaded, before a job is created or charged. The engine counts a
 * file's pages as it takes it, but keeps a file it cannot count as one
 * page (so an unreadable file fails its job later, as the service does);
 * that also let a 5,000-page PDF in as "one page", charged, to fail with
 * `FILE_TOO_LARGE` only once recognition opened it. Counting here first
 * turns that into an immediate 413 `FILE_TOO_LARGE`; any other counting
 * failure is left to the engine, which reports it as before.
 */
import { OmrError } from '../errors.js';
import { countPages } from '../input/decode-pages.js';
import { decodeBase64 } from '../jobs/file-input.js';

/** Refuses the first file of `files` (Base64 wire form) whose page count is over the decoders' limit. */
export async function refuseOversizedDocuments(files: readonly unknown[]): Promise<void> {
  for (const [index, item] of files.entries()) {
    if (typeof item !== 'object' || item === null) continue;
    const { file, filename, mimeType } = item as { file?: unknown; filename?: unknown; mimeType?: unknown };
    if (typeof file !== 'string') continue;
    const name = typeof filename === 'string' && filename ? filename : `file ${index}`;
    try {
      const data = decodeBase64(file, name);
      if (data.length === 0) continue;
      await countPages({ filename: name, data, ...(typeof mimeType === 'string' ? { mimeType } : {}) });
    } catch (err) {
      if (err instanceof OmrError && err.code === 'FILE_TOO_LARGE') throw err;
      // Anything else (not Base64, an unknown type, a damaged PDF) is the engine's to report, as it always has.
    }
  }
}
