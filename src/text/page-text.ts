/**
 * The text stage of one page: find and classify the text (text-regions.ts),
 * then read the lines that go somewhere — the title block's credits, part
 * names, lyrics, tempo and expression words — each as its own crop through
 * the job's OCR worker, and the dynamics through their own model
 * (read-dynamics.ts; the OCR reads only those it is unsure of), the
 * measure numbers over each system's start and the framed rehearsal marks.
 * Other text (page footers) is classified but not read.
 *
 * A crop holds only the line's own glyphs on white, so stems, slurs and
 * beams crossing a lyric line never reach the reader, and is enlarged to
 * the letter size tesseract reads best.
 *
 * The title block and part names stand clear of the staves, so they can be
 * found without the symbol model's classes: {@link readEarlyText} sends them
 * while the page is still being segmented, and the page's reading takes
 * those answers for the lines it finds with the very same glyphs (the same
 * crop, so the same words).
 */
import type { GrayImage } from '../image/gray.js';
import type { PageTransform } from '../reading/page-transform.js';
import { median } from '../reading/median.js';
import type { Staff } from '../staves/detect-staves.js';
import { letterStart, type OcrReader, type OcrWord } from './ocr.js';
import { readBeat, type Beat } from './metronome-glyph.js';
import { musicWordsOnly, wordBeforeMark } from './music-words.js';
import { readDynamicMarks, trustedReading, type DynamicMark } from './read-dynamics.js';
import { glyphsIn, readPedalMarks, type PedalMark } from './read-pedals.js';
import { readRomanNumeral } from './roman-numerals.js';
import { findTextRegions, labelInk, type InkComponents, type TextBox, type TextKind, type TextLine, type TextPageInput, type TextRegions } from './text-regions.js';

export interface ReadLine extends TextBox {
  kind: TextKind;
  /** Median letter height, prepared pixels. */
  size: number;
  /** The x-extents of its ink (see text-regions.ts). */
  spans: [number, number][];
  /** The words read, joined by spaces. */
  text: string;
  /** The words, with their boxes in prepared-page pixels. */
  words: OcrWord[];
  staff?: number;
  verse?: number;
  /** The note of a metronome mark in the line, read from its ink (metronome-glyph.ts). */
  beat?: Beat;
}

/** What a page's text contributes to the score (apply-text.ts), in the prepared page's coordinates. */
export interface PageText {
  page: number;
  transform: PageTransform;
  staves: Staff[];
  lines: ReadLine[];
}

const READ: ReadonlySet<TextKind> = new Set(['title', 'subtitle', 'composer', 'lyricist', 'partName', 'abbreviation', 'lyrics', 'tempo', 'expression', 'dynamics', 'measureNumber', 'rehearsal', 'heading']);

/** What a line ending in a metronome mark's number reads as at its end: "= 120". */
const METRONOME_NUMBER = /=\s*\d{2,3}\s*\)?$/;
/** What a measure number reads as: one to four digits. */
const MEASURE_NUMBER = /^\d{1,4}$/;
/**
 * What a movement's heading reads as: a roman number and its period, then perhaps its name ("I.",
 * "II. Menuetto"). An arabic number before a title numbers a song in its collection ("7. Rheinlegendchen"):
 * that is the title.
 */
const MOVEMENT_HEADING = /^[IVX]{1,4}\.(?:\s+\p{Lu}.*)?$/u;
/** Lines that read as a movement's heading are one, wherever they stand over a system. */
const MAY_HEAD: ReadonlySet<TextKind> = new Set(['title', 'subtitle', 'heading', 'tempo']);
/** What a rehearsal mark reads as: a letter or two, a number, or both ("A", "AA", "12", "A1"). */
const REHEARSAL_MARK = /^(?:[A-Z]{1,2}\d{0,2}|\d{1,3})$/i;

/** Letter height crops are enlarged to, when smaller: measured on the dev set, larger crops read no better and take longer. */
const TARGET_SIZE = 16;

/** Kinds whose lines may hold pedal marks: text under and between the staves (a row of Ped. marks passes for a lyric line). */
const PEDAL_KINDS: ReadonlySet<TextKind> = new Set(['tempo', 'expression', 'lyrics', 'other']);

