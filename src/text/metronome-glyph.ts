/**
 * The note of a metronome mark ("♩ = 120", "𝅗𝅥. = 60", "♪ = 168"), read from the page's ink. The OCR
 * has no letter for it (the symbol model paints it as music, so it is often not even in the line), and
 * read as a quarter it would set a half-note tempo twice as fast as printed. The glyph stands just left
 * of the "=": a stem with a head at its foot, hollow for a half note, a flag on the stem for an eighth,
 * a dot after it for a dotted beat.
 *
 * Every length is in the line's letter height (its digits'), as the glyph is set in the text's size.
 */
import { connectedComponents } from '../image/connected-components.js';
import type { BinaryImage } from '../preparation/binarize.js';

export type BeatUnit = 'half' | 'quarter' | 'eighth';

export interface Beat {
  unit: BeatUnit;
  dots: number;
}

/** How far left of the "=" the glyph is looked for, and how far above the line's foot (a stem is about twice a digit's height). */
const GLYPH_REACH = 4;
const GLYPH_RISE = 3.5;
/** The glyph is at least this tall (its stem), and no wider than this (head and flag). */
const GLYPH_MIN_HEIGHT = 1.2;
const GLYPH_MAX_WIDTH = 2;
/** … and ends within this much of the "=". */
const GLYPH_GAP = 1.5;
/** The head is the glyph's lowest share of its height. */
const HEAD_SHARE = 0.35;
/** Ink that fills less than this share of the head's box is a hollow head (with its hole lost to blur). */
const HOLLOW_FILL = 0.5;
/** A flag reaches at least this share of the head's width right of the stem, in the glyph's upper part. */
const FLAG_REACH = 0.4;
/** A dot is at most this big, and stands within this much right of the glyph. */
const DOT_SIZE = 0.5;
const DOT_GAP = 1;
/** A dot's box is at most this many times as wide as tall, or as tall as wide. */
const DOT_ROUNDNESS = 1.6;

/** A line of text as read: its letter height, its foot, and where each character of its words stands across. */
interface ReadText {
  size: number;
  y1: number;
  words: readonly { symbols: readonly { text: string; x0: number }[] }[];
}

/** The beat a metronome line's note glyph shows; undefined where the line has no "=" or no glyph stands before it. */
export function readBeat(ink: BinaryImage, line: ReadText): Beat | undefined {
  const equals = line.words.flatMap((w) => w.symbols).find((s) => s.text === '=');
  if (!equals) return undefined;
  const size = line.size;
  const x0 = Math.max(0, Math.floor(equals.x0 - size * GLYPH_REACH));
  const x1 = Math.min(ink.width, Math.ceil(equals.x0));
  const y0 = Math.max(0, Math.floor(line.y1 - size * GLYPH_RISE));
  const y1 = Math.min(ink.height, Math.ceil(line.y1 + size * 0.5));
  const [w, h] = [x1 - x0, y1 - y0];
  if (w <= 0 || h <= 0) return undefined;
  const mask = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) mask[y * w + x] = ink.data[(y0 + y) * ink.width + x0 + x]!;
  const { boxes, pixelsOf } = connectedComponents(w, h, mask);
  const gap = size * GLYPH_GAP;
  let glyph = -1;
  boxes.forEach((b, k) => {
    if (b.y1 - b.y0 < size * GLYPH_MIN_HEIGHT || b.x1 - b.x0 > size * GLYPH_MAX_WIDTH || w - b.x1 > gap) return;
    // Touching the window's top or left, it is something larger (a staff, a slur): no glyph.
    if (b.y0 === 0 || b.x0 === 0) return;
    if (glyph < 0 || b.x1 > boxes[glyph]!.x1) glyph = k;
  });
  if (glyph < 0) return undefined;
  const box = boxes[glyph]!;
  const pixels = [...pixelsOf(glyph + 1)].map((i) => [i % w, Math.floor(i / w)] as const);
  const headTop = box.y1 - (box.y1 - box.y0) * HEAD_SHARE;
  const head = pixels.filter(([, y]) => y >= headTop);
  const hx0 = Math.min(...head.map(([x]) => x));
  const hx1 = Math.max(...head.map(([x]) => x)) + 1;
  const hy0 = Math.min(...head.map(([, y]) => y));
  const hy1 = Math.max(...head.map(([, y]) => y)) + 1;
  const hollow = hasHole(mask, w, glyph + 1, pixelsOf, { x0: hx0, y0: hy0, x1: hx1, y1: hy1 }) || head.length < (hx1 - hx0) * (hy1 - hy0) * HOLLOW_FILL;
  // The stem: the column most inked above the head. A flag reaches well right of it there.
  const above = pixels.filter(([, y]) => y < headTop);
  const columns = new Map<number, number>();
  for (const [x] of above) columns.set(x, (columns.get(x) ?? 0) + 1);
  const stem = [...columns].sort((a, b) => b[1] - a[1])[0]?.[0];
  const flagged = stem !== undefined && above.some(([x]) => x - stem > (hx1 - hx0) * FLAG_REACH);
  // A dot is round (a bar of the "=" is long and flat), at the head's height.
  const round = (b: { x0: number; y0: number; x1: number; y1: number }) => b.x1 - b.x0 <= size * DOT_SIZE && b.y1 - b.y0 <= size * DOT_SIZE && Math.max(b.x1 - b.x0, b.y1 - b.y0) <= DOT_ROUNDNESS * Math.min(b.x1 - b.x0, b.y1 - b.y0);
  const dotted = boxes.some((b, k) => k !== glyph && b.x0 >= box.x1 && b.x0 - box.x1 < size * DOT_GAP && round(b) && (b.y0 + b.y1) / 2 >= hy0 - size * 0.25 && (b.y0 + b.y1) / 2 <= hy1);
  const unit: BeatUnit = hollow ? 'half' : flagged ? 'eighth' : 'quarter';
  return { unit, dots: dotted ? 1 : 0 };
}

/** Whether the head's box holds paper the glyph closes in: background that cannot reach the box's edge (four neighbours). */
function hasHole(mask: Uint8Array, width: number, label: number, pixelsOf: (label: number) => Int32Array, box: { x0: number; y0: number; x1: number; y1: number }): boolean {
  const bw = box.x1 - box.x0;
  const bh = box.y1 - box.y0;
  if (bw < 3 || bh < 3) return false;
  const own = new Uint8Array(bw * bh);
  for (const i of pixelsOf(label)) {
    const [x, y] = [i % width, Math.floor(i / width)];
    if (x >= box.x0 && x < box.x1 && y >= box.y0 && y < box.y1) own[(y - box.y0) * bw + x - box.x0] = 1;
  }
  const reached = new Uint8Array(bw * bh);
  const stack: number[] = [];
  for (let x = 0; x < bw; x++) stack.push(x, (bh - 1) * bw + x);
  for (let y = 0; y < bh; y++) stack.push(y * bw, y * bw + bw - 1);
  while (stack.length) {
    const k = stack.pop()!;
    if (reached[k] || own[k]) continue;
    reached[k] = 1;
    const [x, y] = [k % bw, Math.floor(k / bw)];
    if (x > 0) stack.push(k - 1);
    if (x < bw - 1) stack.push(k + 1);
    if (y > 0) stack.push(k - bw);
    if (y < bh - 1) stack.push(k + bw);
  }
  for (let k = 0; k < bw * bh; k++) if (!own[k] && !reached[k]) return true;
  return false;
}
