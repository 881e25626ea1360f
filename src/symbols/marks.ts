/**
 * Marks the model paints as articulations and as dynamics:
 *
 * - the marks around notes — articulations, fermatas, ornaments, bowing —
 *   among the components of the articulation class (and, for some kinds,
 *   of the dynamics and text classes), each cut out of the page at its
 *   centre and told apart by a small ONNX model (models/marks.onnx), which
 *   may also say it is none of them (a dotted note's dot, a piece of text
 *   or of a slur);
 * - hairpins in the page's ink outside the staves (the model paints their
 *   lines as slur, text, dynamics, staff line or paper, stretch by stretch):
 *   long, low wedges of two thin straight lines, opening to the right
 *   (crescendo) or closing (diminuendo).
 *
 * Which note a mark belongs to is the music reader's question (assembly/marks.ts).
 * Training (training/model/export-marks.ts) cuts its samples with the same
 * cell (mark-cells.ts), so the model sees what it will be asked about.
 */
import * as ort from 'onnxruntime-web';
import type { GrayImage } from '../image/gray.js';
import type { BinaryImage } from '../preparation/binarize.js';
import { staffLineY, type Staff } from '../staves/detect-staves.js';
import { BESIDE_STAFF, nearestStaff } from '../staves/staff-geometry.js';
import { classComponents, MAP_SCALE, type Component } from './components.js';
import { headsNear, type HeadsNear } from './heads-near.js';
import { inkIslands, type InkIsland, type PixelBox } from './ink-islands.js';
import { MARK_CELL_HEIGHT, MARK_CELL_WIDTH, MARK_CLASSES, markCell } from './mark-cells.js';
import { markFamily, type MarkKind } from '../reading/mark-kinds.js';
import { onnxModel, softmaxBest } from './onnx-model.js';
import type { ClassMap } from './segment.js';
import { CLASS_INDEX } from './symbol-classes.js';

export const MARK_MODEL_FILE = 'marks.onnx';
export const MARK_MODEL_VERSION = 'marks-2';

/** A component that may be a mark: its box and centre in prepared pixels, and its staff. */
export interface MarkCandidate {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Centre. */
  x: number;
  y: number;
  staff: number;
  confidence: number;
  /**
   * Painted as dynamics, not as a mark: only an ornament is read from it (a "tr" in a text font is
   * painted as letters, and a dynamic's letters are no articulation).
   */
  lettering?: boolean;
  /**
   * Joined to the ink of a slur or tie: only a staccato dot is read from it. The symbol model paints a
   * slur's end alone as a mark, and the mark model reads it as a trill, a fermata's arc, an accent or a
   * tenuto (on the tuned dev pages every trill written where none is printed was a slur's start; on the
   * held-out quartets most accents and tenutos written where none is printed were a slur's ends). Printed
   * marks other than dots stand clear of slurs' ink, even where the paint joins them; a dot may sit on a
   * slur's end.
   */
  onSlur?: boolean;
  /**
   * Painted as text: only a bowing mark is read from it. The symbol model paints up-bows and down-bows as
   * letters at times (on the held-out quartets, whole pages of down-bows); the letters of words stand among
   * other letters, which a bowing mark does not (BOWING_CLEARANCE), and a lone fingering reads as one less surely
   * (MIN_LETTERED_PROBABILITY).
   */
  lettered?: boolean;
}

export interface ArticulationMark extends MarkCandidate {
  kind: MarkKind;
  /** The mark model's probability for the kind (its softmax), apart from how sure the symbol model was of the ink. */
  probability: number;
}

export interface Hairpin {
  kind: 'crescendo' | 'diminuendo';
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  staff: number;
  confidence: number;
}

/** A mark is at most this many spaces wide (a long fermata) … */
const MARK_MAX_WIDTH = 3.5;
/** … and this many spaces tall (a strong accent with a staccato, a bowing mark); larger ink is not one mark. */
const MARK_MAX_HEIGHT = 2.5;
/** Below this probability the model's reading is a guess, and a guessed mark is worse than none. */
const MIN_MARK_PROBABILITY = 0.5;
/**
 * A mark touching a slur's paint is a mark only where its ink is an island: ink that runs on further than this many
 * spaces past the painted box is the slur's own end, which the symbol model paints as a mark at times.
 */
const ISLAND_MARGIN = 0.4;
/**
 * … or where a dot sits on it, joined by a speck or a scan's blur (a portato's dot on a slur's end): ink solid
 * across a square this many spaces wide, which a slur's thin end never is.
 */
const DOT_CORE = 0.33;
/**
 * A dot painted as an augmentation dot is read as a staccato only at this probability or more: read wrongly,
 * it takes a dotted note's dot away.
 */
