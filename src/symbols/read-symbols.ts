/**
 * From the class map to symbols: noteheads (chords split into single heads),
 * stems, flags, rests, dots, accidentals, clefs, time-signature glyphs,
 * barlines, tuplet marks and repeat dots — each with its box on the prepared
 * page, the staff it belongs to and the model's confidence.
 *
 * Beams stay in the class map: how many there are is read where they meet a
 * stem (assembly/chords.ts), which is where it is unambiguous.
 */
import type { BinaryImage } from '../preparation/binarize.js';
import type { Staff } from '../staves/detect-staves.js';
import { onArpeggioLine } from './arpeggio-lines.js';
import { barlineStrokes } from './barline-ink.js';
import { readGraceSlashes } from './grace-slashes.js';
import { readVoltas, type VoltaSymbol } from './voltas.js';
import { readOctaveLines, type OctaveLineSymbol } from './octave-lines.js';
import { readCurves, type Curve } from './curves.js';
import { sizeHeadsByInk } from './head-ink.js';
import { headsNear } from './heads-near.js';
import { headsFollowStems } from './heads-between-staves.js';
import { markCandidates, readHairpins, type ArticulationMark, type Hairpin, type MarkCandidate } from './marks.js';
import { accidentalPosition, nearestStaff, positionY, staffPosition } from '../staves/staff-geometry.js';
import { centre, classComponents, joinNear, MAP_SCALE, type Component } from './components.js';
import type { ClassMap } from './segment.js';
import { repaintSteepBeams } from './steep-beams.js';
import { CLASS_INDEX, SYMBOL_CLASSES, type SymbolClass } from './symbol-classes.js';

/** How far, in spaces, a curve's box may reach past a hairpin's and still be a piece of it. */
const HAIRPIN_CURVE_MARGIN = 0.3;

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

interface Placed extends Box {
  /** Index of the staff the symbol belongs to. */
  staff: number;
  confidence: number;
}

export type HeadKind = 'black' | 'half' | 'whole';

export interface Head extends Placed {
  kind: HeadKind;
  /** Centre. */
  x: number;
  y: number;
  /** Staff position: half spaces down from the top line. */
  position: number;
  /** Cue- or grace-sized: well narrower than the page's usual head. */
  small: boolean;
}

export interface Stem extends Placed {
  x: number;
}

export interface Flag extends Placed {
  /** Number of flags: 1 for an eighth … 4 for a 64th. */
  count: number;
}

export type RestKind = 'whole' | 'half' | 'quarter' | 'eighth' | '16th' | '32nd' | '64th' | 'multi';

export interface RestSymbol extends Placed {
  kind: RestKind;
}

export type AccidentalKind = 'sharp' | 'flat' | 'natural' | 'double-sharp' | 'flat-flat';

export interface AccidentalSymbol extends Placed {
  kind: AccidentalKind;
  /** Staff position the accidental applies to (where its centre of gravity points). */
  position: number;
}

export type ClefKind = 'G' | 'F' | 'C' | 'other';

export interface ClefSymbol extends Placed {
  kind: ClefKind;
  /** Where the ink's weight sits, from the box's top (0) to its bottom (1): an F clef's curl makes it top-heavy. */
  balance: number;
}

export interface TimeGlyph extends Placed {
  /** The C / ¢ glyph rather than a digit. */
  common: boolean;
}

export interface BarlineSymbol extends Box {
  x: number;
  /** Stroke width in prepared pixels (thin or thick). */
  thickness: number;
  confidence: number;
  /** Staves whose top-to-bottom lines it covers. */
  staves: number[];
}

export interface Mark extends Placed {
  x: number;
  y: number;
}

export interface PageSymbols {
  heads: Head[];
  stems: Stem[];
  flags: Flag[];
  rests: RestSymbol[];
  dots: Mark[];
  accidentals: AccidentalSymbol[];
  clefs: ClefSymbol[];
  time: TimeGlyph[];
  barlines: BarlineSymbol[];
  tuplets: Mark[];
  repeatDots: Mark[];
  /** Ties and slurs, as arcs with their ends. */
  curves: Curve[];
  /** Articulations, fermatas, ornaments and bowing, as the mark model reads them (symbols/marks.ts). */
  articulations: ArticulationMark[];
  /** Crescendo and diminuendo wedges. */
  hairpins: Hairpin[];
  /** Volta brackets over the staves (read in the ink: none without it). */
  voltas: VoltaSymbol[];
  /** Slashes through small heads' stems, at the stem (acciaccaturas; read in the ink: none without it). */
  graceSlashes: Mark[];
  /** 8va and 8vb lines (read in the ink: none without it); their 8s are not among the tuplet numbers. */
  octaveLines: OctaveLineSymbol[];
  /**
   * Braces at the left of systems (a grand staff): anything brace-or-bracket
   * shaped short enough for two staves, and taller ones that curve like a brace.
   */
  braces: Box[];
  /** The class map itself, for measurements that need pixels (beams). */
  map: ClassMap;
}

const idx = (names: readonly SymbolClass[]) => names.map((n) => CLASS_INDEX[n]);
const nameOf = (cls: number) => SYMBOL_CLASSES[cls]!;

const HEAD_KIND: Partial<Record<SymbolClass, HeadKind>> = { noteheadBlack: 'black', noteheadHalf: 'half', noteheadWhole: 'whole' };
const FLAG_COUNT: Partial<Record<SymbolClass, number>> = { flag8: 1, flag16: 2, flag32: 3, flag64: 4 };
const REST_KIND: Partial<Record<SymbolClass, RestKind>> = {
  restWhole: 'whole',
  restHalf: 'half',
  restQuarter: 'quarter',
  rest8: 'eighth',
  rest16: '16th',
  rest32: '32nd',
  rest64: '64th',
  restMulti: 'multi',
};
const ACCIDENTAL_KIND: Partial<Record<SymbolClass, AccidentalKind>> = {
  sharp: 'sharp',
  flat: 'flat',
  natural: 'natural',
  doubleSharp: 'double-sharp',
  doubleFlat: 'flat-flat',
};
/** Least height of a rest glyph, in staff spaces (engraved ones are about half as tall again). */
const MIN_REST_HEIGHT: Partial<Record<RestSymbol['kind'], number>> = { quarter: 1.8, eighth: 1.3, '16th': 1.3, '32nd': 1.3, '64th': 1.3 };
/** Pieces of one rest's paint, each shorter than a rest, this many spaces apart or less are one rest (a staff line the model painted through it). */
const REST_PIECE_GAP = 0.5;

/** Usual width of each accidental, in staff spaces. */
const ACCIDENTAL_WIDTH: Record<AccidentalKind, number> = { sharp: 1.05, flat: 0.95, natural: 0.75, 'double-sharp': 1, 'flat-flat': 1.7 };

const CLEF_KIND: Partial<Record<SymbolClass, ClefKind>> = { clefG: 'G', clefF: 'F', clefC: 'C', clefOther: 'other' };

/** What readSymbols finds: every symbol but the marks around notes, which are only candidates until the mark model reads them. */
/** A barline within this many spaces of a cut-time C's box is its stroke. */
const CUT_STROKE_MARGIN = 0.2;
export type SymbolsWithCandidates = Omit<PageSymbols, 'articulations'> & { markCandidates: MarkCandidate[] };

/*
 * What tells a symbol from a look-alike in readSymbols, in staff spaces unless said otherwise
 * (staff positions are half spaces down from the top line).
 */
