import { describe, expect, it } from 'vitest';
import { buildScore } from '../../src/assembly/build-score.js';
import type { StaffReading, SystemReading } from '../../src/assembly/read-page.js';
import type { Stroke } from '../../src/assembly/strokes.js';
import { ZERO } from '../../src/score/fraction.js';
import type { Clef } from '../../src/score/model.js';
import type { Head } from '../../src/symbols/read-symbols.js';
import { staffReading } from '../support/staff-reading.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;
const TRANSFORM = { sourceWidth: 1000, sourceHeight: 1000, scale: 1, skew: 0, width: 1000, height: 1000 };

/** A staff with an opening clef and key (either may be unread) and no notes: every measure a rest. */
function emptyStaff(top: number, clef: Clef | undefined, key: number | undefined): StaffReading {
  return staffReading(straightStaff(top, SPACE, 100, 900), {
    signatures: { clefs: clef ? [{ x: 110, value: clef }] : [], keys: key === undefined ? [] : [{ x: 140, value: key }], times: [], keyAccidentals: new Set() },
  });
}

function system(page: number, staves: StaffReading[]): SystemReading {
  return { page, transform: TRANSFORM, staves, braces: [], measures: { bounds: [100, 500, 900], right: [undefined, undefined], left: [undefined, undefined] }, curves: [], endings: [], space: SPACE };
}

const TREBLE: Clef = { sign: 'G', line: 2 };
const BASS: Clef = { sign: 'F', line: 4 };

