/**
 * Text on a prepared page, found and classified before anything is read:
 * ink that is not music, grouped into lines, each line named by where it
 * stands and how large it is.
 *
 * - Glyphs: connected components of the ink that touch no staff line, are
 *   letter-sized, and that the symbol model does not call music (its class
 *   map says `text` for lyrics and words, `dynamics` for f and p).
 * - Lines: glyphs side by side at one height, split where the gap is wider
 *   than a few letters (composer and lyricist share a baseline), with the
 *   small marks (dots, accents, hyphens, extenders) joined to the line they
 *   sit on.
 * - Kinds: above the first system of the first page, the largest line is the
 *   title, other centred lines subtitles, a line flush right the composer,
 *   one flush left the lyricist, and lines just over the staff where the
 *   music starts tempo marks. Above the first system of a later page, lines
 *   just over the staff are tempo marks too, and centred lines further up
 *   may head a new movement (the running title and page number are not
 *   read). Left of a system stand part names (the first
 *   system) or their abbreviations. Under a staff, rows of words spread over
 *   the staff are lyric lines, numbered as verses from the top; shorter text
 *   between staves is tempo (over a system) or expression.
 */
import { connectedComponents } from '../image/connected-components.js';
import type { GrayImage } from '../image/gray.js';
import type { BinaryImage } from '../preparation/binarize.js';
import { median as medianOf, quantile } from '../reading/median.js';
import { nearestStaff } from '../staves/staff-geometry.js';
import { staffLineY, type Staff } from '../staves/detect-staves.js';
import type { StaffSystem } from '../staves/systems.js';
import { MAP_SCALE } from '../symbols/components.js';
import { CLASS_INDEX, SYMBOL_CLASSES } from '../symbols/symbol-classes.js';
import type { ClassMap } from '../symbols/segment.js';

export type TextKind =
  | 'title'
  | 'subtitle'
  | 'composer'
  | 'lyricist'
  | 'credit'
  | 'partName'
  | 'abbreviation'
  | 'tempo'
  | 'expression'
  | 'dynamics'
  | 'lyrics'
  | 'measureNumber'
  | 'rehearsal'
  // A movement's heading over the system it starts ("II. Menuetto"); found as such only over the first
  // system of a later page, else known once read (page-text.ts).
  | 'heading'
  // Never found as such: a word of another line the pedal model reads as a pedal mark (read-pedals.ts).
  | 'pedal'
  | 'other';

export interface TextBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface TextLine extends TextBox {
  kind: TextKind;
  /** Median height of its letters, prepared pixels (the font size, roughly). */
  size: number;
  /** Component labels of its glyphs (see {@link TextRegions.labels}): only they are cropped for reading. */
  glyphs: number[];
  /** The x-extents of its ink, merged where glyphs overlap, left to right: the gaps between part words and syllables. */
  spans: [number, number][];
  /** Index into the page's staves: the staff a part name names, or the staff a lyric line is sung to. */
  staff?: number;
  /** Lyric lines: 1-based verse, counted down from the staff. */
  verse?: number;
  /** What the line is if its reading shows it is not what its place suggests (a measure number that reads as a word is a tempo mark). */
  otherwise?: TextKind;
}

export interface TextRegions {
  lines: TextLine[];
  /** Connected-component label of every prepared pixel (0: paper or music). */
  labels: Int32Array;
  width: number;
}

export interface TextPageInput {
  gray: GrayImage;
  ink: BinaryImage;
  staves: readonly Staff[];
  systems: readonly StaffSystem[];
  /**
   * The symbol model's classes. Without them (before segmentation) only ink touching a staff line
   * counts as music: enough for the title block and part names, which stand clear of the staves.
   */
  map?: ClassMap;
  space: number;
  /** 0-based page of the job: only the first carries the title block. */
  page: number;
}

interface Glyph extends TextBox {
  label: number;
}

interface Line extends TextBox {
  glyphs: Glyph[];
  heights: number[];
}

/** No glyph is taller than this many spaces … */
const TALLEST_GLYPH = 5;
/** … but over the music, where a title's capitals may be (a "Q" with its tail, in a large font). */
const TALLEST_TITLE_GLYPH = 10;

/** Classes the model gives music, 1 by class index: a component mostly of these is not text. */
const MUSIC_CLASSES = Uint8Array.from(SYMBOL_CLASSES, (name) => (['background', 'text', 'dynamics'].includes(name) ? 0 : 1));

/** The page's ink components: a label per pixel and each label's box (index 0 unused). */
export interface InkComponents {
  labels: Int32Array;
  boxes: TextBox[];
}

