/**
 * Cuts a MuseScore 4 quartet PDF into pages, each with its exact truth.
 *
 * A corpus file in `quartets/` is a whole PDF (one movement, or a whole work
 * whose movements restart their numbering) beside its .mxl. Where the PDF's
 * pages begin, its text layer tells (pdf.js reports the music font's glyphs
 * as text, with their positions):
 *
 * - every system starts with a bracket, the SMuFL glyph `bracketTop`
 *   (U+E003); a page without one holds no music (a title page) and is left
 *   out;
 * - MuseScore prints the measure number just above that bracket, in a small
 *   text font, on every system but those that start with a measure that has
 *   no number of its own: a movement's first (whose system is indented) and
 *   a measure that does not count (a pickup, a repeat's split `X1` measure;
 *   flush left). Page numbers, tempo marks, fingerings and tuplet numbers
 *   lie elsewhere and are not taken.
 *
 * A printed number is mapped to the next counted measure with that `number`
 * in the truth, walking forward through the piece; a system without one, to
 * the next measure of the kind its indentation says. Where the numbers
 * leave a system open (several uncounted measures in a row, or a number the
 * engraver hid), the truth's own layout settles it: MuseScore's .mxl keeps
 * its new-system and new-page marks. The result is then checked: systems
 * advance, and match the truth's systems and pages exactly where it keeps
 * them; page ranges are non-empty, contiguous and cover every measure.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pdfPlatform } from '../../src/input/pdf-platform.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import type { Credits, Measure, Score } from '../../src/score/model.js';
import { excerpt } from './excerpt.js';

export interface QuartetPage {
  /** 1-based page of the PDF. */
  page: number;
  /** Measure indices [from, to) of the truth. */
  measures: [number, number];
  /** The page's truth: all parts, its measures, and the credits the page prints. */
  truth: Score;
}

/** One system as the text layer shows it. */
export interface PrintedSystem {
  /** 1-based page. */
  page: number;
  /** Top of the system's bracket, in points from the top of the page. */
  y: number;
  /** Left of the system's bracket, in points. */
  x: number;
  /** The measure number printed at its start, absent on a movement's first system. */
  number?: string;
}

export interface PdfLayout {
  pageCount: number;
  /** Systems in reading order: by page, then top to bottom. */
  systems: PrintedSystem[];
  /** Each page's text, joined, to tell which credits a page prints. */
  pageText: string[];
}

/** Raised when a PDF's layout cannot be matched to its truth; the message says why. */
export class QuartetLayoutError extends Error {
  override name = 'QuartetLayoutError';
}

const BRACKET_TOP = '\uE003';

interface TextItem {
  str: string;
  transform: number[];
  fontName: string;
}

/** Reads the systems and their printed measure numbers from a MuseScore PDF's text layer. */
export async function readPdfLayout(bytes: Uint8Array): Promise<PdfLayout> {
  const { pdfjs, documentOptions } = await pdfPlatform();
  const task = pdfjs.getDocument({ ...documentOptions, data: bytes.slice(), useSystemFonts: false, disableFontFace: true, isEvalSupported: false, verbosity: pdfjs.VerbosityLevel.ERRORS });
  const doc = await task.promise;
  try {
    const systems: PrintedSystem[] = [];
    const pageText: string[] = [];
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const height = page.getViewport({ scale: 1 }).height;
      const content = await page.getTextContent();
      const items = (content.items as TextItem[]).filter((it) => typeof it.str === 'string' && it.str.trim() !== '');
      pageText.push(items.map((it) => it.str).join(' '));
      systems.push(...pageSystems(items, height, p));
      page.cleanup();
    }
    return { pageCount: doc.numPages, systems, pageText };
  } finally {
    await task.destroy();
  }
}