/** A notehead component covers at least this many square spaces; a smaller speck of head class is a piece of something else. */
const HEAD_MIN_AREA = 0.3;
/** A time-signature glyph taller than this many spaces holds no head inside its box … */
const TIME_GLYPH_MIN_HEIGHT = 1.1;
/** … nor within this many spaces above or below it. */
const TIME_GLYPH_HEAD_MARGIN = 1;
/** A stem is at least this many spaces long … */
const STEM_MIN_LENGTH = 1.5;
/** … or, where it ends in a beam, at least this many. */
const BEAMED_STEM_MIN_LENGTH = 0.7;
/** An eighth rest narrower than this many spaces … */
const BREATH_MARK_MAX_WIDTH = 0.7;
/** … whose bottom stands above this staff position is a breath mark. */
const BREATH_MARK_LOWEST_POSITION = 1.5;
/** A rest whose box a head's box covers by more than this share is part of the head. */
const REST_ON_HEAD_SHARE = 0.25;
/** An augmentation-dot component wider than this many spaces … */
const DOT_MAX_WIDTH = 2.4;
/** … or taller than this many is no dot. */
const DOT_MAX_HEIGHT = 0.9;
/** A dot shorter than this many spaces … */
const DOT_ON_LINE_MAX_HEIGHT = 0.4;
/** … within this many spaces of a line's height is a cut end of a ledger or staff line. */
const DOT_ON_LINE_REACH = 0.2;
/** Merged dots are split into one per this many spaces of their width. */
const DOT_PITCH = 0.8;
/** A double flat narrower than this many spaces is a single flat. */
const DOUBLE_FLAT_MIN_WIDTH = 1.4;
/** A sharp or natural shorter than this many spaces is a cautionary bracket or a speck. */
const SHARP_NATURAL_MIN_HEIGHT = 2;
/**
 * Pieces of a sharp's (a natural's) paint, each shorter than one, this many spaces apart or less are one
 * accidental: the model paints a sharp's slanted bars as beam at times, leaving its strokes in pieces.
 */
const ACCIDENTAL_PIECE_GAP = 0.5;
const SHARP_OR_NATURAL = new Set([CLASS_INDEX.sharp, CLASS_INDEX.natural]);

/** Pieces the model paints apart that are one symbol: those `isPiece` names, of one class, within `gap` spaces of each other. */
interface Join {
  gap: number;
  isPiece: (c: Component) => boolean;
}
/** A barline's stroke is at most this many spaces thick … */
const BARLINE_MAX_THICKNESS = 1.2;
/** … its box at most this many spaces wide, plus {@link BARLINE_WIDTH_PER_HEIGHT} of its height … */
const BARLINE_MAX_WIDTH = 1.2;
const BARLINE_WIDTH_PER_HEIGHT = 0.2;
/** … and it leans at most this much across per unit of height. */
const BARLINE_MAX_LEAN = 0.2;
/** A stem whose top stands between these staff positions … */
const STAFF_STEM_TOP_FROM = -0.6;
const STAFF_STEM_TOP_TO = 0.6;
/** … and its bottom between these, is a barline … */
const STAFF_STEM_BOTTOM_FROM = 7.4;
const STAFF_STEM_BOTTOM_TO = 8.6;
/** … unless a head stands within this many spaces of it across … */
const STAFF_STEM_HEAD_ACROSS = 0.5;
/** … and along it or within this many spaces beyond its ends. */
const STAFF_STEM_HEAD_BEYOND = 1;
/** A barline read from a stem keeps this share of the stem's confidence. */
const BARLINE_FROM_STEM_CONFIDENCE = 0.8;
/** A brace is taller than this many spaces … */
const BRACE_MIN_HEIGHT = 6;
/** … and its box wider than this many (a bracket's straight bar is narrower). */
const BRACE_MIN_WIDTH = 0.85;