const MIN_DOT_STACCATO_PROBABILITY = 0.9;
/** A dotted note's dots stand within this many spaces right of its head (two dots, and room for an accidental's gap) … */
const AUGMENTATION_REACH = 2.5;
/** … no further than this many spaces above or below the head's box (a dot moved up off a line). */
const AUGMENTATION_RISE = 0.25;
/** A bowing mark painted as text is at most this many spaces wide and tall (a word painted as one piece is longer) … */
const BOWING_MAX_SIDE = 2;
/** … and is read only at this probability or more: a fingering's digit, alone over a note, reads as an up-bow at times, less surely. */
const MIN_LETTERED_PROBABILITY = 0.95;
/** A bowing mark painted as text stands clear of every other piece of lettering by this many spaces; a letter of a word has its neighbours closer. */
const BOWING_CLEARANCE = 1;
/** A mark of another kind inside a fermata's box, or within this many spaces over or under it, is the fermata's dot. */
const FERMATA_DOT_MARGIN = 0.3;
/** Pieces of one line of a hairpin may overlap by up to this many spaces. */
const LINE_JOIN_OVERLAP = 0.3;
/** Pieces of one mark (the model paints some in parts) read as the same kind within this many spaces are one mark. */
const MARK_JOIN = 1;

/** A hairpin is at least this many spaces long … */
const HAIRPIN_MIN_LENGTH = 2.5;
/** … no more than this many spaces tall at its open end … */
const HAIRPIN_MAX_OPENING = 2.2;
/** … rising or falling by at most this much per unit of length (its box grows by that) … */
const HAIRPIN_MAX_SLOPE = 0.15;
/** … at least this many spaces open at its open end … */
const HAIRPIN_MIN_OPENING = 0.6;
/** … which stands at least this many spaces taller than its point … */
const HAIRPIN_MIN_SPREAD = 0.35;
/** A hairpin's two lines stand apart at its point by at most this share of its opening (the tip may be unseen). */
const HAIRPIN_MAX_POINT = 0.6;
/** Pieces of one line of a hairpin are joined across gaps of up to this many spaces. */
const LINE_JOIN_GAP = 1.2;
/** Each of a hairpin's lines is at most this many spaces thick … */
const HAIRPIN_LINE_THICKNESS = 0.45;
/** … and straight within this many spaces. */
const HAIRPIN_LINE_BEND = 0.15;
/** The share of a hairpin's length, at each end, measured for its opening. */
const HAIRPIN_END_SHARE = 0.12;
/** Ink fills at most this share of the height of a hairpin's open end (the rest is paper between its lines). */
const HAIRPIN_OPEN_FILL = 0.7;
/** Each edge of a hairpin's ink (top, bottom) keeps to a straight course over this share of its length … */
const HAIRPIN_STRAIGHT_SHARE = 0.85;
/** … straying from it by at most this many spaces (and half a map pixel, for the pixels' steps). */
const HAIRPIN_EDGE_TOLERANCE = 0.15;

/**
 * Components small enough to be one mark, with their staff: those of the articulation class, those
 * of the dynamics class (lettering), and lone ones of the text class (bowingCandidates). A "tr" in a text
 * font is painted as letters: on the tuned dev pages (LilyPond's, Verovio's) every one had its bold italic
 * "r" painted as dynamics, and none was painted as a mark; components painted as text are words as a rule,
 * which the mark model reads as ornaments too often, so from text only bowing marks are read.
 */
export function markCandidates(map: ClassMap, staves: readonly Staff[], space: number, ink?: BinaryImage): MarkCandidate[] {
  const marks = classComponents(map, [CLASS_INDEX.articulation], 2).flatMap((c) => candidate(map, c, staves, space, false, ink));
  const lettering = classComponents(map, [CLASS_INDEX.dynamics], 2).flatMap((c) => candidate(map, c, staves, space, true, ink));
  return [...marks, ...lettering, ...bowingCandidates(map, staves, space)];
}

/**
 * Components painted as text that may be bowing marks: small, clear of a slur's paint, and standing alone,
 * BOWING_CLEARANCE spaces from any other text or dynamics component.
 */
function bowingCandidates(map: ClassMap, staves: readonly Staff[], space: number): MarkCandidate[] {
  const letters = classComponents(map, [CLASS_INDEX.text, CLASS_INDEX.dynamics], 2);
  const reach = space * BOWING_CLEARANCE;
  const alone = (c: Component) => !letters.some((o) => o !== c && o.x0 < c.x1 + reach && o.x1 > c.x0 - reach && o.y0 < c.y1 + reach && o.y1 > c.y0 - reach);
  return letters.flatMap((c) => {
    if (c.cls !== CLASS_INDEX.text || c.x1 - c.x0 > space * BOWING_MAX_SIDE || c.y1 - c.y0 > space * BOWING_MAX_SIDE || !alone(c) || touches(map, c, CLASS_INDEX.tieSlur)) return [];
    const [x, y] = [(c.x0 + c.x1) / 2, (c.y0 + c.y1) / 2];
    const staff = nearestStaff(staves, x, y);
    return staff < 0 ? [] : [{ x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1, x, y, staff, confidence: c.confidence, lettered: true }];
  });
}

