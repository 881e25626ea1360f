import { describe, expect, it } from 'vitest';
import { numberEndings, placeEndings, systemEndings, withEnding } from '../../src/assembly/voltas.js';
import type { VoltaSymbol } from '../../src/symbols/voltas.js';

const SPACE = 12;
/** A system of four measures. */
const BOUNDS = [100, 300, 500, 700, 900];

function volta(x0: number, x1: number, closed = true, staff = 0): VoltaSymbol {
  return { staff, x0, x1, y: 50, closed };
}

describe('endings from volta brackets', () => {
  it('span the measures from the barline the bracket starts at to the one it ends at', () => {
    // A first ending over measures 1–2 (closed), a second over measure 3 (open, stopping short of the end).
    expect(systemEndings(BOUNDS, [volta(303, 700), volta(703, 885, false)], SPACE)).toEqual([
      { first: 1, last: 2, closed: true },
      { first: 3, last: 3, closed: false },
    ]);
  });

  it('are read once from brackets drawn over several staves of the system', () => {
    expect(systemEndings(BOUNDS, [volta(303, 500, true, 0), volta(304, 501, true, 2)], SPACE)).toHaveLength(1);
  });

  it('start at a barline: a bracket starting inside a measure is no volta', () => {
    expect(systemEndings(BOUNDS, [volta(380, 500)], SPACE)).toEqual([]);
  });

  it('may start after the clef and key of a system\'s first measure', () => {
    expect(systemEndings(BOUNDS, [volta(160, 300)], SPACE)).toEqual([{ first: 0, last: 0, closed: true }]);
  });

  it('are numbered in order while each starts where the one before ended, and from 1 again after music between', () => {
    const plain = [false, false, false, false];
    const systems = [
      { endings: [{ first: 1, last: 2, closed: true }, { first: 3, last: 3, closed: false }], repeatsBack: [false, false, true, false] },
      // Two measures later, a new pair: 1 and 2; the second continues on the next system.
      { endings: [{ first: 2, last: 3, closed: true }], repeatsBack: [false, false, false, true] },
      { endings: [{ first: 0, last: 0, closed: false }], repeatsBack: plain },
    ];
    expect(numberEndings(systems)).toEqual([[1, 2], [1], [2]]);
  });

  it('start at 2 after a backward repeat where no first ending was seen before it', () => {
    const systems = [
      { endings: [], repeatsBack: [false, false, false, true] },
      { endings: [{ first: 0, last: 1, closed: false }, { first: 3, last: 3, closed: true }], repeatsBack: [false, false, true, false] },
    ];
    expect(numberEndings(systems)).toEqual([[], [2, 2]]);
  });

  it('run on over a system break under a bracket without a hook, which continues nothing where no ending was left open', () => {
    expect(systemEndings(BOUNDS, [{ ...volta(130, 700), continued: true }], SPACE)).toEqual([{ first: 0, last: 2, closed: true, continued: true }]);
    const open = { endings: [{ first: 2, last: 3, closed: false }], repeatsBack: [false, false, false, false] };
    const goesOn = { endings: [{ first: 0, last: 2, closed: true, continued: true }, { first: 3, last: 3, closed: false }], repeatsBack: [false, false, true, false] };
    expect(numberEndings([open, goesOn])).toEqual([[1], [1, 2]]);
    // The first ending starts on the first system and stops on the second; nothing at the break.
    expect(placeEndings([open, goesOn])).toEqual([
      [{}, {}, { start: 1 }, {}],
      [{}, {}, { stop: { number: 1, type: 'stop' } }, { start: 2, stop: { number: 2, type: 'discontinue' } }],
    ]);
    // After an ending closed at the break, a bracket without a hook is none.
    const closed = { endings: [{ first: 2, last: 3, closed: true }], repeatsBack: [false, false, false, true] };
    expect(numberEndings([closed, goesOn])[1]![0]).toBeUndefined();
    expect(placeEndings([closed, goesOn])[1]![2]).toEqual({});
  });

  it('are added to the measure\'s barline, keeping its repeat', () => {
    expect(withEnding({ style: 'light-heavy', repeat: { direction: 'backward' } }, 1, 'stop')).toEqual({ style: 'light-heavy', repeat: { direction: 'backward' }, ending: { number: '1', type: 'stop' } });
    expect(withEnding(undefined, 2, 'start')).toEqual({ style: 'regular', ending: { number: '2', type: 'start' } });
  });
});
