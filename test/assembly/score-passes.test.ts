import { describe, expect, it } from 'vitest';
import { buildScore, SCORE_PASSES } from '../../src/assembly/build-score.js';
import type { CurveLink } from '../../src/assembly/curves.js';
import type { ReadingState } from '../../src/assembly/passes/reading-state.js';
import type { StaffReading, SystemReading } from '../../src/assembly/read-page.js';
import type { Stroke } from '../../src/assembly/strokes.js';
import type { NoteEvent } from '../../src/score/model.js';
import type { Curve } from '../../src/symbols/curves.js';
import type { Head } from '../../src/symbols/read-symbols.js';
import { staffReading } from '../support/staff-reading.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;
const TRANSFORM = { sourceWidth: 1000, sourceHeight: 1000, scale: 1, skew: 0, width: 1000, height: 1000 };

/** A quarter note on a treble staff whose top line is at y 100 (position 4: the middle line, B4). */
function quarter(x: number, position = 4): Stroke {
  const y = 100 + (position * SPACE) / 2;
  const head: Head = { x0: x - 8, x1: x + 8, y0: y - 6, y1: y + 6, x, y, staff: 0, confidence: 0.9, kind: 'black', position, small: false };
  const stem = { x: x + 8, x0: x - 9, x1: x + 9, y0: y - 40, y1: y, staff: 0, confidence: 1 };
  return { kind: 'chord', staff: 0, heads: [head], stem, up: true, hooks: 0, beams: 0, grace: false, dots: 0, x, x0: x - 8, x1: x + 8, y0: stem.y0, y1: stem.y1, confidence: 0.9 };
}

function curve(x0: number, x1: number): Curve {
  return { start: { x: x0, y: 160 }, end: { x: x1, y: 160 }, x0, y0: 155, x1, y1: 165, over: false, bow: 4, staff: 0, confidence: 1 };
}

/** One treble staff in F major (one flat), 4/4, two measures (barlines at 100, 500, 900). */
function treble(items: Stroke[]): StaffReading {
  return staffReading(straightStaff(100, SPACE, 100, 900), {
    signatures: { clefs: [{ x: 110, value: { sign: 'G', line: 2 } }], keys: [{ x: 140, value: -1 }], times: [], keyAccidentals: new Set() },
    times: [{ x: 170, value: { beats: 4, beatType: 4 } }],
    items,
  });
}

function system(page: number, staff: StaffReading, curves: CurveLink[]): SystemReading {
  return { page, transform: TRANSFORM, staves: [staff], braces: [], measures: { bounds: [100, 500, 900], right: [undefined, undefined], left: [undefined, undefined] }, curves, endings: [], space: SPACE };
}

/**
 * Two pages of one system each: four B♭ quarters a measure, the last of the first page tied over
 * the page break to the first of the next; a crescendo under the first measure; the last measure empty.
 */
function twoPages(): SystemReading[] {
  const first = [200, 280, 360, 440, 600, 680, 760, 840].map((x) => quarter(x));
  const second = [200, 280, 360, 440].map((x) => quarter(x));
  const upper = treble(first);
  upper.hairpins = [{ kind: 'crescendo', x0: 195, x1: 300, y0: 170, y1: 182, staff: 0, confidence: 1 }];
  const outgoing: CurveLink = { curve: curve(848, 900), from: first[7]!, tie: { from: first[7]!.heads[0]! } };
  const incoming: CurveLink = { curve: curve(100, 192), to: second[0]!, tie: { to: second[0]!.heads[0]! } };
  return [system(0, upper, [outgoing]), system(1, treble(second), [incoming])];
}

const notes = (state: ReadingState, m: number): NoteEvent[] =>
  state.measures[m]!.parts[0]!.voices.flatMap((v) => v.events.filter((e): e is NoteEvent => e.kind === 'note'));

