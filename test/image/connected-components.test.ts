import { describe, expect, it } from 'vitest';
import { connectedComponents } from '../../src/image/connected-components.js';

/** A grid from rows of '#' (member) and '.' (not). */
function grid(rows: string[]) {
  const width = rows[0]!.length;
  const cells = rows.join('');
  return { width, height: rows.length, member: (i: number) => cells[i] === '#' };
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
    const { boxes, labels } = connectedComponents(3, 2, () => false);
    expect(boxes).toEqual([]);
    expect([...labels]).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
