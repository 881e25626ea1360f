/**
 * Bold ink brought back to the weight it was engraved at. A scan of a
 * heavily inked or bled print draws every stroke thicker: staff lines half a
 * space thick, open noteheads filled, a clef's loops closed, accidentals and
 * signatures run together. The symbol model reads strokes of the weight
 * music is engraved at, so such a page is thinned first: its paper grows into
 * the ink by as many pixels on each side as the staff lines stand too thick.
 */
import type { GrayImage } from '../image/gray.js';

/**
 * The thickest staff line, in spaces, a page is read at as it is: an engraved line is about a tenth of a
 * space, and a scan's blur, enlarged to the canonical size, draws it a quarter of a space thick.
 */
export const ORDINARY_LINE = 0.25;

/** Pixels of ink to take off each side of every stroke of a page whose staff lines stand `lineThickness` pixels thick. */
export function boldInkExcess(lineThickness: number, space: number): number {
  return Math.max(0, Math.ceil((lineThickness - ORDINARY_LINE * space) / 2));
}

/** The page with every dark stroke thinned by `radius` pixels each side: the lightest value over a square of that radius. */
export function thinInk(gray: GrayImage, radius: number): GrayImage {
  if (radius <= 0) return gray;
  const { width, height } = gray;
  const across = lightestWithin(gray.data, width, height, radius, 1);
  return { width, height, data: lightestWithin(across, width, height, radius, width) };
}

/**
 * Each pixel the lightest of those within `radius` steps of it along rows (`step` 1) or columns
 * (`step` the width), clipped at the page's edges: for each distance, one pass over the page
 * against the pixels that far before and after.
 */
function lightestWithin(data: Uint8Array, width: number, height: number, radius: number, step: number): Uint8Array {
  const out = data.slice();
  const n = data.length;
  for (let d = 1; d <= radius; d++) {
    const offset = d * step;
    if (step === 1) {
      for (let row = 0; row < n; row += width) {
        for (let i = row + d, end = row + width; i < end; i++) if (data[i - d]! > out[i]!) out[i] = data[i - d]!;
        for (let i = row, end = row + width - d; i < end; i++) if (data[i + d]! > out[i]!) out[i] = data[i + d]!;
      }
    } else {
      for (let i = offset; i < n; i++) if (data[i - offset]! > out[i]!) out[i] = data[i - offset]!;
      for (let i = 0, end = n - offset; i < end; i++) if (data[i + offset]! > out[i]!) out[i] = data[i + offset]!;
    }
  }
  return out;
}
