import { describe, expect, it } from 'vitest';
import { linkCurves } from '../../src/assembly/curves.js';
import type { Stroke } from '../../src/assembly/strokes.js';
import { TiesAndSlurs, type PlacedStroke } from '../../src/assembly/ties-slurs.js';
import type { Note, NoteEvent, Pitch } from '../../src/score/model.js';
import { frac } from '../../src/score/fraction.js';
import type { Curve } from '../../src/symbols/curves.js';
import type { Head } from '../../src/symbols/read-symbols.js';
import { writeMidi } from '../../src/exports/midi.js';
import { measure, part, score } from '../support/score-builder.js';
import * as tonejsMidi from '@tonejs/midi';

// Node loads the CommonJS package as a default export only; see src/exports/midi.ts.
const { Midi } = 'Midi' in tonejsMidi ? tonejsMidi : (tonejsMidi as unknown as { default: typeof tonejsMidi }).default;

const SPACE = 12;
const TOP = 100;
const yOf = (position: number) => TOP + (position * SPACE) / 2;

/** A quarter with its stem up, its head at a staff position. */
function stroke(x: number, position: number, staff = 0): Stroke {
  const y = yOf(position);
  const head: Head = { x0: x - 7, x1: x + 7, y0: y - 6, y1: y + 6, x, y, staff, confidence: 1, kind: 'black', position, small: false };
  return { kind: 'chord', staff, heads: [head], up: true, stem: { x: x + 6, x0: x + 5, x1: x + 7, y0: y - 42, y1: y, staff, confidence: 1 }, hooks: 0, beams: 0, grace: false, dots: 0, x, x0: x - 7, x1: x + 7, y0: y - 42, y1: y + 6, confidence: 1 };
}

/** A curve under the heads from (x0, y0) to (x1, y1), bowing `bow` spaces down. */
function curve(x0: number, y0: number, x1: number, y1: number, bow: number, staff = 0): Curve {
  return { start: { x: x0, y: y0 }, end: { x: x1, y: y1 }, x0, x1, y0: Math.min(y0, y1), y1: Math.max(y0, y1) + bow * SPACE, over: false, bow: bow * SPACE, staff, confidence: 0.9 };
}

function place(strokes: Stroke[], pitches: Pitch[], part = 0) {
  const placed = new Map<Stroke, PlacedStroke>();
  strokes.forEach((s, k) => {
    const event: NoteEvent = { kind: 'note', duration: frac(1), type: 'quarter', dots: 0, staff: 1, notes: [{ pitch: { ...pitches[k]! } }], lyrics: [] };
    placed.set(s, { event, part });
  });
  const lookup = { stroke: (s: Stroke) => placed.get(s), note: (h: Head, s: Stroke): Note | undefined => placed.get(s)?.event.notes[s.heads.indexOf(h)] };
  return { placed, lookup, event: (s: Stroke) => placed.get(s)!.event };
}

const G4: Pitch = { step: 'G', alter: 0, octave: 4 };
const FSHARP4: Pitch = { step: 'F', alter: 1, octave: 4 };
const F4: Pitch = { step: 'F', alter: 0, octave: 4 };
const A4: Pitch = { step: 'A', alter: 0, octave: 4 };

