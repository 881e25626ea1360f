/**
 * The seam between seeing and reading: what the vision stages hand the
 * music reader (src/assembly) for one page.
 *
 * - The symbols found, each with its box in prepared-page pixels, its staff,
 *   its staff position where it has one, and the model's confidence.
 * - The staves and systems they stand on, and the transform back to the
 *   user's page.
 * - A {@link PageSight}: the questions the reader may ask of the page's
 *   pixels and models, answered by vision code (src/symbols/page-sight.ts).
 *   The reader never touches a pixel, an ink mask, a class map or a model
 *   itself: what it knows of the page is what this module names.
 *
 * Every length is in prepared-page pixels, where a staff space is
 * {@link PageReading.space}.
 */
import type { Staff } from '../staves/detect-staves.js';
import type { StaffSystem } from '../staves/systems.js';
import type { BarlineSymbol, ClefSymbol, PageSymbols, RestSymbol, TimeGlyph } from '../symbols/read-symbols.js';
import type { PageTransform } from './page-transform.js';

/** The symbols of a page, without the class map they were read from. */
export type SymbolsSeen = Omit<PageSymbols, 'map'>;

/** Which outer edges of its system a staff is on: a barline stops at those, and may run on through the others. */
export interface OuterEdges {
  /** The staff is the system's top one: nothing may continue above it. */
  top: boolean;
  /** The staff is the system's bottom one. */
  bottom: boolean;
}

/** A time signature's glyphs as printed: the C or ¢ sign, or two numbers; the reader decides what it means. */
export type PrintedTime = { symbol: 'common' | 'cut' } | { beats: number; beatType: number };

/** What the music reader may ask of the page's pixels and models. */
export interface PageSight {
  /** Whether a beam runs straight from one stem tip to the other, all the way. */
  beamAlong(from: readonly [number, number], to: readonly [number, number]): boolean;
  /** How many beams cross a stem's free end at `tip`, looking up to `reach` back towards its heads. */
  beamsAtStem(x: number, tip: number, up: boolean, reach: number): number;
  /**
   * A stack of beams in column x beyond a head at height `from`, going `way` (1: down, -1: up),
   * within a long stem's length: how far it starts from the head, and where its far side is.
   */
  beamBeyond(x: number, from: number, way: 1 | -1): { near: number; far: number } | undefined;
  /**
   * Tremolo strokes across the stem at x, from its tip (followed on where its ink goes on past it) to
   * `head`, next to its heads (or, with no stem there, across the column where one would stand): short
   * thick bars reaching out on both sides. The height of each one's middle, top to bottom.
   */
  tremoloStrokes(x: number, tip: number, head: number): number[];
  /**
   * Whether a wavy upright line (an arpeggio sign) stands left of x (a chord's heads' left edge), within
   * a few spaces, running at least from `top` to `bottom` (the middles of its top and bottom heads).
   */
  arpeggioBefore(x: number, top: number, bottom: number): boolean;
  /** Upright lines in the ink that cross the whole staff with no notehead at either end: barlines the model missed. */
  barlinesInInk(staffIndex: number, edges: OuterEdges): BarlineSymbol[];
  /** Whether a line in the ink crosses the whole staff near x (within half a space), leaning by `slope` (dx per dy). */
  lineAcross(staffIndex: number, x: number, slope: number): boolean;
  /** Upright strokes in [x0, x1) on a staff: a flat shows one, a sharp two. */
  keyAreaStrokes(staffIndex: number, x0: number, x1: number): number;
  /** The vertical extent of the ink column a clef's box stands in (the model may label only part of a small clef). */
  clefInk(clef: ClefSymbol): { y0: number; y1: number } | undefined;
  /** A time signature's glyphs read: the sign, or its two numbers digit by digit; undefined where they cannot be read. */
  printedTime(glyphs: readonly TimeGlyph[], staffIndex: number): Promise<PrintedTime | undefined>;
  /** The number printed over a multi-measure rest, read digit by digit; undefined where there is none. */
  numberOver(rest: RestSymbol, staffIndex: number): Promise<number | undefined>;
}

/** One page as seen: everything the music reader reads it from. */
export interface PageReading {
  /** 0-based index of the page in the job. */
  page: number;
  transform: PageTransform;
  /** Staff space of the prepared page, in pixels. */
  space: number;
  staves: readonly Staff[];
  systems: readonly StaffSystem[];
  symbols: SymbolsSeen;
  sight: PageSight;
}