/** Finds the page's text; `components` are its ink's, when a finding before this one labelled them. */
export function findTextRegions(input: TextPageInput, components: InkComponents = labelInk(input.ink)): TextRegions {
  const { staves, space } = input;
  const { labels, boxes } = components;
  const { musical, dynamic } = musicLabels(input, labels, boxes.length);
  const glyphs: Glyph[] = [];
  const marks: Glyph[] = [];
  const letters: Glyph[] = [];
  const musicTop = Math.min(...staves.map((s) => Math.min(staffLineY(s, 0, s.x0), staffLineY(s, 0, s.x1))));
  boxes.forEach((box, label) => {
    if (label === 0) return;
    if (dynamic[label]) {
      const h = box.y1 - box.y0;
      if (h >= space * DYNAMIC_SIZE[0] && h <= space * DYNAMIC_SIZE[1] && box.x1 - box.x0 <= space * DYNAMIC_SIZE[1] * 2) letters.push({ label, ...box });
      return;
    }
    if (musical[label]) return;
    const w = box.x1 - box.x0;
    const h = box.y1 - box.y0;
    // Slurs, hairpins and braces are tall or long; over the music, only the title's capitals are as tall.
    if (h > space * (box.y1 < musicTop ? TALLEST_TITLE_GLYPH : TALLEST_GLYPH) || (w > space * 8 && h > space * 0.5)) return;
    if (h >= space * 0.6) glyphs.push({ label, ...box });
    else if (w * h >= 2 || w >= 2) marks.push({ label, ...box });
  });
  // Letters of a word painted partly as dynamics ("cres" of "cresc.") read with the rest of their word.
  const dynamicRuns = dynamicLetterRuns(letters);
  const inWords = dynamicRuns.filter((run) => glyphs.some((g) => sameWord(run, g, space)));
  for (const run of inWords) glyphs.push(...run.glyphs);
  const lines = groupLines(glyphs, marks, space);
  const classified = classify(lines, input).map((line) => enclosedMark(line, input, components) ?? line);
  const dynamics = dynamicRuns.filter((run) => !inWords.includes(run)).flatMap((run) => dynamicLine(run, input));
  const found = [...classified, ...dynamics];
  const framed = framedLetters(input, components, new Set(found.filter((line) => line.kind === 'rehearsal').flatMap((line) => line.glyphs)));
  // The frames and their letters leave the lines they were grouped into (a word beside them, or the frame alone).
  const used = new Set(framed.flatMap((mark) => [mark.frame, ...mark.glyphs]));
  const reduced = new Set<TextLine>();
  const rest = found.flatMap((line) => {
    if (!line.glyphs.some((g) => used.has(g))) return [line];
    const left = withoutGlyphs(line, used, components.boxes);
    left.forEach((l) => reduced.add(l));
    return left;
  });
  return { lines: [...rejoined(rest, reduced, components.boxes), ...framed.map(({ frame: _, ...mark }) => mark)], labels, width: input.ink.width };
}

/**
 * A frame taller than the words beside it ("[52] poco meno mosso") made their line too tall for the
 * letters after it, which started a line of their own. Once the frame has left, a line it left joins
 * the line of its kind and staff that starts right after it, at its height.
 */
function rejoined(lines: TextLine[], reduced: ReadonlySet<TextLine>, boxes: readonly TextBox[]): TextLine[] {
  const out = [...lines];
  for (const line of reduced) {
    const at = out.indexOf(line);
    const next = out.find((o) => {
      if (o === line || o.kind !== line.kind || o.staff !== line.staff || o.x0 < line.x1) return false;
      const overlap = Math.min(o.y1, line.y1) - Math.max(o.y0, line.y0);
      return o.x0 - line.x1 <= Math.max(line.size, o.size) * WORD_GAP && overlap >= Math.min(o.y1 - o.y0, line.y1 - line.y0) * 0.5;
    });
    if (at < 0 || !next) continue;
    const glyphs = [...line.glyphs, ...next.glyphs].map((label) => ({ label, ...boxes[label]! }));
    out[at] = { ...line, ...boxAround(glyphs), size: Math.max(line.size, next.size), glyphs: glyphs.map((g) => g.label), spans: inkSpans(glyphs) };
    out.splice(out.indexOf(next), 1);
  }
  return out;
}

