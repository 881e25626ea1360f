/**
 * PDF pages rasterised at the resolution their staff size calls for: the
 * committed melody PDF (staff space 1.75 mm: 13.8 px at 200 dpi) and the
 * same staves drawn large or small come back at the resolution that gives
 * the canonical 12 px staff space; a page already near it, and a page with
 * no staves, keep theirs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/image/raster.js';
import { openPdf } from '../../src/input/pdf.js';
import { CANONICAL_STAFF_SPACE } from '../../src/preparation/prepare-page.js';
import { staffSizedDpi } from '../../src/preparation/render-resolution.js';

const melody = new Uint8Array(readFileSync(new URL('../fixtures/recognition/melody.pdf', import.meta.url)));

async function rendered(dpi: number): Promise<Raster> {
  const pdf = await openPdf(melody);
  try {
    return await pdf.renderPage(0, { dpi });
  } finally {
    await pdf.close();
  }
}

/** Five staff lines `space` px apart, `thickness` thick, across a white page, `staves` times. */
function staves(space: number, thickness: number, staffCount = 6): Raster {
  const width = 1200;
  const height = staffCount * space * 12;
  const data = new Uint8Array(width * height).fill(255);
  for (let staff = 0; staff < staffCount; staff++) {
    for (let line = 0; line < 5; line++) {
      const top = Math.round((staff * 12 + 4 + line) * space);
      for (let y = top; y < top + thickness; y++) data.fill(0, y * width + 50, y * width + width - 50);
    }
  }
  return { width, height, channels: 1, data };
}

describe('staffSizedDpi', () => {
  it('renders the melody page where its staff space comes out at the canonical one, and keeps that resolution', async () => {
    const chosen = staffSizedDpi(await rendered(200), 200);
    expect(chosen).toBeGreaterThan(165);
    expect(chosen).toBeLessThan(182);
    expect(staffSizedDpi(await rendered(chosen), chosen)).toBe(chosen);
  });

  it('scales by the staff space measured: large staves down, small ones up, within 72 to 600 dpi', () => {
    expect(staffSizedDpi(staves(24, 2), 200)).toBe(Math.round((200 * CANONICAL_STAFF_SPACE) / 24));
    expect(staffSizedDpi(staves(8, 1), 200)).toBe(Math.round((200 * CANONICAL_STAFF_SPACE) / 8));
    expect(staffSizedDpi(staves(60, 4), 200)).toBe(72);
    expect(staffSizedDpi(staves(5, 1), 300)).toBe(600);
    expect(staffSizedDpi(staves(12.5, 2), 200)).toBe(200);
  });

  it('keeps the resolution of a page with no staff to measure', () => {
    const blank: Raster = { width: 800, height: 1000, channels: 1, data: new Uint8Array(800 * 1000).fill(255) };
    expect(staffSizedDpi(blank, 200)).toBe(200);
  });
});
