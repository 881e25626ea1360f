import { describe, expect, it } from 'vitest';
import type { BinaryImage } from '../../src/preparation/binarize.js';
import { sizeHeadsByInk } from '../../src/symbols/head-ink.js';

const SPACE = 12;
const TOP = 30;
/** The class map's head width on this page. */
const HEAD_WIDTH = 16;

/** Paper with a staff's five lines, two pixels thick. */
function page(): BinaryImage {
  const ink: BinaryImage = { width: 600, height: 120, data: new Uint8Array(600 * 120) };
  for (let l = 0; l < 5; l++) for (let y = TOP + l * SPACE; y < TOP + l * SPACE + 2; y++) for (let x = 10; x < 590; x++) ink.data[y * 600 + x] = 1;
  return ink;
}

/** A filled elliptic head `width` pixels wide and `width` × 0.7 tall, centred on (x, y), with an up-stem at its right edge. */
function head(ink: BinaryImage, x: number, y: number, width: number): { x: number; y: number; kind: string; small: boolean } {
  const [a, b] = [width / 2, (width * 0.7) / 2];
  for (let dy = -Math.ceil(b); dy <= Math.ceil(b); dy++) {
    for (let dx = -Math.ceil(a); dx <= Math.ceil(a); dx++) if ((dx / a) ** 2 + (dy / b) ** 2 <= 1) ink.data[(y + dy) * ink.width + x + dx] = 1;
  }
  for (let sy = y - 3 * SPACE; sy <= y; sy++) ink.data[sy * ink.width + x + Math.floor(a)] = 1;
  return { x, y, kind: 'black', small: false };
}

describe('heads sized by their ink', () => {
  it('marks a grace head two thirds the size of the page\'s heads small, in a space or on a line, and no full-size head', () => {
    const ink = page();
    const heads = [40, 80, 120, 160, 200, 240, 280, 320, 360, 400].map((x, i) => head(ink, x, TOP + (i % 2 ? 2 * SPACE : SPACE + SPACE / 2), 15));
    heads.push(head(ink, 450, TOP + SPACE + SPACE / 2, 10), head(ink, 480, TOP + 2 * SPACE, 10));
    sizeHeadsByInk(heads, ink, SPACE, HEAD_WIDTH);
    expect(heads.map((h) => h.small)).toEqual([...Array(10).fill(false), true, true]);
  });

  it('marks a head the class map measured small full-size where its ink is as wide as the page\'s heads, and keeps a grace head small', () => {
    const ink = page();
    const heads = [40, 80, 120, 160, 200, 240, 280, 320, 360, 400].map((x) => head(ink, x, TOP + SPACE + SPACE / 2, 15));
    heads.push({ ...head(ink, 450, TOP + SPACE + SPACE / 2, 15), small: true }, { ...head(ink, 480, TOP + 2 * SPACE, 10), small: true });
    sizeHeadsByInk(heads, ink, SPACE, HEAD_WIDTH);
    expect(heads.slice(-2).map((h) => h.small)).toEqual([false, true]);
  });

  it('leaves hollow heads and a page of too few heads as they are', () => {
    const ink = page();
    const heads = [40, 80, 120, 160, 200, 240, 280, 320, 360, 400].map((x) => head(ink, x, TOP + SPACE + SPACE / 2, 15));
    const hollow = { ...head(ink, 450, TOP + SPACE + SPACE / 2, 10), kind: 'half' };
    heads.push(hollow);
    sizeHeadsByInk(heads, ink, SPACE, HEAD_WIDTH);
    expect(heads.at(-1)!.small).toBe(false);
    const few = [head(ink, 500, TOP + SPACE + SPACE / 2, 15), head(ink, 540, TOP + SPACE + SPACE / 2, 10)];
    sizeHeadsByInk(few, ink, SPACE, HEAD_WIDTH);
    expect(few.map((h) => h.small)).toEqual([false, false]);
  });
});
