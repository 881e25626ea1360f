/**
 * One page through the pipeline: preparation → staves and systems → symbol
 * segmentation → symbols → systems read (measures, signatures, strokes).
 * The result joins the other pages' in build-score.
 */
import type { GrayImage } from '../image/gray.js';
import type { Raster } from '../image/raster.js';
import { CANONICAL_STAFF_SPACE } from '../preparation/prepare-page.js';
import type { PageTransform } from '../reading/page-transform.js';
import type { Staff } from '../staves/detect-staves.js';
import type { StaffSystem } from '../staves/systems.js';
import type { PageSymbols } from '../symbols/read-symbols.js';
import type { ClassMap } from '../symbols/segment.js';
import { uprightPage, type PageTurn } from '../staves/upright.js';
import { OmrError } from '../errors.js';
import { groupSystems } from '../staves/systems.js';
import { readSymbols } from '../symbols/read-symbols.js';
import { segmentSymbols } from '../symbols/segment.js';
import { pageSight } from '../symbols/page-sight.js';
import { classifyMarks, staccatosAmongDots } from '../symbols/marks.js';
import { unpaintedDots } from '../symbols/unpainted-dots.js';
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
  /** Pages whose text failed to be read, though their music was (not those read with no OCR reader at all). */
  unread: Set<number>;
}

/**
 * What each stage of one page produced, handed to a viewer (stage-views.ts, `recognize --debug`) as
 * the page finishes. The prepared page's pixels are the coordinates of everything in it.
 */
export interface PageStages {
  page: number;
  turned: PageTurn;
  /** The prepared page: flattened, straightened, at the canonical staff space. */
  gray: GrayImage;
  transform: PageTransform;
  staves: readonly Staff[];
  systems: readonly StaffSystem[];
  map: ClassMap;
  symbols: PageSymbols;
  readings: readonly SystemReading[];
}

/** One page read: its systems, and how far it was turned to stand upright. */
export interface RecognizedPage {
  systems: SystemReading[];
  /** Clockwise turn applied to the decoded page, in degrees. */
  turned: PageTurn;
  /** The staff space, in the page's pixels, of staves smaller than a reading is made for (staves/upright.ts). */
  tinyStaffSpace?: number;
}

export async function recognizePage(
  raster: Raster,
  page: number,
  onStage?: (stage: PageStage) => void,
  text?: PageTextSink,
  inspect?: (stages: PageStages) => void,
): Promise<RecognizedPage> {
  // Each stage ends with a turn of the event loop, so other threads' messages (the OCR worker's) get through.
  const finished = (stage: PageStage) => {
    onStage?.(stage);
    return nextTurn();
  };
  // A page turned a quarter or upside down is turned upright as it is prepared (staves/upright.ts).
  const { prepared, staves, turned, tinyStaffSpace } = uprightPage(raster);
  await finished('prepared');
  const systems = groupSystems(staves, prepared.ink);
  await finished('staves');
  // Text (title block, part names, lyrics: src/text/) is read in the OCR worker's thread while this one
  // goes on with the music and the next page. It is an extra: a page whose text cannot be read keeps its music.
  const { gray, ink } = prepared;
  const found = { gray, ink, staves, systems, space: CANONICAL_STAFF_SPACE, page, transform: prepared.transform };
  // The title block and part names need no class map: they are read while the page is segmented.
  const early = text?.ocr.then((ocr) => ocr && readEarlyText(found, ocr)).catch(() => undefined);
  // The symbol model looks at a bold scan's ink thinned to its engraved weight (prepare-page.ts); the mark
  // and staccato models below read marks as printed, which thinning would wear away.
  const map = await segmentSymbols(prepared.forSymbolModel, staves);
  // The rest of the text (lyrics, words) needs only the class map: it is read while the symbols are.
  let read: Promise<PageText | undefined> | undefined;
  if (text) {
    // One page's reading at a time, so at most two pages wait in memory.
    await text.pending;
    read = Promise.all([text.ocr, early])
      .then(([ocr, ahead]) => (ocr ? readPageText({ ...found, map }, ocr, ahead ?? undefined) : undefined))
      .catch(() => {
        text.unread.add(page);
        return undefined;
      });
    text.pending = read.then(() => {});
  }
  // The marks around notes are candidates until the mark model reads them.
  const { markCandidates, dots: paintedDots, ...unmarked } = readSymbols(map, staves, CANONICAL_STAFF_SPACE, ink);
  const marks = await classifyMarks(gray, markCandidates, CANONICAL_STAFF_SPACE);
  // Staccatos the symbol model painted as augmentation dots (under the beams of running notes, mostly).
  const lengthened = [...unmarked.heads, ...unmarked.rests];
  const { staccatos, dots } = await staccatosAmongDots(gray, paintedDots, lengthened, CANONICAL_STAFF_SPACE);
  // And those it left unpainted, found in the ink over and under the heads (a faint or blurred scan's).
  const inInk = await staccatosAmongDots(gray, unpaintedDots(ink, map, unmarked.heads, CANONICAL_STAFF_SPACE), lengthened, CANONICAL_STAFF_SPACE);
  const symbols = { ...unmarked, dots, articulations: [...marks, ...staccatos, ...inInk.staccatos] };
  // Lines that look like staves with neither a clef nor a note on them are not music (ruled paper, a table, a form).
  if (!symbols.heads.length && !symbols.clefs.length) {
    throw new OmrError('NO_MUSIC_DETECTED', 'This page has lines like staves but no clefs or notes on them, so it was not read as music.');
  }
  await finished('symbols');
  // A page of music keeps its text.
  if (text && read) text.pending = read.then((page) => void (page && text.pages.push(page)));
  // The seam: from here on the music is read from what was seen, and the page sight answers any question about its pixels.
  const { map: _map, ...seen } = symbols;
  const lineThickness = Math.max(1, prepared.source.lineThickness * prepared.transform.scale);
  const sight = pageSight({ gray, ink, map, staves, lineThickness, space: CANONICAL_STAFF_SPACE });
  const readings = await readPage({ page, transform: prepared.transform, space: CANONICAL_STAFF_SPACE, staves, systems, symbols: seen, sight });
  await finished('assembled');
  inspect?.({ page, turned, gray: prepared.forSymbolModel, transform: prepared.transform, staves, systems, map, symbols, readings });
  return { systems: readings, turned, ...(tinyStaffSpace ? { tinyStaffSpace } : {}) };
}
