/**
 * Marks the model paints as articulations and as dynamics:
 *
 * - the marks around notes — articulations, fermatas, ornaments, bowing —
 *   among the components of the articulation class, each cut out of the
 *   page at its centre and told apart by a small ONNX model
 *   (models/marks.onnx), which may also say it is none of them (a dotted
 *   note's dot, a piece of text or of a slur);
 * - hairpins among the dynamics and the tie-and-slur pixels: long, low
 *   wedges, opening to the right (crescendo) or closing (diminuendo).
 *
 * Which note a mark belongs to is the music reader's question (assembly/marks.ts).
 * Training (training/model/export-marks.ts) cuts its samples with the same
 * cell (mark-cells.ts), so the model sees what it will be asked about.
 */
import * as ort from 'onnxruntime-web';
import type { GrayImage } from '../image/gray.js';
import type { Staff } from '../staves/detect-staves.js';
import { nearestStaff } from '../staves/staff-geometry.js';
import { classComponents, MAP_SCALE, type Component } from './components.js';
import { MARK_CELL_HEIGHT, MARK_CELL_WIDTH, MARK_CLASSES, markCell } from './mark-cells.js';
import type { MarkKind } from '../reading/mark-kinds.js';
import { onnxModel } from './onnx-model.js';
import type { ClassMap } from './segment.js';
import { CLASS_INDEX } from './symbol-classes.js';

export const MARK_MODEL_FILE = 'marks.onnx';
export const MARK_MODEL_VERSION = 'marks-1';

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
}

export interface ArticulationMark extends MarkCandidate {
  kind: MarkKind;
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
/** … along a middle line bent by no more than this many spaces. */
const HAIRPIN_MAX_BEND = 0.3;
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

/** Components of the articulation class small enough to be one mark, with their staff. */
export function markCandidates(map: ClassMap, staves: readonly Staff[], space: number): MarkCandidate[] {
  return classComponents(map, [CLASS_INDEX.articulation], 2).flatMap((c): MarkCandidate[] => {
    if (c.x1 - c.x0 > space * MARK_MAX_WIDTH || c.y1 - c.y0 > space * MARK_MAX_HEIGHT) return [];
    const x = (c.x0 + c.x1) / 2;
    const y = (c.y0 + c.y1) / 2;
    const staff = nearestStaff(staves, x, y);
    return staff >= 0 ? [{ x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1, x, y, staff, confidence: c.confidence }] : [];
  });
}

/**
 * The marks among the candidates: each cut out of the prepared page at its
 * centre and classified; those the model calls none, or is unsure of, go.
 * Pieces of one mark read alike join, and a fermata's dot is its own.
 */
export async function classifyMarks(gray: GrayImage, candidates: readonly MarkCandidate[], space: number): Promise<ArticulationMark[]> {
  if (!candidates.length) return [];
  const model = await onnxModel(MARK_MODEL_FILE);
  const size = MARK_CELL_WIDTH * MARK_CELL_HEIGHT;
  const input = new Float32Array(candidates.length * size);
  candidates.forEach((c, i) => input.set(markCell(gray, c.x, c.y), i * size));
  const output = await model.run({ image: new ort.Tensor('float32', input, [candidates.length, 1, MARK_CELL_HEIGHT, MARK_CELL_WIDTH]) });
  const logits = output.logits!.data as Float32Array;
  const marks: ArticulationMark[] = [];
  candidates.forEach((c, i) => {
    const { index, probability } = softmaxBest(logits.subarray(i * MARK_CLASSES.length, (i + 1) * MARK_CLASSES.length));
    const kind = MARK_CLASSES[index];
    if (kind && kind !== 'none' && probability >= MIN_MARK_PROBABILITY) marks.push({ ...c, kind, confidence: c.confidence * probability });
  });
  return joinPieces(marks, space);
}

/** The most likely class and its probability. */
function softmaxBest(row: Float32Array): { index: number; probability: number } {
  let index = 0;
  for (let k = 1; k < row.length; k++) if (row[k]! > row[index]!) index = k;
  const total = row.reduce((s, v) => s + Math.exp(v - row[index]!), 0);
  return { index, probability: 1 / total };
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
  }
  const fermatas = joined.filter((m) => m.kind === 'fermata');
  return joined.filter((m) => m.kind === 'fermata' || !fermatas.some((f) => m.x > f.x0 && m.x < f.x1 && m.y > f.y0 - space * 0.3 && m.y < f.y1 + space * 0.3));
}

