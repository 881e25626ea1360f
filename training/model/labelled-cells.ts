/**
 * What the cell exporters (export-dynamics.ts, export-pedals.ts) share: the
 * measure a labelled box of an engraved page stands in, and the prepared
 * page's ink components inside a labelled box.
 */
import type { Box } from '../../src/score/model.js';
import type { CellBox } from '../../src/text/dynamic-cells.js';
import type { InkComponents } from '../../src/text/text-regions.js';
import type { RenderedPage } from '../data/render-pages.js';

/** The measure index a labelled box stands in: the measure across its centre, of the system nearest it. */
export function measureOf(page: RenderedPage, box: Box): number | undefined {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const { systems, measures } = page.labels;
  let system = -1;
  let best = Infinity;
  systems.forEach((s, i) => {
    const d = cy < s.bbox.y ? s.bbox.y - cy : cy > s.bbox.y + s.bbox.height ? cy - s.bbox.y - s.bbox.height : 0;
    if (d < best) {
      best = d;
      system = i;
    }
  });
  return measures.find((m) => m.system === system && cx >= m.bbox.x && cx < m.bbox.x + m.bbox.width)?.index;
}

/** The ink components no larger than a box of the prepared page whose centres lie inside it of the prepared page, left to right. */
export function componentsIn(components: InkComponents, box: CellBox, slack: number): number[] {
  const found: number[] = [];
  components.boxes.forEach((b, label) => {
    if (label === 0) return;
    const cx = (b.x0 + b.x1) / 2;
    const cy = (b.y0 + b.y1) / 2;
    const fits = b.x1 - b.x0 <= box.x1 - box.x0 + 2 * slack && b.y1 - b.y0 <= box.y1 - box.y0 + 2 * slack;
    if (fits && cx >= box.x0 - slack && cx <= box.x1 + slack && cy >= box.y0 - slack && cy <= box.y1 + slack) found.push(label);
  });
  return found.sort((a, b) => components.boxes[a]!.x0 - components.boxes[b]!.x0);
}

export function unionBox(components: InkComponents, labels: readonly number[]): CellBox {
  const boxes = labels.map((l) => components.boxes[l]!);
  return { x0: Math.min(...boxes.map((b) => b.x0)), y0: Math.min(...boxes.map((b) => b.y0)), x1: Math.max(...boxes.map((b) => b.x1)), y1: Math.max(...boxes.map((b) => b.y1)) };
}