describe('buildScore', () => {
  it('writes the endings of volta brackets on the measures\' barlines of every part, numbered across systems', () => {
    const first = { ...system(0, [emptyStaff(100, TREBLE, 0), emptyStaff(300, BASS, 0)]), endings: [{ first: 1, last: 1, closed: true }] };
    first.measures = { ...first.measures, right: [undefined, { style: 'light-heavy', repeat: { direction: 'backward' } }] };
    const second = { ...system(1, [emptyStaff(100, TREBLE, 0), emptyStaff(300, BASS, 0)]), endings: [{ first: 0, last: 0, closed: false }] };
    const score = buildScore([first, second]);
    for (const part of score.parts) {
      expect(part.measures[1]!.leftBarline).toEqual({ style: 'regular', ending: { number: '1', type: 'start' } });
      expect(part.measures[1]!.rightBarline).toEqual({ style: 'light-heavy', repeat: { direction: 'backward' }, ending: { number: '1', type: 'stop' } });
      expect(part.measures[2]!.leftBarline?.ending).toEqual({ number: '2', type: 'start' });
      expect(part.measures[2]!.rightBarline?.ending).toEqual({ number: '2', type: 'discontinue' });
      expect(part.measures[3]!.leftBarline).toBeUndefined();
    }
  });

  it('reads a page without a time signature whose threes of eighths are printed triplets on one staff and not on the other as 4/4 in triplets, not 12/8', () => {
    // Two measures, each of four beamed threes of eighths on both staves; "3" printed over the lower staff's groups.
    const threes = (measureX: number, group: number) =>
      [0, 1, 2, 3].flatMap((g) => [0, 1, 2].map((n) => ({ ...stroke(measureX + 20 + g * 90 + n * 25, 4, true, 1, 0), beams: 1, beamGroup: group + g })));
    const upper = emptyStaff(100, TREBLE, 0);
    const lower = emptyStaff(300, TREBLE, 0);
    upper.items = [...threes(100, 0), ...threes(500, 10)];
    lower.items = [...threes(100, 20), ...threes(500, 30)].map((item) => ({ ...item, staff: 1, heads: item.heads.map((h) => ({ ...h, staff: 1 })) }));
    lower.tuplets = [0, 1, 2, 3].flatMap((g) => [100 + 45 + g * 90, 500 + 45 + g * 90]);
    const score = buildScore([system(0, [upper, lower])]);
    for (const part of score.parts) {
      expect(part.measures[0]!.time).toEqual({ beats: 4, beatType: 4 });
      const events = part.measures.flatMap((m) => m.voices.flatMap((v) => v.events));
      expect(events).toHaveLength(24);
      expect(events.every((e) => e.kind === 'note' && e.tuplet?.actual === 3 && e.tuplet.normal === 2)).toBe(true);
    }
  });

  it('starts a staff the first system hides in the clef and key it shows later', () => {
    // An orchestral score: the double bass is silent (left out) on the first page.
    const first = system(0, [emptyStaff(100, TREBLE, -3), emptyStaff(300, BASS, -3)]);
    const second = system(1, [emptyStaff(100, TREBLE, -3), emptyStaff(300, BASS, -3), emptyStaff(500, BASS, -3)]);
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
    const first = system(0, [emptyStaff(100, TREBLE, -2), emptyStaff(300, undefined, undefined)]);
    const second = system(1, [emptyStaff(100, TREBLE, 0), emptyStaff(300, BASS, 0)]);
    const third = system(1, [emptyStaff(100, TREBLE, 0), emptyStaff(300, BASS, 0)]);
    const score = buildScore([first, second, third]);
    const lower = score.parts[1]!;
    expect(lower.measures[0]!.clefs.map((c) => c.sign)).toEqual(['F']);
    expect(lower.measures[0]!.key?.fifths).toBe(-2);
    expect(lower.measures[2]!.key?.fifths).toBe(0);
  });

  it('starts a first system that shows no key but ends in a courtesy key in C, the key changing at the next system', () => {
    const courtesy = (staff: StaffReading): StaffReading => ({ ...staff, signatures: { ...staff.signatures, keys: [{ x: 850, value: 6 }] } });
    const next = () => system(0, [emptyStaff(100, TREBLE, 6), emptyStaff(300, BASS, 6)]);
    const score = buildScore([system(0, [courtesy(emptyStaff(100, TREBLE, undefined)), courtesy(emptyStaff(300, BASS, undefined))]), next()]);
    for (const part of score.parts) expect(part.measures.map((m) => m.key?.fifths)).toEqual([0, undefined, 6, undefined]);
    // Without it, a first system that shows no key is taken to have missed reading it.
    const unread = buildScore([system(0, [emptyStaff(100, TREBLE, undefined), emptyStaff(300, BASS, undefined)]), next()]);
    for (const part of unread.parts) expect(part.measures.map((m) => m.key?.fifths)).toEqual([6, undefined, undefined, undefined]);
  });

  it('opens the next measure with a clef printed after a measure\'s last note, before its barline', () => {
    // Four quarters in the treble clef, a bass clef just before the barline, four quarters on the same lines.
    const staff = emptyStaff(100, TREBLE, 0);
    staff.items = [200, 260, 320, 380, 600, 660, 720, 780].map((x) => stroke(x, 4, true, 0, 0));
    staff.signatures.clefs.push({ x: 460, value: BASS });
    const [first, second] = buildScore([system(0, [staff])]).parts[0]!.measures;
    expect(first!.clefs.map((c) => [c.sign, c.offset])).toEqual([['G', ZERO]]);
    expect(second!.clefs.map((c) => [c.sign, c.offset])).toEqual([['F', ZERO]]);
    const pitch = (measure: typeof first) => {
      const event = measure!.voices[0]!.events[0]!;
      return event.kind === 'note' ? `${event.notes[0]!.pitch.step}${event.notes[0]!.pitch.octave}` : '';
    };
    expect([pitch(first), pitch(second)]).toEqual(['B4', 'D3']);
  });

  it('changes the time at the next system where a system ends in a courtesy time signature', () => {
    const timed = (staff: StaffReading, ...times: [number, number][]): StaffReading => ({ ...staff, times: times.map(([x, beats]) => ({ x, value: { beats, beatType: 4 } })) });
    // The first system opens in 4/4 and ends, after its last barline, in a 3/4 that the second system opens with.
    const first = system(0, [timed(emptyStaff(100, TREBLE, 0), [160, 4], [860, 3]), timed(emptyStaff(300, BASS, 0), [160, 4], [860, 3])]);
    const second = system(0, [timed(emptyStaff(100, TREBLE, 0), [160, 3]), timed(emptyStaff(300, BASS, 0), [160, 3])]);
    for (const part of buildScore([first, second]).parts) expect(part.measures.map((m) => m.time?.beats)).toEqual([4, undefined, 3, undefined]);
  });

  it('starts a new movement (a final barline, then a time signature) in C where its system shows no key, and carries the key otherwise', () => {
    const timed = (staff: StaffReading, beats: number): StaffReading => ({ ...staff, times: [{ x: 160, value: { beats, beatType: 4 } }] });
    const ending = (style: 'light-heavy' | 'light-light', beats?: number) => {
      const first = system(0, [timed(emptyStaff(100, TREBLE, 2), 3), timed(emptyStaff(300, BASS, 2), 3)]);
      first.measures = { ...first.measures, right: [undefined, { style }] };
      const opening = (staff: StaffReading) => (beats ? timed(staff, beats) : staff);
      return buildScore([first, system(0, [opening(emptyStaff(100, TREBLE, undefined)), opening(emptyStaff(300, BASS, undefined))])]);
    };
    for (const part of ending('light-heavy', 2).parts) expect(part.measures[2]!.key?.fifths).toBe(0);
    for (const part of ending('light-heavy', 3).parts) expect(part.measures[2]!.key?.fifths).toBe(0);
    for (const part of ending('light-light', 2).parts) expect(part.measures[2]!.key).toBeUndefined();
    for (const part of ending('light-heavy').parts) expect(part.measures[2]!.key).toBeUndefined();
  });

  it('does not take a first movement\'s key from the next movement\'s systems', () => {
    const timed = (staff: StaffReading): StaffReading => ({ ...staff, times: [{ x: 160, value: { beats: 3, beatType: 4 } }] });
    const end = system(0, [emptyStaff(100, TREBLE, undefined), emptyStaff(300, BASS, undefined)]);
    end.measures = { ...end.measures, right: [undefined, { style: 'light-heavy' }] };
    const next = system(0, [timed(emptyStaff(100, TREBLE, -3)), timed(emptyStaff(300, BASS, -3))]);
    for (const part of buildScore([end, next]).parts) expect(part.measures.map((m) => m.key?.fifths)).toEqual([0, undefined, -3, undefined]);
  });

  it('puts a system’s braced staves in the piano’s slots when the voice above them went unseen', () => {
    const full = { ...system(0, [emptyStaff(100, TREBLE, 0), emptyStaff(300, TREBLE, 0), emptyStaff(500, BASS, 0)]), braces: [[1, 2]] as [number, number][] };
    const right = emptyStaff(300, TREBLE, 0);
    right.items = [stroke(200, 4, true, 0, 0, 'whole')];
    const short = { ...system(0, [right, emptyStaff(500, BASS, 0)]), braces: [[0, 1]] as [number, number][] };
    const score = buildScore([full, short]);
    expect(score.parts.map((p) => p.staves)).toEqual([1, 2]);
    // The short system's first measure: the voice rests, the piano's right hand holds the note.
    expect(score.parts[0]!.measures[2]!.voices.map((v) => v.events[0]!.kind)).toEqual(['rest']);
    expect(score.parts[1]!.measures[2]!.voices[0]!.events[0]).toMatchObject({ kind: 'note', staff: 1 });
  });

  it('joins staves into one part by a brace seen on at least half the systems, not by one a scan made on a single system', () => {
    const quartet = () => system(0, [emptyStaff(100, TREBLE, 0), emptyStaff(300, TREBLE, 0), emptyStaff(500, { sign: 'C', line: 3 }, 0), emptyStaff(700, BASS, 0)]);
    const braced = (b: [number, number][]) => ({ ...quartet(), braces: b });
    expect(buildScore([quartet(), quartet(), braced([[0, 1]])]).parts.map((p) => p.staves)).toEqual([1, 1, 1, 1]);
    // A piano's brace the first system's names crowded out is still the piano's.
    expect(buildScore([quartet(), braced([[2, 3]]), braced([[2, 3]])]).parts.map((p) => p.staves)).toEqual([1, 1, 2]);
  });

  it('starts a right hand whose rests are not printed where the left hand’s note under its first one stands', () => {
    // 3/4: the left hand plays a quarter and a half; the right hand only a half, over the left hand's half.
    const right = emptyStaff(100, TREBLE, 0);
    const left = emptyStaff(300, BASS, 0);
    right.times = [{ x: 170, value: { beats: 3, beatType: 4 } }];
    left.times = [{ x: 170, value: { beats: 3, beatType: 4 } }];
    right.items = [stroke(260, 4, true, 0, 0, 'half')];
    left.items = [stroke(200, 4, true, 0, 0), stroke(260, 4, true, 0, 0, 'half')];
    const measure = buildScore([{ ...system(0, [right, left]), braces: [[0, 1]] }]).parts[0]!.measures[0]!;
    const upper = measure.voices.find((v) => v.events[0]!.staff === 1)!;
    expect(upper.events.map((e) => [e.kind, e.duration.n, e.kind === 'rest' && !!e.hidden])).toEqual([['rest', 1, true], ['note', 2, false]]);
  });

  it('keeps an octave clef and a C clef’s line across a system break where the new system’s clef ran into something', () => {
    const first = system(0, [emptyStaff(100, { sign: 'G', line: 2, octaveChange: -1 }, 0), emptyStaff(300, { sign: 'C', line: 3 }, 0)]);
    const second = system(1, [emptyStaff(100, { sign: 'G', line: 2 }, 0), emptyStaff(300, { sign: 'C', line: 5 }, 0)]);
    const score = buildScore([first, second]);
    expect(score.parts.map((p) => p.measures.flatMap((m) => m.clefs.map((c) => `${c.sign}${c.line}${c.octaveChange ?? ''}`)))).toEqual([['G2-1'], ['C3']]);
  });

  it('reads a unison of two voices printed side by side, and hands the line back to the first voice', () => {
    // 4/4: G4. G4 A4 A4 (up-stems) A4 (an eighth, down-stem); under the quarter A a dotted quarter A
    // of a second voice, its head beside the first's, down-stem (Elgar, "Like to the Damask Rose").
    const staff = emptyStaff(100, TREBLE, 0);
    staff.times = [{ x: 170, value: { beats: 4, beatType: 4 } }];
    staff.items = [stroke(200, 6, true, 0, 1), stroke(250, 6, true, 1, 0), stroke(290, 5, true, 1, 0), stroke(330, 5, true, 0, 0), stroke(348, 5, false, 0, 1), stroke(420, 5, false, 1, 0)];
    const measure = buildScore([system(0, [staff])]).parts[0]!.measures[0]!;
    const voices = measure.voices.map((v) => v.events.map((e) => `${e.kind === 'note' ? e.notes[0]!.pitch.step : e.hidden ? '_' : 'r'}${e.duration.n}/${e.duration.d}`));
    expect(voices).toEqual([['G3/2', 'G1/2', 'A1/2', 'A1/1', 'A1/2'], ['_5/2', 'A3/2']]);
  });

  it('times the small notes of a second voice that needs them to fill its measure as cue notes', () => {
    // 4/4: a half note and two quarters above; below, cue-sized G4. G4 (eighth) F4. F4 (eighth).
    const staff = emptyStaff(100, TREBLE, 0);
    staff.times = [{ x: 170, value: { beats: 4, beatType: 4 } }];
    const cue = (item: Stroke) => ({ ...item, grace: true, heads: item.heads.map((h) => ({ ...h, small: true })) });
    staff.items = [stroke(200, 6, true, 0, 0, 'half'), stroke(218, 6, false, 0, 1), cue(stroke(260, 6, false, 1, 0)), stroke(300, 7, true, 0, 0), stroke(318, 7, false, 0, 1), cue(stroke(400, 7, false, 1, 0)), stroke(380, 7, true, 0, 0)];
    const measure = buildScore([system(0, [staff])]).parts[0]!.measures[0]!;
    const lower = measure.voices[1]!.events;
    expect(lower.map((e) => [e.duration.n, e.duration.d, e.kind === 'note' && !!e.cue])).toEqual([[3, 2, false], [1, 2, true], [3, 2, false], [1, 2, true]]);
  });

  it('keeps a pickup\'s rest as printed where the other staff plays the pickup, and numbers the measure 0', () => {
    // 4/4 on two staves: a quarter-note pickup on the upper one, a quarter rest on the lower, then a
    // full measure of a whole note on each.
    const upper = emptyStaff(100, TREBLE, 0);
    const lower = emptyStaff(200, TREBLE, 0);
    upper.times = [{ x: 170, value: { beats: 4, beatType: 4 } }];
    lower.times = [{ x: 170, value: { beats: 4, beatType: 4 } }];
    upper.items = [stroke(300, 6, true, 0, 0), stroke(600, 6, true, 0, 0, 'whole')];
    const rest = { x0: 296, x1: 304, y0: 212, y1: 236, staff: 1, confidence: 1 };
    lower.items = [{ kind: 'rest', rest: { ...rest, kind: 'quarter' }, dots: 0, x: 300, y: 224, ...rest }, { ...stroke(600, 6, true, 0, 0, 'whole'), staff: 1, y0: 200, y1: 260 }];
    const [first, second] = buildScore([system(0, [upper, lower])]).parts;
    const [pickup, full] = first!.measures;
    expect([pickup!.number, pickup!.implicit, full!.number]).toEqual(['0', true, '1']);
    const lowerEvents = second!.measures[0]!.voices.flatMap((v) => v.events);
    expect(lowerEvents.map((e) => [e.kind, e.kind === 'rest' && !!e.measureRest, e.duration.n, e.duration.d])).toEqual([['rest', false, 1, 1]]);
  });

  it('adds no dot to fill a measure that every staff leaves short by as much at a section\'s end (a movement\'s last measure completing its pickup), and adds it elsewhere', () => {
    // 4/4 on two staves; the last measure lasts three quarters on both: a half and a quarter above (a dot on the
    // half would fill it), three quarters below.
    const upper = emptyStaff(100, TREBLE, 0);
    const lower = emptyStaff(200, TREBLE, 0);
    upper.times = [{ x: 170, value: { beats: 4, beatType: 4 } }];
    lower.times = [{ x: 170, value: { beats: 4, beatType: 4 } }];
    upper.items = [stroke(200, 6, true, 0, 0, 'whole'), stroke(600, 6, true, 0, 0, 'half'), stroke(760, 6, true, 0, 0)];
    lower.items = [stroke(200, 6, true, 0, 0, 'whole'), stroke(600, 6, true, 0, 0), stroke(680, 6, true, 0, 0), stroke(760, 6, true, 0, 0)].map((item) => ({ ...item, staff: 1, y0: item.y0 + 100, y1: item.y1 + 100, heads: item.heads.map((h) => ({ ...h, staff: 1, y: h.y + 100, y0: h.y0 + 100, y1: h.y1 + 100 })) }));
    const ending = system(0, [upper, lower]);
    ending.measures = { ...ending.measures, right: [undefined, { style: 'light-heavy' }] };
    const lastOf = (read: SystemReading) => buildScore([read]).parts[0]!.measures[1]!.voices.flatMap((v) => v.events);
    expect(lastOf(ending).map((e) => [e.type, e.dots])).toEqual([['half', 0], ['quarter', 0]]);
    // Inside a section, every staff reading short alike is a misread rhythm: the half's dot was lost.
    expect(lastOf(system(0, [upper, lower])).map((e) => [e.type, e.dots])).toEqual([['half', 1], ['quarter', 0]]);
  });

  it('writes the tremolo strokes read across a stem on its note, as a single-note tremolo', () => {
    const staff = emptyStaff(100, TREBLE, 0);
    staff.times = [{ x: 170, value: { beats: 2, beatType: 4 } }];
    staff.items = [{ ...stroke(200, 6, true, 0, 0, 'half'), tremolo: 2 }];
    const event = buildScore([system(0, [staff])]).parts[0]!.measures[0]!.voices[0]!.events[0]!;
    expect(event).toMatchObject({ kind: 'note', type: 'half', tremolo: { type: 'single', marks: 2 } });
  });

  it('times a two-note tremolo\'s half notes as two in the time of one, and marks its start and stop', () => {
    const staff = emptyStaff(100, TREBLE, 0);
    staff.times = [{ x: 170, value: { beats: 2, beatType: 4 } }];
    staff.items = [
      { ...stroke(200, 6, true, 0, 0, 'half'), tremolo: 3, tremoloPair: 'start' as const },
      { ...stroke(300, 4, true, 0, 0, 'half'), tremolo: 3, tremoloPair: 'stop' as const },
    ];
    const events = buildScore([system(0, [staff])]).parts[0]!.measures[0]!.voices[0]!.events;
    expect(events.map((e) => [e.type, e.duration.n / e.duration.d, e.tuplet?.actual, e.tuplet?.normal, e.kind === 'note' && e.tremolo?.type])).toEqual([
      ['half', 1, 2, 1, 'start'],
      ['half', 1, 2, 1, 'stop'],
    ]);
  });

  it('infers the metre of measures before the first printed time signature from those measures alone', () => {
    // A page opening mid-piece in 3/4 (none printed), then a movement in 4/4 with more measures than the 3/4 before it.
    const quarters = (from: number, n: number) => Array.from({ length: n }, (_, k) => stroke(from + 20 + k * 80, 6, true, 0, 0));
    const opening = emptyStaff(100, TREBLE, 0);
    opening.items = [...quarters(100, 3), ...quarters(500, 3)];
    const later = [emptyStaff(100, TREBLE, 0), emptyStaff(100, TREBLE, 0)].map((staff, k) => {
      if (k === 0) staff.times = [{ x: 105, value: { beats: 4, beatType: 4 } }];
      staff.items = [...quarters(100, 4), ...quarters(500, 4)];
      return staff;
    });
    const measures = buildScore([system(0, [opening]), system(1, [later[0]!]), system(2, [later[1]!])]).parts[0]!.measures;
    expect(measures.map((m) => m.time && `${m.time.beats}/${m.time.beatType}`)).toEqual(['3/4', undefined, '4/4', undefined, undefined, undefined]);
  });

  it('marks a chord with an arpeggio sign before it as rolled', () => {
    const staff = emptyStaff(100, TREBLE, 0);
    staff.times = [{ x: 170, value: { beats: 2, beatType: 4 } }];
    const chord = stroke(200, 6, true, 0, 0, 'half');
    const upper = { ...chord.heads[0]!, y: chord.heads[0]!.y - 12, y0: chord.heads[0]!.y0 - 12, y1: chord.heads[0]!.y1 - 12, position: 4 };
    staff.items = [{ ...chord, heads: [chord.heads[0]!, upper], arpeggio: true }];
    const event = buildScore([system(0, [staff])]).parts[0]!.measures[0]!.voices[0]!.events[0]!;
    expect(event).toMatchObject({ kind: 'note', arpeggiate: true });
  });

  it('sounds the notes an 8va line covers an octave up, and writes the line where it starts and after the last note under it', () => {
    const staff = emptyStaff(100, TREBLE, 0);
    staff.times = [{ x: 170, value: { beats: 4, beatType: 4 } }];
    staff.items = [200, 260, 320, 380].map((x) => stroke(x, 6, true, 0, 0));
    // From the 8 just left of the second quarter to just past the third.
    staff.octaveLines = [{ staff: 0, x0: 250, x1: 330, y0: 60, y1: 75, confidence: 1, octaves: 1 }];
    const [first] = buildScore([system(0, [staff])]).parts[0]!.measures;
    const octaves = first!.voices[0]!.events.map((e) => (e.kind === 'note' ? e.notes[0]!.pitch.octave : undefined));
    expect(octaves.slice(1, 3).map((o) => o! - octaves[0]!)).toEqual([1, 1]);
    expect(octaves[3]).toBe(octaves[0]);
    expect(first!.directions.filter((d) => d.octaveShift).map((d) => `${d.octaveShift!.type}@${d.offset.n}/${d.offset.d}:${d.placement}`)).toEqual(['down@1/1:above', 'stop@3/1:above']);
  });

  it('stops a hairpin after the last note that starts under it, not at that note', () => {
    const staff = emptyStaff(100, TREBLE, 0);
    staff.times = [{ x: 170, value: { beats: 4, beatType: 4 } }];
    staff.items = [200, 260, 320, 380].map((x) => stroke(x, 6, true, 0, 0));
    // Under the first three quarters, ending half a space past the third one's centre.
    staff.hairpins = [{ kind: 'crescendo', x0: 196, x1: 326, y0: 170, y1: 182, staff: 0, confidence: 1 }];
    const [first] = buildScore([system(0, [staff])]).parts[0]!.measures;
    expect(first!.directions.filter((d) => d.wedge).map((d) => `${d.wedge!.type}@${d.offset.n}/${d.offset.d}`)).toEqual(['crescendo@0/1', 'stop@3/1']);
  });

  it('starts a hairpin at the onset of the note under its start in a voice that enters late, and stops it at a barline in the measure it leaves', () => {
    // The unison above: the second voice's dotted quarter A (x 348) enters at 5/2, beside the first voice's A.
    const staff = emptyStaff(100, TREBLE, 0);
    staff.times = [{ x: 170, value: { beats: 4, beatType: 4 } }];
    staff.items = [stroke(200, 6, true, 0, 1), stroke(250, 6, true, 1, 0), stroke(290, 5, true, 1, 0), stroke(330, 5, true, 0, 0), stroke(348, 5, false, 0, 1), stroke(420, 5, false, 1, 0)];
    const hairpin = (kind: 'crescendo' | 'diminuendo', x0: number, x1: number) => ({ kind, x0, x1, y0: 170, y1: 182, staff: 0, confidence: 1 });
    // One from under the A to just short of the last eighth (x 420), as engravers end one at the note
    // after the last it covers; one from that eighth to just past the barline (x 500), where the second
    // measure holds nothing but a rest.
    staff.hairpins = [hairpin('crescendo', 343, 410), hairpin('diminuendo', 425, 508)];
    const [first, second] = buildScore([system(0, [staff])]).parts[0]!.measures;
    const wedges = (m: typeof first) => m!.directions.filter((d) => d.wedge).map((d) => `${d.wedge!.type}@${d.offset.n}/${d.offset.d}`);
    expect(wedges(first)).toEqual(['crescendo@5/2', 'stop@7/2', 'diminuendo@7/2', 'stop@4/1']);
    expect(wedges(second)).toEqual([]);
  });

  it('reads a hairpin that runs off one system and on at the start of the next as one hairpin, but one starting under the first note as a new one', () => {
    const wedges = (m: { directions: { wedge?: { type: string }; offset: { n: number; d: number } }[] }) => m.directions.filter((d) => d.wedge).map((d) => `${d.wedge!.type}@${d.offset.n}/${d.offset.d}`);
    const systemWith = (page: number, hairpin: { x0: number; x1: number }) => {
      const staff = emptyStaff(100, TREBLE, 0);
      if (page === 0) staff.times = [{ x: 170, value: { beats: 4, beatType: 4 } }];
      staff.items = [200, 280, 360, 440, 600, 680, 760, 840].map((x) => stroke(x, 6, true, 0, 0));
      staff.hairpins = [{ kind: 'crescendo', ...hairpin, y0: 170, y1: 182, staff: 0, confidence: 1 }];
      return system(page, [staff]);
    };
    // From under the second measure's second quarter to the system's end (x 900) …
    const first = systemWith(0, { x0: 676, x1: 898 });
    // … and on from after the clef and key of the next, well before its first note (x 200), to under its second quarter.
    const [, runsOff, runsOn] = buildScore([first, systemWith(1, { x0: 150, x1: 276 })]).parts[0]!.measures;
    expect([wedges(runsOff!), wedges(runsOn!)]).toEqual([['crescendo@1/1'], ['stop@1/1']]);
    // A hairpin starting under the next system's first note is a new one: the first stops at its system's end.
    const [, ends, anew] = buildScore([first, systemWith(1, { x0: 196, x1: 276 })]).parts[0]!.measures;
    expect([wedges(ends!), wedges(anew!)]).toEqual([['crescendo@1/1', 'stop@4/1'], ['crescendo@0/1', 'stop@1/1']]);
  });
});

/** One note on a staff whose top line is at y 100: stem right of the head when up, left when down. */
function stroke(x: number, position: number, up: boolean, hooks: number, dots: number, kind: Head['kind'] = 'black'): Stroke {
  const y = 100 + (position * SPACE) / 2;
  const head: Head = { x0: x - 8, x1: x + 8, y0: y - 6, y1: y + 6, x, y, staff: 0, confidence: 1, kind, position, small: false };
  const stem = { x: up ? x + 8 : x - 8, x0: x - 9, x1: x + 9, y0: up ? y - 40 : y, y1: up ? y : y + 40, staff: 0, confidence: 1 };
  return { kind: 'chord', staff: 0, heads: [head], stem, up, hooks, beams: 0, grace: false, dots, x, x0: x - 8, x1: x + 8, y0: stem.y0, y1: stem.y1, confidence: 1 };
}