function candidate(map: ClassMap, c: Component, staves: readonly Staff[], space: number, lettering: boolean, ink: BinaryImage | undefined): MarkCandidate[] {
  if (c.x1 - c.x0 > space * MARK_MAX_WIDTH || c.y1 - c.y0 > space * MARK_MAX_HEIGHT) return [];
  const x = (c.x0 + c.x1) / 2;
  const y = (c.y0 + c.y1) / 2;
  const staff = nearestStaff(staves, x, y);
  if (staff < 0) return [];
  if (!touches(map, c, CLASS_INDEX.tieSlur)) return [{ x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1, x, y, staff, confidence: c.confidence, ...(lettering ? { lettering } : {}) }];
  // Touching a slur's paint, it is the island of ink in its paint (a mark clear of the slur's ink), the dot
  // sitting on the slur's end, or nothing; without the ink to look at, a mark joined to the slur.
  const island = ink && inkIsland(ink, c, space * ISLAND_MARGIN);
  const piece = ink ? (island ?? dotCore(ink, c, Math.round(space * DOT_CORE))) : c;
  if (!piece) return [];
  const centre = { x: (piece.x0 + piece.x1) / 2, y: (piece.y0 + piece.y1) / 2 };
  return [{ ...piece, ...centre, staff, confidence: c.confidence, ...(lettering ? { lettering } : {}), ...(island ? {} : { onSlur: true }) }];
}

/**
 * The solid square of ink, `side` pixels wide, inside the box whose centre stands nearest the box's: a dot's core.
 * Undefined where there is none.
 */
function dotCore(ink: BinaryImage, box: PixelBox, side: number): PixelBox | undefined {
  const [cx, cy] = [(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2];
  const solid = (x0: number, y0: number) => {
    for (let y = y0; y < y0 + side; y++) for (let x = x0; x < x0 + side; x++) if (!ink.data[y * ink.width + x]) return false;
    return true;
  };
  let best: PixelBox | undefined;
  let nearest = Infinity;
  for (let y = Math.max(0, Math.floor(box.y0)); y + side <= Math.min(ink.height, Math.ceil(box.y1)); y++) {
    for (let x = Math.max(0, Math.floor(box.x0)); x + side <= Math.min(ink.width, Math.ceil(box.x1)); x++) {
      const d = Math.hypot(x + side / 2 - cx, y + side / 2 - cy);
      if (d < nearest && solid(x, y)) {
        nearest = d;
        best = { x0: x, y0: y, x1: x + side, y1: y + side };
      }
    }
  }
  return best;
}

/**
 * The largest island of ink that starts inside a box (see {@link inkIslands}); undefined where all the
 * box's ink runs on further than `margin`.
 */
function inkIsland(ink: BinaryImage, box: PixelBox, margin: number): PixelBox | undefined {
  const largest = inkIslands(ink, box, margin).reduce<InkIsland | undefined>((best, piece) => (!best || piece.pixels.length > best.pixels.length ? piece : best), undefined);
  return largest && { x0: largest.x0, y0: largest.y0, x1: largest.x1, y1: largest.y1 };
}

/** Whether any pixel of the component has a neighbour (of eight) of the class. */
function touches(map: ClassMap, c: Component, cls: number): boolean {
  const { width, height, data } = map;
  for (const i of c.pixels) {
    const px = i % width;
    const py = (i - px) / width;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const [nx, ny] = [px + dx, py + dy];
        if (nx >= 0 && ny >= 0 && nx < width && ny < height && data[ny * width + nx] === cls) return true;
      }
    }
  }
  return false;
}

/**
 * The marks among the candidates: each cut out of the prepared page at its
 * centre and classified; those the model calls none, or is unsure of, go.
 * Pieces of one mark read alike join, and a fermata's dot is its own.
 */
export async function classifyMarks(gray: GrayImage, candidates: readonly MarkCandidate[], space: number): Promise<ArticulationMark[]> {
  const marks: ArticulationMark[] = [];
  // A lettering candidate is kept only as an ornament, and one on a slur only as a staccato.
  (await readCells(gray, candidates)).forEach(({ kind, probability }, i) => {
    const c = candidates[i]!;
    if (kind === 'none' || probability < MIN_MARK_PROBABILITY) return;
    if (c.lettering && markFamily(kind) !== 'ornament') return;
    if (c.onSlur && kind !== 'staccato') return;
    if (c.lettered && (markFamily(kind) !== 'technical' || probability < MIN_LETTERED_PROBABILITY)) return;
    marks.push({ ...c, kind, probability, confidence: c.confidence * probability });
  });
  return joinPieces(marks, space);
}

/**
 * The dots the symbol model painted as augmentation dots that are staccatos: read by the mark model, which
 * knows a dotted note's dot (none) from a staccato over or under a head. A dot where a dotted note's or rest's
 * dot stands (`lengthens`: right of it, at its height) stays a dot whatever the model reads. Returns the
 * staccatos and the dots left to lengthen notes.
 */
