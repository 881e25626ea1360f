/**
 * 8-connected components of the pixels of a `width × height` grid that
 * `member` accepts: a label per pixel (0 outside every component), numbered
 * from 1 in the order their first pixel comes in raster order, with each
 * component's box and its pixels (raster order, in one shared buffer).
 * Symbols read it from the class map and text from the page's ink.
 */
export interface Components {
  /** Label of each pixel; 0 for pixels no component holds. */
  labels: Int32Array;
  /** Components; index `label - 1`. Boxes are [x0, x1) × [y0, y1) in grid pixels. */
  boxes: { x0: number; y0: number; x1: number; y1: number }[];
  /** The pixel indices of component `label`, in raster order. */
  pixelsOf(label: number): Int32Array;
}

export function connectedComponents(width: number, height: number, member: (index: number) => boolean): Components {
  const labels = new Int32Array(width * height);
  const stack = new Int32Array(width * height);
  const boxes: Components['boxes'] = [];
  for (let start = 0; start < labels.length; start++) {
    if (labels[start] || !member(start)) continue;
    const label = boxes.length + 1;
    const box = { x0: width, y0: height, x1: 0, y1: 0 };
    let top = 0;
    stack[top++] = start;
    labels[start] = label;
    while (top) {
      const i = stack[--top]!;
      const x = i % width;
      const y = (i - x) / width;
      if (x < box.x0) box.x0 = x;
      if (x + 1 > box.x1) box.x1 = x + 1;
      if (y < box.y0) box.y0 = y;
      if (y + 1 > box.y1) box.y1 = y + 1;
      for (let yy = Math.max(0, y - 1); yy <= Math.min(height - 1, y + 1); yy++) {
        for (let xx = Math.max(0, x - 1); xx <= Math.min(width - 1, x + 1); xx++) {
          const j = yy * width + xx;
          if (!labels[j] && member(j)) {
            labels[j] = label;
            stack[top++] = j;
          }
        }
      }
    }
    boxes.push(box);
  }
  // The pixels of every component, grouped by label in one buffer (a counting sort).
  const offsets = new Int32Array(boxes.length + 2);
  for (const label of labels) if (label) offsets[label + 1]!++;
  for (let l = 1; l < offsets.length; l++) offsets[l]! += offsets[l - 1]!;
  const pixels = new Int32Array(offsets[boxes.length + 1]!);
  const fill = offsets.slice();
  for (let i = 0; i < labels.length; i++) if (labels[i]) pixels[fill[labels[i]!]!++] = i;
  return { labels, boxes, pixelsOf: (label) => pixels.subarray(offsets[label]!, offsets[label + 1]!) };
}
