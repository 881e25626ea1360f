/**
 * What became of each page of a job, as recognition reports it and as the
 * job's result and the command line tell a person. Plain data, with no
 * import from the pipeline, so that the job engine's thread can use it.
 */
import type { OmrErrorCode } from '../errors.js';
import type { PageTurn } from '../staves/upright.js';

export type { PageTurn };

/** What became of one page of a job. */
export interface PageReport {
  /** 0-based index of the page, over all files. */
  page: number;
  /** Clockwise turn, in degrees, that stood the page upright (0 for a page that came upright). */
  turned: PageTurn;
  /**
   * How sure the reading of the page is, 0 to 1: the mean confidence of its notes and rests (each the
   * least of its symbols'), 0 for a skipped page. Each measure's own is in its evidence.
   */
  confidence: number;
  /** Why the page was left out of the score (a title page, a page of text); absent when it was read. */
  skipped?: { code: OmrErrorCode; message: string };
  /**
   * Set where the page's staves are smaller than a reading is made for (under five pixels from line to
   * line, as on a whole page photographed from afar): their staff space in the page's pixels.
   */
  tinyStaffSpace?: number;
  /** Set where the page's text (title, part names, words, dynamics, lyrics) could not be read, though its music was. */
  textUnread?: true;
}

/**
 * What a person should know about a job's pages, one sentence each (pages counted from 1): those
 * skipped, those that came turned, those whose staves are too small to read well, and those whose text
 * could not be read.
 */
export function pageWarnings(reports: readonly PageReport[]): string[] {
  return reports.flatMap((r) => {
    if (r.skipped) return [`Page ${r.page + 1} was skipped: ${r.skipped.message}`];
    const warnings: string[] = [];
    if (r.turned === 180) warnings.push(`Page ${r.page + 1} came upside down; it was turned upright before it was read.`);
    else if (r.turned) warnings.push(`Page ${r.page + 1} came turned a quarter; it was turned ${r.turned}° clockwise before it was read.`);
    if (r.tinyStaffSpace) {
      warnings.push(
        `Page ${r.page + 1} has its staff lines only ${r.tinyStaffSpace.toFixed(1)} pixels apart, too small to read every note surely; ` +
          'a photo taken closer, or a scan at a higher resolution, reads better.',
      );
    }
    if (r.textUnread) warnings.push(`The text of page ${r.page + 1} (title, part names, words, dynamics, lyrics) could not be read; its music was.`);
    return warnings;
  });
}