export function readSymbols(map: ClassMap, staves: readonly Staff[], space: number, ink?: BinaryImage): SymbolsWithCandidates {
  repaintSteepBeams(map, space);
  const place = (c: Component): Placed | undefined => {
    const [x, y] = centre(c);
    const staff = nearestStaff(staves, x, y);
    return staff < 0 ? undefined : { x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1, staff, confidence: c.confidence };
  };
  // With `join`, `minArea` counts over the joined pieces.
  const components = (classes: readonly SymbolClass[], minArea: number, join?: Join): Component[] =>
    join === undefined ? classComponents(map, idx(classes), minArea) : joinNear(classComponents(map, idx(classes), 1), space * join.gap, join.isPiece).filter((c) => c.area >= minArea);
  const placed = <T>(classes: readonly SymbolClass[], make: (c: Component, p: Placed) => T | undefined, minArea = 2, join?: Join): T[] =>
    components(classes, minArea, join).flatMap((c) => {
      const p = place(c);
      const made = p && make(c, p);
      return made ? [made] : [];
    });

  const time = placed(['timeDigit', 'timeCommon'], (c, p) => ({ ...p, common: nameOf(c.cls) === 'timeCommon' }), 4);
  // A head covers a space square or so (a cue head half that); a speck of head class under a third of
  // it is a piece of something else (a steep beam's edge, where a stem meets it).
  const headComponents = placed(['noteheadBlack', 'noteheadHalf', 'noteheadWhole'], (c, p) => ({ c, p }), Math.round(HEAD_MIN_AREA * (space / MAP_SCALE) ** 2));
  const headWidth = nominalHeadWidth(headComponents.map((h) => h.c), space);
  const heads = joinWholeHalves(headComponents
    .filter(({ c }) => solid(c, space))
    .flatMap(({ c, p }) => splitHeads(c, p, staves[p.staff]!, map, space, headWidth)), headWidth)
    .filter((h) => onLedgers(h, map, space) && !amidText(h, map, space))
    // The model sometimes calls the bowl of a common-time C a whole note: no head stands inside a time
    // signature (a glyph of its size: a speck called a digit may be a piece of the head).
    .filter((h) => !time.some((t) => t.staff === h.staff && t.y1 - t.y0 > space * TIME_GLYPH_MIN_HEIGHT && h.x > t.x0 && h.x < t.x1 && h.y > t.y0 - space * TIME_GLYPH_HEAD_MARGIN && h.y < t.y1 + space * TIME_GLYPH_HEAD_MARGIN));
  // Heads the class map measured a cell too wide (grace and cue heads) or too narrow (an eroded head on a scan), sized by their ink.
  if (ink) sizeHeadsByInk(heads, ink, space, headWidth);
  unisonHeadsFullSize(heads, space);
  const headDots = dotsReadAsHeads(heads, space);

  // A stem is a space and a half long at the least; shorter where a steep beam comes down close to its
  // head, and then it ends in the beam.
  const stems = joinStems(placed(['stem'], (c, p) => stemOf(c, p, map.width, space), 1), space).filter(
    (st) => st.y1 - st.y0 >= space * STEM_MIN_LENGTH || (st.y1 - st.y0 >= space * BEAMED_STEM_MIN_LENGTH && endsInBeam(st, map)),
  );
  const flags = placed(['flag8', 'flag16', 'flag32', 'flag64'], (c, p) => ({ ...p, count: FLAG_COUNT[nameOf(c.cls)] ?? 1 }), 4);
  // Quarter and shorter rests stand two or more spaces tall; a breath mark or a tick above the staff
  // that the model calls an eighth rest is under one space, often cut in two by the top line.
  const shorterThanRest = (c: Component) => c.y1 - c.y0 < space * (MIN_REST_HEIGHT[REST_KIND[nameOf(c.cls)]!] ?? 0);
  const restPieces: Join = { gap: REST_PIECE_GAP, isPiece: shorterThanRest };
  const rests = placed(['restWhole', 'restHalf', 'restQuarter', 'rest8', 'rest16', 'rest32', 'rest64', 'restMulti'], (c, p) => {
    const kind = REST_KIND[nameOf(c.cls)]!;
    if (shorterThanRest(c)) return undefined;
    // A breath mark (a comma over the staff) is as tall as an eighth rest but half as wide, and stands
    // above the staff, reaching no more than a little past the top line.
    if (kind === 'eighth' && c.x1 - c.x0 < space * BREATH_MARK_MAX_WIDTH && staffPosition(staves[p.staff]!, (c.x0 + c.x1) / 2, c.y1) < BREATH_MARK_LOWEST_POSITION) return undefined;
    return { ...p, kind };
  }, 4, restPieces).filter((r) => !heads.some((h) => h.staff === r.staff && overlapShare(r, h) > REST_ON_HEAD_SHARE));
  // Two dots of a double-dotted note can merge at class-map resolution: a wide, flat blob is split.
  const dots = placed(['augmentationDot'], (c, p) => {
    const w = c.x1 - c.x0;
    if (w > space * DOT_MAX_WIDTH || c.y1 - c.y0 > space * DOT_MAX_HEIGHT) return undefined;
    // Augmentation dots sit in spaces; a speck on a line is a cut end of a ledger line or a staff line.
    const position = staffPosition(staves[p.staff]!, (c.x0 + c.x1) / 2, (c.y0 + c.y1) / 2);
    if (c.y1 - c.y0 < space * DOT_ON_LINE_MAX_HEIGHT && Math.abs(position / 2 - Math.round(position / 2)) < DOT_ON_LINE_REACH) return undefined;
    const n = Math.max(1, Math.round(w / (space * DOT_PITCH)));
    return Array.from({ length: n }, (_, k) => ({ ...p, x: c.x0 + ((k + 0.5) * w) / n, y: (c.y0 + c.y1) / 2 }));
  }, 1).flat().concat(headDots);
  const accidentalPieces: Join = { gap: ACCIDENTAL_PIECE_GAP, isPiece: (c) => SHARP_OR_NATURAL.has(c.cls) && c.y1 - c.y0 < space * SHARP_NATURAL_MIN_HEIGHT };
  const accidentals = placed(['sharp', 'flat', 'natural', 'doubleSharp', 'doubleFlat'], (c, p) => {
    let kind = ACCIDENTAL_KIND[nameOf(c.cls)]!;
    // A double flat is two flats wide; on a blurred small staff the model calls a single flat one.
    if (kind === 'flat-flat' && c.x1 - c.x0 < space * DOUBLE_FLAT_MIN_WIDTH) kind = 'flat';
    // A sharp or a natural stands near three spaces tall; a shorter one is a bracket of a cautionary
    // accidental, "(♭)", or a speck.
    if ((kind === 'natural' || kind === 'sharp') && c.y1 - c.y0 < space * SHARP_NATURAL_MIN_HEIGHT) return undefined;
    // Key-signature accidentals stand close enough to merge into one component: split them into columns.
    const width = ACCIDENTAL_WIDTH[kind] * space;
    const n = kind === 'sharp' ? sharpCount(c, map, space, width) : Math.max(1, Math.round((c.x1 - c.x0) / width));
    const boxes = kind === 'flat' && n > 1 ? splitAtStems(c, map, space) : columnBoxes(c, map, n);
    return boxes.map((box): AccidentalSymbol => ({ ...p, ...box, kind, position: accidentalPosition(staves[p.staff]!, box, kind, space) }));
  }, 6, accidentalPieces).flat().filter((a, _, all) => !pieceOfAnother(a, all, space) && !(ink && onArpeggioLine(ink, a, space)));
  headsFollowStems(heads, stems, accidentals, dots, staves, space, (h) => onLedgers(h, map, space));
  const clefs = classComponents(map, idx(['clefG', 'clefF', 'clefC', 'clefOther']), 10).flatMap((c) => clefPieces(c, staves, map, space));
  const numbers = placed(['tuplet'], (c, p) => ({ ...p, x: (c.x0 + c.x1) / 2, y: (c.y0 + c.y1) / 2 }), 3);
  const octaves = ink ? readOctaveLines(ink, numbers, staves, space) : { lines: [], eights: new Set<Mark>() };
  const tuplets = numbers.filter((n) => !octaves.eights.has(n));
  const repeatDots = placed(['repeatDot'], (c, p) => ({ ...p, x: (c.x0 + c.x1) / 2, y: (c.y0 + c.y1) / 2 }), 1);
  const barlineParts = classComponents(map, idx(['barline']), 1);
  const barlines = barlineParts.filter((c) => c.area >= 4).flatMap((c) => {
    const covered = staves.flatMap((staff, i) => (coversStaff(c, staff, space) ? [i] : []));
    if (!covered.length) return [];
    // A barline is a thin upright stroke. On a photo it leans, and one drawn through a grand staff is
    // tall, so its box grows wide: the stroke's own width and its lean are what tell.
    const thickness = strokeWidth(c, map);
    const lean = (c.x1 - c.x0 - thickness) / (c.y1 - c.y0);
    if (thickness > space * BARLINE_MAX_THICKNESS || c.x1 - c.x0 > space * BARLINE_MAX_WIDTH + (c.y1 - c.y0) * BARLINE_WIDTH_PER_HEIGHT || lean > BARLINE_MAX_LEAN) return [];
    return [{ x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1, x: (c.x0 + c.x1) / 2, thickness, confidence: c.confidence, staves: covered }];
  });
  barlines.push(...pieceTogetherBarlines(barlineParts, barlines, staves, map, space));
  for (const line of stemLabelledBarlines(map, barlines, heads, staves, space)) {
    barlines.push(line);
    // Its stem-labelled stretches are no stems: a head beside the line must not take one.
    for (const stem of stems.filter((st) => st.x > line.x0 - 1 && st.x < line.x1 + 1 && st.y0 >= line.y0 - 1 && st.y1 <= line.y1 + 1)) stems.splice(stems.indexOf(stem), 1);
  }
  // On a blurred or bent page the model calls some barlines stems: a "stem" that spans its staff
  // from the top line to the bottom line, no further, with no notehead at either end, is a barline.
  const headless = stems.filter((stem) => {
    const staff = staves[stem.staff]!;
    const top = staffPosition(staff, stem.x, stem.y0);
    const bottom = staffPosition(staff, stem.x, stem.y1);
    if (top < STAFF_STEM_TOP_FROM || top > STAFF_STEM_TOP_TO || bottom < STAFF_STEM_BOTTOM_FROM || bottom > STAFF_STEM_BOTTOM_TO) return false;
    return !heads.some((h) => h.staff === stem.staff && stem.x > h.x0 - space * STAFF_STEM_HEAD_ACROSS && stem.x < h.x1 + space * STAFF_STEM_HEAD_ACROSS && h.y > stem.y0 - space * STAFF_STEM_HEAD_BEYOND && h.y < stem.y1 + space * STAFF_STEM_HEAD_BEYOND);
  });
  for (const stem of headless) {
    stems.splice(stems.indexOf(stem), 1);
    barlines.push({ x0: stem.x0, y0: stem.y0, x1: stem.x1, y1: stem.y1, x: stem.x, thickness: Math.max(2, stem.x1 - stem.x0), confidence: stem.confidence * BARLINE_FROM_STEM_CONFIDENCE, staves: [stem.staff] });
  }
  // A brace curves, so its box is about a space wide or more; a stretch of a bracket's straight bar is narrower.
  const braces = joinBraceParts(classComponents(map, idx(['braceBracket']), 10), space).filter(
    (c) => c.y1 - c.y0 > space * BRACE_MIN_HEIGHT && c.x1 - c.x0 > space * BRACE_MIN_WIDTH && isBrace(c, map, space),
  );
  // The stroke through a cut-time C stands the height of the staff's middle: it is not a barline.
  const cutStrokes = time.filter((t) => t.common);
  const realBarlines = barlines.filter((b) => !cutStrokes.some((t) => b.staves.includes(t.staff) && b.x > t.x0 - space * CUT_STROKE_MARGIN && b.x < t.x1 + space * CUT_STROKE_MARGIN));
  // Each stroke's width as the ink shows it: the class map blurs thin strokes thick and merges double ones.
  const measuredBarlines = ink ? realBarlines.flatMap((b) => barlineStrokes(b, staves, ink, space)) : realBarlines;
  const candidates = markCandidates(map, staves, space, ink);
  const headPaint = headsNear(map);
  const hairpins = readHairpins(map, staves, space, ink, headPaint);
  // A hairpin the model painted partly as a slur and partly as text is read as a hairpin, not a slur too.
  const curves = readCurves(map, staves, space, headPaint).filter((c) => !hairpins.some((h) => insideHairpin(c, h, space)));
  return { heads, stems, flags, rests, dots, accidentals, clefs, time, barlines: measuredBarlines, tuplets, repeatDots, curves, markCandidates: candidates, hairpins, voltas: ink ? readVoltas(ink, staves, space) : [], graceSlashes: ink ? readGraceSlashes(ink, heads, space) : [], octaveLines: octaves.lines, braces, map };
}