/** The smallest box holding all of `boxes` (at least one). */
function boxAround(boxes: readonly TextBox[]): TextBox {
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

/** A line less the glyphs `used` elsewhere, its box and spans those of the glyphs left; none when none is left. */
function withoutGlyphs(line: TextLine, used: ReadonlySet<number>, boxes: readonly TextBox[]): TextLine[] {
  const glyphs = line.glyphs.filter((g) => !used.has(g)).map((label) => ({ label, ...boxes[label]! }));
  if (!glyphs.length) return [];
  const box = boxAround(glyphs);
  return [{ ...line, ...box, glyphs: glyphs.map((g) => g.label), spans: inkSpans(glyphs) }];
}

/** A frame's ink keeps to its outer share of its width and height on each side (a box or circle drawn with a pen) … */
const FRAME_BORDER = 0.25;
/** … and runs along at least this share of each side (a circle's sides are its arcs' middles). */
const FRAME_SIDE_COVER = 0.5;
/** The letters inside a frame are at least this share of its height (a number or a letter, not a speck). */
const FRAME_LETTER_HEIGHT = 0.35;

/**
 * Rehearsal marks found by their frame: one ink component, a box or circle of a rehearsal mark's size
 * with nothing of its own inside, around one to three components, wherever those went — taken for
 * music (an "H" painted as noteheads and stems) or grouped into a line with a word beside the frame.
 * Letters already read as a mark (`taken`) are left alone. Each comes with its frame's label.
 */
function framedLetters(input: TextPageInput, { labels, boxes }: InkComponents, taken: ReadonlySet<number>): (TextLine & { frame: number })[] {
  const { space, ink } = input;
  const found: (TextLine & { frame: number })[] = [];
  boxes.forEach((frame, label) => {
    const w = frame.x1 - frame.x0;
    const h = frame.y1 - frame.y0;
    if (label === 0 || Math.min(w, h) < space * FRAME_MIN_SIZE || Math.max(w, h) > space * FRAME_MAX_SIZE) return;
    if (!hollowFrame(labels, ink.width, label, frame)) return;
    const inner = boxes.flatMap((b, l) => (l !== label && l !== 0 && b.x0 > frame.x0 && b.x1 < frame.x1 && b.y0 > frame.y0 && b.y1 < frame.y1 ? [l] : []));
    if (!inner.length || inner.length > REHEARSAL_MAX_GLYPHS || inner.some((l) => taken.has(l))) return;
    const glyphs = inner.map((l) => ({ label: l, ...boxes[l]! }));
    const box = boxAround(glyphs);
    if (box.y1 - box.y0 < h * FRAME_LETTER_HEIGHT) return;
    const staff = markStaff(input, (box.x0 + box.x1) / 2, box.y1);
    if (staff < 0) return;
    found.push({ kind: 'rehearsal', ...box, size: median(glyphs.map((g) => g.y1 - g.y0)), glyphs: inner, spans: inkSpans(glyphs), staff, frame: label });
  });
  return found;
}

/** Whether component `label` in its box is a frame: its ink only near the box's edges, along all four sides. */
function hollowFrame(labels: Int32Array, width: number, label: number, box: TextBox): boolean {
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  const [bx, by] = [Math.max(1, Math.round(w * FRAME_BORDER)), Math.max(1, Math.round(h * FRAME_BORDER))];
  const own = (x: number, y: number) => labels[y * width + x] === label;
  for (let y = box.y0 + by; y < box.y1 - by; y++) for (let x = box.x0 + bx; x < box.x1 - bx; x++) if (own(x, y)) return false;
  const covered = (count: number, inked: (k: number) => boolean) => {
    let n = 0;
    for (let k = 0; k < count; k++) if (inked(k)) n++;
    return n >= count * FRAME_SIDE_COVER;
  };
  const rowInked = (x: number, y0: number, y1: number) => {
    for (let y = y0; y < y1; y++) if (own(x, y)) return true;
    return false;
  };
  const columnInked = (y: number, x0: number, x1: number) => {
    for (let x = x0; x < x1; x++) if (own(x, y)) return true;
    return false;
  };
  return (
    covered(w, (k) => rowInked(box.x0 + k, box.y0, box.y0 + by)) &&
    covered(w, (k) => rowInked(box.x0 + k, box.y1 - by, box.y1)) &&
    covered(h, (k) => columnInked(box.y0 + k, box.x0, box.x0 + bx)) &&
    covered(h, (k) => columnInked(box.y0 + k, box.x1 - bx, box.x1))
  );
}

/**
 * Letters of one word stand closer than this (staff spaces), where a word space is wider: a run of
 * letters painted as dynamics this close to a text letter on its row is part of that letter's word (the
 * model paints "cres" of an italic "cresc." as dynamics and "c." as text), while a dynamic printed
 * before a word ("p dolce") keeps its own.
 */
const WORD_LETTER_GAP = 0.15;

/** Whether a run of dynamics letters and a text letter are letters of one word: on one row, next to each other. */
function sameWord(run: Line, g: Glyph, space: number): boolean {
  const overlap = Math.min(run.y1, g.y1) - Math.max(run.y0, g.y0);
  const gap = Math.max(g.x0 - run.x1, run.x0 - g.x1);
  return overlap >= Math.min(run.y1 - run.y0, g.y1 - g.y0) * 0.4 && gap <= space * WORD_LETTER_GAP;
}

/** A rehearsal mark has at most this many glyphs inside its frame ("A", "12", "A1"). */
const REHEARSAL_MAX_GLYPHS = 3;
/** A rehearsal mark's frame is at least this many spaces wide and high… */
const FRAME_MIN_SIZE = 1.2;
/** …and at most this many. */
const FRAME_MAX_SIZE = 5;
/** A frame stands at most this many spaces clear of the letters it encloses, on every side. */
const FRAME_MARGIN = 1.5;
/** Kinds a framed line may have been given by its place (over a staff, or over a system's start). */
const FRAMEABLE: ReadonlySet<TextKind> = new Set(['tempo', 'expression', 'other', 'measureNumber']);

/**
 * A line of a few letters inside a box or circle of its own: a rehearsal mark, for the staff it
 * stands over. The frame is one ink component around the letters, either among the line's glyphs
 * (left out of what is read) or just outside it; undefined when there is none.
 */
function enclosedMark(line: TextLine, input: TextPageInput, { labels, boxes }: InkComponents): TextLine | undefined {
  const { space, ink } = input;
  if (!FRAMEABLE.has(line.kind) || line.glyphs.length > REHEARSAL_MAX_GLYPHS + 1) return undefined;
  const fits = (frame: TextBox, inner: TextBox) => {
    const w = frame.x1 - frame.x0;
    const h = frame.y1 - frame.y0;
    const margins = [inner.x0 - frame.x0, frame.x1 - inner.x1, inner.y0 - frame.y0, frame.y1 - inner.y1];
    return w >= space * FRAME_MIN_SIZE && h >= space * FRAME_MIN_SIZE && w <= space * FRAME_MAX_SIZE && h <= space * FRAME_MAX_SIZE && margins.every((m) => m > 0 && m <= space * FRAME_MARGIN);
  };
  const boxOf = (glyphs: readonly number[]): TextBox => boxAround(glyphs.map((g) => boxes[g]!));
  // The frame among the line's glyphs: one that holds all the others.
  const inside = line.glyphs.find((g) => line.glyphs.length > 1 && fits(boxes[g]!, boxOf(line.glyphs.filter((o) => o !== g))));
  const letters = inside === undefined ? line.glyphs : line.glyphs.filter((g) => g !== inside);
  if (!letters.length || letters.length > REHEARSAL_MAX_GLYPHS) return undefined;
  const inner = boxOf(letters);
  if (inside === undefined) {
    // Else the first ink met going out from the letters' middle, the same component on all four sides.
    const cx = Math.round((inner.x0 + inner.x1) / 2);
    const cy = Math.round((inner.y0 + inner.y1) / 2);
    const reach = Math.ceil(space * FRAME_MARGIN);
    const probe = (dx: number, dy: number, x: number, y: number) => {
      for (let k = 1; k <= reach; k++) {
        const px = x + dx * k;
        const py = y + dy * k;
        if (px < 0 || py < 0 || px >= ink.width || py >= ink.height) return 0;
        const label = labels[py * ink.width + px]!;
        if (label) return label;
      }
      return 0;
    };
    const hits = [probe(-1, 0, inner.x0, cy), probe(1, 0, inner.x1, cy), probe(0, -1, cx, inner.y0), probe(0, 1, cx, inner.y1)];
    if (!hits[0] || hits.some((h) => h !== hits[0]) || !fits(boxes[hits[0]]!, inner)) return undefined;
  }
  const glyphBoxes = letters.map((g) => ({ label: g, ...boxes[g]! }));
  const staff = markStaff(input, (inner.x0 + inner.x1) / 2, inner.y1);
  // Off the staves (beside a short staff on a photo): no mark of any.
  if (staff < 0) return undefined;
  return {
    ...line,
    ...inner,
    kind: 'rehearsal',
    glyphs: letters,
    spans: inkSpans(glyphBoxes),
    staff,
    size: median(glyphBoxes.map((b) => b.y1 - b.y0)),
  };
}

/** Height of a dynamics letter, in spaces: [least, most] (a p's or f's descender and ascender included). */
const DYNAMIC_SIZE: readonly [number, number] = [0.6, 4];
/** Letters of one dynamic stand closer than this share of their height (they often touch: "mf"). */
const DYNAMIC_LETTER_GAP = 0.6;

/**
 * How much nearer (staff spaces) a mark between two staves of one system must stand to the lower
 * staff's music to belong to it: an instrument's dynamics stand under its staff, often past the
 * middle of a narrow gap.
 */
const BELOW_STAFF_PREFERENCE = 1.5;

/**
 * The staff a mark at (x, y) belongs to: the nearest, except that a mark in the gap between two
 * staves of one system belongs to the upper one unless it stands clearly nearer the lower. Given
 * the mark's box and the class map, nearness is measured to the music in the box's columns (notes
 * on ledger lines under the upper staff, a slur under them, notes over the lower staff), not to
 * the staff lines: a "p" pushed down by low notes stands by the lower staff's top line, yet is the
 * upper staff's.
 */
export function markStaff(input: Pick<TextPageInput, 'staves' | 'systems' | 'map'>, x: number, y: number, box?: TextBox): number {
  const { staves, systems } = input;
  const nearest = nearestStaff(staves, x, y);
  if (nearest < 0) return nearest;
  const lower = staves[nearest]!;
  const lowerLine = staffLineY(lower, 0, x);
  if (lowerLine - y <= 0) return nearest;
  const system = systems.find((s) => s.staves.includes(nearest));
  const above = system?.staves[system.staves.indexOf(nearest) - 1];
  if (above === undefined) return nearest;
  const upperLine = staffLineY(staves[above]!, 4, x);
  if (y - upperLine <= 0) return nearest;
  const [toUpper, toLower] = box && input.map ? musicClearance(input.map, box, upperLine, lowerLine) : [y - upperLine, lowerLine - y];
  return toUpper - toLower <= lower.space * BELOW_STAFF_PREFERENCE ? above : nearest;
}

/**
 * How far (prepared pixels) a box stands from the music over and under it within its columns: from
 * its top up to the nearest pixel the model gives music (not text or dynamics), or to `upperLine`,
 * and from its bottom down likewise to `lowerLine`.
 */
function musicClearance(map: ClassMap, box: TextBox, upperLine: number, lowerLine: number): [number, number] {
  const [first, last] = [Math.max(0, Math.floor(box.x0 / MAP_SCALE)), Math.min(map.width - 1, Math.floor(box.x1 / MAP_SCALE))];
  const musicRow = (row: number) => {
    for (let col = first; col <= last; col++) {
      const cls = map.data[row * map.width + col]!;
      if (MUSIC_CLASSES[cls] && cls !== CLASS_INDEX.staffLine) return true;
    }
    return false;
  };
  let up = Math.floor(box.y0 / MAP_SCALE) - 1;
  while (up * MAP_SCALE > upperLine && up >= 0 && !musicRow(up)) up--;
  let down = Math.ceil(box.y1 / MAP_SCALE) + 1;
  while (down * MAP_SCALE < lowerLine && down < map.height && !musicRow(down)) down++;
  return [box.y0 - Math.max(upperLine, (up + 1) * MAP_SCALE), Math.min(lowerLine, down * MAP_SCALE) - box.y1];
}

/** Dynamics letters joined into runs, one per mark ("sfz", "mp"). */
function dynamicLetterRuns(letters: Glyph[]): Line[] {
  const runs: Line[] = [];
  for (const g of [...letters].sort((a, b) => a.x0 - b.x0)) {
    const h = g.y1 - g.y0;
    const run = runs.find((w) => {
      const overlap = Math.min(w.y1, g.y1) - Math.max(w.y0, g.y0);
      return g.x0 - w.x1 <= Math.max(h, median(w.heights)) * DYNAMIC_LETTER_GAP && g.x0 >= w.x0 && overlap >= Math.min(h, w.y1 - w.y0) * 0.4;
    });
    if (run) addGlyph(run, g);
    else runs.push(lineOf(g));
  }
  return runs;
}

/** A run of dynamics letters as a mark of the staff it belongs to (see {@link markStaff}); none off the staves. */
function dynamicLine(run: Line, input: TextPageInput): TextLine[] {
  const staff = markStaff(input, (run.x0 + run.x1) / 2, (run.y0 + run.y1) / 2, run);
  if (staff < 0) return [];
  return [{ kind: 'dynamics', x0: run.x0, y0: run.y0, x1: run.x1, y1: run.y1, size: median(run.heights), glyphs: run.glyphs.map((g) => g.label), spans: inkSpans(run.glyphs), staff }];
}

// ---------------------------------------------------------------------------
// Components.

/** 8-connected components of the ink. */
export function labelInk(ink: BinaryImage): InkComponents {
  const { labels, boxes } = connectedComponents(ink.width, ink.height, ink.data);
  return { labels, boxes: [{ x0: 0, y0: 0, x1: 0, y1: 0 }, ...boxes] };
}

/**
 * Components that are music: those touching a staff line (notes, stems,
 * clefs, barlines all do), and those the class map paints mostly as music
 * or as dynamics rather than text.
 */
function musicLabels(input: TextPageInput, labels: Int32Array, count: number): { musical: Uint8Array; dynamic: Uint8Array } {
  const { ink, staves, map } = input;
  const musical = new Uint8Array(count);
  const dynamic = new Uint8Array(count);
  const { width, height } = ink;
  for (const staff of staves) {
    for (let l = 0; l < 5; l++) {
      for (let x = Math.max(0, Math.ceil(staff.x0)); x < Math.min(width, Math.floor(staff.x1)); x++) {
        const y = Math.round(staffLineY(staff, l, x));
        for (let dy = -1; dy <= 1; dy++) {
          if (y + dy < 0 || y + dy >= height) continue;
          const label = labels[(y + dy) * width + x]!;
          if (label) musical[label] = 1;
        }
      }
    }
  }
  if (!map) return { musical, dynamic };
  const text = new Int32Array(count);
  const music = new Int32Array(count);
  const dynamics = new Int32Array(count);
  const textClass = CLASS_INDEX.text;
  const dynamicsClass = CLASS_INDEX.dynamics;
  for (let y = 0; y < height; y++) {
    const row = (y >> 1) * map.width;
    for (let x = 0; x < width; x++) {
      const label = labels[y * width + x]!;
      if (!label) continue;
      const cls = map.data[row + (x >> 1)]!;
      if (cls === textClass) text[label]!++;
      else if (cls === dynamicsClass) dynamics[label]!++;
      else if (MUSIC_CLASSES[cls]) music[label]!++;
    }
  }
  for (let label = 1; label < count; label++) {
    // A dynamics letter clear of the staff lines is read as one (a word of its own kind, see DYNAMIC_SIZE).
    if (!musical[label] && dynamics[label]! > text[label]! && dynamics[label]! > music[label]!) dynamic[label] = 1;
    if (music[label]! > text[label]! || dynamics[label]! > text[label]!) musical[label] = 1;
  }
  return { musical, dynamic };
}

// ---------------------------------------------------------------------------
// Lines.

/** Letters further apart than this many letter heights start a new line (two credits on one baseline). */
const WORD_GAP = 2.5;

function groupLines(glyphs: Glyph[], marks: Glyph[], space: number): Line[] {
  const lines: Line[] = [];
  glyphs.sort((a, b) => a.x0 - b.x0);
  for (const g of glyphs) {
    const h = g.y1 - g.y0;
    let best: Line | undefined;
    let bestOverlap = 0;
    for (const line of lines) {
      const size = median(line.heights);
      if (g.x0 - line.x1 > Math.max(size, h) * WORD_GAP) continue;
      const overlap = Math.min(g.y1, line.y1) - Math.max(g.y0, line.y0);
      if (overlap < Math.min(h, line.y1 - line.y0) * 0.5) continue;
      // A line does not grow taller than its letters allow: stacked verses stay apart.
      if (Math.max(g.y1, line.y1) - Math.min(g.y0, line.y0) > Math.max(size, h) * 1.9 + space * 0.3) continue;
      if (overlap > bestOverlap) {
        bestOverlap = overlap;
        best = line;
      }
    }
    if (best) addGlyph(best, g);
    else lines.push(lineOf(g));
  }
  // Dots, accents, hyphens and extenders join the line they sit in or just over.
  for (const m of marks) {
    const cx = (m.x0 + m.x1) / 2;
    const cy = (m.y0 + m.y1) / 2;
    let best: Line | undefined;
    let bestDistance = Infinity;
    for (const line of lines) {
      const size = median(line.heights);
      if (cx < line.x0 - size * WORD_GAP || cx > line.x1 + size * WORD_GAP) continue;
      const d = cy < line.y0 ? line.y0 - cy : cy > line.y1 ? cy - line.y1 : 0;
      if (d > size * 0.6 || d >= bestDistance) continue;
      bestDistance = d;
      best = line;
    }
    if (best) {
      best.glyphs.push(m);
      best.x0 = Math.min(best.x0, m.x0);
      best.x1 = Math.max(best.x1, m.x1);
    }
  }
  return lines;
}

function lineOf(g: Glyph): Line {
  return { x0: g.x0, y0: g.y0, x1: g.x1, y1: g.y1, glyphs: [g], heights: [g.y1 - g.y0] };
}

/** A letter joins a line: its box grows to hold it. */
function addGlyph(line: Line, g: Glyph): void {
  line.glyphs.push(g);
  line.heights.push(g.y1 - g.y0);
  line.x0 = Math.min(line.x0, g.x0);
  line.x1 = Math.max(line.x1, g.x1);
  line.y0 = Math.min(line.y0, g.y0);
  line.y1 = Math.max(line.y1, g.y1);
}

function inkSpans(glyphs: readonly Glyph[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const g of [...glyphs].sort((a, b) => a.x0 - b.x0)) {
    const last = spans[spans.length - 1];
    if (last && g.x0 <= last[1]) last[1] = Math.max(last[1], g.x1);
    else spans.push([g.x0, g.x1]);
  }
  return spans;
}

/** The median of glyph heights and the like; 0 for none. */
function median(values: readonly number[]): number {
  return medianOf(values) ?? 0;
}

// ---------------------------------------------------------------------------
// Kinds.

/** A measure number stands over a system's first staff at most this many spaces left of where the staff starts… */
const NUMBER_REACH_LEFT = 1.5;
/** …and starts at most this many spaces right of it (over the clef). */
const NUMBER_REACH_RIGHT = 4;
/** A measure number's lowest ink stands at most this many spaces above its staff's top line. */
const NUMBER_HEIGHT_ABOVE = 5;
/** A measure number is at most this many spaces wide per digit (MuseScore's italic digits are about 1.5 wide). */
const NUMBER_MAX_DIGIT_WIDTH = 2;
/** A measure number has at most this many glyphs. */
const NUMBER_MAX_GLYPHS = 4;

/** A footer's middle stands within this many spaces of the middle of the staves … */
const FOOTER_CENTRING = 0.5;
/** … and its top more than this many spaces under the page's lowest staff (words for that staff stand nearer). */
const FOOTER_GAP = 4;

/** A lyric row spreads over this share of its staff, or has at least this many separate words. */
const LYRIC_SPREAD = 0.35;
const LYRIC_WORDS = 3;
/** Text over the first staff ending at most this many spaces above it is a tempo mark (or other words for it), not the title block. */
const TEMPO_HEIGHT = 6;
/** A title-block line whose middle is within this share of the music's width of the page's middle is centred (title, subtitle, heading). */
const CREDIT_CENTRING = 0.12;
/** Title-block lines are sized by this quantile of their letters' heights: the tall letters (capitals, ascenders), whatever their share. */
const CAP_QUANTILE = 0.8;

function classify(lines: Line[], input: TextPageInput): TextLine[] {
  const { staves, systems, space, page } = input;
  const out: TextLine[] = [];
  const make = (line: Line, kind: TextKind, extra: Partial<TextLine> = {}): TextLine => ({
    kind,
    x0: line.x0,
    y0: line.y0,
    x1: line.x1,
    y1: line.y1,
    size: median(line.heights),
    glyphs: line.glyphs.map((g) => g.label),
    spans: inkSpans(line.glyphs),
    ...extra,
  });
  if (!staves.length || !systems.length) return lines.map((line) => make(line, 'other'));
  const top = (s: number, x: number) => staffLineY(staves[s]!, 0, Math.min(staves[s]!.x1, Math.max(staves[s]!.x0, x)));
  const bottom = (s: number, x: number) => staffLineY(staves[s]!, 4, Math.min(staves[s]!.x1, Math.max(staves[s]!.x0, x)));
  const order = staves.map((_, i) => i).sort((a, b) => top(a, 0) - top(b, 0));
  const firstSystem = systems.reduce((a, b) => (top(a.staves[0]!, 0) <= top(b.staves[0]!, 0) ? a : b));
  const firstStaff = firstSystem.staves[0]!;
  const left = Math.min(...staves.map((s) => s.x0));
  const right = Math.max(...staves.map((s) => s.x1));

  const header: Line[] = [];
  const rows = new Map<number, Line[]>(); // text under a staff, by staff index
  // Over a system's start, small: a measure number, which is a tempo mark if it reads as a word.
  const numberedSystem = (line: Line) =>
    line.x1 - line.x0 <= space * NUMBER_MAX_DIGIT_WIDTH * line.glyphs.length &&
    line.glyphs.length <= NUMBER_MAX_GLYPHS &&
    systems.find((system) => {
      const first = system.staves[0]!;
      const x0 = Math.min(...system.staves.map((s) => staves[s]!.x0));
      const staffTop = top(first, x0);
      return line.x0 >= x0 - space * NUMBER_REACH_LEFT && line.x0 <= x0 + space * NUMBER_REACH_RIGHT && line.y1 <= staffTop && line.y1 >= staffTop - space * NUMBER_HEIGHT_ABOVE;
    });
  for (const line of lines) {
    const cx = (line.x0 + line.x1) / 2;
    const cy = (line.y0 + line.y1) / 2;
    const numbered = numberedSystem(line);
    if (numbered) {
      out.push(make(line, 'measureNumber', { staff: numbered.staves[0]!, otherwise: 'tempo' }));
      continue;
    }
    if (line.y1 <= top(firstStaff, cx) && cy < top(order[0]!, cx)) {
      header.push(line);
      continue;
    }
    const system = systems.find((s) => cy >= top(s.staves[0]!, line.x1) - space * 2 && cy <= bottom(s.staves[s.staves.length - 1]!, line.x1) + space * 2);
    const x0 = system ? Math.min(...system.staves.map((s) => staves[s]!.x0)) : left;
    // Left of a system, level with its staves (measure numbers stand higher): a part's name.
    if (system && line.x1 <= x0 + space * 0.5 && cy >= top(system.staves[0]!, x0) - space) {
      const staff = system.staves.reduce((a, b) => (Math.abs(cy - (top(a, x0) + bottom(a, x0)) / 2) <= Math.abs(cy - (top(b, x0) + bottom(b, x0)) / 2) ? a : b));
      out.push(make(line, page === 0 && system === firstSystem ? 'partName' : 'abbreviation', { staff }));
      continue;
    }
    const above = [...order].reverse().find((s) => bottom(s, cx) < line.y0 + space * 0.5);
    // Centred under the page's lowest staff, clear of it and narrower than a row of lyrics: a footer (a
    // copyright line), no direction.
    const lowest = order[order.length - 1]!;
    const centred = Math.abs(cx - (left + right) / 2) < space * FOOTER_CENTRING && line.x1 - line.x0 < (right - left) * LYRIC_SPREAD;
    if (above === lowest && centred && line.y0 - bottom(lowest, cx) > space * FOOTER_GAP) {
      out.push(make(line, 'other'));
      continue;
    }
    if (above === undefined) {
      out.push(make(line, 'other'));
      continue;
    }
    rows.set(above, [...(rows.get(above) ?? []), line]);
  }

  // Text between staves: rows of lyrics (one per verse), else tempo or expression.
  for (const [staff, found] of rows) {
    const below = order[order.indexOf(staff) + 1];
    const width = staves[staff]!.x1 - staves[staff]!.x0;
    let verse = 0;
    for (const row of textRows(found)) {
      const cx = (row.x0 + row.x1) / 2;
      const spread = row.x1 - row.x0;
      const lyric = row.parts.length >= LYRIC_WORDS || spread >= width * LYRIC_SPREAD;
      if (lyric && row.y0 - bottom(staff, cx) < space * 16) {
        verse++;
        out.push(make(row, 'lyrics', { staff, verse }));
        continue;
      }
      // Non-lyric text nearer the staff below is written for it: a tempo over a system, else an expression.
      const nearBelow = below !== undefined && top(below, cx) - row.y1 < row.y0 - bottom(staff, cx);
      const startsSystem = nearBelow && systems.some((s) => s.staves[0] === below);
      // Within a system, expression words stand under the staff they are for, as its dynamics do.
      const cy = (row.y0 + row.y1) / 2;
      // A row beside the staff below rather than over it (its lines end short of the row on a photo) stays with the staff above.
      const marked = nearBelow ? markStaff(input, cx, cy) : staff;
      out.push(startsSystem ? make(row, 'tempo', { staff: below }) : make(row, 'expression', { staff: marked < 0 ? staff : marked }));
    }
  }

  // The title block: only the first page has one.
  header.sort((a, b) => a.y0 - b.y0);
  const centre = (left + right) / 2;
  const staffTop = (line: Line) => top(firstStaff, (line.x0 + line.x1) / 2);
  const credits: Line[] = [];
  const centred = (line: Line) => Math.abs((line.x0 + line.x1) / 2 - centre) < (right - left) * CREDIT_CENTRING;
  for (const line of header) {
    // Just over the first staff, starting where the music starts: a tempo mark.
    const tempo = line.x0 >= staves[firstStaff]!.x0 - space && staffTop(line) - line.y1 < space * TEMPO_HEIGHT && line.x1 < centre + (right - left) * 0.25;
    if (tempo) out.push(make(line, 'tempo', { staff: firstStaff }));
    else if (page > 0) out.push(centred(line) ? make(line, 'heading', { staff: firstStaff }) : make(line, 'other'));
    else credits.push(line);
  }
  if (page === 0 && credits.length) {
    // Letter size by the tall letters: a title mostly in small letters is no smaller than a heading in capitals ("I.").
    const size = (line: Line) => quantile(line.heights, CAP_QUANTILE) ?? 0;
    const title = credits.filter(centred).reduce<Line | undefined>((best, line) => (!best || size(line) > size(best) * 1.05 ? line : best), undefined);
    let composer = false;
    let lyricist = false;
    for (const line of credits) {
      let kind: TextKind = 'credit';
      if (line === title) kind = 'title';
      else if (centred(line) && title && line.y0 > title.y0 && size(line) < size(title) && size(line) > size(title) * 0.45 && line.x1 - line.x0 < (right - left) * 0.7) kind = 'subtitle';
      else if (!composer && line.x1 > right - space * 3 && line.x0 > centre) {
        kind = 'composer';
        composer = true;
      } else if (!lyricist && line.x0 < left + space * 3 && line.x1 < centre) {
        kind = 'lyricist';
        lyricist = true;
      }
      // A title or subtitle may read as a movement's heading, for the system under it (page-text.ts).
      out.push(make(line, kind, kind === 'title' || kind === 'subtitle' ? { staff: firstStaff } : {}));
    }
  }
  return out.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

interface Row extends Line {
  /** The lines (words or runs of words) the row was joined from. */
  parts: Line[];
}

/** Lines at one height joined into rows, top to bottom: one row is one verse of a lyric. */
function textRows(lines: readonly Line[]): Row[] {
  const rows: Row[] = [];
  for (const line of [...lines].sort((a, b) => a.x0 - b.x0)) {
    const size = median(line.heights);
    const row = rows.find((r) => {
      const overlap = Math.min(r.y1, line.y1) - Math.max(r.y0, line.y0);
      return overlap >= Math.min(line.y1 - line.y0, r.y1 - r.y0) * 0.5 && Math.max(r.y1, line.y1) - Math.min(r.y0, line.y0) < Math.max(size, median(r.heights)) * 2.2;
    });
    if (row) {
      row.parts.push(line);
      row.glyphs.push(...line.glyphs);
      row.heights.push(...line.heights);
      row.x0 = Math.min(row.x0, line.x0);
      row.x1 = Math.max(row.x1, line.x1);
      row.y0 = Math.min(row.y0, line.y0);
      row.y1 = Math.max(row.y1, line.y1);
    } else {
      rows.push({ ...line, glyphs: [...line.glyphs], heights: [...line.heights], parts: [line] });
    }
  }
  return rows.sort((a, b) => a.y0 - b.y0);
}