/**
 * Hairpins among the dynamics pixels and the tie-and-slur pixels (the model takes a hairpin's two
 * straight lines for a flat slur as often as for a dynamic).
 */
export function readHairpins(map: ClassMap, staves: readonly Staff[], space: number): Hairpin[] {
  const found: Omit<Hairpin, 'staff'>[] = [];
  const lines: Line[] = [];
  for (const c of classComponents(map, [CLASS_INDEX.dynamics, CLASS_INDEX.tieSlur], 4)) {
    const kind = wedgeShape(c, map.width, space);
    if (kind) found.push({ kind, x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1, confidence: c.confidence });
    else {
      const line = straightLine(c, map.width, space);
      if (line) lines.push(line);
    }
  }
  found.push(...linePairs(joinLines(lines, space), space));
  return found.flatMap((h) => {
    const staff = nearestStaff(staves, (h.x0 + h.x1) / 2, (h.y0 + h.y1) / 2);
    return staff >= 0 ? [{ ...h, staff }] : [];
  });
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
  const end = length * HAIRPIN_END_SHARE;
  const left = span(c, width, c.x0, c.x0 + end);
  const right = span(c, width, c.x1 - end, c.x1);
  const middle = span(c, width, c.x0 + length / 2 - end / 2, c.x0 + length / 2 + end / 2);
  if (!left || !right || !middle) return undefined;
  if (Math.max(left.height, right.height, middle.height) > space * HAIRPIN_LINE_THICKNESS) return undefined;
  if (Math.abs(right.centre - left.centre) > length * HAIRPIN_MAX_SLOPE) return undefined;
  if (Math.abs(middle.centre - (left.centre + right.centre) / 2) > space * HAIRPIN_LINE_BEND) return undefined;
  return { x0: c.x0, x1: c.x1, y0: left.centre, y1: right.centre, confidence: c.confidence };
}

/** Pieces of one line, left to right, where one's end meets the next one's start on its course. */
function joinLines(lines: readonly Line[], space: number): Line[] {
  const joined: Line[] = [];
  for (const line of [...lines].sort((a, b) => a.x0 - b.x0)) {
    const host = joined.find((j) => {
      const gap = line.x0 - j.x1;
      if (gap > space * LINE_JOIN_GAP || gap < -space * 0.3) return false;
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
 * Whether a component is a hairpin, and which way it opens: long and low, its two lines meeting at
 * a point at one end and standing apart at the other, along a straight middle line.
 */
export function wedgeShape(c: Component, width: number, space: number): Hairpin['kind'] | undefined {
  const length = c.x1 - c.x0;
  if (length < space * HAIRPIN_MIN_LENGTH || c.y1 - c.y0 > space * HAIRPIN_MAX_OPENING + length * HAIRPIN_MAX_SLOPE) return undefined;
  const end = length * HAIRPIN_END_SHARE;
  const left = span(c, width, c.x0, c.x0 + end);
  const right = span(c, width, c.x1 - end, c.x1);
  const middle = span(c, width, c.x0 + length / 2 - end / 2, c.x0 + length / 2 + end / 2);
  if (!left || !right || !middle) return undefined;
  const [point, open] = left.height < right.height ? [left, right] : [right, left];
  if (open.height - point.height < space * HAIRPIN_MIN_SPREAD || open.height < space * HAIRPIN_MIN_OPENING) return undefined;
  // The middle line runs straight: the middle's centre lies halfway between the ends' centres.
  if (Math.abs(middle.centre - (left.centre + right.centre) / 2) > space * HAIRPIN_MAX_BEND) return undefined;
  // And the wedge widens steadily: the middle is about half as open as the open end.
  if (middle.height > open.height * 0.85 || middle.height < point.height) return undefined;
  return left.height < right.height ? 'crescendo' : 'diminuendo';
}

/** The height and centre, in prepared pixels, of a component's ink between two xs. */
function span(c: Component, width: number, from: number, to: number): { height: number; centre: number } | undefined {
  let top = Infinity;
  let bottom = -Infinity;
  const [c0, c1] = [from / MAP_SCALE, to / MAP_SCALE];
  for (const i of c.pixels) {
    const col = i % width;
    if (col < c0 || col > c1) continue;
    const row = (i - col) / width;
    if (row < top) top = row;
    if (row > bottom) bottom = row;
  }
  return bottom >= top ? { height: (bottom - top + 1) * MAP_SCALE, centre: ((top + bottom + 1) / 2) * MAP_SCALE } : undefined;
}