/** Brace parts one above the other join across a gap of less than this many spaces … */
const BRACE_PART_GAP = 3;
/** … where their boxes overlap across or come within this many spaces of overlapping. */
const BRACE_PART_ACROSS = 0.5;

/**
 * A brace on a photo or a scan falls apart where its stroke is thinnest, or
 * the model calls a stretch of it something else: parts one above the other,
 * in line and less than three spaces apart, are one brace again.
 */
function joinBraceParts(parts: readonly Component[], space: number): Component[] {
  const joined: Component[] = [];
  for (const part of [...parts].sort((a, b) => a.y0 - b.y0)) {
    const above = joined.find((j) => part.y0 - j.y1 < space * BRACE_PART_GAP && part.x0 < j.x1 + space * BRACE_PART_ACROSS && part.x1 > j.x0 - space * BRACE_PART_ACROSS);
    if (!above) {
      joined.push({ ...part, counts: new Map(part.counts) });
      continue;
    }
    const pixels = new Int32Array(above.pixels.length + part.pixels.length);
    pixels.set(above.pixels);
    pixels.set(part.pixels, above.pixels.length);
    above.confidence = (above.confidence * above.area + part.confidence * part.area) / (above.area + part.area);
    above.area += part.area;
    above.pixels = pixels;
    above.x0 = Math.min(above.x0, part.x0);
    above.x1 = Math.max(above.x1, part.x1);
    above.y1 = Math.max(above.y1, part.y1);
    for (const [cls, n] of part.counts) above.counts.set(cls, (above.counts.get(cls) ?? 0) + n);
  }
  return joined;
}

/** A brace's stroke is followed over its rows from this share of its height … */
const BRACE_INNER_FROM = 0.15;
/** … to this share (its hooked ends left out) … */
const BRACE_INNER_TO = 0.85;
/** … which must be at least this many class-map rows … */
const BRACE_MIN_INNER_ROWS = 4;
/** … and its middle wanders across by more than this many spaces. */
const BRACE_MIN_WANDER = 0.35;

/**
 * A brace curves: the middle of its stroke wanders left and right along its
 * height, while a bracket is a straight bar with hooks only at its ends.
 */
function isBrace(c: Component, map: ClassMap, space: number): boolean {
  const sum = new Map<number, [number, number]>();
  for (const i of c.pixels) {
    const x = i % map.width;
    const y = (i - x) / map.width;
    const [s, n] = sum.get(y) ?? [0, 0];
    sum.set(y, [s + x, n + 1]);
  }
  const rows = [...sum.keys()].sort((a, b) => a - b);
  const inner = rows.slice(Math.floor(rows.length * BRACE_INNER_FROM), Math.ceil(rows.length * BRACE_INNER_TO)).map((y) => (sum.get(y)![0] / sum.get(y)![1]) * MAP_SCALE);
  if (inner.length < BRACE_MIN_INNER_ROWS) return false;
  return Math.max(...inner) - Math.min(...inner) > space * BRACE_MIN_WANDER;
}

/** A stem component at most this many spaces wide is a stem … */
const STEM_MAX_WIDTH = 0.8;
/** … one up to this many wide is one where it is thin … */
const BLURRED_STEM_MAX_WIDTH = 1.2;
/** … (a row at most this many spaces wide) … */
const THIN_STEM_ROW = 0.5;
/** … on at least this share of its rows. */
const THIN_STEM_ROWS_SHARE = 0.75;

/**
 * A stem component as a stem: narrow, or on a blurred photo a little wider where it meets its heads,
 * but then thin (under half a space) on three rows in four: two stems side by side that touch, the
 * second's running down from a head beside the first's tip, are wide wherever both run. Placed
 * where its pixels are.
 */
function stemOf(c: Component, p: Placed, width: number, space: number): Stem | undefined {
  if (c.x1 - c.x0 <= space * STEM_MAX_WIDTH) return { ...p, x: (c.x0 + c.x1) / 2 };
  if (c.x1 - c.x0 > space * BLURRED_STEM_MAX_WIDTH) return undefined;
  const rows = new Map<number, [number, number]>();
  let sum = 0;
  for (const i of c.pixels) {
    const x = i % width;
    sum += x;
    const row = rows.get(i - x);
    if (row) rows.set(i - x, [Math.min(row[0], x), Math.max(row[1], x)]);
    else rows.set(i - x, [x, x]);
  }
  const thin = [...rows.values()].filter(([a, b]) => (b - a + 1) * MAP_SCALE <= space * THIN_STEM_ROW).length;
  if (thin < rows.size * THIN_STEM_ROWS_SHARE) return undefined;
  return { ...p, x: (sum / c.pixels.length + 0.5) * MAP_SCALE };
}

/** Stem pieces within this many spaces of each other across … */
const STEM_PIECE_ACROSS = 0.3;
/** … and at most this many apart up or down are one stem. */
const STEM_PIECE_GAP = 1.4;

/**
 * A chord's stem runs through its heads, whose pixels cut it into pieces;
 * pieces on one line with head-sized gaps between them are one stem again.
 */
function joinStems(pieces: readonly Stem[], space: number): Stem[] {
  // Top to bottom, so that each piece meets the stem grown from the pieces above it (sorting by x first
  // would let a piece a pixel further left skip the gap-sized piece between).
  const sorted = [...pieces].sort((a, b) => a.y0 - b.y0);
  const stems: Stem[] = [];
  for (const piece of sorted) {
    const same = stems.find((s) => Math.abs(s.x - piece.x) <= space * STEM_PIECE_ACROSS && piece.y0 - s.y1 <= space * STEM_PIECE_GAP && s.y0 - piece.y1 <= space * STEM_PIECE_GAP);
    if (!same) {
      stems.push({ ...piece });
      continue;
    }
    same.y0 = Math.min(same.y0, piece.y0);
    same.y1 = Math.max(same.y1, piece.y1);
    same.x0 = Math.min(same.x0, piece.x0);
    same.x1 = Math.max(same.x1, piece.x1);
    same.confidence = Math.min(same.confidence, piece.confidence);
  }
  return stems;
}

/** Whether beam pixels continue a stem just beyond one of its ends. */
function endsInBeam(stem: Stem, map: ClassMap): boolean {
  const col = Math.round(stem.x / MAP_SCALE);
  const rows = [Math.floor(stem.y0 / MAP_SCALE) - 1, Math.floor(stem.y0 / MAP_SCALE) - 2, Math.ceil(stem.y1 / MAP_SCALE), Math.ceil(stem.y1 / MAP_SCALE) + 1];
  return rows.some((y) => [col - 1, col, col + 1].some((x) => x >= 0 && x < map.width && y >= 0 && y < map.height && map.data[y * map.width + x] === CLASS_INDEX.beam));
}

/** A component covers a staff only where its middle stands no further than this many spaces beyond the staff's ends … */
const COVER_BEYOND_STAFF = 1;
/** … its top at or above this staff position … */
const COVER_TOP_POSITION = 1;
/** … and its bottom at or below this one. */
const COVER_BOTTOM_POSITION = 7;

/** Does a vertical component run from (near) the top line to (near) the bottom line of the staff? */
function coversStaff(c: Component, staff: Staff, space: number): boolean {
  const x = (c.x0 + c.x1) / 2;
  if (x < staff.x0 - space * COVER_BEYOND_STAFF || x > staff.x1 + space * COVER_BEYOND_STAFF) return false;
  const top = staffPosition(staff, x, c.y0);
  const bottom = staffPosition(staff, x, c.y1);
  return top <= COVER_TOP_POSITION && bottom >= COVER_BOTTOM_POSITION;
}

/** A component cut into `n` equal columns, each boxed tightly around its own pixels. */
function columnBoxes(c: Component, map: ClassMap, n: number): Box[] {
  if (n <= 1) return [{ x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1 }];
  const width = (c.x1 - c.x0) / n;
  const columns = Array.from({ length: n }, (_, k) => ({ x0: c.x0 + k * width, x1: c.x0 + (k + 1) * width }));
  return fillBoxes(c, map, columns, (x) => Math.min(n - 1, Math.floor((x - c.x0) / width)));
}