/** Kinds read before segmentation: their lines stand clear of the staves, where the class map changes nothing. */
const EARLY: ReadonlySet<TextKind> = new Set(['title', 'subtitle', 'composer', 'lyricist', 'partName', 'abbreviation', 'heading']);

/** What the finding before segmentation leaves for the page's reading. */
export interface EarlyText {
  /** The page's ink, labelled once for both findings (on a large page, tens of megabytes not allocated twice). */
  components: InkComponents;
  /** Words of the lines sent, by their glyphs (see {@link glyphKey}). */
  words: Map<string, Promise<OcrWord[]>>;
}

/** Sends the title block's and part names' lines, found without the class map, to be read while the page is segmented. */
export function readEarlyText(input: Omit<TextPageInput, 'map'>, ocr: OcrReader): EarlyText {
  const components = labelInk(input.ink);
  const regions = findTextRegions(input, components);
  const words = new Map<string, Promise<OcrWord[]>>();
  for (const line of regions.lines) {
    if (EARLY.has(line.kind)) words.set(glyphKey(line), readCrop(ocr, cropLine(input.gray, regions, line)));
  }
  return { components, words };
}

/** A line's identity across the two findings: its glyphs' component labels (one labelling of one page's ink). */
function glyphKey(line: TextLine): string {
  return line.glyphs.join(' ');
}

/** Finds a page's text with its class map and reads every line that goes somewhere, taking `early`'s answers where it can. */
export async function readPageText(input: TextPageInput & { transform: PageTransform }, ocr: OcrReader, early?: EarlyText): Promise<PageText> {
  const regions = findTextRegions(input, early?.components);
  const mayHoldPedals = (line: TextLine) => PEDAL_KINDS.has(line.kind) && line.staff !== undefined;
  const marks = regions.lines.filter((line) => line.kind === 'dynamics');
  // The words go to the OCR first: those by the staves once the pedal model has taken its marks out of
  // them. The dynamics model reads the marks meanwhile, and what it is unsure of follows them.
  const first = readLines(input.gray, regions, regions.lines.filter((line) => READ.has(line.kind) && line.kind !== 'dynamics' && !mayHoldPedals(line)), ocr, early);
  const { lines: byStaves, pedals } = await takePedalMarks(input, regions, regions.lines.filter(mayHoldPedals));
  const then = readLines(input.gray, regions, byStaves.filter((line) => READ.has(line.kind)), ocr, early);
  // A model that does not load leaves every mark to the OCR, as text is an extra that never fails a page.
  const readings = await readDynamicMarks(input.gray, regions.labels, marks).catch(() => []);
  // What the model calls none, or a mark too rare to trust, goes to the OCR too: italic words ("cresc.",
  // "dim.") are painted as dynamics as well.
  const trusted = marks.flatMap((line, i) => {
    const read = readings[i] ?? [];
    return trustedReading(read) ? [{ line, read }] : [];
  });
  // A line read as two marks may be a word and a mark ("più f", "poco p"): the word's italic letters are
  // painted as dynamics too, and the model reads a piece of it as a mark. The OCR reads such lines as well.
  // Both go to the OCR worker at once, with the lines the model is unsure of.
  const pairs = trusted.filter((s) => s.read.length > 1);
  const unsure = marks.filter((line) => !trusted.some((s) => s.line === line));
  const pairsRead = readLines(input.gray, regions, pairs.map((s) => s.line), ocr, early);
  const unsureRead = readLines(input.gray, regions, unsure, ocr, early);
  const worded = (await pairsRead).flatMap((read) => {
    const split = wordAndMark(read);
    return split ? [{ read, split }] : [];
  });
  const sure = trusted.filter((s) => !worded.some((w) => sameBox(w.read, s.line)));
  const lines = [...(await first), ...(await then), ...worded.flatMap((w) => w.split), ...(await unsureRead)];
  for (const { line, read } of sure) lines.push(...read.map((mark) => markLine(line, mark)));
  lines.push(...pedals);
  for (const line of lines) {
    const beat = METRONOME_NUMBER.test(line.text) ? readBeat(input.ink, line) : undefined;
    if (beat) line.beat = beat;
  }
  return { page: input.page, transform: input.transform, staves: [...input.staves], lines };
}