export async function staccatosAmongDots<D extends MarkCandidate>(
  gray: GrayImage,
  dots: readonly D[],
  lengthens: readonly { x1: number; y0: number; y1: number; staff: number }[],
  space: number,
): Promise<{ staccatos: ArticulationMark[]; dots: D[] }> {
  const free = dots.filter((d) => !lengthens.some((h) => h.staff === d.staff && d.x > h.x1 && d.x - h.x1 < space * AUGMENTATION_REACH && d.y > h.y0 - space * AUGMENTATION_RISE && d.y < h.y1 + space * AUGMENTATION_RISE));
  const cells = await readCells(gray, free);
  const taken = new Map<D, number>();
  free.forEach((d, i) => {
    if (cells[i]!.kind === 'staccato' && cells[i]!.probability >= MIN_DOT_STACCATO_PROBABILITY) taken.set(d, cells[i]!.probability);
  });
  return {
    staccatos: [...taken].map(([d, probability]) => ({ ...d, kind: 'staccato' as const, probability, confidence: d.confidence * probability })),
    dots: dots.filter((d) => !taken.has(d)),
  };
}

/** The mark model's reading of the cell centred on each point: its most likely class and that class's probability. */
async function readCells(gray: GrayImage, points: readonly { x: number; y: number }[]): Promise<{ kind: (typeof MARK_CLASSES)[number]; probability: number }[]> {
  if (!points.length) return [];
  const model = await onnxModel(MARK_MODEL_FILE);
  const size = MARK_CELL_WIDTH * MARK_CELL_HEIGHT;
  const input = new Float32Array(points.length * size);
  points.forEach((c, i) => input.set(markCell(gray, c.x, c.y), i * size));
  const output = await model.run({ image: new ort.Tensor('float32', input, [points.length, 1, MARK_CELL_HEIGHT, MARK_CELL_WIDTH]) });
  const logits = output.logits!.data as Float32Array;
  return points.map((_, i) => {
    const { index, probability } = softmaxBest(logits.subarray(i * MARK_CLASSES.length, (i + 1) * MARK_CLASSES.length));
    return { kind: MARK_CLASSES[index] ?? 'none', probability };
  });
}

/** Marks of one kind whose boxes stand within MARK_JOIN spaces of each other become one; what stands inside a fermata is its dot. */
function joinPieces(marks: readonly ArticulationMark[], space: number): ArticulationMark[] {
  const joined: ArticulationMark[] = [];
  const reach = space * MARK_JOIN;
  for (const m of [...marks].sort((a, b) => a.x0 - b.x0)) {
    const host = joined.find((j) => j.kind === m.kind && j.staff === m.staff && m.x0 < j.x1 + reach && m.x1 > j.x0 - reach && m.y0 < j.y1 + reach && m.y1 > j.y0 - reach && Math.abs(m.x - j.x) < reach && Math.abs(m.y - j.y) < reach * 1.5);
    if (!host) {
      joined.push({ ...m });
      continue;
    }
    host.x0 = Math.min(host.x0, m.x0);
    host.y0 = Math.min(host.y0, m.y0);
    host.x1 = Math.max(host.x1, m.x1);
    host.y1 = Math.max(host.y1, m.y1);
    host.x = (host.x0 + host.x1) / 2;
    host.y = (host.y0 + host.y1) / 2;
    host.confidence = Math.max(host.confidence, m.confidence);
    host.probability = Math.max(host.probability, m.probability);
    if (!m.lettering) delete host.lettering;
  }
  const fermatas = joined.filter((m) => m.kind === 'fermata');
  return joined.filter((m) => m.kind === 'fermata' || !fermatas.some((f) => m.x > f.x0 && m.x < f.x1 && m.y > f.y0 - space * FERMATA_DOT_MARGIN && m.y < f.y1 + space * FERMATA_DOT_MARGIN));
}

/**
 * Hairpins: long, low wedges of two thin straight lines. The model paints a hairpin's lines as
 * anything thin it knows — slur, text, dynamics, and in stretches as paper — piece by piece along one
 * line, so with the page's ink they are read from the ink itself: every inked class-map pixel the
 * model does not give to the lines and noteheads that music hangs on (HAIRPIN_BLOCKING_CLASSES).
 * Without the ink, from the pixels of the classes it most often paints them as.
 */
export function readHairpins(map: ClassMap, staves: readonly Staff[], space: number, ink?: BinaryImage, heads: HeadsNear = headsNear(map)): Hairpin[] {
  const found: Omit<Hairpin, 'staff'>[] = [];
  const lines: Line[] = [];
  const components = ink ? classComponents(hairpinInk(map, ink, staves, space, heads), [1], 4) : classComponents(map, [CLASS_INDEX.dynamics, CLASS_INDEX.tieSlur, CLASS_INDEX.text], 4);
  for (const c of components) {
    const kind = wedgeShape(c, map.width, space);
    if (kind) found.push({ kind, x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1, confidence: c.confidence });
    else {
      const line = straightLine(c, map.width, space);
      if (line) lines.push(line);
    }
  }
  found.push(...linePairs(joinLines(lines, space), space));
  const whole = found.map((h) => (ink ? acrossBarlines(h, map, ink, space) : h)).flatMap((h) => {
    const staff = hairpinStaff(staves, (h.x0 + h.x1) / 2, (h.y0 + h.y1) / 2, space);
    return staff >= 0 ? [{ ...h, staff }] : [];
  });
  // A piece followed on across a barline may cover another piece of the same hairpin, read on its own.
  const kept: Hairpin[] = [];
  for (const h of whole.sort((a, b) => b.x1 - b.x0 - (a.x1 - a.x0))) {
    const covered = kept.some((k) => k.kind === h.kind && k.staff === h.staff && k.y0 < h.y1 && h.y0 < k.y1 && Math.min(k.x1, h.x1) - Math.max(k.x0, h.x0) >= (h.x1 - h.x0) * HAIRPIN_COVERED);
    if (!covered) kept.push(h);
  }
  return kept.sort((a, b) => a.x0 - b.x0 || a.y0 - b.y0);
}