/** The vertical extent of the component's pixels within each column range (`columnOf` picks the range of an x); empty ranges are dropped. */
function fillBoxes(c: Component, map: ClassMap, columns: readonly { x0: number; x1: number }[], columnOf: (x: number) => number): Box[] {
  const boxes = columns.map((col) => ({ ...col, y0: Infinity, y1: -Infinity }));
  for (const i of c.pixels) {
    const box = boxes[columnOf((i % map.width) * MAP_SCALE)]!;
    const y = Math.floor(i / map.width) * MAP_SCALE;
    box.y0 = Math.min(box.y0, y);
    box.y1 = Math.max(box.y1, y + MAP_SCALE);
  }
  return boxes.filter((b) => b.y1 > b.y0);
}

/** Runs of tall columns less than this many spaces after the last flat's stem are still that stem. */
const FLAT_STEM_MIN_GAP = 0.5;

/**
 * Merged flats split where each one's stem stands. Flats of a key signature
 * touch, and their joined width says little of how many there are (the
 * class map blurs their edges); their stems say it exactly: each flat has
 * one, a column of ink far taller than its bowl.
 */
function splitAtStems(c: Component, map: ClassMap, space: number): Box[] {
  const x0 = Math.floor(c.x0 / MAP_SCALE);
  const tall = tallColumns(c, map, space);
  // Each run of tall columns is a stem (one broken by a blurred column is still one: flats stand a
  // space apart); a flat reaches from its stem to the next flat's.
  const stems: number[] = [];
  tall.forEach((t, k) => {
    if (t && !tall[k - 1] && (!stems.length || (k - stems[stems.length - 1]!) * MAP_SCALE >= space * FLAT_STEM_MIN_GAP)) stems.push(k);
  });
  if (stems.length <= 1) return [{ x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1 }];
  const cuts = [c.x0, ...stems.slice(1).map((k) => (x0 + k) * MAP_SCALE), c.x1];
  const boxes = cuts.slice(0, -1).map((left, k) => ({ x0: left, x1: cuts[k + 1]! }));
  return fillBoxes(c, map, boxes, (x) => {
    let b = boxes.length - 1;
    while (b > 0 && x < boxes[b]!.x0) b--;
    return b;
  });
}

/**
 * How many sharps a component of them holds. Engravers space a key's sharps
 * differently, so the width alone may count one too many or too few; where
 * its two upright strokes per sharp can be told apart, they settle it to the
 * nearer of the two.
 */
function sharpCount(c: Component, map: ClassMap, space: number, width: number): number {
  const byWidth = Math.max(1, Math.round((c.x1 - c.x0) / width));
  if (byWidth < 2) return byWidth;
  const tall = tallColumns(c, map, space);
  const strokes = tall.filter((t, k) => t && !tall[k - 1]).length;
  const byStrokes = strokes / 2;
  return Number.isInteger(byStrokes) && Math.abs(byStrokes - byWidth) === 1 ? byStrokes : byWidth;
}

/** A column holds an upright stroke where its longest run of pixels is at least this many spaces. */
const UPRIGHT_STROKE_RUN = 1.9;

/** For each class-map column of a component, whether it holds an upright stroke (a run of nearly two spaces). */
function tallColumns(c: Component, map: ClassMap, space: number): boolean[] {
  const x0 = Math.floor(c.x0 / MAP_SCALE);
  const rows = Array.from({ length: Math.ceil(c.x1 / MAP_SCALE) - x0 }, () => [] as number[]);
  for (const i of c.pixels) rows[(i % map.width) - x0]?.push(Math.floor(i / map.width));
  return rows.map((ys) => longestRun(ys) * MAP_SCALE >= space * UPRIGHT_STROKE_RUN);
}

/** The longest run of consecutive values among sorted-or-not row indices. */
function longestRun(ys: number[]): number {
  ys.sort((a, b) => a - b);
  let best = 0;
  let run = 0;
  ys.forEach((y, k) => {
    run = k > 0 && y === ys[k - 1]! + 1 ? run + 1 : 1;
    best = Math.max(best, run);
  });
  return best;
}

/** Median number of class-map pixels per row: the width of a vertical stroke. */
function strokeWidth(c: Component, map: ClassMap): number {
  const rows = new Map<number, number>();
  for (const i of c.pixels) {
    const y = Math.floor(i / map.width);
    rows.set(y, (rows.get(y) ?? 0) + 1);
  }
  const widths = [...rows.values()].sort((a, b) => a - b);
  return (widths[widths.length >> 1] ?? 1) * MAP_SCALE;
}

/** A head component at most this many spaces tall is kept as it is … */
const SOLID_ANY_HEIGHT = 1.6;
/** … a taller one only where its pixels cover at least this share of its box. */
const SOLID_MIN_FILL = 0.4;

/**
 * Noteheads are filled ovals (a hollow head is labelled whole): a component
 * that covers little of its box is a diagonal stroke — a steep beam or a
 * slur — the model mistook for heads.
 */
function solid(c: Component, space: number): boolean {
  const boxArea = ((c.x1 - c.x0) * (c.y1 - c.y0)) / (MAP_SCALE * MAP_SCALE);
  return c.y1 - c.y0 <= space * SOLID_ANY_HEIGHT || c.area / boxArea >= SOLID_MIN_FILL;
}

/** A head at or above this staff position needs ledger lines seen … */
const LEDGERS_NEEDED_ABOVE = -3;
/** … and so does one at or below this one … */
const LEDGERS_NEEDED_BELOW = 11;
/** … looked for from this many spaces left of the head to as far right of it. */
const LEDGER_SEARCH_ACROSS = 0.3;

/**
 * A head more than a ledger line away from its staff needs ledger lines
 * between it and the staff; without them it is a note in a tempo mark or
 * some other text above the music, not a note of the staff.
 */
function onLedgers(head: Head, map: ClassMap, space: number): boolean {
  const beyond = head.position <= LEDGERS_NEEDED_ABOVE ? -head.position : head.position >= LEDGERS_NEEDED_BELOW ? head.position - 8 : 0;
  if (!beyond) return true;
  const ledger = CLASS_INDEX.ledgerLine;
  const ya = Math.floor(Math.min(head.y, head.position < 0 ? head.y + (beyond * space) / 2 : head.y - (beyond * space) / 2) / MAP_SCALE);
  const yb = Math.ceil(Math.max(head.y, head.position < 0 ? head.y + (beyond * space) / 2 : head.y - (beyond * space) / 2) / MAP_SCALE);
  const xa = Math.max(0, Math.floor((head.x0 - space * LEDGER_SEARCH_ACROSS) / MAP_SCALE));
  const xb = Math.min(map.width - 1, Math.ceil((head.x1 + space * LEDGER_SEARCH_ACROSS) / MAP_SCALE));
  const rows = new Set<number>();
  for (let y = Math.max(0, ya); y <= Math.min(map.height - 1, yb); y++) {
    for (let x = xa; x <= xb; x++) if (map.data[y * map.width + x] === ledger) rows.add(Math.round((y * MAP_SCALE) / space));
  }
  // Ledger lines a space apart: at least half of those needed must be seen.
  return rows.size >= Math.max(1, Math.floor(beyond / 2 / 2));
}

/** Text is looked for on a head's rows from this many spaces left of it to as far right … */
const TEXT_SEARCH_ACROSS = 1.5;
/** … and this many class-map pixels of it there say the head is a letter. */
const TEXT_PIXELS_AMID = 10;

/**
 * The o of a word ("e sotto voce" running over a staff) looks like a whole
 * note; the model calls the letters beside it text. A real head has no
 * letters on its own rows within a space and a half (lyrics stand below).
 */
function amidText(head: Head, map: ClassMap, space: number): boolean {
  const text = CLASS_INDEX.text;
  let count = 0;
  const xa = Math.max(0, Math.floor((head.x0 - space * TEXT_SEARCH_ACROSS) / MAP_SCALE));
  const xb = Math.min(map.width - 1, Math.ceil((head.x1 + space * TEXT_SEARCH_ACROSS) / MAP_SCALE));
  for (let y = Math.max(0, Math.floor(head.y0 / MAP_SCALE)); y <= Math.min(map.height - 1, Math.floor(head.y1 / MAP_SCALE)); y++) {
    for (let x = xa; x <= xb; x++) if (map.data[y * map.width + x] === text) count++;
  }
  return count >= TEXT_PIXELS_AMID;
}

