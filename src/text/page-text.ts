/**
 * The text stage of one page: find and classify the text (text-regions.ts),
 * then read the lines that go somewhere — the title block's credits, part
 * names and lyrics — each as its own crop through the job's OCR worker.
 * Tempo, expression and other text is classified but not read: nothing
 * uses it yet, and every line read costs time.
 *
 * A crop holds only the line's own glyphs on white, so stems, slurs and
 * beams crossing a lyric line never reach the reader, and is enlarged to
 * the letter size tesseract reads best.
 */
import type { GrayImage } from '../image/gray.js';
import type { PageTransform } from '../preparation/prepare-page.js';
import type { Staff } from '../staves/detect-staves.js';
import type { OcrReader, OcrWord } from './ocr.js';
import { findTextRegions, type TextBox, type TextKind, type TextLine, type TextPageInput, type TextRegions } from './text-regions.js';

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
}

/** What a page's text contributes to the score (apply-text.ts), in the prepared page's coordinates. */
export interface PageText {
  page: number;
  transform: PageTransform;
  staves: Staff[];
  lines: ReadLine[];
}

const READ: ReadonlySet<TextKind> = new Set(['title', 'subtitle', 'composer', 'lyricist', 'partName', 'abbreviation', 'lyrics']);

/** Letter height crops are enlarged to, when smaller: measured on the dev set, larger crops read no better and take longer. */
const TARGET_SIZE = 16;

export async function readPageText(input: TextPageInput & { transform: PageTransform }, ocr: OcrReader): Promise<PageText> {
  const regions = findTextRegions(input);
  const lines: ReadLine[] = [];
  for (const line of regions.lines) {
    if (!READ.has(line.kind)) continue;
    const crop = cropLine(input.gray, regions, line);
    let words: OcrWord[];
    try {
      words = await ocr.readLine(crop.image);
    } catch {
      continue; // a line that cannot be read is left out
    }
    const px = (x: number) => crop.x + x / crop.scale;
    const placed = words.map((w) => ({
      ...w,
      x0: px(w.x0),
      x1: px(w.x1),
      y0: crop.y + w.y0 / crop.scale,
      y1: crop.y + w.y1 / crop.scale,
      symbols: w.symbols.map((c) => ({ text: c.text, x0: px(c.x0), x1: px(c.x1) })),
    }));
    if (!placed.length) continue;
    lines.push({
      kind: line.kind,
      size: line.size,
      spans: line.spans,
      x0: line.x0,
      y0: line.y0,
      x1: line.x1,
      y1: line.y1,
      text: placed.map((w) => w.text).join(' '),
      words: placed,
      ...(line.staff !== undefined ? { staff: line.staff } : {}),
      ...(line.verse !== undefined ? { verse: line.verse } : {}),
    });
  }
  return { page: input.page, transform: input.transform, staves: [...input.staves], lines };
}

/** The line's glyphs alone on white, padded and scaled; (x, y) is its top-left corner on the page. */
export function cropLine(gray: GrayImage, regions: TextRegions, line: TextLine): { image: GrayImage; x: number; y: number; scale: number } {
  const pad = Math.max(3, Math.round(line.size * 0.4));
  const x = Math.max(0, line.x0 - pad);
  const y = Math.max(0, line.y0 - pad);
  const w = Math.min(gray.width, line.x1 + pad) - x;
  const h = Math.min(gray.height, line.y1 + pad) - y;
  const own = new Set(line.glyphs);
  const source = new Uint8Array(w * h).fill(255);
  for (let yy = 0; yy < h; yy++) {
    for (let xx = 0; xx < w; xx++) {
      const i = (y + yy) * gray.width + x + xx;
      const label = regions.labels[i]!;
      // Paper keeps its gray (the soft edges of letters); ink of anything but this line's glyphs is erased.
      if (label === 0 || own.has(label)) source[yy * w + xx] = gray.data[i]!;
    }
  }
  const scale = Math.min(4, Math.max(1, TARGET_SIZE / Math.max(1, line.size)));
  return { image: scaleBilinear({ width: w, height: h, data: source }, scale), x, y, scale };
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
