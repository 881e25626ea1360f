import { describe, expect, it } from 'vitest';
import { beamValues, type BeamedStroke } from '../../src/assembly/beams.js';

const eighth = (group?: number): BeamedStroke => ({ group, type: 'eighth' });
const sixteenth = (group?: number): BeamedStroke => ({ group, type: '16th' });

describe('beam values', () => {
  it('begin, continue and end one level over four eighths of one beam', () => {
    expect(beamValues([eighth(1), eighth(1), eighth(1), eighth(1)])).toEqual([['begin'], ['continue'], ['continue'], ['end']]);
  });

  it('run the second level over the sixteenths only, and start a new beam where the group changes', () => {
    expect(beamValues([eighth(1), sixteenth(1), sixteenth(1), eighth(2), eighth(2)])).toEqual([
      ['begin'],
      ['continue', 'begin'],
      ['end', 'end'],
      ['begin'],
      ['end'],
    ]);
  });

  it('hook a last sixteenth back, and a first one and every one between forward, as the corpus writes them', () => {
    const dotted: BeamedStroke = { group: 3, type: 'eighth' };
    expect(beamValues([dotted, sixteenth(3)])).toEqual([['begin'], ['end', 'backward hook']]);
    expect(beamValues([sixteenth(3), dotted])).toEqual([['begin', 'forward hook'], ['end']]);
    // Dotted eighth, sixteenth, dotted eighth, sixteenth: the inner sixteenth's hook points forward.
    expect(beamValues([dotted, sixteenth(3), dotted, sixteenth(3)])).toEqual([['begin'], ['continue', 'forward hook'], ['continue'], ['end', 'backward hook']]);
  });

  it('leave unbeamed a stroke alone in its group, a quarter, and strokes with no group', () => {
    expect(beamValues([eighth(1), { group: 1, type: 'quarter' }, eighth(1)])).toEqual([[], [], []]);
    expect(beamValues([eighth(), eighth()])).toEqual([[], []]);
  });

  it('carry a beam over a rest under it to the notes either side, and not beam the rest', () => {
    const rest: BeamedStroke = { group: undefined, type: '16th', rest: true };
    expect(beamValues([eighth(4), rest, sixteenth(4)])).toEqual([['begin'], [], ['end', 'backward hook']]);
    // A rest between two beams, or before an unbeamed note, joins nothing.
    expect(beamValues([eighth(1), eighth(1), rest, eighth(2), eighth(2)])).toEqual([['begin'], ['end'], [], ['begin'], ['end']]);
    expect(beamValues([eighth(1), rest, eighth()])).toEqual([[], [], []]);
  });
});
