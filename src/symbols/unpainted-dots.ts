/**
 * Dots over and under noteheads that the symbol model left unpainted. On a
 * blurred or faint scan the model paints a staccato above one note and not
 * above the next, though the page prints both alike. The ink still shows
 * them: a small round speck standing alone a space or so above or below a
 * head. Such specks become mark candidates, which the mark model reads as
 * it reads the painted ones (a speck of noise, a piece of a letter or the
 * dot of a dotted note is no staccato to it).
 */
import type { BinaryImage } from '../preparation/binarize.js';
import { MAP_SCALE } from './components.js';
import type { MarkCandidate } from './marks.js';
import type { ClassMap } from './segment.js';
import { CLASS_INDEX } from './symbol-classes.js';

/** A staccato stands at least this many spaces above or below its head's middle … */
const NEAREST = 0.55;
/** … and at most this many (over a slur or a beam's edge it stands further out than over a lone head) … */
const FURTHEST = 2.2;
/** … its middle within this many spaces of the head's middle across. */
const ACROSS = 0.45;
/** A dot is at least this many spaces across (a speck of a scan's noise is smaller) … */
const DOT_MIN = 0.15;
/** … and at most this many (a blurred dot grows; a letter or an accidental is larger) … */
const DOT_MAX = 0.55;
/** … no more than this many times as wide as tall, or as tall as wide … */
const DOT_MAX_ELONGATION = 2;
/** … and fills at least this share of its box (a round dot fills about three quarters of it). */
const DOT_MIN_FILL = 0.5;
/** Ink the class map painted as a symbol, in at least this share of its pixels, is that symbol's and no candidate here. */
const PAINTED_SHARE = 0.5;
/** What a candidate found in the ink is trusted as, before the mark model reads it (the model's paint would say more). */
const INK_CONFIDENCE = 0.8;

/** A head the dots are looked for around: its middle in prepared pixels, and its staff. */
export interface HeadPoint {
  x: number;
  y: number;
  staff: number;
}

/**
 * The ink dots over and under `heads` that the class map left as paper: each a component of the page's
 * ink alone in its box, round and dot-sized, found once however many heads reach it.
 */
export function unpaintedDots(ink: BinaryImage, map: ClassMap, heads: readonly HeadPoint[], space: number): MarkCandidate[] {
  const { width, height } = ink;
  const seen = new Set<number>();
  const limit = Math.ceil(space * DOT_MAX);
  const found: MarkCandidate[] = [];
  for (const head of heads) {
    const x0 = Math.max(0, Math.round(head.x - space * ACROSS));
    const x1 = Math.min(width - 1, Math.round(head.x + space * ACROSS));
    for (const side of [-1, 1]) {
      const near = head.y + side * space * NEAREST;
      const far = head.y + side * space * FURTHEST;
      const y0 = Math.max(0, Math.round(Math.min(near, far)));
      const y1 = Math.min(height - 1, Math.round(Math.max(near, far)));
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const i = y * width + x;
          if (!ink.data[i] || seen.has(i)) continue;
          const speck = component(ink, i, limit, seen);
          if (!speck || !dotShaped(speck, space) || painted(map, speck.pixels, width)) continue;
          const cx = (speck.x0 + speck.x1 + 1) / 2;
          const cy = (speck.y0 + speck.y1 + 1) / 2;
          found.push({ x0: speck.x0, y0: speck.y0, x1: speck.x1 + 1, y1: speck.y1 + 1, x: cx, y: cy, staff: head.staff, confidence: INK_CONFIDENCE });
        }
      }
    }
  }
  return found;
}

interface Speck {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  pixels: number[];
}

/**
 * The 8-connected ink component through pixel `start`; undefined once it reaches further than `limit`
 * pixels across or down (a stroke, a line, a head), where it stops following. Every pixel it went
 * through is marked seen.
 */
function component(ink: BinaryImage, start: number, limit: number, seen: Set<number>): Speck | undefined {
  const { width, height, data } = ink;
  const sx = start % width;
  const sy = (start - sx) / width;
  const speck: Speck = { x0: sx, y0: sy, x1: sx, y1: sy, pixels: [] };
  // Followed afresh from each start: a large component met before, and left unfinished, is large again.
  const visited = new Set([start]);
  const stack = [start];
  let whole = true;
  while (stack.length) {
    const i = stack.pop()!;
    const x = i % width;
    const y = (i - x) / width;
    speck.pixels.push(i);
    speck.x0 = Math.min(speck.x0, x);
    speck.x1 = Math.max(speck.x1, x);
    speck.y0 = Math.min(speck.y0, y);
    speck.y1 = Math.max(speck.y1, y);
    if (speck.x1 - speck.x0 >= limit || speck.y1 - speck.y0 >= limit) {
      whole = false;
      break;
    }
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const j = ny * width + nx;
        if (data[j] && !visited.has(j)) {
          visited.add(j);
          stack.push(j);
        }
      }
    }
  }
  for (const i of visited) seen.add(i);
  return whole ? speck : undefined;
}

/** Dot-sized, round and solid. */
function dotShaped(speck: Speck, space: number): boolean {
  const w = speck.x1 - speck.x0 + 1;
  const h = speck.y1 - speck.y0 + 1;
  if (Math.max(w, h) < space * DOT_MIN) return false;
  if (w > h * DOT_MAX_ELONGATION || h > w * DOT_MAX_ELONGATION) return false;
  return speck.pixels.length >= DOT_MIN_FILL * w * h;
}

/** Whether the class map painted most of these page pixels (of a page `width` wide) as some symbol. */
function painted(map: ClassMap, pixels: readonly number[], width: number): boolean {
  let symbol = 0;
  for (const i of pixels) {
    const x = i % width;
    const y = (i - x) / width;
    const cell = Math.floor(y / MAP_SCALE) * map.width + Math.floor(x / MAP_SCALE);
    const cls = map.data[cell];
    if (cls !== undefined && cls !== CLASS_INDEX.background && cls !== CLASS_INDEX.staffLine) symbol++;
  }
  return symbol >= pixels.length * PAINTED_SHARE;
}