/** A hairpin lying along this share of its length within a longer one of its kind, on its staff, is a piece of that one. */
const HAIRPIN_COVERED = 0.8;

/** A barline standing within this many spaces past a hairpin's end may have cut it there … */
const HAIRPIN_BARLINE_REACH = 1;
/** … and its two lines are followed on across it while neither lacks ink for more than this many spaces … */
const HAIRPIN_TRACE_GAP = 0.5;
/** … within this many spaces up or down of its course … */
const HAIRPIN_TRACE_TOLERANCE = 0.2;
/** … for at most this many spaces (a crescendo over two measures, cut at the barline between them, reaches back as far). */
const HAIRPIN_TRACE_LENGTH = 60;

/**
 * A hairpin cut by a barline, in full. Barlines that join a system's staves cross the hairpins between
 * them, and the ink past the barline, often short, is no hairpin of its own: the two lines are followed
 * on through the barline in the page's ink, as far as both run on their course.
 */
function acrossBarlines(h: Omit<Hairpin, 'staff'>, map: ClassMap, ink: BinaryImage, space: number): Omit<Hairpin, 'staff'> {
  const middle = (h.y0 + h.y1) / 2;
  // The two lines' centres, from the point to the open end (at the box's edges, inset by half a line). The point
  // is at the middle, unless a barline cut the hairpin short of it: then the lines stand where the ink has them.
  const inset = Math.min(1, (h.y1 - h.y0) / 4);
  const [pointX, openX] = h.kind === 'crescendo' ? [h.x0, h.x1] : [h.x1, h.x0];
  const [cutLeft, cutRight] = [barlineAt(map, h.x0, -1, h, space), barlineAt(map, h.x1, 1, h, space)];
  const step = Math.sign(openX - pointX);
  const cut = (h.kind === 'crescendo' ? cutLeft : cutRight) ? linesAt(ink, pointX + step * 2, h) : undefined;
  const course = (edge: number, atPoint: number) => (x: number) => atPoint + (edge - atPoint) * ((x - pointX) / (openX - pointX));
  const edges = [course(h.y0 + inset, cut?.[0] ?? middle), course(h.y1 - inset, cut?.[1] ?? middle)];
  const x1 = cutRight ? traceLines(edges, ink, h.x1, 1, space) : h.x1;
  const x0 = cutLeft ? traceLines(edges, ink, h.x0, -1, space) : h.x0;
  if (x0 === h.x0 && x1 === h.x1) return h;
  const ys = [x0, x1].flatMap((x) => edges.map((edge) => edge(x)));
  return { ...h, x0, x1, y0: Math.min(h.y0, ...ys.map((y) => y - inset)), y1: Math.max(h.y1, ...ys.map((y) => y + inset)) };
}

/** The rows of a hairpin's two lines in column x of the ink, where its box holds two runs of ink there: the top one's and the bottom one's. */
function linesAt(ink: BinaryImage, x: number, h: { y0: number; y1: number }): [number, number] | undefined {
  const px = Math.round(x);
  if (px < 0 || px >= ink.width) return undefined;
  const runs: [number, number][] = [];
  for (let y = Math.max(0, Math.floor(h.y0)); y <= Math.min(ink.height - 1, Math.ceil(h.y1)); y++) {
    if (!ink.data[y * ink.width + px]) continue;
    const last = runs[runs.length - 1];
    if (last && last[1] === y - 1) last[1] = y;
    else runs.push([y, y]);
  }
  if (runs.length < 2) return undefined;
  const [top, bottom] = [runs[0]!, runs[runs.length - 1]!];
  return [(top[0] + top[1]) / 2, (bottom[0] + bottom[1]) / 2];
}

/** Whether the model saw a barline within HAIRPIN_BARLINE_REACH spaces past x (on the side `step` points to), across the hairpin's height. */
function barlineAt(map: ClassMap, x: number, step: 1 | -1, h: { y0: number; y1: number }, space: number): boolean {
  const barline = CLASS_INDEX.barline;
  const [a, b] = step > 0 ? [x, x + space * HAIRPIN_BARLINE_REACH] : [x - space * HAIRPIN_BARLINE_REACH, x];
  for (let mx = Math.max(0, Math.floor(a / MAP_SCALE)); mx <= Math.min(map.width - 1, Math.ceil(b / MAP_SCALE)); mx++) {
    for (let my = Math.max(0, Math.floor(h.y0 / MAP_SCALE)); my <= Math.min(map.height - 1, Math.ceil(h.y1 / MAP_SCALE)); my++) {
      if (map.data[my * map.width + mx] === barline) return true;
    }
  }
  return false;
}

