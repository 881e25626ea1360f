/**
 * `--pages 1,3-5`: which pages of the document to recognise, numbered from 1
 * over all the files given, as people count pages.
 */
import { OmrError } from '../errors.js';

/** How the option is described in its errors. */
const SHAPE = 'page numbers from 1 and ranges, separated by commas, such as 1,3-5';

/** Most pages a list may name: far beyond any job (the engine's own limit is 200 pages), small enough to hold. */
const MAX_LISTED_PAGES = 10_000;

/**
 * The 1-based pages a `--pages` value names, ascending and each once. Throws
 * `INVALID_ARGUMENT` naming the part that is not a page or a range.
 */
export function parsePageList(value: string): number[] {
  const pages = new Set<number>();
  const items = value.split(',').map((item) => item.trim());
  if (items.every((item) => item === '')) throw new OmrError('INVALID_ARGUMENT', `--pages takes ${SHAPE}; it was given nothing.`);
  for (const item of items) {
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(item);
    if (!match) throw new OmrError('INVALID_ARGUMENT', `--pages takes ${SHAPE}; "${item}" is neither a page number nor a range.`);
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from < 1) throw new OmrError('INVALID_ARGUMENT', `--pages counts pages from 1; "${item}" names page 0.`);
    if (to < from) throw new OmrError('INVALID_ARGUMENT', `--pages range "${item}" runs backwards; write it as ${to}-${from}.`);
    if (!Number.isSafeInteger(to)) throw new OmrError('INVALID_ARGUMENT', `--pages range "${item}" is beyond any document.`);
    for (let page = from; page <= to && pages.size <= MAX_LISTED_PAGES; page++) pages.add(page);
    if (pages.size > MAX_LISTED_PAGES) throw new OmrError('INVALID_ARGUMENT', `--pages "${value}" names more than ${MAX_LISTED_PAGES} pages, more than any document recognised at once.`);
  }
  return [...pages].sort((a, b) => a - b);
}

/** Throws `INVALID_ARGUMENT` when a listed page is beyond the document's `total` pages. */
export function checkPagesExist(pages: readonly number[], total: number): void {
  const beyond = pages.filter((page) => page > total);
  if (!beyond.length) return;
  const named = beyond.length === 1 ? `page ${beyond[0]}` : `pages ${beyond.join(', ')}`;
  throw new OmrError('INVALID_ARGUMENT', `--pages names ${named}, but the document has ${total === 1 ? '1 page' : `${total} pages (1-${total})`}.`);
}
