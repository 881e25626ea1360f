import { describe, expect, it } from 'vitest';
import { reconcileOpeningKeys } from '../../src/assembly/opening-keys.js';

describe('opening keys reconciled across systems', () => {
  it('ignores one staff misreading its key in one system', () => {
    expect(reconcileOpeningKeys([[-1, -1], [-1, -4], [-1, -1]])).toEqual([[-1, -1], [-1, -1], [-1, -1]]);
  });

  it('starts a change where every staff moves by the same amount', () => {
    expect(reconcileOpeningKeys([[0, 0, 0], [0, 0, 0], [2, 2, 2], [2, 1, 2]])).toEqual([[0, 0, 0], [0, 0, 0], [2, 2, 2], [2, 2, 2]]);
  });

  it('takes one accidental more or less for a change only when every staff reads it', () => {
    expect(reconcileOpeningKeys([[2, 6, 6, 6], [6, 5, 5, 5], [5, 5, 5, 5], [5, 5, 5, 5]])).toEqual(Array.from({ length: 4 }, () => [5, 5, 5, 5]));
    expect(reconcileOpeningKeys([[1, 1, 1], [0, 0, 0], [0, 0, 0]])).toEqual([[1, 1, 1], [0, 0, 0], [0, 0, 0]]);
  });

  it('moves a transposing instrument with the others', () => {
    expect(reconcileOpeningKeys([[0, 2, 0], [0, 2, 0], [-1, 1, -1]])).toEqual([[0, 2, 0], [0, 2, 0], [-1, 1, -1]]);
  });

  it('believes a single staff’s change only when the next system confirms it', () => {
    expect(reconcileOpeningKeys([[0], [1], [1]])).toEqual([[0], [1], [1]]);
    expect(reconcileOpeningKeys([[0], [1], [0]])).toEqual([[0], [0], [0]]);
  });

  it('settles a staff’s tie by the key the other staves read', () => {
    expect(reconcileOpeningKeys([[-4, -1, -1], [-1, -1, -1]])).toEqual([[-1, -1, -1], [-1, -1, -1]]);
  });

  it('carries a staff without readings through a change by the others’ amount', () => {
    expect(reconcileOpeningKeys([[0, 0, 0], [0, undefined, 0], [3, undefined, 3]])).toEqual([[0, 0, 0], [0, 0, 0], [3, 3, 3]]);
  });

  it('leaves keys unknown where nothing was ever read', () => {
    expect(reconcileOpeningKeys([[undefined], [undefined]])).toEqual([[undefined], [undefined]]);
    expect(reconcileOpeningKeys([])).toEqual([]);
  });
});
