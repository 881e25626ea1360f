/**
 * PDF pages rasterised at the resolution their staff size calls for: the
 * committed melody PDF (staff space 1.75 mm: 13.8 px at 200 dpi) keeps
 * 200 dpi; rendered so small that it would be enlarged, it comes back at
 * the resolution that gives the canonical 12 px staff space, and rendered
 * large, at twice that. A page with no staves keeps its resolution.
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
  it('keeps 200 dpi for the melody page, and brings it back near 200 dpi from too low or too high a resolution', async () => {
    expect(staffSizedDpi(await rendered(200), 200)).toBe(200);
    const fromLow = staffSizedDpi(await rendered(100), 100);
    expect(fromLow).toBeGreaterThan(165);
    expect(fromLow).toBeLessThan(182);
    expect(staffSizedDpi(await rendered(fromLow), fromLow)).toBe(fromLow);
    const fromHigh = staffSizedDpi(await rendered(400), 400);
    expect(fromHigh).toBeGreaterThan(330);
    expect(fromHigh).toBeLessThan(365);
    expect(staffSizedDpi(await rendered(fromHigh), fromHigh)).toBe(fromHigh);
  });

  it('renders small staves at the canonical staff space and large ones at twice it, within 72 to 600 dpi', () => {
    expect(staffSizedDpi(staves(8, 1), 200)).toBe(Math.round((200 * CANONICAL_STAFF_SPACE) / 8));
    expect(staffSizedDpi(staves(36, 3), 200)).toBe(Math.round((200 * 2 * CANONICAL_STAFF_SPACE) / 36));
    expect(staffSizedDpi(staves(5, 1), 300)).toBe(600);
    expect(staffSizedDpi(staves(200, 12, 2), 100)).toBe(72);
    for (const space of [11, 12.5, 18, 24]) expect(staffSizedDpi(staves(space, 2), 200)).toBe(200);
  });

  it('renders small staves whose lines come out two pixels thick at the canonical staff space', () => {
    // Thin lines smoothed over two rows on a 6 px staff: a third of the space, yet a staff.
    expect(staffSizedDpi(staves(6, 2), 200)).toBe(Math.round((200 * CANONICAL_STAFF_SPACE) / 6));
    // Three-pixel strokes 6 px apart are not staff lines.
    expect(staffSizedDpi(staves(6, 3), 200)).toBe(200);
  });

  it('keeps the resolution of a page with no staff to measure', () => {
    const blank: Raster = { width: 800, height: 1000, channels: 1, data: new Uint8Array(800 * 1000).fill(255) };
    expect(staffSizedDpi(blank, 200)).toBe(200);
  });
});
