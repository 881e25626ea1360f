import { describe, expect, it } from 'vitest';
import { beamValues, type BeamedStroke } from '../../src/assembly/beams.js';

const eighth = (group?: number): BeamedStroke => ({ group, type: 'eighth', duration: 0.5 });
const sixteenth = (group?: number): BeamedStroke => ({ group, type: '16th', duration: 0.25 });

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

  it('hook a dotted eighth\'s sixteenth back to it, and a leading sixteenth forward', () => {
    const dotted: BeamedStroke = { group: 3, type: 'eighth', duration: 0.75 };
    expect(beamValues([dotted, sixteenth(3)])).toEqual([['begin'], ['end', 'backward hook']]);
    expect(beamValues([sixteenth(3), dotted])).toEqual([['begin', 'forward hook'], ['end']]);
  });

  it('leave unbeamed a stroke alone in its group, a quarter, and strokes with no group', () => {
    expect(beamValues([eighth(1), { group: 1, type: 'quarter', duration: 1 }, eighth(1)])).toEqual([[], [], []]);
    expect(beamValues([eighth(), eighth()])).toEqual([[], []]);
  });

  it('carry a beam over a rest under it to the notes either side, and not beam the rest', () => {
    const rest: BeamedStroke = { group: undefined, type: '16th', duration: 0.25, rest: true };
    expect(beamValues([eighth(4), rest, sixteenth(4)])).toEqual([['begin'], [], ['end', 'backward hook']]);
    // A rest between two beams, or before an unbeamed note, joins nothing.
    expect(beamValues([eighth(1), eighth(1), rest, eighth(2), eighth(2)])).toEqual([['begin'], ['end'], [], ['begin'], ['end']]);
    expect(beamValues([eighth(1), rest, eighth()])).toEqual([[], [], []]);
  });
});
