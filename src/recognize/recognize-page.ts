/**
 * One page through the pipeline: preparation → staves and systems → symbol
 * segmentation → symbols → systems read (measures, signatures, strokes).
 * The result joins the other pages' in build-score.
 */
import type { Raster } from '../image/raster.js';
import { CANONICAL_STAFF_SPACE } from '../preparation/prepare-page.js';
import { uprightPage, type PageTurn } from '../staves/upright.js';
import { OmrError } from '../errors.js';
import { groupSystems } from '../staves/systems.js';
import { readSymbols } from '../symbols/read-symbols.js';
import { segmentSymbols } from '../symbols/segment.js';
import { classifyMarks } from '../symbols/marks.js';
import { readPage, type SystemReading } from '../assembly/read-page.js';
import type { OcrReader } from '../text/ocr.js';
import { readEarlyText, readPageText, type PageText } from '../text/page-text.js';
import { nextTurn } from '../workers/next-turn.js';

/** Pipeline stages of one page, reported as they finish (for progress). */
export type PageStage = 'prepared' | 'staves' | 'symbols' | 'assembled';

/** Where a job's text stage reads (its OCR worker, once started) and collects each page's text. */
export interface PageTextSink {
  ocr: Promise<OcrReader | undefined>;
  pages: PageText[];
  /** The page whose text is being read; settles when it is (never rejects). */
  pending?: Promise<void>;
}

/** One page read: its systems, and how far it was turned to stand upright. */
export interface PageReading {
  systems: SystemReading[];
  /** Clockwise turn applied to the decoded page, in degrees. */
  turned: PageTurn;
}

export async function recognizePage(raster: Raster, page: number, onStage?: (stage: PageStage) => void, text?: PageTextSink): Promise<PageReading> {
  // Each stage ends with a turn of the event loop, so other threads' messages (the OCR worker's) get through.
  const finished = (stage: PageStage) => {
    onStage?.(stage);
    return nextTurn();
  };
  // A page turned a quarter or upside down is turned upright as it is prepared (staves/upright.ts).
  const { prepared, staves, turned } = uprightPage(raster);
  await finished('prepared');
  const systems = groupSystems(staves, prepared.ink);
  await finished('staves');
  // Text (title block, part names, lyrics: src/text/) is read in the OCR worker's thread while this one
  // goes on with the music and the next page. It is an extra: a page whose text cannot be read keeps its music.
  const found = { gray: prepared.gray, ink: prepared.ink, staves, systems, space: CANONICAL_STAFF_SPACE, page, transform: prepared.transform };
  // The title block and part names need no class map: they are read while the page is segmented.
  const early = text?.ocr.then((ocr) => ocr && readEarlyText(found, ocr)).catch(() => undefined);
  const map = await segmentSymbols(prepared.gray, staves);
  const { markCandidates, ...seen } = readSymbols(map, staves, CANONICAL_STAFF_SPACE);
  const symbols = { ...seen, articulations: await classifyMarks(prepared.gray, markCandidates, CANONICAL_STAFF_SPACE) };
  // Lines that look like staves with neither a clef nor a note on them are not music (ruled paper, a table, a form).
  if (!symbols.heads.length && !symbols.clefs.length) {
    throw new OmrError('NO_MUSIC_DETECTED', 'This page has lines like staves but no clefs or notes on them, so it was not read as music.');
  }
  await finished('symbols');
  if (text) {
    // One page's reading at a time, so at most two pages wait in memory.
    await text.pending;
    text.pending = Promise.all([text.ocr, early])
      .then(([ocr, ahead]) => ocr && readPageText({ ...found, map }, ocr, ahead ?? undefined))
      .then((read) => void (read && text.pages.push(read)), () => {});
  }
  const image = { gray: prepared.gray, ink: prepared.ink, lineThickness: Math.max(1, prepared.source.lineThickness * prepared.transform.scale), transform: prepared.transform };
  const readings = await readPage(page, image, staves, systems, symbols, CANONICAL_STAFF_SPACE);
  await finished('assembled');
  return { systems: readings, turned };
}