describe('ties and slurs', () => {
  it('tie two neighbouring heads at one position, and carry the first one\'s accidental to the second', () => {
    const [a, b] = [stroke(200, 7), stroke(260, 7)];
    const links = linkCurves([curve(204, yOf(7) + 10, 256, yOf(7) + 10, 0.3)], [a, b], SPACE);
    expect(links).toHaveLength(1);
    expect(links[0]!.tie).toBeDefined();
    const { lookup, event } = place([a, b], [FSHARP4, F4]);
    new TiesAndSlurs(lookup).system(links);
    expect(event(a).notes[0]!.tieStart).toBe(true);
    expect(event(b).notes[0]!.tieStop).toBe(true);
    expect(event(b).notes[0]!.pitch.alter).toBe(1);
    expect(event(a).slurs).toBeUndefined();
  });

  it('make a slur, not a tie, of a curve joining two notes of one pitch that bear staccato dots (portato)', () => {
    const [a, b] = [stroke(200, 7), stroke(260, 7)];
    const links = linkCurves([curve(204, yOf(7) + 10, 256, yOf(7) + 10, 0.3)], [a, b], SPACE);
    const { lookup, event } = place([a, b], [F4, F4]);
    event(a).articulations = ['staccato'];
    event(b).articulations = ['staccato'];
    new TiesAndSlurs(lookup).system(links);
    expect(event(a).notes[0]!.tieStart).toBeUndefined();
    expect(event(b).notes[0]!.tieStop).toBeUndefined();
    expect(event(a).slurs).toEqual([{ type: 'start', number: 1, placement: 'below' }]);
    expect(event(b).slurs).toEqual([{ type: 'stop', number: 1 }]);
  });

  it("make a slur, not a tie, of a flat curve joining two beamed notes of one pitch", () => {
    const [a, b] = [stroke(200, 7), stroke(260, 7)];
    const curves = [curve(204, yOf(7) + 10, 256, yOf(7) + 10, 0.3)];
    expect(linkCurves(curves, [a, b], SPACE)[0]!.tie).toBeDefined();
    a.beamGroup = b.beamGroup = 1;
    const links = linkCurves(curves, [a, b], SPACE);
    expect(links).toHaveLength(1);
    expect([links[0]!.from, links[0]!.to, links[0]!.tie]).toEqual([a, b, undefined]);
  });

  it('make a slur, not a tie, of a curve to a note at the same place whose own accidental alters it otherwise; a courtesy sign keeps the tie', () => {
    const [a, b] = [stroke(200, 7), stroke(260, 7)];
    const links = linkCurves([curve(204, yOf(7) + 10, 256, yOf(7) + 10, 0.3)], [a, b], SPACE);
    const natural = place([a, b], [FSHARP4, F4]);
    natural.event(b).notes[0]!.accidental = { sign: 'natural' };
    new TiesAndSlurs(natural.lookup).system(links);
    expect(natural.event(a).notes[0]!.tieStart).toBeUndefined();
    expect(natural.event(b).notes[0]!.pitch).toEqual(F4);
    expect(natural.event(a).slurs).toEqual([{ type: 'start', number: 1, placement: 'below' }]);
    expect(natural.event(b).slurs).toEqual([{ type: 'stop', number: 1 }]);
    const courtesy = place([a, b], [FSHARP4, FSHARP4]);
    courtesy.event(b).notes[0]!.accidental = { sign: 'sharp', cautionary: true };
    new TiesAndSlurs(courtesy.lookup).system(links);
    expect(courtesy.event(a).notes[0]!.tieStart).toBe(true);
    expect(courtesy.event(b).notes[0]!.tieStop).toBe(true);
    expect(courtesy.event(a).slurs).toBeUndefined();
  });

  it('start a slur at a grace note and end it at the note it leads to, never end one at a grace note', () => {
    // A small grace note at x 180 before a quarter at x 210, a slur under both; then a slur from that
    // quarter ending just short of a grace note (x 262) before the quarter at x 290.
    const small = (s: Stroke): Stroke => ({ ...s, grace: true, heads: s.heads.map((h) => ({ ...h, small: true })) });
    const [g, a, h, b] = [small(stroke(180, 8)), stroke(210, 7), small(stroke(262, 6)), stroke(290, 5)];
    const links = linkCurves([curve(180, yOf(8) + 8, 208, yOf(7) + 10, 0.6), curve(212, yOf(7) + 10, 258, yOf(6) + 10, 0.8)], [g, a, h, b], SPACE);
    expect(links.map((l) => [l.from, l.to])).toEqual([[g, a], [a, b]]);
  });

  it('make a slur of a curve over a stroke of the same stem between two heads at one position', () => {
    const [a, m, b] = [stroke(200, 7), stroke(240, 5), stroke(280, 7)];
    const links = linkCurves([curve(200, yOf(7) + 14, 280, yOf(7) + 14, 1)], [a, m, b], SPACE);
    expect(links[0]!.tie).toBeUndefined();
    const { lookup, event } = place([a, m, b], [F4, A4, F4]);
    new TiesAndSlurs(lookup).system(links);
    expect(event(a).slurs).toEqual([{ type: 'start', number: 1, placement: 'below' }]);
    expect(event(b).slurs).toEqual([{ type: 'stop', number: 1 }]);
    expect(event(a).notes[0]!.tieStart).toBeUndefined();
  });

  it('read a flat arc from a note through the next one of its pitch and on as a tie into a slur, but a bowed one over them as one slur', () => {
    // F4 tied to F4, which a slur leaves for A4: the two arcs meet under the second F, read as one barely bowed curve.
    const [a, m, b] = [stroke(200, 7), stroke(240, 7), stroke(280, 5)];
    const merged = linkCurves([curve(204, yOf(7) + 10, 276, yOf(5) + 10, 0.2)], [a, m, b], SPACE);
    expect(merged.map((l) => [l.from, l.to, !!l.tie])).toEqual([[a, m, true], [m, b, false]]);
    const { lookup, event } = place([a, m, b], [F4, F4, A4]);
    new TiesAndSlurs(lookup).system(merged);
    expect([event(a).notes[0]!.tieStart, event(m).notes[0]!.tieStop]).toEqual([true, true]);
    expect(event(m).slurs).toEqual([{ type: 'start', number: 1, placement: 'below' }]);
    expect(event(b).slurs).toEqual([{ type: 'stop', number: 1 }]);
    // Bowing a space under the middle note, it is one slur over all three.
    const slur = linkCurves([curve(204, yOf(7) + 10, 276, yOf(5) + 10, 1)], [a, m, b], SPACE);
    expect(slur.map((l) => [l.from, l.to, !!l.tie])).toEqual([[a, b, false]]);
  });

  it('link a slur whose ends the model cut short to the notes a little further off; a flat stroke as short stays unlinked', () => {
    const [a, m, b] = [stroke(200, 5), stroke(260, 3), stroke(320, 5)];
    // Both ends 1.4 spaces clear of their notes' heads: past an end's usual reach.
    const slur = curve(224, yOf(5) + 14, 296, yOf(5) + 14, 1.5);
    const [link] = linkCurves([slur], [a, m, b], SPACE);
    expect([link?.from, link?.to]).toEqual([a, b]);
    expect(linkCurves([curve(224, yOf(5) + 14, 296, yOf(5) + 14, 0.2)], [a, m, b], SPACE)).toEqual([]);
  });

  it("link a slur that clears a low middle note to high notes far over its ends, only on the side it bows to", () => {
    const [a, m, b] = [stroke(200, 3), stroke(260, 9), stroke(320, 3)];
    // Under the notes, clear of the lowest: both ends nearly four spaces under the outer notes' heads.
    const [link] = linkCurves([curve(202, 170, 318, 170, 1.5)], [a, m, b], SPACE);
    expect([link?.from, link?.to]).toEqual([a, b]);
    // The same curve as far over the outer notes (beyond their stems) bows away from them: no link.
    expect(linkCurves([curve(202, 30, 318, 30, 1.5)], [a, m, b], SPACE)).toEqual([]);
  });

  it('number overlapping slurs apart and reuse a number once its slur has stopped', () => {
    const s = [200, 240, 280, 320, 360].map((x) => stroke(x, 5));
    const pitches = [G4, A4, G4, A4, G4];
    const links = linkCurves(
      [curve(200, yOf(5) + 14, 320, yOf(5) + 14, 1.5), curve(240, yOf(5) + 20, 280, yOf(5) + 20, 0.5), curve(320, yOf(5) + 14, 360, yOf(5) + 14, 0.5)],
      s,
      SPACE,
    );
    const { lookup, event } = place(s, pitches);
    new TiesAndSlurs(lookup).system(links);
    expect(event(s[0]!).slurs).toEqual([{ type: 'start', number: 1, placement: 'below' }]);
    expect(event(s[1]!).slurs).toEqual([{ type: 'start', number: 2, placement: 'below' }]);
    expect(event(s[2]!).slurs).toEqual([{ type: 'stop', number: 2 }]);
    // The long slur stops where the third starts: number 1 is free again after it.
    expect(event(s[3]!).slurs).toEqual([{ type: 'stop', number: 1 }, { type: 'start', number: 2, placement: 'below' }]);
  });

  it('carry a tie and a slur across the system break to the next system\'s first notes', () => {
    const [a, b] = [stroke(900, 7), stroke(860, 3)];
    const [c, d] = [stroke(150, 7), stroke(200, 3)];
    const first = linkCurves([curve(904, yOf(7) + 10, 990, yOf(7) + 10, 0.3), curve(860, yOf(3) - 20, 995, yOf(3) - 30, 1)], [b, a], SPACE);
    const second = linkCurves([curve(100, yOf(7) + 10, 146, yOf(7) + 10, 0.3), curve(100, yOf(3) - 30, 200, yOf(3) - 20, 1)], [c, d], SPACE);
    expect(first.map((l) => [!!l.from, !!l.to])).toEqual([[true, false], [true, false]]);
    const { lookup, event } = place([a, b, c, d], [F4, A4, F4, G4]);
    const state = new TiesAndSlurs(lookup);
    state.system(first);
    state.system(second);
    expect(event(a).notes[0]!.tieStart).toBe(true);
    expect(event(c).notes[0]!.tieStop).toBe(true);
    expect(event(b).slurs?.[0]?.type).toBe('start');
    expect(event(d).slurs).toEqual([{ type: 'stop', number: event(b).slurs![0]!.number }]);
  });

  it('tie a head to the one at its position where another voice\'s stroke stands nearer the curve\'s end', () => {
    const a = stroke(200, 7);
    const b = stroke(260, 7);
    // A second voice at the same place, its stem down through where the tie ends.
    const other = stroke(257, 5);
    other.up = false;
    Object.assign(other, { y0: yOf(5) - 6, y1: yOf(5) + 42 });
    const links = linkCurves([curve(208, yOf(7) + 8, 252, yOf(7) + 8, 0.3)], [a, b, other], SPACE);
    expect(links).toHaveLength(1);
    expect(links[0]!.to).toBe(b);
    expect(links[0]!.tie).toEqual({ from: a.heads[0], to: b.heads[0] });
  });

  it('tie each head of a chord to its own head in the next chord', () => {
    const chord = (x: number) => {
      const [low, high] = [stroke(x, 7), stroke(x, 3)];
      return { ...low, heads: [low.heads[0]!, high.heads[0]!], y0: high.y0 };
    };
    const [a, b] = [chord(200), chord(260)];
    const ties = [curve(208, yOf(7) + 8, 252, yOf(7) + 8, 0.3), curve(208, yOf(3) - 8, 252, yOf(3) - 8, 0.3)];
    const links = linkCurves(ties, [a, b], SPACE);
    expect(links.map((l) => [l.tie?.from?.position, l.tie?.to?.position])).toEqual([[7, 7], [3, 3]]);
    const { lookup, event } = place([a, b], [F4, F4]);
    // Two heads each: give the upper ones their own pitch.
    for (const s of [a, b]) event(s).notes.push({ pitch: { step: 'C', alter: 0, octave: 5 } });
    new TiesAndSlurs(lookup).system(links);
    expect(event(a).notes.map((n) => n.tieStart)).toEqual([true, true]);
    expect(event(b).notes.map((n) => n.tieStop)).toEqual([true, true]);
  });

  it('make a slur of a flat curve running off the system that the next system continues to another pitch', () => {
    const a = stroke(900, 7);
    const c = stroke(150, 5);
    // Cut short by the system's end, the slur's start is as flat as a tie and level with its head.
    const first = linkCurves([curve(904, yOf(7) + 10, 990, yOf(7) + 12, 0.3)], [a], SPACE);
    const second = linkCurves([curve(100, yOf(5) + 14, 146, yOf(5) + 10, 0.3)], [c], SPACE);
    expect(first[0]!.tie?.from).toBe(a.heads[0]);
    const { lookup, event } = place([a, c], [F4, A4]);
    const state = new TiesAndSlurs(lookup);
    state.system(first);
    state.system(second);
    expect(event(a).notes[0]!.tieStart).toBeUndefined();
    expect(event(c).notes[0]!.tieStop).toBeUndefined();
    expect(event(a).slurs).toEqual([{ type: 'start', number: 1, placement: 'below' }]);
    expect(event(c).slurs).toEqual([{ type: 'stop', number: 1 }]);
  });

  it('carry a tied note\'s accidental across the system break, and tie each head of a chord on its own', () => {
    const chord = (x: number) => {
      const [low, high] = [stroke(x, 7), stroke(x, 3)];
      return { ...low, heads: [low.heads[0]!, high.heads[0]!], y0: high.y0 };
    };
    const [a, c] = [chord(900), chord(150)];
    const first = linkCurves([curve(904, yOf(7) + 8, 990, yOf(7) + 8, 0.3), curve(904, yOf(3) - 8, 990, yOf(3) - 8, 0.3)], [a], SPACE);
    const second = linkCurves([curve(100, yOf(7) + 8, 146, yOf(7) + 8, 0.3), curve(100, yOf(3) - 8, 146, yOf(3) - 8, 0.3)], [c], SPACE);
    const { lookup, event } = place([a, c], [FSHARP4, F4]);
    for (const s of [a, c]) event(s).notes.push({ pitch: { step: 'C', alter: 0, octave: 5 } });
    const state = new TiesAndSlurs(lookup);
    state.system(first);
    state.system(second);
    expect(event(a).notes.map((n) => n.tieStart)).toEqual([true, true]);
    expect(event(c).notes.map((n) => n.tieStop)).toEqual([true, true]);
    expect(event(c).notes[0]!.pitch).toEqual(FSHARP4);
    expect(event(a).slurs).toBeUndefined();
  });

  it('sound a note tied across a barline once, at the sharp it carries, and the next measure\'s untied F as written', () => {
    const [a, b, c] = [stroke(200, 7), stroke(300, 7), stroke(360, 7)];
    const links = linkCurves([curve(208, yOf(7) + 8, 292, yOf(7) + 8, 0.3)], [a, b, c], SPACE);
    // F#4 printed in the first measure; the second measure's Fs show no accidental.
    const { lookup, event } = place([a, b, c], [FSHARP4, F4, F4]);
    new TiesAndSlurs(lookup).system(links);
    Object.assign(event(a), { duration: frac(4), type: 'whole' });
    for (const s of [b, c]) Object.assign(event(s), { duration: frac(2), type: 'half' });
    const midi = new Midi(writeMidi(score(part([measure([event(a)], { time: { beats: 4, beatType: 4 } }), measure([event(b), event(c)])]))));
    expect(midi.tracks[0]!.notes.map((n) => [n.midi, n.ticks, n.durationTicks])).toEqual([
      [66, 0, 1920 + 960],
      [65, 1920 + 960, 960],
    ]);
  });

  it('ignore a curve whose end reaches no stroke inside the system (a gap, not a break)', () => {
    const [a, b] = [stroke(200, 7), stroke(400, 7)];
    expect(linkCurves([curve(204, yOf(7) + 10, 300, yOf(7) + 10, 0.3)], [a, b], SPACE)).toEqual([]);
  });
});
