/**
 * The committed symbol model on a page it never saw: noteheads, stems and
 * staff lines come out where the engraver put them.
 */
import { describe, expect, it } from 'vitest';
import { CANONICAL_STAFF_SPACE, preparePage } from '../../src/preparation/prepare-page.js';
import { toPreparedPoint } from '../../src/reading/page-transform.js';
import { detectStaves, staffLineY } from '../../src/staves/detect-staves.js';
import { segmentSymbols } from '../../src/symbols/segment.js';
import { degradeScan } from '../../training/data/degrade.js';
import { generateRandomScore } from '../../training/data/random-score.js';
import { renderPages } from '../../training/data/render-pages.js';
import { CLASS_INDEX } from '../../training/data/symbol-classes.js';

const NOTEHEADS = new Set([CLASS_INDEX.noteheadBlack, CLASS_INDEX.noteheadHalf, CLASS_INDEX.noteheadWhole]);

describe('symbol segmentation', () => {
  it('finds the noteheads of an unseen engraved page, clean and scanned', { timeout: 120_000 }, async () => {
    // A seed far from the training split's, rendered with options drawn for this test.
    const score = generateRandomScore(987_654, { staves: 3, measures: 8 });
    const [page] = await renderPages(score, { font: 'Leland', pageWidth: 2000, pageHeight: 2800, staffSpacePx: 15, hideEmptyStaves: false });
    const heads = page!.labels.symbols.filter((s) => s.kind === 'note' && s.bbox.width > 0);
    expect(heads.length).toBeGreaterThan(20);
    for (const [name, image, warp] of [
      ['clean', page!.image, (x: number, y: number): [number, number] => [x, y]],
      ['scan', ...(() => {
        const d = degradeScan(page!.image, 42, { skew: { p: 0 } });
        return [d.image, d.warp] as const;
      })()],
    ] as const) {
      const prepared = preparePage(image);
      const staves = detectStaves(prepared.ink, { staffSpace: CANONICAL_STAFF_SPACE });
      const map = await segmentSymbols(prepared.gray, staves);
      let hits = 0;
      for (const h of heads) {
        const [sx, sy] = warp(h.bbox.x + h.bbox.width / 2, h.bbox.y + h.bbox.height / 2);
        const [px, py] = toPreparedPoint(prepared.transform, sx, sy);
        const cls = map.data[Math.round(py / 2) * map.width + Math.round(px / 2)]!;
        if (NOTEHEADS.has(cls as never)) hits++;
      }
      expect(hits / heads.length, name).toBeGreaterThan(0.9);
      const counts = new Map<number, number>();
      for (const c of map.data) counts.set(c, (counts.get(c) ?? 0) + 1);
      expect(counts.get(CLASS_INDEX.staffLine) ?? 0, name).toBeGreaterThan(1000);
      expect(counts.get(CLASS_INDEX.stem) ?? 0, name).toBeGreaterThan(100);
      // The page is wider than one model window: every stretch of every staff line is classified,
      // the seams between windows included (ink on a line: a line, a head, a stem, a barline…). A
      // scan's noise may break a line for a pixel, never for a stretch.
      expect(prepared.gray.width, name).toBeGreaterThan(1100);
      for (const staff of staves) {
        for (let l = 0; l < 5; l++) {
          let gap = 0;
          let longest = 0;
          for (let x = Math.ceil(staff.x0 / 2) + 2; x < staff.x1 / 2 - 2; x++) {
            const y = Math.round(staffLineY(staff, l, x * 2) / 2);
            gap = [-1, 0, 1].some((dy) => map.data[(y + dy) * map.width + x] !== CLASS_INDEX.background) ? 0 : gap + 1;
            longest = Math.max(longest, gap);
          }
          expect(longest, `${name}: line ${l} of the staff at y ${Math.round(staff.lines[0]![0]!)}`).toBeLessThan(3);
        }
      }
    }
  });
});
