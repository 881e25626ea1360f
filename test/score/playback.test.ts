import { describe, expect, it } from 'vitest';
import type { Barline, Measure } from '../../src/score/model.js';
import { passNumbers, playbackOrder } from '../../src/score/playback.js';

function measure(left?: Barline, right?: Barline): Measure {
  return { number: '', clefs: [], voices: [], directions: [], ...(left ? { leftBarline: left } : {}), ...(right ? { rightBarline: right } : {}) };
}
const forward: Barline = { style: 'heavy-light', repeat: { direction: 'forward' } };
const backward: Barline = { style: 'light-heavy', repeat: { direction: 'backward' } };

describe('playback order', () => {
  it('plays measures once where nothing repeats', () => {
    expect(playbackOrder([measure(), measure(), measure()])).toEqual([0, 1, 2]);
  });

  it('goes back to the start, or to a forward repeat, once per backward repeat', () => {
    expect(playbackOrder([measure(), measure(undefined, backward), measure()])).toEqual([0, 1, 0, 1, 2]);
    expect(playbackOrder([measure(), measure(forward), measure(undefined, backward), measure()])).toEqual([0, 1, 2, 1, 2, 3]);
    // A second section repeats from the measure after the first one's end.
    expect(playbackOrder([measure(undefined, backward), measure(), measure(undefined, backward)])).toEqual([0, 0, 1, 2, 1, 2]);
    expect(playbackOrder([measure(undefined, { ...backward, repeat: { direction: 'backward', times: 3 } })])).toEqual([0, 0, 0]);
  });

  it('plays the first volta on the first pass and the second on the second', () => {
    const first = measure({ style: 'regular', ending: { number: '1', type: 'start' } }, { ...backward, ending: { number: '1', type: 'stop' } });
    const second = measure({ style: 'regular', ending: { number: '2', type: 'start' } }, { style: 'light-heavy', ending: { number: '2', type: 'discontinue' } });
    expect(playbackOrder([measure(forward), measure(), first, second])).toEqual([0, 1, 2, 0, 1, 3]);
  });

  it('goes back to the start at a D.C. and ends at Fine, without the repeats or the first ending again', () => {
    const jump = (m: Measure, to: 'daCapo' | 'fine'): Measure => ({ ...m, directions: [{ offset: { n: 0, d: 1 }, staff: 1, words: to === 'daCapo' ? 'D.C. al Fine' : 'Fine', jump: to }] });
    // A B (Fine) | C D.C.: A B C A B.
    expect(playbackOrder([measure(), jump(measure(), 'fine'), jump(measure(), 'daCapo')])).toEqual([0, 1, 2, 0, 1]);
    // ||: A :|| B (Fine) C D.C.: A A B C A B.
    expect(playbackOrder([measure(undefined, backward), jump(measure(), 'fine'), jump(measure(), 'daCapo')])).toEqual([0, 0, 1, 2, 0, 1]);
    // A [1. B :|| [2. C D.C. with no Fine: to the end again, on the second ending.
    const first = measure({ style: 'regular', ending: { number: '1', type: 'start' } }, { ...backward, ending: { number: '1', type: 'stop' } });
    const second = jump(measure({ style: 'regular', ending: { number: '2', type: 'start' } }, { style: 'light-heavy', ending: { number: '2', type: 'discontinue' } }), 'daCapo');
    expect(playbackOrder([measure(), first, second])).toEqual([0, 1, 0, 2, 0, 2]);
    // A Fine that comes before any D.C. is played through.
    expect(playbackOrder([jump(measure(), 'fine'), measure()])).toEqual([0, 1]);
  });

  it('reads volta numbers as printed', () => {
    expect(passNumbers('1')).toEqual([1]);
    expect(passNumbers('1, 2')).toEqual([1, 2]);
    expect(passNumbers('1-3')).toEqual([1, 2, 3]);
    expect(passNumbers('')).toEqual([]);
  });
});