/** How far from x (towards `step`) both lines run on in the ink, on their courses: the last column where both have ink. */
function traceLines(edges: readonly ((x: number) => number)[], ink: BinaryImage, x: number, step: 1 | -1, space: number): number {
  const tolerance = Math.max(1, Math.round(space * HAIRPIN_TRACE_TOLERANCE));
  const inked = (px: number, y: number) => {
    for (let py = Math.round(y) - tolerance; py <= Math.round(y) + tolerance; py++) if (py >= 0 && py < ink.height && ink.data[py * ink.width + px]) return true;
    return false;
  };
  let last = x;
  for (let px = Math.round(x) + step; Math.abs(px - x) <= space * HAIRPIN_TRACE_LENGTH && px >= 0 && px < ink.width; px += step) {
    if (edges.every((edge) => inked(px, edge(px)))) last = px;
    else if (Math.abs(px - last) > space * HAIRPIN_TRACE_GAP) break;
  }
  return last;
}

/**
 * The staff a hairpin at (x, y) belongs to. A hairpin stands below its staff, an instrument's as a rule,
 * often nearer the staff under it than its own: between two staves it is the upper one's, unless it
 * hugs the lower one's top line (a voice's, drawn above) or stands in the last part of the gap (above
 * the first staff of the next system).
 */
export function hairpinStaff(staves: readonly Staff[], x: number, y: number, space: number): number {
  const nearest = nearestStaff(staves, x, y);
  if (nearest < 0) return -1;
  const top = staffLineY(staves[nearest]!, 0, x);
  if (y >= top || top - y < space * HAIRPIN_ABOVE_REACH) return nearest;
  let over = -1;
  let overBottom = -Infinity;
  staves.forEach((staff, i) => {
    if (x < staff.x0 - space * BESIDE_STAFF || x > staff.x1 + space * BESIDE_STAFF) return;
    const bottom = staffLineY(staff, 4, Math.min(staff.x1, Math.max(staff.x0, x)));
    if (bottom < y && bottom > overBottom) [over, overBottom] = [i, bottom];
  });
  return over >= 0 && y - overBottom <= (top - overBottom) * HAIRPIN_BELOW_SHARE ? over : nearest;
}

/**
 * Classes whose ink is never a hairpin's: ledger lines, barlines, stems, beams, noteheads, braces. (Not staff
 * lines: the model paints stretches of a hairpin's lines as staff line; the staves' own bands are left out.)
 */
const HAIRPIN_BLOCKING_CLASSES: readonly number[] = ['ledgerLine', 'barline', 'stem', 'beam', 'noteheadBlack', 'noteheadHalf', 'noteheadWhole', 'braceBracket'].map(
  (name) => CLASS_INDEX[name as keyof typeof CLASS_INDEX],
);

/** A ledger line crosses or touches its note's head: paint taken for one with no head within this many spaces across … */
const LEDGER_HEAD_ACROSS = 1;
/** … and up or down is no ledger line. */
const LEDGER_HEAD_UP_DOWN = 1.2;

/** A hairpin whose middle stands within this many spaces over a staff's top line is drawn above that staff … */
const HAIRPIN_ABOVE_REACH = 1.5;
/** … else it is the staff's over it, where it stands in this first share of the gap between the two. */
const HAIRPIN_BELOW_SHARE = 0.75;
/** How far, in spaces, past a staff's outer lines its band reaches, where no hairpin is read. */
const HAIRPIN_STAFF_MARGIN = 0.3;

/**
 * A class map (class 1 where a hairpin may be) of the class-map pixels that cover ink of the prepared
 * page (any of the two-by-two prepared pixels under them), stand outside every staff's band, and are
 * of no blocking class.
 */
function hairpinInk(map: ClassMap, ink: BinaryImage, staves: readonly Staff[], space: number, heads: HeadsNear): ClassMap {
  const blocking = new Uint8Array(256);
  for (const cls of HAIRPIN_BLOCKING_CLASSES) blocking[cls] = 1;
  const inStaff = new Uint8Array(map.width * map.height);
  const margin = space * HAIRPIN_STAFF_MARGIN;
  for (const staff of staves) {
    for (let x = Math.max(0, Math.floor(staff.x0 / MAP_SCALE)); x < Math.min(map.width, Math.ceil(staff.x1 / MAP_SCALE)); x++) {
      const top = Math.max(0, Math.floor((staffLineY(staff, 0, x * MAP_SCALE) - margin) / MAP_SCALE));
      const bottom = Math.min(map.height - 1, Math.ceil((staffLineY(staff, 4, x * MAP_SCALE) + margin) / MAP_SCALE));
      for (let y = top; y <= bottom; y++) inStaff[y * map.width + x] = 1;
    }
  }
  const [across, upDown] = [Math.round((space * LEDGER_HEAD_ACROSS) / MAP_SCALE), Math.round((space * LEDGER_HEAD_UP_DOWN) / MAP_SCALE)];
  const data = new Uint8Array(map.width * map.height);
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const i = y * map.width + x;
      // Ledger lines stand by their notes: what the model paints as one far from any head is some other line's.
      const cls = map.data[i]!;
      if ((blocking[cls] && (cls !== CLASS_INDEX.ledgerLine || heads(x, y, across, upDown))) || inStaff[i]) continue;
      let inked = false;
      for (let dy = 0; dy < MAP_SCALE && !inked; dy++) {
        const py = y * MAP_SCALE + dy;
        if (py >= ink.height) break;
        for (let dx = 0; dx < MAP_SCALE; dx++) {
          const px = x * MAP_SCALE + dx;
          if (px < ink.width && ink.data[py * ink.width + px]) {
            inked = true;
            break;
          }
        }
      }
      if (inked) data[i] = 1;
    }
  }
  return { width: map.width, height: map.height, data, confidence: map.confidence };
}