/**
 * The lines by the staves (`candidates`) with the words the pedal model reads
 * as pedal marks taken out (a line left with no glyphs is gone), and those
 * marks as lines of their own. A model that does not load leaves every line
 * as it was.
 */
async function takePedalMarks(input: TextPageInput, regions: TextRegions, candidates: readonly TextLine[]): Promise<{ lines: TextLine[]; pedals: ReadLine[] }> {
  const read = await readPedalMarks(
    input.gray,
    regions.labels,
    candidates.map((line) => ({ ...line, space: input.staves[line.staff!]!.space })),
  ).catch(() => []);
  const lines: TextLine[] = [];
  const pedals: ReadLine[] = [];
  candidates.forEach((line, i) => {
    const marks = read[i] ?? [];
    const rest = marks.length ? withoutMarks(line, marks, regions) : line;
    if (rest) lines.push(rest);
    pedals.push(...marks.map((mark) => pedalLine(line, mark)));
  });
  return { lines, pedals };
}

/** A line without the glyphs of the pedal marks read off it, or undefined where nothing else is left. */
function withoutMarks(line: TextLine, marks: readonly PedalMark[], regions: TextRegions): TextLine | undefined {
  const own = new Set(line.glyphs);
  const taken = new Set(marks.flatMap((mark) => [...glyphsIn(regions.labels, regions.width, own, mark)]));
  const glyphs = line.glyphs.filter((g) => !taken.has(g));
  const spans = line.spans.filter(([a, b]) => !marks.some((mark) => a < mark.x1 && b > mark.x0));
  if (!glyphs.length || !spans.length) return undefined;
  return { ...line, glyphs, spans, x0: spans[0]![0], x1: spans[spans.length - 1]![1] };
}

/** A pedal mark read off a line, as a line of one word: `start` or `stop`, at the model's confidence. */
function pedalLine(line: TextLine, mark: PedalMark): ReadLine {
  const box = { x0: mark.x0, y0: mark.y0, x1: mark.x1, y1: mark.y1 };
  const word = { text: mark.pedal, confidence: Math.round(mark.probability * 100), ...box, symbols: [] };
  const spans = line.spans.filter(([a, b]) => b > box.x0 && a < box.x1);
  return { kind: 'pedal', size: line.size, spans, ...box, text: mark.pedal, words: [word], staff: line.staff! };
}

/**
 * A line of dynamics read by the OCR as a performance word and a mark after it ("più f" as "puf"), as
 * two lines: the word, in the lexicon's spelling, and the mark, which starts where its first letter does.
 */
function wordAndMark(read: ReadLine): ReadLine[] | undefined {
  const found = wordBeforeMark(read.text);
  if (!found) return undefined;
  const split = letterStart({ ...read, symbols: read.words.flatMap((w) => w.symbols) }, found.letters, found.letters + found.mark.length);
  const part = (kind: TextKind, text: string, x0: number, x1: number): ReadLine => {
    const word = { text, confidence: Math.min(...read.words.map((w) => w.confidence)), x0, x1, y0: read.y0, y1: read.y1, symbols: [] };
    return { ...read, kind, text, x0, x1, words: [word], spans: read.spans.filter(([a, b]) => b > x0 && a < x1) };
  };
  return [part('expression', found.word, read.x0, split), part('dynamics', found.mark, split, read.x1)];
}

/** Whether a line read by the OCR is the line found (a read line keeps the found line's box). */
function sameBox(a: TextBox, b: TextBox): boolean {
  return a.x0 === b.x0 && a.y0 === b.y0 && a.x1 === b.x1 && a.y1 === b.y1;
}

/** A mark the dynamics model read off a line, as a line of one word: its element name, at the model's confidence. */
function markLine(line: TextLine, mark: DynamicMark): ReadLine {
  const box = { x0: mark.x0, y0: mark.y0, x1: mark.x1, y1: mark.y1 };
  const word = { text: mark.mark, confidence: Math.round(mark.probability * 100), ...box, symbols: [] };
  const spans = line.spans.filter(([a, b]) => b > box.x0 && a < box.x1);
  return { kind: line.kind, size: line.size, spans, ...box, text: mark.mark, words: [word], ...(line.staff !== undefined ? { staff: line.staff } : {}) };
}