/** A head component at most this many spaces tall is one head tall … */
const ONE_HEAD_MAX_HEIGHT = 1.5;
/** … and this many of them at least give the page's head width … */
const HEAD_WIDTH_MIN_SAMPLES = 3;
/** … which is otherwise taken as this many spaces. */
const DEFAULT_HEAD_WIDTH = 1.3;

/** Typical width of a single notehead on this page, from components one head tall. */
function nominalHeadWidth(components: readonly Component[], space: number): number {
  const widths = components
    .filter((c) => c.y1 - c.y0 <= space * ONE_HEAD_MAX_HEIGHT && c.cls !== CLASS_INDEX.noteheadWhole)
    .map((c) => c.x1 - c.x0)
    .sort((a, b) => a - b);
  return widths.length >= HEAD_WIDTH_MIN_SAMPLES ? widths[widths.length >> 1]! : space * DEFAULT_HEAD_WIDTH;
}

/** A whole head is this many of the page's head widths wide. */
const WHOLE_HEAD_WIDTHS = 1.35;
/** A component wider than this many head widths is split into columns a head wide. */
const SPLIT_MIN_WIDTHS = 1.6;
/** A run of head pixels shorter than this many spaces is a sliver of a neighbouring column. */
const HEAD_RUN_MIN_HEIGHT = 0.45;
/** A run holds as many heads as its height in spaces less this, rounded: a tie, slur or blur adds less than three quarters of a space. */
const HEAD_RUN_EXTRA = 0.25;
/** A head narrower than this many head widths is small (cue or grace). */
const SMALL_HEAD_WIDTHS = 0.8;

/**
 * One notehead component may be several heads: a chord's heads a third apart
 * touch, and a second is written with the heads side by side. Split it into
 * columns one head wide, each column into vertical runs, and each run into as
 * many heads as it is staff spaces tall.
 */
function splitHeads(c: Component, p: Placed, staff: Staff, map: ClassMap, space: number, headWidth: number): Head[] {
  const kind = HEAD_KIND[nameOf(c.cls)]!;
  const unit = kind === 'whole' ? headWidth * WHOLE_HEAD_WIDTHS : headWidth;
  const width = c.x1 - c.x0;
  const columns = width > unit * SPLIT_MIN_WIDTHS ? Math.max(2, Math.round(width / unit)) : 1;
  const heads: Head[] = [];
  for (let k = 0; k < columns; k++) {
    const cx0 = c.x0 + (k * width) / columns;
    const cx1 = c.x0 + ((k + 1) * width) / columns;
    // Rows of this column that hold head pixels, at class-map resolution.
    const rows = new Map<number, number>();
    const classes = new Map<number, number>();
    for (const i of c.pixels) {
      const x = (i % map.width) * MAP_SCALE + MAP_SCALE / 2;
      if (x < cx0 || x >= cx1) continue;
      const row = Math.floor(i / map.width);
      rows.set(row, (rows.get(row) ?? 0) + 1);
      classes.set(map.data[i]!, (classes.get(map.data[i]!) ?? 0) + 1);
    }
    const own = columnKind(kind, classes);
    const sorted = [...rows.keys()].sort((a, b) => a - b);
    let runStart = 0;
    for (let r = 1; r <= sorted.length; r++) {
      if (r < sorted.length && sorted[r]! - sorted[r - 1]! <= 1) continue;
      const top = sorted[runStart]! * MAP_SCALE;
      const bottom = (sorted[r - 1]! + 1) * MAP_SCALE;
      const middle = centroid(sorted.slice(runStart, r), rows);
      runStart = r;
      const tall = bottom - top;
      if (tall < space * HEAD_RUN_MIN_HEIGHT) continue; // a sliver of a neighbouring column
      // A chord of thirds stacks heads one space apart; a tie or slur touching one head, or a photo's blur,
      // adds less than three quarters of a space.
      const count = Math.max(1, Math.round(tall / space - HEAD_RUN_EXTRA));
      const x = (cx0 + cx1) / 2;
      const used = new Set<number>();
      for (let n = 0; n < count; n++) {
        const y = count === 1 ? middle : top + space / 2 + (n * (tall - space)) / (count - 1);
        const position = ledgerPosition(staffPosition(staff, x, y), map, cx0, cx1, y, space);
        if (used.has(position)) continue;
        used.add(position);
        heads.push({ ...p, x0: cx0, x1: cx1, y0: y - space / 2, y1: y + space / 2, kind: own, x, y, position, small: cx1 - cx0 < unit * SMALL_HEAD_WIDTHS });
      }
    }
  }
  return heads;
}

/**
 * The height, in prepared pixels, at which a run of head rows holds its pixels' weight: a head's body is wide and
 * what clings to it (a stem's foot, a beam's or a scan's blur) is narrow, so the body decides where the head stands.
 */
function centroid(run: readonly number[], widths: ReadonlyMap<number, number>): number {
  let weight = 0;
  let sum = 0;
  for (const row of run) {
    const w = widths.get(row)!;
    weight += w;
    sum += w * (row * MAP_SCALE + MAP_SCALE / 2);
  }
  return sum / weight;
}

/** A column takes the other head kind where that kind has at least this many times the pixels of the component's kind. */
const COLUMN_KIND_MAJORITY = 2;

/**
 * The kind of one column of a split head component. A component takes the
 * kind most of its pixels have, but a quarter and a half in unison, printed
 * side by side, touch and make one component of two kinds: a column where
 * black and hollow differ from the component's kind by a clear majority
 * (two thirds of the column's head pixels) is a head of that kind. Whole
 * heads are set a head and a half wide and are not split this way.
 */
function columnKind(kind: HeadKind, classes: ReadonlyMap<number, number>): HeadKind {
  if (kind === 'whole') return kind;
  const black = classes.get(CLASS_INDEX.noteheadBlack) ?? 0;
  const half = classes.get(CLASS_INDEX.noteheadHalf) ?? 0;
  if (kind === 'black' && half >= COLUMN_KIND_MAJORITY * black && half > 0) return 'half';
  if (kind === 'half' && black >= COLUMN_KIND_MAJORITY * half && black > 0) return 'black';
  return kind;
}

/** A "head" at most this many spaces wide may be a dot … */
const DOT_AS_HEAD_MAX_WIDTH = 0.6;
/** … where a hollow head wider than this many spaces stands at its position … */
const DOT_HOLLOW_HEAD_MIN_WIDTH = 1;
/** … with the dot starting from this many spaces inside that head's right edge … */
const DOT_AFTER_HEAD_OVERLAP = 0.2;
/** … to under this many spaces right of it. */
const DOT_AFTER_HEAD_REACH = 0.8;
/** The dot so found reaches this many spaces above and below the head's centre. */
const DOT_AS_HEAD_HALF_HEIGHT = 0.25;

/**
 * On a blurred small staff the dot after a whole or half note runs into the
 * model's reading of the hollow head: a sliver of head pixels, no wider than
 * a dot, just right of a head at its position. It is taken out of the heads
 * and returned as the dot it is.
 */
function dotsReadAsHeads(heads: Head[], space: number): Mark[] {
  const dots: Mark[] = [];
  for (let i = heads.length - 1; i >= 0; i--) {
    const h = heads[i]!;
    if (h.x1 - h.x0 > space * DOT_AS_HEAD_MAX_WIDTH) continue;
    const after = heads.some((o) => o !== h && o.kind !== 'black' && o.staff === h.staff && o.position === h.position && o.x1 - o.x0 > space * DOT_HOLLOW_HEAD_MIN_WIDTH && h.x0 - o.x1 > -space * DOT_AFTER_HEAD_OVERLAP && h.x0 - o.x1 < space * DOT_AFTER_HEAD_REACH);
    if (!after) continue;
    heads.splice(i, 1);
    dots.push({ x0: h.x0, x1: h.x1, y0: h.y - space * DOT_AS_HEAD_HALF_HEIGHT, y1: h.y + space * DOT_AS_HEAD_HALF_HEIGHT, staff: h.staff, confidence: h.confidence, x: h.x, y: h.y });
  }
  return dots;
}