describe('the passes buildScore runs', () => {
  it('are the declared list, each named once, run in that order', () => {
    const ran: string[] = [];
    buildScore(twoPages(), (pass) => ran.push(pass.name));
    expect(ran).toEqual(SCORE_PASSES.map((p) => p.name));
    expect(ran).toEqual(['layout', 'voices', 'time', 'measures', 'signatures', 'timing', 'pitches', 'ties', 'hairpins', 'octave lines', 'evidence', 'parts', 'pickup']);
  });

  it('each add what they declare, on a reading of two pages, and no more', () => {
    const seen = new Map<string, unknown>();
    const score = buildScore(twoPages(), (pass, state) => {
      const measures = state.measures;
      switch (pass.name) {
        case 'layout':
          // Parts, slots and the measures' places; nothing in them yet.
          seen.set(pass.name, [state.parts.length, state.slotsOf, measures.map((m) => [m.system, m.index, m.left, m.right, m.staves.size])]);
          break;
        case 'voices':
          // The items as written: quarters, one voice a staff measure; the empty measure none.
          seen.set(pass.name, measures.map((m) => m.staves.get(0)!.voices.map((v) => v.map((i) => `${i.duration.n}/${i.duration.d}`).join(' '))));
          break;
        case 'time':
          seen.set(pass.name, measures.map((m) => `${m.expected.n}/${m.expected.d}${m.timeChanged ? '!' : ''}`));
          break;
        case 'measures':
          seen.set(pass.name, measures.map((m) => { const p = m.parts[0]!; return [p.number, !!p.systemBreak, !!p.pageBreak, p.voices.length, p.clefs.length]; }));
          break;
        case 'signatures':
          seen.set(pass.name, [measures[0]!.parts[0]!.clefs.map((c) => c.sign + c.line), measures[0]!.parts[0]!.key, measures.map((m) => m.staves.get(0)!.key), notes(state, 0).length]);
          break;
        case 'timing':
          seen.set(pass.name, measures.map((m) => m.staves.get(0)!.leads.length));
          break;
        case 'pitches':
          // Pitches under the clef and key in force; no tie yet.
          seen.set(pass.name, [notes(state, 0).map((e) => `${e.notes[0]!.pitch.step}${e.notes[0]!.pitch.alter}${e.notes[0]!.pitch.octave}`), state.placed.size, notes(state, 1).some((e) => e.notes[0]!.tieStart)]);
          break;
        case 'ties':
          seen.set(pass.name, [notes(state, 1).map((e) => !!e.notes[0]!.tieStart), notes(state, 2).map((e) => !!e.notes[0]!.tieStop), measures[0]!.parts[0]!.directions.length]);
          break;
        case 'hairpins':
          seen.set(pass.name, measures.map((m) => m.parts[0]!.directions.map((d) => `${d.wedge!.type}@${d.offset.n}`)));
          break;
        case 'evidence':
          seen.set(pass.name, [measures.map((m) => m.parts[0]!.evidence?.page), state.parts[0]!.measures.length]);
          break;
        case 'parts':
          seen.set(pass.name, state.parts[0]!.measures.map((m) => m.number));
          break;
        case 'pickup':
          seen.set(pass.name, state.parts[0]!.measures.map((m) => `${m.number}${m.implicit ? '*' : ''}`));
          break;
      }
    });
    expect(Object.fromEntries(seen)).toEqual({
      layout: [1, [[0], [0]], [[0, 0, 100, 500, 0], [0, 1, 500, 900, 0], [1, 0, 100, 500, 0], [1, 1, 500, 900, 0]]],
      voices: [['1/1 1/1 1/1 1/1'], ['1/1 1/1 1/1 1/1'], ['1/1 1/1 1/1 1/1'], []],
      time: ['4/1!', '4/1', '4/1', '4/1'],
      measures: [['1', false, false, 0, 0], ['2', false, false, 0, 0], ['3', true, true, 0, 0], ['4', false, false, 0, 0]],
      signatures: [['G2'], { fifths: -1 }, [-1, -1, -1, undefined], 0],
      timing: [1, 1, 1, 0],
      pitches: [['B-14', 'B-14', 'B-14', 'B-14'], 12, false],
      ties: [[false, false, false, true], [true, false, false, false], 0],
      hairpins: [['crescendo@0', 'stop@2'], [], [], []],
      evidence: [[0, 0, 1, 1], 0],
      parts: ['1', '2', '3', '4'],
      pickup: ['1', '2', '3', '4'],
    });
    // The last measure, empty, is a whole-measure rest; the score is the parts the passes made.
    expect(score.parts[0]!.measures[3]!.voices[0]!.events).toEqual([{ kind: 'rest', duration: { n: 4, d: 1 }, dots: 0, staff: 1, measureRest: true }]);
  });
});