/**
 * What a line is, once read: one placed as a measure number that reads as a word is what else its place
 * makes it; one placed as lyrics for its spread that reads as performance words only ("arco … pizz.",
 * "cresc. … cresc.") is expression words, and one without a letter is no lyric ("2."); a title,
 * subtitle or tempo mark that reads as a movement's heading is one, and a centred line over a later
 * page's music that does not (its running title) is nothing; any other is what its place made it.
 */
function readKind(line: TextLine, text: string, words: readonly { confidence: number }[]): TextKind {
  if (MAY_HEAD.has(line.kind) && line.staff !== undefined && MOVEMENT_HEADING.test(text.replace(/\s+/g, ' ').trim())) return 'heading';
  if (line.kind === 'heading') return 'other';
  if (line.kind === 'measureNumber' && !MEASURE_NUMBER.test(text.trim())) return line.otherwise ?? 'other';
  if (line.kind === 'lyrics' && musicWordsOnly(text)) return 'expression';
  if (line.kind === 'lyrics' && !/\p{L}/u.test(text)) return 'other';
  // Bowing marks and accents in a row under a staff read as letters the OCR is unsure of ("mAmAmAAn"); sung words it reads surely.
  if (line.kind === 'lyrics' && (median(words.map((w) => w.confidence)) ?? 0) < LYRIC_MIN_CONFIDENCE) return 'other';
  return line.kind;
}

/** A row read as lyrics whose words' median OCR confidence (0–100) is below this is no text. */
const LYRIC_MIN_CONFIDENCE = 40;

/** Lines read by the OCR, placed back on the page; a line it reads nothing in is left out. */
async function readLines(gray: GrayImage, regions: TextRegions, wanted: readonly TextLine[], ocr: OcrReader, early?: EarlyText): Promise<ReadLine[]> {
  // Every line is sent at once: the worker reads them one after another on its own thread, while this
  // one goes on with the music. Sent one by one, each line would wait for this thread to be free.
  const crops = wanted.map((line) => cropLine(gray, regions, line));
  const read = await Promise.all(crops.map((crop, i) => early?.words.get(glyphKey(wanted[i]!)) ?? readCrop(ocr, crop)));
  const lines: ReadLine[] = [];
  wanted.forEach((line, i) => {
    const crop = crops[i]!;
    const px = crop.toPage;
    const placed = read[i]!.map((w) => ({
      ...w,
      x0: px(w.x0),
      x1: px(w.x1),
      y0: crop.y + w.y0 / crop.scale,
      y1: crop.y + w.y1 / crop.scale,
      symbols: w.symbols.map((c) => ({ text: c.text, x0: px(c.x0), x1: px(c.x1) })),
    }));
    if (!placed.length) return;
    // A movement's number alone is read from its glyphs' shapes (the OCR reads "II." as "IT.").
    const numeral = MAY_HEAD.has(line.kind) ? readRomanNumeral(regions, line, placed.map((w) => w.text).join(' ')) : undefined;
    const words = numeral ? [{ ...placed[0]!, text: numeral, x1: placed[placed.length - 1]!.x1, symbols: [] }] : placed;
    const text = words.map((w) => w.text).join(' ');
    // A framed line that does not read as a rehearsal mark is no text we know.
    if (line.kind === 'rehearsal' && !REHEARSAL_MARK.test(text.trim())) return;
    const kind = readKind(line, text, words);
    lines.push({
      kind,
      size: line.size,
      spans: line.spans,
      x0: line.x0,
      y0: line.y0,
      x1: line.x1,
      y1: line.y1,
      text,
      words,
      ...(line.staff !== undefined ? { staff: line.staff } : {}),
      ...(line.verse !== undefined && kind === 'lyrics' ? { verse: line.verse } : {}),
    });
  });
  return lines;
}