/** An accidental narrower than this many spaces is a sliver; one at least this wide is whole. */
const ACCIDENTAL_SLIVER_WIDTH = 0.6;
/** A sliver is part of a whole one of another kind within this many staff positions … */
const SLIVER_POSITION_REACH = 1;
/** … and this many spaces across (or overlapping it). */
const SLIVER_TOUCH = 0.2;

/**
 * The model sometimes gives the edge of an accidental another class: a
 * sliver narrower than any accidental, touching one of another kind at its
 * height, is part of it (a flat's bowl read as a natural would cancel the
 * key for the rest of the measure).
 */
function pieceOfAnother(a: AccidentalSymbol, all: readonly AccidentalSymbol[], space: number): boolean {
  if (a.x1 - a.x0 >= space * ACCIDENTAL_SLIVER_WIDTH) return false;
  return all.some((o) => o !== a && o.kind !== a.kind && o.staff === a.staff && o.x1 - o.x0 >= space * ACCIDENTAL_SLIVER_WIDTH && Math.abs(o.position - a.position) <= SLIVER_POSITION_REACH && Math.max(o.x0 - a.x1, a.x0 - o.x1) <= space * SLIVER_TOUCH);
}

/** A small head less than this many spaces from a full-size one at its position (or overlapping it) is full-size. */
const UNISON_HEAD_TOUCH = 0.3;

/**
 * Two voices in unison with different heads (a dotted quarter beside a
 * quarter) print them side by side, touching or overlapping, and the stem
 * between them cuts the second's pixels short: a head narrowed so, at the
 * position of a full-size head it touches, is full-size, not a grace note.
 */
function unisonHeadsFullSize(heads: Head[], space: number): void {
  for (const [i, h] of heads.entries()) {
    if (!h.small) continue;
    const touching = heads.some((o) => !o.small && o.staff === h.staff && o.position === h.position && Math.max(o.x0 - h.x1, h.x0 - o.x1) < space * UNISON_HEAD_TOUCH);
    if (touching) heads[i] = { ...h, small: false };
  }
}

/**
 * Two whole notes at one staff position less than a head's width apart are
 * one whole note whose middle the model called something else (a blurred
 * hollow head reads as a whole rest in its middle): joined, it is one head.
 */
function joinWholeHalves(heads: Head[], headWidth: number): Head[] {
  const sorted = [...heads].sort((a, b) => a.x - b.x);
  const out: Head[] = [];
  for (const h of sorted) {
    // The nearest whole note to the left at this head's position on its staff.
    let k = out.length - 1;
    while (k >= 0 && !(h.kind === 'whole' && out[k]!.kind === 'whole' && out[k]!.staff === h.staff && out[k]!.position === h.position)) k--;
    const prev = out[k];
    if (prev && h.x - prev.x < headWidth) {
      const x0 = Math.min(prev.x0, h.x0);
      const x1 = Math.max(prev.x1, h.x1);
      out[k] = { ...prev, x0, x1, x: (x0 + x1) / 2, confidence: Math.min(prev.confidence, h.confidence) };
    } else out.push(h);
  }
  return out;
}

/**
 * Share of `a`'s box that `b`'s covers. A rest never stands on a notehead: a blurred whole note's
 * edge the model calls a whole rest is part of the head.
 */
function overlapShare(a: Box, b: Box): number {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  const area = (a.x1 - a.x0) * (a.y1 - a.y0);
  return w > 0 && h > 0 && area > 0 ? (w * h) / area : 0;
}

/** Heads between these staff positions (the staff and half a position beyond it) keep their rounded position. */
const WITHIN_STAFF_FROM = -0.5;
const WITHIN_STAFF_TO = 8.5;
/** A ledger line through a head is looked for this many spaces above and below its centre … */
const LEDGER_THROUGH_REACH = 0.25;
/** … and from this many spaces left of it to as far right. */
const LEDGER_THROUGH_ACROSS = 0.6;
/** At least this many class-map pixels of ledger line there put the head on a line … */
const LEDGER_THROUGH_MIN_PIXELS = 8;
/** … where the head stands at least this many staff positions off its space's centre. */
const LEDGER_THROUGH_OFF_CENTRE = 0.25;

/**
 * A head's staff position, rounded. Beyond the staff a small blurred head
 * may sit between a line's position and a space's; a ledger line through
 * its middle says it is on a line.
 */
function ledgerPosition(raw: number, map: ClassMap, x0: number, x1: number, y: number, space: number): number {
  const position = Math.round(raw);
  if ((raw > WITHIN_STAFF_FROM && raw < WITHIN_STAFF_TO) || Math.abs(position % 2) === 0) return position;
  const ledger = CLASS_INDEX.ledgerLine;
  let count = 0;
  for (let my = Math.floor((y - space * LEDGER_THROUGH_REACH) / MAP_SCALE); my <= Math.floor((y + space * LEDGER_THROUGH_REACH) / MAP_SCALE); my++) {
    if (my < 0 || my >= map.height) continue;
    for (let mx = Math.max(0, Math.floor((x0 - space * LEDGER_THROUGH_ACROSS) / MAP_SCALE)); mx <= Math.min(map.width - 1, Math.floor((x1 + space * LEDGER_THROUGH_ACROSS) / MAP_SCALE)); mx++) {
      if (map.data[my * map.width + mx] === ledger) count++;
    }
  }
  // A line clearly through the middle, and a head well off its space's centre.
  if (count < LEDGER_THROUGH_MIN_PIXELS || Math.abs(raw - position) < LEDGER_THROUGH_OFF_CENTRE) return position;
  // The nearer line position.
  return raw > position ? position + 1 : position - 1;
}

/** A clef, or its piece in one staff's band, is at least this many spaces tall. */
const CLEF_MIN_HEIGHT = 1.5;
/** A clef component up to this many spaces tall belongs to one staff; a taller one is cut into staff bands. */
const CLEF_ONE_STAFF_MAX_HEIGHT = 9;
/** A staff takes a band of a tall clef that stands from this many spaces left of the staff to its right end. */
const CLEF_LEFT_OF_STAFF = 4;

/**
 * Clefs of the staves of one part or section. On tightly spaced staves
 * (orchestral scores) each G clef reaches into its neighbour's, and the class
 * map joins a column of them into one tall shape: each staff gets the part
 * that lies in its own band, halfway to the staves above and below.
 */
function clefPieces(c: Component, staves: readonly Staff[], map: ClassMap, space: number): ClefSymbol[] {
  const x = (c.x0 + c.x1) / 2;
  const piece = (staff: number, y0: number, y1: number): ClefSymbol | undefined => {
    let weight = 0;
    let count = 0;
    let top = Infinity;
    let bottom = -Infinity;
    // Each piece takes the class most of its own pixels have: a C clef touching the G clef above
    // it is outvoted in the joined shape, not in its own band.
    const votes = new Map<number, number>();
    for (const i of c.pixels) {
      const y = (Math.floor(i / map.width) + 0.5) * MAP_SCALE;
      if (y < y0 || y >= y1) continue;
      weight += y;
      count++;
      top = Math.min(top, y - MAP_SCALE / 2);
      bottom = Math.max(bottom, y + MAP_SCALE / 2);
      votes.set(map.data[i]!, (votes.get(map.data[i]!) ?? 0) + 1);
    }
    if (!count || bottom - top < space * CLEF_MIN_HEIGHT) return undefined;
    const cls = [...votes].reduce((best, v) => (v[1] > best[1] ? v : best))[0];
    const kind = CLEF_KIND[nameOf(cls)]!;
    return { x0: c.x0, x1: c.x1, y0: top, y1: bottom, staff, confidence: c.confidence, kind, balance: (weight / count - top) / (bottom - top) };
  };
  if (c.y1 - c.y0 <= space * CLEF_ONE_STAFF_MAX_HEIGHT) {
    const staff = nearestStaff(staves, x, (c.y0 + c.y1) / 2);
    const one = staff < 0 ? undefined : piece(staff, c.y0, c.y1);
    return one ? [one] : [];
  }
  const column = staves
    .map((staff, i) => ({ i, top: positionY(staff, x, 0), bottom: positionY(staff, x, 8), staff }))
    .filter((s) => s.staff.x0 - space * CLEF_LEFT_OF_STAFF <= x && x <= s.staff.x1)
    .sort((a, b) => a.top - b.top);
  return column.flatMap((s, k) => {
    const above = column[k - 1];
    const below = column[k + 1];
    const y0 = above ? (above.bottom + s.top) / 2 : -Infinity;
    const y1 = below ? (s.bottom + below.top) / 2 : Infinity;
    if (y1 <= c.y0 || y0 >= c.y1 || s.bottom < c.y0 || s.top > c.y1) return [];
    const one = piece(s.i, y0, y1);
    return one ? [one] : [];
  });
}

