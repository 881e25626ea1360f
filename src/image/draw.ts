/**
 * A small RGB drawing surface for pictures of what recognition saw (the
 * stage views of `scoresight recognize --debug`): a faded page underneath,
 * then boxes, lines, tinted pixels and short labels in a 3×5 pixel font.
 * Plain data, so it draws the same in Node and in browsers.
 */
import type { GrayImage } from './gray.js';
import type { Raster } from './raster.js';

export type Rgb = readonly [number, number, number];

/** How much of the page's own darkness shows under the drawing: enough to see the music, faint enough to see the marks. */
const PAGE_SHOW = 0.35;

export class Drawing {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;

  /** A drawing over a gray page, faded so that what is drawn stands out. */
  constructor(page: GrayImage) {
    this.width = page.width;
    this.height = page.height;
    this.data = new Uint8Array(page.width * page.height * 3);
    for (let i = 0; i < page.data.length; i++) {
      const v = Math.round(255 - (255 - page.data[i]!) * PAGE_SHOW);
      this.data[i * 3] = this.data[i * 3 + 1] = this.data[i * 3 + 2] = v;
    }
  }

  /** Mixes `colour` into one pixel by `alpha` (1: replaces it); outside the drawing, nothing. */
  tint(x: number, y: number, colour: Rgb, alpha = 1): void {
    const px = Math.round(x);
    const py = Math.round(y);
    if (px < 0 || py < 0 || px >= this.width || py >= this.height) return;
    const i = (py * this.width + px) * 3;
    for (let c = 0; c < 3; c++) this.data[i + c] = Math.round(this.data[i + c]! * (1 - alpha) + colour[c]! * alpha);
  }

  /** A filled rectangle, corners inclusive. */
  fill(x0: number, y0: number, x1: number, y1: number, colour: Rgb, alpha = 1): void {
    for (let y = Math.round(Math.min(y0, y1)); y <= Math.round(Math.max(y0, y1)); y++) {
      for (let x = Math.round(Math.min(x0, x1)); x <= Math.round(Math.max(x0, x1)); x++) this.tint(x, y, colour, alpha);
    }
  }

  /** A rectangle's outline, `width` pixels thick, drawn outside the box so the symbol inside stays visible. */
  box(x0: number, y0: number, x1: number, y1: number, colour: Rgb, width = 1): void {
    for (let k = 1; k <= width; k++) {
      this.line(x0 - k, y0 - k, x1 + k, y0 - k, colour);
      this.line(x0 - k, y1 + k, x1 + k, y1 + k, colour);
      this.line(x0 - k, y0 - k, x0 - k, y1 + k, colour);
      this.line(x1 + k, y0 - k, x1 + k, y1 + k, colour);
    }
  }

  /** A straight line, one pixel wide. */
  line(x0: number, y0: number, x1: number, y1: number, colour: Rgb, alpha = 1): void {
    const steps = Math.max(1, Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
    for (let s = 0; s <= steps; s++) this.tint(x0 + ((x1 - x0) * s) / steps, y0 + ((y1 - y0) * s) / steps, colour, alpha);
  }

  /**
   * Text in the 3×5 font, each font pixel drawn `scale` pixels square, from its top left corner. Letters
   * are capitals, except `b`, a flat; unknown characters leave a gap.
   */
  text(x: number, y: number, text: string, colour: Rgb, scale = 2): void {
    let cx = x;
    for (const ch of text) {
      const rows = GLYPHS[ch] ?? GLYPHS[ch.toUpperCase()];
      if (rows) {
        for (let r = 0; r < rows.length; r++) {
          for (let c = 0; c < 3; c++) if (rows[r]! & (4 >> c)) this.fill(cx + c * scale, y + r * scale, cx + (c + 1) * scale - 1, y + (r + 1) * scale - 1, colour);
        }
      }
      cx += 4 * scale;
    }
  }

  toRaster(): Raster {
    return { width: this.width, height: this.height, channels: 3, data: this.data };
  }
}

/** Width in pixels of `text` drawn at `scale`. */
export function textWidth(text: string, scale = 2): number {
  return text.length * 4 * scale - scale;
}

/** A colour per index, spread round the hue circle by the golden angle so neighbours differ. */
export function paletteColour(index: number): Rgb {
  const hue = (index * 137.508) % 360;
  return hsl(hue, 0.75, 0.45);
}

function hsl(h: number, s: number, l: number): Rgb {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

/** The 3×5 font: five rows of three bits each (4 = left column). Enough for pitches, durations, counts and names. */
const GLYPHS: Readonly<Record<string, readonly number[]>> = {
  '0': [7, 5, 5, 5, 7],
  '1': [2, 6, 2, 2, 7],
  '2': [7, 1, 7, 4, 7],
  '3': [7, 1, 3, 1, 7],
  '4': [5, 5, 7, 1, 1],
  '5': [7, 4, 7, 1, 7],
  '6': [7, 4, 7, 5, 7],
  '7': [7, 1, 2, 2, 2],
  '8': [7, 5, 7, 5, 7],
  '9': [7, 5, 7, 1, 7],
  A: [2, 5, 7, 5, 5],
  B: [6, 5, 6, 5, 6],
  C: [3, 4, 4, 4, 3],
  D: [6, 5, 5, 5, 6],
  E: [7, 4, 6, 4, 7],
  F: [7, 4, 6, 4, 4],
  G: [3, 4, 5, 5, 3],
  H: [5, 5, 7, 5, 5],
  I: [7, 2, 2, 2, 7],
  J: [1, 1, 1, 5, 2],
  K: [5, 5, 6, 5, 5],
  L: [4, 4, 4, 4, 7],
  M: [5, 7, 7, 5, 5],
  N: [6, 5, 5, 5, 5],
  O: [2, 5, 5, 5, 2],
  P: [6, 5, 6, 4, 4],
  Q: [2, 5, 5, 6, 3],
  R: [6, 5, 6, 5, 5],
  S: [3, 4, 2, 1, 6],
  T: [7, 2, 2, 2, 2],
  U: [5, 5, 5, 5, 7],
  V: [5, 5, 5, 5, 2],
  W: [5, 5, 7, 7, 5],
  X: [5, 5, 2, 5, 5],
  Y: [5, 5, 2, 2, 2],
  Z: [7, 1, 2, 4, 7],
  b: [4, 4, 6, 5, 6],
  '#': [5, 7, 5, 7, 5],
  '-': [0, 0, 7, 0, 0],
  '.': [0, 0, 0, 0, 2],
  '/': [1, 1, 2, 4, 4],
  ':': [0, 2, 0, 2, 0],
  '+': [0, 2, 7, 2, 0],
  '?': [7, 1, 3, 0, 2],
};