/** A straight, thin, nearly level stroke: one line of a hairpin whose point the model left open. */
interface Line {
  x0: number;
  x1: number;
  /** Heights of its centre at its two ends. */
  y0: number;
  y1: number;
  confidence: number;
}

function straightLine(c: Component, width: number, space: number): Line | undefined {
  const length = c.x1 - c.x0;
  if (length < space * HAIRPIN_MIN_LENGTH) return undefined;
  const profile = columnProfile(c, width);
  const thick = (space * HAIRPIN_LINE_THICKNESS) / MAP_SCALE;
  if (share(profile, (k) => profile.bottom[k]! - profile.top[k]! + 1 <= thick) < HAIRPIN_STRAIGHT_SHARE) return undefined;
  const top = straightEdge(profile, profile.top, space);
  const bottom = straightEdge(profile, profile.bottom, space);
  if (!top || !bottom || Math.abs(top.slope) > HAIRPIN_MAX_SLOPE) return undefined;
  const last = profile.count.length - 1;
  const centre = (k: number) => ((top.at(k) + bottom.at(k) + 1) / 2) * MAP_SCALE;
  return { x0: c.x0, x1: c.x1, y0: centre(0), y1: centre(last), confidence: c.confidence };
}

/** Pieces of one line, left to right, where one's end meets the next one's start on its course. */
function joinLines(lines: readonly Line[], space: number): Line[] {
  const joined: Line[] = [];
  for (const line of [...lines].sort((a, b) => a.x0 - b.x0)) {
    const host = joined.find((j) => {
      const gap = line.x0 - j.x1;
      if (gap > space * LINE_JOIN_GAP || gap < -space * LINE_JOIN_OVERLAP) return false;
      const slope = (j.y1 - j.y0) / Math.max(1, j.x1 - j.x0);
      return Math.abs(j.y1 + slope * gap - line.y0) <= space * HAIRPIN_LINE_BEND * 2;
    });
    if (!host) joined.push({ ...line });
    else {
      host.x1 = line.x1;
      host.y1 = line.y1;
      host.confidence = Math.min(host.confidence, line.confidence);
    }
  }
  return joined;
}

/** Two lines over the same stretch, one above the other, meeting (or nearly) at one end: a hairpin. */
function linePairs(lines: Line[], space: number): Omit<Hairpin, 'staff'>[] {
  const pairs: Omit<Hairpin, 'staff'>[] = [];
  const used = new Set<Line>();
  for (const upper of lines) {
    for (const lower of lines) {
      if (upper === lower || used.has(upper) || used.has(lower)) continue;
      const overlap = Math.min(upper.x1, lower.x1) - Math.max(upper.x0, lower.x0);
      if (overlap < Math.min(upper.x1 - upper.x0, lower.x1 - lower.x0) * 0.7) continue;
      const left = lower.y0 - upper.y0;
      const right = lower.y1 - upper.y1;
      if (left <= 0 || right <= 0 || Math.max(left, right) > space * HAIRPIN_MAX_OPENING) continue;
      const [point, open] = [Math.min(left, right), Math.max(left, right)];
      if (open - point < space * HAIRPIN_MIN_SPREAD || open < space * HAIRPIN_MIN_OPENING || point > open * HAIRPIN_MAX_POINT) continue;
      used.add(upper).add(lower);
      pairs.push({
        kind: left < right ? 'crescendo' : 'diminuendo',
        x0: Math.min(upper.x0, lower.x0),
        x1: Math.max(upper.x1, lower.x1),
        y0: Math.min(upper.y0, upper.y1),
        y1: Math.max(lower.y0, lower.y1),
        confidence: Math.min(upper.confidence, lower.confidence),
      });
    }
  }
  return pairs;
}

/**
 * Whether a component is a hairpin, and which way it opens: long and low, its ink two thin straight
 * lines, the top edge and the bottom edge each on a straight course, meeting at a point at one end
 * (or nearly: the tip may be unseen) and standing apart at the other. Words are ruled out by their
 * edges (ascenders, descenders and letters' gaps leave no straight course) and their thick uprights.
 */
