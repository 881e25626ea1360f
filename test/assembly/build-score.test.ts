import { describe, expect, it } from 'vitest';
import { buildScore } from '../../src/assembly/build-score.js';
import type { StaffReading, SystemReading } from '../../src/assembly/read-page.js';
import type { Clef } from '../../src/score/model.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;
const TRANSFORM = { sourceWidth: 1000, sourceHeight: 1000, scale: 1, skew: 0, width: 1000, height: 1000 };

/** A staff with an opening clef and key (either may be unread) and no notes: every measure a rest. */
function staffReading(top: number, clef: Clef | undefined, key: number | undefined): StaffReading {
  return {
    staff: straightStaff(top, SPACE, 100, 900),
    signatures: {
      clefs: clef ? [{ x: 110, value: clef }] : [],
      keys: key === undefined ? [] : [{ x: 140, value: key }],
      times: [],
      keyAccidentals: new Set(),
    },
    times: [],
    items: [],
    tuplets: [],
    multiRests: new Map(),
    accidentals: new Map(),
  };
}

function system(page: number, staves: StaffReading[]): SystemReading {
  return { page, transform: TRANSFORM, staves, braces: [], measures: { bounds: [100, 500, 900], right: [undefined, undefined], left: [undefined, undefined] }, space: SPACE };
}

const TREBLE: Clef = { sign: 'G', line: 2 };
const BASS: Clef = { sign: 'F', line: 4 };

describe('buildScore', () => {
  it('starts a staff the first system hides in the clef and key it shows later', () => {
    // An orchestral score: the double bass is silent (left out) on the first page.
    const first = system(0, [staffReading(100, TREBLE, -3), staffReading(300, BASS, -3)]);
    const second = system(1, [staffReading(100, TREBLE, -3), staffReading(300, BASS, -3), staffReading(500, BASS, -3)]);
    const score = buildScore([first, second]);
    expect(score.parts).toHaveLength(3);
    const bass = score.parts[2]!;
    expect(bass.measures[0]!.clefs).toEqual([{ sign: 'F', line: 4, staff: 1, offset: { n: 0, d: 1 } }]);
    expect(bass.measures[0]!.key?.fifths).toBe(-3);
    // Nothing changes where it appears.
    expect(bass.measures[2]!.clefs).toEqual([]);
    expect(bass.measures[2]!.key).toBeUndefined();
  });

  it('takes an unreadable opening clef from the next system, less a key change meanwhile', () => {
    const first = system(0, [staffReading(100, TREBLE, -2), staffReading(300, undefined, undefined)]);
    const second = system(1, [staffReading(100, TREBLE, 0), staffReading(300, BASS, 0)]);
    const third = system(1, [staffReading(100, TREBLE, 0), staffReading(300, BASS, 0)]);
    const score = buildScore([first, second, third]);
    const lower = score.parts[1]!;
    expect(lower.measures[0]!.clefs.map((c) => c.sign)).toEqual(['F']);
    expect(lower.measures[0]!.key?.fifths).toBe(-2);
    expect(lower.measures[2]!.key?.fifths).toBe(0);
  });
});
