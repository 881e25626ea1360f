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
import { inkIslands, type InkIsland } from './ink-islands.js';
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
 * The ink dots over and under `heads` that the class map left as paper: each an island of the page's ink,
 * round and dot-sized, found once however many heads reach it.
 */
export function unpaintedDots(ink: BinaryImage, map: ClassMap, heads: readonly HeadPoint[], space: number): MarkCandidate[] {
  const largest = Math.ceil(space * DOT_MAX);
  const found = new Map<number, MarkCandidate>();
  for (const head of heads) {
    const x0 = Math.max(0, Math.round(head.x - space * ACROSS));
    const x1 = Math.min(ink.width - 1, Math.round(head.x + space * ACROSS));
    for (const side of [-1, 1]) {
      const near = head.y + side * space * NEAREST;
      const far = head.y + side * space * FURTHEST;
      const y0 = Math.max(0, Math.round(Math.min(near, far)));
      const y1 = Math.min(ink.height - 1, Math.round(Math.max(near, far)));
      // Ink running on further than a dot is across is a stroke, a line or a head.
      for (const dot of inkIslands(ink, { x0, y0, x1, y1 }, largest)) {
        // Its first pixel on the page, whichever head's reach it was met from.
        const key = Math.min(...dot.pixels);
        if (found.has(key) || !dotShaped(dot, space, largest) || painted(map, dot.pixels, ink.width)) continue;
        found.set(key, { ...box(dot), x: (dot.x0 + dot.x1) / 2, y: (dot.y0 + dot.y1) / 2, staff: head.staff, confidence: INK_CONFIDENCE });
      }
    }
  }
  return [...found.values()];
}

const box = ({ x0, y0, x1, y1 }: InkIsland) => ({ x0, y0, x1, y1 });

/** Dot-sized (at most `largest` pixels across), round and solid. */
function dotShaped(dot: InkIsland, space: number, largest: number): boolean {
  const w = dot.x1 - dot.x0;
  const h = dot.y1 - dot.y0;
  if (Math.max(w, h) < space * DOT_MIN || Math.max(w, h) > largest) return false;
  if (w > h * DOT_MAX_ELONGATION || h > w * DOT_MAX_ELONGATION) return false;
  return dot.pixels.length >= DOT_MIN_FILL * w * h;
}

/** Whether the class map painted most of these page pixels (of a page `width` wide) as some symbol. */
function painted(map: ClassMap, pixels: readonly number[], width: number): boolean {
  let symbol = 0;
  for (const i of pixels) {
    const x = i % width;
    const y = (i - x) / width;
    const cls = map.data[Math.floor(y / MAP_SCALE) * map.width + Math.floor(x / MAP_SCALE)];
    if (cls !== CLASS_INDEX.background && cls !== CLASS_INDEX.staffLine) symbol++;
  }
  return symbol >= pixels.length * PAINTED_SHARE;
}