function pageSystems(items: TextItem[], height: number, page: number): PrintedSystem[] {
  const isMusic = (s: string) => /[\uE000-\uF8FF]/.test(s);
  // Music glyphs are sized at four staff spaces: that is the page's unit here.
  const musicSizes = items.filter((it) => isMusic(it.str)).map((it) => Math.hypot(it.transform[2]!, it.transform[3]!));
  const space = musicSizes.length ? median(musicSizes) / 4 : 0;
  const brackets = items
    .filter((it) => it.str.includes(BRACKET_TOP))
    .map((it) => ({ x: it.transform[4]!, y: height - it.transform[5]! }))
    .sort((a, b) => a.y - b.y);
  const numerals = items
    .filter((it) => /^\s*\d+\s*$/.test(it.str) && !isMusic(it.str))
    .map((it) => ({ x: it.transform[4]!, y: height - it.transform[5]!, text: it.str.trim(), size: Math.hypot(it.transform[2]!, it.transform[3]!) }));
  return brackets.map((b) => {
    // The measure number sits just above the bracket's top, starting within a few spaces of it;
    // fingerings and tuplet numbers lie further right, beside notes, and page numbers far above.
    const near = numerals
      .filter((n) => n.x > b.x - 3 * space && n.x < b.x + 6 * space && n.y < b.y + 0.5 * space && n.y > b.y - 5 * space && n.size < 5 * space)
      .sort((m, n) => Math.hypot(m.x - b.x, m.y - b.y) - Math.hypot(n.x - b.x, n.y - b.y));
    return { page, y: b.y, x: b.x, ...(near[0] && { number: near[0].text }) };
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

/** Indices of the measures that begin a movement: the first, and each restart of the numbering (with its pickup). */
export function movementStarts(measures: readonly Measure[]): number[] {
  const starts = [0];
  let previous = Number.NaN;
  measures.forEach((m, i) => {
    if (m.implicit || !/^\d+$/.test(m.number)) return;
    const n = Number(m.number);
    if (n <= previous && i > 0) {
      // Back over a pickup (implicit, numbered 0) that opens the movement.
      let s = i;
      while (s > 0 && measures[s - 1]!.implicit && measures[s - 1]!.number === '0') s--;
      if (s > starts[starts.length - 1]!) starts.push(s);
    }
    previous = n;
  });
  return starts;
}

export interface SystemMapping {
  /** The measure index each system of the layout starts with. */
  starts: number[];
  /** Systems whose start the printed numbers left open and the truth's own layout settled. */
  settledByLayout: number;
}

export interface MappingOptions {
  /**
   * Let the truth's recorded layout (MuseScore's new-system and new-page
   * marks in the .mxl) settle systems the printed numbers leave open, and
   * check the result against it. Default true; false maps from the PDF alone.
   */
  useTruthLayout?: boolean;
}

/**
 * Maps the systems read from the PDF to the measure index each starts with.
 * Throws {@link QuartetLayoutError} when they do not fit the truth.
 */
export function mapSystems(layout: PdfLayout, score: Score, options: MappingOptions = {}): SystemMapping {
  const measures = score.parts[0]?.measures ?? [];
  if (!measures.length) throw new QuartetLayoutError('the truth has no measures');
  if (score.parts.some((p) => p.measures.length !== measures.length)) throw new QuartetLayoutError('the parts differ in their number of measures');
  if (!layout.systems.length) throw new QuartetLayoutError('no system found in the PDF (no bracket glyphs in its text layer)');
  const movements = new Set(movementStarts(measures));
  const layoutStarts = measures.flatMap((m, i) => (i === 0 || m.systemBreak || m.pageBreak ? [i] : []));
  const useLayout = options.useTruthLayout !== false && layoutStarts.length > 1;
  const inLayout = new Set(layoutStarts);
  // MuseScore prints no number on a measure that does not count, nor on a movement's first.
  const unnumbered = (i: number) => measures[i]!.implicit === true || movements.has(i);
  const nextNumbered = (from: number, number: string) => {
    for (let i = from; i < measures.length; i++) if (!unnumbered(i) && measures[i]!.number === number) return i;
    return -1;
  };
  // A movement's first system is indented (MuseScore indents the first system of every section); others are flush.
  const flushX = Math.min(...layout.systems.map((s) => s.x));
  const starts: number[] = [];
  let settledByLayout = 0;
  let cursor = -1;
  layout.systems.forEach((system, k) => {
    let index: number;
    if (k === 0) {
      index = 0;
      if (system.number !== undefined && measures[0]!.number !== system.number) {
        throw new QuartetLayoutError(`page ${system.page}: the first system is numbered ${system.number}, the truth starts at ${measures[0]!.number}`);
      }
    } else if (system.number !== undefined) {
      index = nextNumbered(cursor + 1, system.number);
      if (index < 0) throw new QuartetLayoutError(`page ${system.page}: no measure numbered ${system.number} after measure index ${cursor}`);
    } else {
      // A system without a number: indented, it starts the next movement; flush, a measure that does
      // not count. Either way it starts before the next numbered system's measure.
      const next = layout.systems.slice(k + 1).find((s) => s.number !== undefined)?.number;
      const bound = next === undefined ? measures.length : nextNumbered(cursor + 1, next);
      const indented = system.x > flushX + 8;
      const all: number[] = [];
      for (let i = cursor + 1; i < (bound < 0 ? measures.length : bound); i++) if (unnumbered(i)) all.push(i);
      const preferred = all.filter((i) => (indented ? movements.has(i) : !movements.has(i)));
      // None of the expected kind: a number the engraver hid (the truth's layout can tell), or, from the PDF alone, any.
      const candidates = preferred.length || useLayout ? preferred : all;
      if (candidates.length === 1) {
        index = candidates[0]!;
      } else if (useLayout) {
        // Several measures without a number (or none: a number the engraver hid) could start it: the truth's layout tells.
        const fromLayout = layoutStarts.find((i) => i > cursor && (bound < 0 || i < bound) && (!candidates.length || candidates.includes(i)));
        if (fromLayout === undefined) throw new QuartetLayoutError(`page ${system.page}: the system at y ${system.y.toFixed(0)} has no number and no measure in the truth's layout fits it`);
        index = fromLayout;
        settledByLayout++;
      } else if (candidates.length) {
        index = candidates[0]!;
      } else {
        throw new QuartetLayoutError(`page ${system.page}: the system at y ${system.y.toFixed(0)} has no number, and no measure without one follows measure index ${cursor}`);
      }
    }
    if (index <= cursor) throw new QuartetLayoutError(`page ${system.page}: systems do not advance (${index} after ${cursor})`);
    starts.push(index);
    cursor = index;
  });

  // Where the truth keeps MuseScore's layout, the systems found must be exactly its systems, page by page.
  if (useLayout) {
    const missing = layoutStarts.filter((i) => !starts.includes(i));
    const extra = starts.filter((i) => !inLayout.has(i));
    if (missing.length || extra.length) {
      throw new QuartetLayoutError(
        `systems disagree with the truth's layout: ${missing.length} of its system starts not found (first at measure index ${missing[0] ?? '-'}), ${extra.length} found that it lacks (first at ${extra[0] ?? '-'})`,
      );
    }
    const pageStarts = measures.flatMap((m, i) => (i === 0 || m.pageBreak ? [i] : []));
    const foundPageStarts = layout.systems.flatMap((s, k) => (k === 0 || s.page !== layout.systems[k - 1]!.page ? [starts[k]!] : []));
    if (pageStarts.join() !== foundPageStarts.join()) throw new QuartetLayoutError("pages disagree with the truth's new-page marks");
  }
  return { starts, settledByLayout };
}

/**
 * Each page's measure range, from the systems' starts: a page runs from its
 * first system's first measure to the next page's. Pages without a system
 * (no music) are left out. Throws {@link QuartetLayoutError} unless the
 * ranges are non-empty, contiguous and cover every measure.
 */
export function pageRanges(layout: PdfLayout, score: Score, options: MappingOptions = {}): { page: number; measures: [number, number] }[] {
  const { starts } = mapSystems(layout, score, options);
  const count = score.parts[0]!.measures.length;
  const ranges: { page: number; measures: [number, number] }[] = [];
  layout.systems.forEach((system, k) => {
    if (k > 0 && system.page === layout.systems[k - 1]!.page) return;
    ranges.push({ page: system.page, measures: [starts[k]!, count] });
  });
  for (let r = 0; r + 1 < ranges.length; r++) ranges[r]!.measures[1] = ranges[r + 1]!.measures[0];
  if (ranges[0]!.measures[0] !== 0) throw new QuartetLayoutError('the first page does not start at the first measure');
  for (let r = 0; r < ranges.length; r++) {
    const [from, to] = ranges[r]!.measures;
    if (to <= from) throw new QuartetLayoutError(`page ${ranges[r]!.page} holds no measure`);
    if (r > 0 && from !== ranges[r - 1]!.measures[1]) throw new QuartetLayoutError(`page ${ranges[r]!.page} does not continue page ${ranges[r - 1]!.page}`);
  }
  return ranges;
}

/**
 * The credits pages print. MuseScore sets the title block (title, subtitle,
 * composer, lyricist, arranger) on the first page only, and the rights in
 * every page's footer; running headers on later pages may repeat a subtitle
 * or the composer, which is not a title block. A credit counts as printed
 * when the text layer holds its text.
 */
function printedCredits(credits: Credits, pageTexts: readonly string[], firstPage: number): Credits {
  const flat = (s: string) => s.replace(/\s+/g, '');
  const text = flat(pageTexts.join(' '));
  const printed = (v: string | undefined) => v !== undefined && v.trim() !== '' && text.includes(flat(v));
  const out: Credits = {};
  for (const key of ['title', 'subtitle', 'composer', 'lyricist', 'arranger'] as const) if (firstPage === 1 && printed(credits[key])) out[key] = credits[key];
  if (printed(credits.rights)) out.rights = credits.rights;
  return out;
}

/** A corpus quartet file read: its truth, its PDF's layout, and the measure range of each page of music. */
export interface QuartetMovement {
  score: Score;
  layout: PdfLayout;
  pages: { page: number; measures: [number, number] }[];
}

/** Reads a quartet's truth and PDF and finds its pages' measure ranges; throws {@link QuartetLayoutError} when they do not fit. */
export async function readQuartet(pdfPath: string, mxlPath: string, options: MappingOptions = {}): Promise<QuartetMovement> {
  const score = readMusicXml(new Uint8Array(readFileSync(mxlPath)));
  const layout = await readPdfLayout(new Uint8Array(readFileSync(pdfPath)));
  return { score, layout, pages: pageRanges(layout, score, options) };
}

/**
 * The truth of consecutive pages `first`…`last` (1-based, inclusive, all of
 * them holding music): every part, their measures, and the credits those
 * pages print (the title block on the first page; the rights on every page).
 */
export function cutPages(movement: QuartetMovement, first: number, last = first): { measures: [number, number]; truth: Score } {
  const from = movement.pages.findIndex((p) => p.page === first);
  const to = movement.pages.findIndex((p) => p.page === last);
  if (from < 0 || to < from || movement.pages[to]!.page - first !== to - from) throw new RangeError(`pages ${first}–${last} are not consecutive pages of music`);
  const measures: [number, number] = [movement.pages[from]!.measures[0], movement.pages[to]!.measures[1]];
  const credits = printedCredits(movement.score.credits, movement.layout.pageText.slice(first - 1, last), first);
  return { measures, truth: { ...excerpt(movement.score, { measures, printed: true }), credits } };
}

/** Each page of music of a quartet PDF, with its measure range and truth. Throws {@link QuartetLayoutError} when the PDF does not fit its truth. */
export async function quartetPages(pdfPath: string, mxlPath: string): Promise<QuartetPage[]> {
  const movement = await readQuartet(pdfPath, mxlPath);
  return movement.pages.map(({ page }) => ({ page, ...cutPages(movement, page) }));
}

/** A quartet corpus file: its work and paths. */
export interface QuartetFile {
  /** `<composer>/<work>`. */
  work: string;
  /** The file's name without extension, e.g. `sq7434431`. */
  id: string;
  /** The truth, relative to the corpus folder: `quartets/<composer>/<work>/<id>.mxl`. */
  mxl: string;
  /** The PDF beside it, likewise. */
  pdf: string;
}

/** The quartet files under `<corpus>/quartets/`, sorted by work, then id. */
export function quartetFiles(corpus: string): QuartetFile[] {
  const root = join(corpus, 'quartets');
  const files: QuartetFile[] = [];
  for (const composer of readdirSync(root).sort()) {
    if (!statSync(join(root, composer)).isDirectory()) continue;
    for (const work of readdirSync(join(root, composer)).sort()) {
      if (!statSync(join(root, composer, work)).isDirectory()) continue;
      for (const name of readdirSync(join(root, composer, work)).sort()) {
        if (!name.endsWith('.mxl')) continue;
        const id = name.slice(0, -4);
        const dir = `quartets/${composer}/${work}`;
        files.push({ work: `${composer}/${work}`, id, mxl: `${dir}/${name}`, pdf: `${dir}/${id}.pdf` });
      }
    }
  }
  return files;
}
