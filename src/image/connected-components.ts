/**
 * 8-connected components of the pixels of a `width × height` grid whose
 * `mask` value is not 0: a label per pixel (0 outside every component),
 * numbered from 1 in the order their first pixel comes in raster order, with
 * each component's box and its pixels (raster order, in one shared buffer).
 * Symbols read it from the class map and text from the page's ink.
 *
 * It works on runs (a row's stretches of members), not pixels: each run is
 * joined to the runs of the row above that it touches, through a union-find
 * whose root is a set's first run. A page has a few hundred thousand runs
 * against millions of pixels, and the scan for runs is one tight pass.
 */
export interface Components {
  /** Label of each pixel; 0 for pixels no component holds (made when first read: most callers need only boxes and pixels). */
  readonly labels: Int32Array;
  /** Components; index `label - 1`. Boxes are [x0, x1) × [y0, y1) in grid pixels. */
  boxes: { x0: number; y0: number; x1: number; y1: number }[];
  /** The pixel indices of component `label`, in raster order. */
  pixelsOf(label: number): Int32Array;
}

export function connectedComponents(width: number, height: number, mask: Uint8Array): Components {
  return componentsOfRuns(width, height, memberRuns(width, height, mask, NONZERO));
}

/** Every byte value but 0: the members of a mask. */
const NONZERO = new Uint8Array(256).fill(1, 1);

/** The components of a grid given as its runs of members, (x0, x1, y) with x1 exclusive, in raster order. */
export function componentsOfRuns(width: number, height: number, runs: Int32Array): Components {
  const count = runs.length / 3;
  const parent = new Int32Array(count);
  const root = (r: number): number => {
    while (parent[r] !== r) {
      parent[r] = parent[parent[r]!]!; // path halving
      r = parent[r]!;
    }
    return r;
  };
  // Join each run to the runs of the row above that touch it, edge or corner; runs of a row are in x order.
  let above = 0; // first run of the row above
  let row = 0; // first run of this row
  for (let r = 0; r < count; r++) {
    parent[r] = r;
    const y = runs[3 * r + 2]!;
    if (y !== runs[3 * row + 2]!) {
      above = runs[3 * row + 2]! === y - 1 ? row : r;
      row = r;
    }
    if (above === row) continue; // no run in the row above
    const x0 = runs[3 * r]!;
    const x1 = runs[3 * r + 1]!;
    while (above < row && runs[3 * above + 1]! < x0) above++; // ends left of this run and of every later one
    for (let a = above; a < row && runs[3 * a]! <= x1; a++) {
      const ra = root(a);
      const rr = root(r);
      // The earlier run is the root: a set's root is its first run in raster order.
      if (ra < rr) parent[rr] = ra;
      else if (rr < ra) parent[ra] = rr;
    }
  }
  // Labels in the order of each component's first run, which holds its first pixel in raster order.
  const runLabel = new Int32Array(count);
  const boxes: Components['boxes'] = [];
  for (let r = 0; r < count; r++) {
    const x0 = runs[3 * r]!;
    const x1 = runs[3 * r + 1]!;
    const y = runs[3 * r + 2]!;
    const first = root(r);
    if (first === r) {
      runLabel[r] = boxes.length + 1;
      boxes.push({ x0, y0: y, x1, y1: y + 1 });
      continue;
    }
    const label = runLabel[first]!;
    runLabel[r] = label;
    const box = boxes[label - 1]!;
    if (x0 < box.x0) box.x0 = x0;
    if (x1 > box.x1) box.x1 = x1;
    box.y1 = y + 1;
  }
  // The pixels of every component, grouped by label in one buffer (a counting sort over runs).
  const offsets = new Int32Array(boxes.length + 2);
  for (let r = 0; r < count; r++) offsets[runLabel[r]! + 1]! += runs[3 * r + 1]! - runs[3 * r]!;
  for (let l = 1; l < offsets.length; l++) offsets[l]! += offsets[l - 1]!;
  const pixels = new Int32Array(offsets[boxes.length + 1]!);
  const fill = offsets.slice();
  for (let r = 0; r < count; r++) {
    const label = runLabel[r]!;
    const start = runs[3 * r + 2]! * width;
    for (let i = start + runs[3 * r]!; i < start + runs[3 * r + 1]!; i++) pixels[fill[label]!++] = i;
  }
  let labels: Int32Array | undefined;
  return {
    get labels() {
      if (!labels) {
        labels = new Int32Array(width * height);
        for (let r = 0; r < count; r++) {
          const start = runs[3 * r + 2]! * width;
          labels.fill(runLabel[r]!, start + runs[3 * r]!, start + runs[3 * r + 1]!);
        }
      }
      return labels;
    },
    boxes,
    pixelsOf: (label) => pixels.subarray(offsets[label]!, offsets[label + 1]!),
  };
}

/**
 * The runs of the pixels of `values` (a `width`-wide grid of bytes) whose value is a `member`
 * (indexed by value), as (x0, x1, y) with x1 exclusive, in raster order. Where 0 is not a member,
 * four zeros at a time are passed over: on a class map or a page's ink, mostly background, that
 * is most of the work.
 */
export function memberRuns(width: number, height: number, values: Uint8Array, member: Uint8Array): Int32Array {
  const words = !member[0] && values.byteOffset % 4 === 0 ? new Uint32Array(values.buffer, values.byteOffset, values.length >> 2) : undefined;
  const runs = new RunList();
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let x = 0;
    while (x < width) {
      const i = row + x;
      if (words && (i & 3) === 0 && x + 4 <= width && words[i >> 2] === 0) {
        x += 4;
        continue;
      }
      if (!member[values[i]!]) {
        x++;
        continue;
      }
      const start = x;
      while (x < width && member[values[row + x]!]) x++;
      runs.add(start, x, y);
    }
  }
  return runs.done();
}

/** A growing list of runs (x0, x1, y). */
class RunList {
  private runs = new Int32Array(3 * 1024);
  private n = 0;

  add(x0: number, x1: number, y: number): void {
    if (this.n + 3 > this.runs.length) {
      const grown = new Int32Array(this.runs.length * 2);
      grown.set(this.runs);
      this.runs = grown;
    }
    this.runs[this.n++] = x0;
    this.runs[this.n++] = x1;
    this.runs[this.n++] = y;
  }

  done(): Int32Array {
    return this.runs.subarray(0, this.n);
  }
}
