import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { componentsOfRuns, connectedComponents, memberRuns } from '../../src/image/connected-components.js';

/** A grid from rows of '#' (member) and '.' (not). */
function grid(rows: string[]) {
  const width = rows[0]!.length;
  const member = Uint8Array.from(rows.join(''), (c) => (c === '#' ? 1 : 0));
  return { width, height: rows.length, member };
}

describe('connected components', () => {
  it('join pixels that touch by an edge or a corner, numbered in raster order, with boxes and pixels', () => {
    const g = grid([
      '##..#', //
      '.#...',
      '..#.#',
      '.....',
      '#....',
    ]);
    const { labels, boxes, pixelsOf } = connectedComponents(g.width, g.height, g.member);
    expect(boxes).toEqual([
      { x0: 0, y0: 0, x1: 3, y1: 3 },
      { x0: 4, y0: 0, x1: 5, y1: 1 },
      { x0: 4, y0: 2, x1: 5, y1: 3 },
      { x0: 0, y0: 4, x1: 1, y1: 5 },
    ]);
    expect([...pixelsOf(1)]).toEqual([0, 1, 6, 12]);
    expect([...pixelsOf(3)]).toEqual([14]);
    expect(labels[3]).toBe(0);
    expect(labels[20]).toBe(4);
  });

  it('find none in an empty grid', () => {
    const { boxes, labels } = connectedComponents(3, 2, new Uint8Array(6));
    expect(boxes).toEqual([]);
    expect([...labels]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('match a pixel-by-pixel flood fill on any grid (labels, order, boxes and pixels)', () => {
    const grids = fc
      .record({ width: fc.integer({ min: 1, max: 24 }), height: fc.integer({ min: 1, max: 24 }), density: fc.double({ min: 0, max: 1, noNaN: true }), seed: fc.integer() })
      .map(({ width, height, density, seed }) => {
        // A small linear congruential generator: fast-check shrinks the seed, not thousands of cells.
        let state = seed >>> 0;
        const mask = Uint8Array.from({ length: width * height }, () => {
          state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
          return state / 2 ** 32 < density ? 1 : 0;
        });
        return { width, height, mask };
      });
    fc.assert(
      fc.property(grids, ({ width, height, mask }) => {
        const found = connectedComponents(width, height, mask);
        const expected = floodFill(width, height, mask);
        expect([...found.labels]).toEqual([...expected.labels]);
        expect(found.boxes).toEqual(expected.boxes);
        expected.pixels.forEach((pixels, k) => expect([...found.pixelsOf(k + 1)]).toEqual(pixels));
      }),
      { numRuns: 300 },
    );
  });

  it('are the same from the runs of chosen values of a grid as from the mask of those values', () => {
    const grids = fc.record({
      width: fc.integer({ min: 1, max: 40 }),
      height: fc.integer({ min: 1, max: 12 }),
      // Mostly zeros, as a class map is; a view that may start off a four-byte boundary.
      cells: fc.array(fc.oneof(fc.constant(0), fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 5 })), { minLength: 480 + 3, maxLength: 480 + 3 }),
      offset: fc.integer({ min: 0, max: 3 }),
      members: fc.subarray([0, 1, 2, 3, 4, 5]),
    });
    fc.assert(
      fc.property(grids, ({ width, height, cells, offset, members }) => {
        const values = Uint8Array.from(cells).subarray(offset, offset + width * height);
        const member = new Uint8Array(256);
        for (const m of members) member[m] = 1;
        const mask = values.map((v) => member[v]!);
        const fromRuns = componentsOfRuns(width, height, memberRuns(width, height, values, member));
        const fromMask = connectedComponents(width, height, mask);
        expect([...fromRuns.labels]).toEqual([...fromMask.labels]);
        expect(fromRuns.boxes).toEqual(fromMask.boxes);
        fromMask.boxes.forEach((_, k) => expect([...fromRuns.pixelsOf(k + 1)]).toEqual([...fromMask.pixelsOf(k + 1)]));
      }),
      { numRuns: 500 },
    );
  });

  it('join a spiral, a comb and a staircase that only meet far from where they start', () => {
    const g = grid([
      '#.#.#.#', //
      '#.#.#.#',
      '#######',
      '.......',
      '#.....#',
      '.#...#.',
      '..#.#..',
      '...#...',
    ]);
    const { boxes } = connectedComponents(g.width, g.height, g.member);
    expect(boxes).toEqual([
      { x0: 0, y0: 0, x1: 7, y1: 3 },
      { x0: 0, y0: 4, x1: 7, y1: 8 },
    ]);
  });
});

/** The obvious algorithm, a flood fill from each unlabelled member in raster order: what the runs must agree with. */
function floodFill(width: number, height: number, mask: Uint8Array) {
  const labels = new Int32Array(width * height);
  const boxes: { x0: number; y0: number; x1: number; y1: number }[] = [];
  const pixels: number[][] = [];
  for (let start = 0; start < mask.length; start++) {
    if (labels[start] || !mask[start]) continue;
    const label = boxes.length + 1;
    const box = { x0: width, y0: height, x1: 0, y1: 0 };
    const stack = [start];
    labels[start] = label;
    const own: number[] = [];
    while (stack.length) {
      const i = stack.pop()!;
      own.push(i);
      const x = i % width;
      const y = (i - x) / width;
      box.x0 = Math.min(box.x0, x);
      box.x1 = Math.max(box.x1, x + 1);
      box.y0 = Math.min(box.y0, y);
      box.y1 = Math.max(box.y1, y + 1);
      for (let yy = Math.max(0, y - 1); yy <= Math.min(height - 1, y + 1); yy++) {
        for (let xx = Math.max(0, x - 1); xx <= Math.min(width - 1, x + 1); xx++) {
          const j = yy * width + xx;
          if (!labels[j] && mask[j]) {
            labels[j] = label;
            stack.push(j);
          }
        }
      }
    }
    boxes.push(box);
    pixels.push(own.sort((a, b) => a - b));
  }
  return { labels, boxes, pixels };
}
