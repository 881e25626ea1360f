/**
 * The picture the HEIC, WebP and TIFF fixtures show, drawn here with the
 * same arithmetic as `test/fixtures/input/make-image-fixtures.py`, so that
 * losslessly stored pages can be compared pixel for pixel: a solid square
 * in the top-left corner (which way up the page is), a staff of five lines,
 * a few notes and a bar line.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { OmrError } from '../../src/errors.js';
import type { Raster } from '../../src/image/raster.js';

export const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/input/${name}`, import.meta.url)));

/** The picture in gray: 255 paper, 0 ink. */
export function drawnPage(width: number, height: number): Raster {
  const data = new Uint8Array(width * height).fill(255);
  const ink = (x0: number, x1: number, y0: number, y1: number) => {
    for (let y = Math.max(0, y0); y < Math.min(height, y1); y++) data.fill(0, y * width + Math.max(0, x0), y * width + Math.min(width, x1));
  };
  ink(4, 20, 4, 20);
  const lines = [30, 38, 46, 54, 62];
  for (const y of lines) ink(28, width - 8, y, y + 2);
  ink(width - 10, width - 8, 30, 64);
  for (let k = 0, x = 48; x < width - 24; k++, x += 22) {
    const cy = lines[1 + (k % 3)]! + (k % 2 ? 4 : 0) + 1;
    for (let y = 0; y < height; y++) {
      for (let xx = 0; xx < width; xx++) {
        const dx = (xx - x) / 5.0;
        const dy = (y - cy) / 3.6;
        if (dx * dx + dy * dy <= 1) data[y * width + xx] = 0;
      }
    }
    ink(x + 4, x + 6, cy - 24, cy);
  }
  return { width, height, channels: 1, data };
}

export const INK = [28, 30, 42] as const;
export const PAPER = [236, 230, 214] as const;

/** The picture as a phone photo of it: cream paper, blue-black ink. */
export function photographedPage(width: number, height: number): Raster {
  const gray = drawnPage(width, height).data;
  const data = new Uint8Array(width * height * 3);
  gray.forEach((v, i) => data.set(v === 0 ? INK : PAPER, i * 3));
  return { width, height, channels: 3, data };
}

/** Mean absolute difference per sample, for lossy codecs. */
export function meanDifference(a: Raster, b: Raster): number {
  expect([a.width, a.height, a.channels]).toEqual([b.width, b.height, b.channels]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / a.data.length;
}

/** Pixel (x, y) as an array of its channels. */
export function pixel(r: Raster, x: number, y: number): number[] {
  return [...r.data.subarray((y * r.width + x) * r.channels, (y * r.width + x + 1) * r.channels)];
}

/** Checks that a decoded page is the picture, upright: the corner square dark, the other corners and the margins light. */
export function expectUprightPicture(r: Raster): void {
  const lightness = (x: number, y: number) => Math.min(...pixel(r, x, y));
  expect(lightness(12, 12), 'corner square').toBeLessThan(80);
  for (const [x, y] of [[r.width - 5, 5], [5, r.height - 5], [r.width - 5, r.height - 5], [r.width >> 1, 10]] as const) {
    expect(lightness(x, y), `paper at ${x},${y}`).toBeGreaterThan(180);
  }
  expect(lightness(30, 30), 'staff line').toBeLessThan(80);
}

/** The OmrError a call throws or rejects with. */
export async function errorOf(fn: () => unknown): Promise<OmrError> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(OmrError);
    return err as OmrError;
  }
  throw new Error('expected an OmrError');
}