export function wedgeShape(c: Component, width: number, space: number): Hairpin['kind'] | undefined {
  const length = c.x1 - c.x0;
  if (length < space * HAIRPIN_MIN_LENGTH || c.y1 - c.y0 > space * HAIRPIN_MAX_OPENING + length * HAIRPIN_MAX_SLOPE) return undefined;
  const profile = columnProfile(c, width);
  const thick = (space * HAIRPIN_LINE_THICKNESS) / MAP_SCALE;
  if (share(profile, (k) => profile.count[k]! <= thick * 2 + 1) < HAIRPIN_STRAIGHT_SHARE) return undefined;
  const top = straightEdge(profile, profile.top, space);
  const bottom = straightEdge(profile, profile.bottom, space);
  if (!top || !bottom) return undefined;
  // Openings at the two ends, in prepared pixels, from the two lines' courses.
  const at = (k: number) => (bottom.at(k) - top.at(k) + 1) * MAP_SCALE;
  const [left, right] = [at(0), at(profile.count.length - 1)];
  const [point, open] = [Math.min(left, right), Math.max(left, right)];
  if (open > space * HAIRPIN_MAX_OPENING || open < space * HAIRPIN_MIN_OPENING || open - point < space * HAIRPIN_MIN_SPREAD || point > open * HAIRPIN_MAX_POINT) return undefined;
  if (Math.abs(top.slope + bottom.slope) / 2 > HAIRPIN_MAX_SLOPE) return undefined;
  // Its open end is two lines with paper between them, not a solid band (a beam's end cut by the staff).
  const n = profile.count.length;
  const end = Math.max(1, Math.round(n * HAIRPIN_END_SHARE));
  const [from, to] = left > right ? [0, end] : [n - end, n];
  let ink = 0;
  let span = 0;
  for (let k = from; k < to; k++) {
    ink += profile.count[k]!;
    span += Math.max(0, profile.bottom[k]! - profile.top[k]! + 1);
  }
  if (ink > span * HAIRPIN_OPEN_FILL) return undefined;
  return left < right ? 'crescendo' : 'diminuendo';
}

/** A component's ink column by column (class-map columns from its left edge): top and bottom rows, and how many pixels. */
interface ColumnProfile {
  top: Float64Array;
  bottom: Float64Array;
  count: Int32Array;
}

function columnProfile(c: Component, width: number): ColumnProfile {
  const first = c.x0 / MAP_SCALE;
  const n = (c.x1 - c.x0) / MAP_SCALE;
  const top = new Float64Array(n).fill(Infinity);
  const bottom = new Float64Array(n).fill(-Infinity);
  const count = new Int32Array(n);
  for (const i of c.pixels) {
    const col = i % width;
    const row = (i - col) / width;
    const k = col - first;
    count[k]!++;
    if (row < top[k]!) top[k] = row;
    if (row > bottom[k]!) bottom[k] = row;
  }
  return { top, bottom, count };
}

/** The share of a profile's columns, inked ones or not, for which a test holds. */
function share(profile: ColumnProfile, test: (k: number) => boolean): number {
  let n = 0;
  for (let k = 0; k < profile.count.length; k++) if (profile.count[k]! > 0 && test(k)) n++;
  return n / Math.max(1, profile.count.length);
}

/**
 * The straight course of one edge of a profile (its top rows or its bottom rows), fitted by least
 * squares and fitted again without the columns that stray from it (a letter or a note touching the
 * line); none unless the edge keeps to it over HAIRPIN_STRAIGHT_SHARE of the length, at both ends too.
 */
function straightEdge(profile: ColumnProfile, edge: Float64Array, space: number): { slope: number; at: (k: number) => number } | undefined {
  const n = edge.length;
  const tolerance = (space * HAIRPIN_EDGE_TOLERANCE) / MAP_SCALE + 0.5;
  let keep = (k: number) => profile.count[k]! > 0;
  let fit: { slope: number; at: (k: number) => number } | undefined;
  for (let round = 0; round < 3; round++) {
    fit = lineFit(edge, keep);
    if (!fit) return undefined;
    const f = fit;
    keep = (k: number) => profile.count[k]! > 0 && Math.abs(edge[k]! - f.at(k)) <= tolerance;
  }
  if (share(profile, keep) < HAIRPIN_STRAIGHT_SHARE) return undefined;
  const end = Math.max(1, Math.round(n * HAIRPIN_END_SHARE));
  const held = (from: number, to: number) => {
    let m = 0;
    for (let k = from; k < to; k++) if (keep(k)) m++;
    return m / (to - from);
  };
  return held(0, end) >= 0.5 && held(n - end, n) >= 0.5 ? fit : undefined;
}

/** Least-squares line through the chosen columns' values: its slope per column and its value at a column. */
function lineFit(values: Float64Array, chosen: (k: number) => boolean): { slope: number; at: (k: number) => number } | undefined {
  let [n, sx, sy, sxx, sxy] = [0, 0, 0, 0, 0];
  for (let k = 0; k < values.length; k++) {
    if (!chosen(k)) continue;
    const y = values[k]!;
    n++;
    sx += k;
    sy += y;
    sxx += k * k;
    sxy += k * y;
  }
  if (n < 2) return undefined;
  const d = n * sxx - sx * sx;
  const slope = d ? (n * sxy - sx * sy) / d : 0;
  const intercept = (sy - slope * sx) / n;
  return { slope, at: (k) => intercept + slope * k };
}