/** A barline-or-stem component is looked at where at least this share of its pixels is labelled barline. */
const BARLINE_LABEL_SHARE = 0.25;
/** A line spanning one staff runs well into the gap where it reaches above this staff position … */
const INTO_GAP_ABOVE = -4;
/** … or below this one. */
const INTO_GAP_BELOW = 12;
/** No head stands within this many spaces of the line across … */
const LINE_END_HEAD_ACROSS = 1.2;
/** … and this many of either end up or down. */
const LINE_END_HEAD_REACH = 0.8;
/** The line's stroke is at most this many spaces thick … */
const STEM_LABELLED_MAX_THICKNESS = 0.6;
/** … and its box no wider than the stroke plus this share of its height plus {@link STEM_LABELLED_WIDTH_SLACK} spaces. */
const STEM_LABELLED_LEAN = 0.05;
const STEM_LABELLED_WIDTH_SLACK = 0.3;
/** A barline already found within this many spaces across on a staff it covers is the same line. */
const STEM_LABELLED_SAME_LINE = 1;
/** A barline read so keeps this share of its component's confidence. */
const STEM_LABELLED_CONFIDENCE = 0.8;

/**
 * On a blurred scan the model may call most of a grand staff's barline a
 * stem, and only its stretch through the gap between the staves a barline:
 * no stretch of either class spans a staff, yet together they form one
 * thin upright line from the top staff's top line to the bottom staff's
 * bottom line, with no notehead at either end. Such a line, wherever part
 * of it is labelled barline, is one.
 */
function stemLabelledBarlines(map: ClassMap, found: readonly BarlineSymbol[], heads: readonly Head[], staves: readonly Staff[], space: number): BarlineSymbol[] {
  const made: BarlineSymbol[] = [];
  for (const c of classComponents(map, idx(['barline', 'stem']), 4)) {
    if ((c.counts.get(CLASS_INDEX.barline) ?? 0) < c.area * BARLINE_LABEL_SHARE) continue;
    const covered = staves.flatMap((staff, i) => (coversStaff(c, staff, space) ? [i] : []));
    const x = (c.x0 + c.x1) / 2;
    // Across the gap it may be cut (a slur crossing it): then it spans one staff and runs on well into the gap.
    const intoGap = (i: number) => staffPosition(staves[i]!, x, c.y0) < INTO_GAP_ABOVE || staffPosition(staves[i]!, x, c.y1) > INTO_GAP_BELOW;
    if (!covered.length || (covered.length === 1 && !intoGap(covered[0]!))) continue;
    if (heads.some((h) => Math.abs(h.x - x) < space * LINE_END_HEAD_ACROSS && (Math.abs(h.y - c.y0) < space * LINE_END_HEAD_REACH || Math.abs(h.y - c.y1) < space * LINE_END_HEAD_REACH))) continue;
    const thickness = strokeWidth(c, map);
    if (thickness > space * STEM_LABELLED_MAX_THICKNESS || c.x1 - c.x0 - thickness > (c.y1 - c.y0) * STEM_LABELLED_LEAN + space * STEM_LABELLED_WIDTH_SLACK) continue;
    if (found.some((b) => b.staves.some((s) => covered.includes(s)) && Math.abs(b.x - x) < space * STEM_LABELLED_SAME_LINE)) continue;
    made.push({ x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1, x, thickness, confidence: c.confidence * STEM_LABELLED_CONFIDENCE, staves: covered });
  }
  return made;
}

/** A barline piece is at most this many spaces wide. */
const BARLINE_PIECE_MAX_WIDTH = 0.9;
/** Pieces whose centres stand less than this many spaces apart across are one column. */
const BARLINE_PIECE_COLUMN = 0.6;
/** A column starts at or above this staff position … */
const PIECED_TOP_POSITION = 1;
/** … has no gap of more than this many staff positions … */
const PIECED_MAX_GAP = 2;
/** … and reaches this staff position or below. */
const PIECED_BOTTOM_POSITION = 7;
/** A barline already found within this many spaces across on the staff is the same line. */
const PIECED_SAME_LINE = 1;
/** A barline pieced together keeps this share of its pieces' mean confidence. */
const PIECED_CONFIDENCE = 0.9;

/**
 * On a blurred or photographed page the model often labels a barline in
 * pieces, broken where it crosses staff lines. Thin pieces near one staff
 * that stand in one column and together span the staff from its top line to
 * its bottom line, with no long gap, are a barline.
 */
function pieceTogetherBarlines(parts: readonly Component[], found: readonly BarlineSymbol[], staves: readonly Staff[], map: ClassMap, space: number): BarlineSymbol[] {
  const byStaff = new Map<number, Component[]>();
  for (const c of parts) {
    if (c.x1 - c.x0 > space * BARLINE_PIECE_MAX_WIDTH || staves.some((staff) => coversStaff(c, staff, space))) continue;
    const staff = nearestStaff(staves, (c.x0 + c.x1) / 2, (c.y0 + c.y1) / 2);
    if (staff >= 0) byStaff.set(staff, [...(byStaff.get(staff) ?? []), c]);
  }
  const made: BarlineSymbol[] = [];
  for (const [i, pieces] of byStaff) {
    const staff = staves[i]!;
    const columns: Component[][] = [];
    for (const c of [...pieces].sort((a, b) => a.x0 - b.x0)) {
      const column = columns.find((col) => Math.abs(centre(col[0]!)[0] - centre(c)[0]) < space * BARLINE_PIECE_COLUMN);
      if (column) column.push(c);
      else columns.push([c]);
    }
    for (const column of columns) {
      const spans = column
        .map((c) => [staffPosition(staff, centre(c)[0], c.y0), staffPosition(staff, centre(c)[0], c.y1)] as const)
        .sort((a, b) => a[0] - b[0]);
      let reach = spans[0]![0];
      if (reach > PIECED_TOP_POSITION) continue;
      let whole = true;
      for (const [top, bottom] of spans) {
        if (top > reach + PIECED_MAX_GAP) whole = false; // a gap of more than a space
        reach = Math.max(reach, bottom);
      }
      const x = column.reduce((sum, c) => sum + centre(c)[0], 0) / column.length;
      if (!whole || reach < PIECED_BOTTOM_POSITION || found.some((b) => b.staves.includes(i) && Math.abs(b.x - x) < space * PIECED_SAME_LINE)) continue;
      made.push({
        x0: Math.min(...column.map((c) => c.x0)),
        x1: Math.max(...column.map((c) => c.x1)),
        y0: Math.min(...column.map((c) => c.y0)),
        y1: Math.max(...column.map((c) => c.y1)),
        x,
        thickness: Math.max(...column.map((c) => strokeWidth(c, map))),
        confidence: (column.reduce((sum, c) => sum + c.confidence, 0) / column.length) * PIECED_CONFIDENCE,
        staves: [i],
      });
    }
  }
  return made;
}

/** A curve stands within a hairpin's box (give or take HAIRPIN_CURVE_MARGIN spaces): it is a piece of the hairpin. */
function insideHairpin(c: Box, h: Box, space: number): boolean {
  const m = space * HAIRPIN_CURVE_MARGIN;
  return c.x0 >= h.x0 - m && c.x1 <= h.x1 + m && c.y0 >= h.y0 - m && c.y1 <= h.y1 + m;
}