/** A line cut out for reading: `toPage` takes an x in the image back to the page; y is its top row on the page. */
export interface LineCrop {
  image: GrayImage;
  y: number;
  scale: number;
  toPage: (x: number) => number;
}

/** A crop's words; none for a line that cannot be read (it is left out). */
function readCrop(ocr: OcrReader, crop: LineCrop): Promise<OcrWord[]> {
  return ocr.readLine(crop.image).catch(() => []);
}

/**
 * The line's glyphs alone on white, padded and scaled, with every gap
 * between its ink wider than {@link LONGEST_GAP} letter heights closed up to that:
 * tesseract's cost grows with a line's width, and lyrics are mostly space.
 */
export function cropLine(gray: GrayImage, regions: TextRegions, line: TextLine): LineCrop {
  const pad = Math.max(3, Math.round(line.size * 0.4));
  const y = Math.max(0, line.y0 - pad);
  const h = Math.min(gray.height, line.y1 + pad) - y;
  const columns = keptColumns(line, pad, gray.width, Math.max(pad, Math.round(line.size * LONGEST_GAP)));
  const w = columns.length;
  const own = new Set(line.glyphs);
  const source = new Uint8Array(w * h).fill(255);
  for (let yy = 0; yy < h; yy++) {
    for (let xx = 0; xx < w; xx++) {
      const i = (y + yy) * gray.width + columns[xx]!;
      const label = regions.labels[i]!;
      // Paper keeps its gray (the soft edges of letters); ink of anything but this line's glyphs is erased.
      if (label === 0 || own.has(label)) source[yy * w + xx] = gray.data[i]!;
    }
  }
  const scale = Math.min(4, Math.max(1, TARGET_SIZE / Math.max(1, line.size)));
  const toPage = (x: number) => {
    const c = x / scale;
    if (c <= 0) return columns[0]! + c;
    if (c >= w) return columns[w - 1]! + 1 + (c - w);
    return columns[Math.floor(c)]! + (c - Math.floor(c));
  };
  return { image: scaleBilinear({ width: w, height: h, data: source }, scale), y, scale, toPage };
}

/** Widest gap a crop keeps between a line's inks, in letter heights: twice a word space and more. */
const LONGEST_GAP = 1;

/** The page columns a line's crop is made of, left to right: its padded extent less the middle of every gap wider than `longest`. */
function keptColumns(line: TextLine, pad: number, width: number, longest: number): number[] {
  const columns: number[] = [];
  const keep = (from: number, to: number) => {
    for (let x = Math.max(0, from); x < Math.min(width, to); x++) columns.push(x);
  };
  let from = line.x0 - pad;
  for (let i = 1; i < line.spans.length; i++) {
    const gapStart = line.spans[i - 1]![1];
    const gapEnd = line.spans[i]![0];
    if (gapEnd - gapStart <= longest) continue;
    const half = Math.floor(longest / 2);
    keep(from, gapStart + half);
    from = gapEnd - (longest - half);
  }
  keep(from, line.x1 + pad);
  return columns;
}

function scaleBilinear(image: GrayImage, scale: number): GrayImage {
  if (scale === 1) return image;
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const out = new Uint8Array(width * height);
  const { data, width: sw, height: sh } = image;
  for (let y = 0; y < height; y++) {
    const sy = Math.min(sh - 1, Math.max(0, (y + 0.5) / scale - 0.5));
    const y0 = Math.floor(sy);
    const y1 = Math.min(sh - 1, y0 + 1);
    const fy = sy - y0;
    for (let x = 0; x < width; x++) {
      const sx = Math.min(sw - 1, Math.max(0, (x + 0.5) / scale - 0.5));
      const x0 = Math.floor(sx);
      const x1 = Math.min(sw - 1, x0 + 1);
      const fx = sx - x0;
      const top = data[y0 * sw + x0]! + (data[y0 * sw + x1]! - data[y0 * sw + x0]!) * fx;
      const bottom = data[y1 * sw + x0]! + (data[y1 * sw + x1]! - data[y1 * sw + x0]!) * fx;
      out[y * width + x] = Math.round(top + (bottom - top) * fy);
    }
  }
  return { width, height, data: out };
}
