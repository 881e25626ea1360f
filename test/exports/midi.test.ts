import * as tonejsMidi from '@tonejs/midi';
import { describe, expect, it } from 'vitest';
import { midiNoteCount, writeMidi } from '../../src/exports/midi.js';
import { frac, ZERO } from '../../src/score/fraction.js';
import type { Score } from '../../src/score/model.js';
import { direction, measure, note, part, rest, score } from '../support/score-builder.js';

// Node loads the CommonJS package as a default export only; see src/exports/midi.ts.
const { Midi } = 'Midi' in tonejsMidi ? tonejsMidi : (tonejsMidi as unknown as { default: typeof tonejsMidi }).default;

const FOUR_FOUR = { beats: 4, beatType: 4 };
const wholeBar = (pitch = 'C4') => [note(pitch, 'whole')];

function roundTrip(s: Score) {
  return new Midi(writeMidi(s));
}

describe('writeMidi', () => {
  it('writes 480 ticks per quarter and a default tempo of 120', () => {
    const midi = roundTrip(score(part([measure([note('C4', 'quarter'), note('D4', 'half'), rest('quarter')], { time: FOUR_FOUR })])));
    expect(midi.header.ppq).toBe(480);
    expect(midi.header.tempos).toHaveLength(1);
    expect(midi.header.tempos[0]!.ticks).toBe(0);
    expect(midi.header.tempos[0]!.bpm).toBeCloseTo(120, 6);
    expect(midi.header.name).toBe('Test');
    const notes = midi.tracks[0]!.notes;
    expect(notes.map((n) => [n.midi, n.ticks, n.durationTicks])).toEqual([
      [60, 0, 480],
      [62, 480, 960],
    ]);
  });

  it('takes the tempo from a metronome mark, converting the beat unit to quarters', () => {
    const s = score(
      part([
        measure(wholeBar(), {
          time: FOUR_FOUR,
          directions: [direction(ZERO, { metronome: { beatUnit: 'quarter', dots: 1, perMinute: 60 }, words: 'Andante' })],
        }),
        measure(wholeBar(), { directions: [direction(frac(2), { metronome: { beatUnit: 'half', dots: 0, perMinute: 40 } })] }),
      ]),
    );
    const tempos = roundTrip(s).header.tempos;
    expect(tempos.map((t) => t.ticks)).toEqual([0, 6 * 480]);
    expect(tempos[0]!.bpm).toBeCloseTo(90, 3);
    expect(tempos[1]!.bpm).toBeCloseTo(80, 3);
  });

  it('prefers an explicit playback tempo, from any part, and adds 120 when the start has none', () => {
    const s = score(
      part([measure(wholeBar()), measure(wholeBar())]),
      part([
        measure(wholeBar()),
        measure(wholeBar(), {
          directions: [direction(frac(1, 2), { tempo: 72, metronome: { beatUnit: 'quarter', dots: 0, perMinute: 200 } })],
        }),
      ]),
    );
    const tempos = roundTrip(s).header.tempos;
    expect(tempos.map((t) => t.ticks)).toEqual([0, 4 * 480 + 240]);
    expect(tempos[0]!.bpm).toBeCloseTo(120, 3);
    expect(tempos[1]!.bpm).toBeCloseTo(72, 3);
  });

  it('writes time signature changes at their measure starts', () => {
    const s = score(
      part([
        measure(wholeBar(), { time: FOUR_FOUR }),
        measure([note('C4', 'half', { dots: 1 })], { time: { beats: 3, beatType: 4 } }),
        measure([note('C4', 'half', { dots: 1 })], { time: { beats: 6, beatType: 8 } }),
        measure([note('C4', 'half', { dots: 1 })]),
        measure(wholeBar(), { time: FOUR_FOUR }),
      ]),
    );
    const sigs = roundTrip(s).header.timeSignatures;
    expect(sigs.map((t) => [t.ticks, ...t.timeSignature])).toEqual([
      [0, 4, 4],
      [1920, 3, 4],
      [1920 + 1440, 6, 8],
      [1920 + 3 * 1440, 4, 4],
    ]);
  });

  it('writes one track per part with its name, program and channel', () => {
    const violin = part([measure(wholeBar('A4'))], { id: 'P1', name: 'Violin', midiProgram: 40 });
    const drums = part([measure(wholeBar('C5'))], { id: 'P2', name: 'Drums', midiProgram: 0, percussion: true });
    const cello = part([measure(wholeBar('C3'))], { id: 'P3', name: 'Cello', midiProgram: 42 });
    const midi = roundTrip(score(violin, drums, cello));
    expect(midi.tracks.map((t) => [t.name, t.instrument.number, t.channel])).toEqual([
      ['Violin', 40, 0],
      ['Drums', 0, 9],
      ['Cello', 42, 1],
    ]);
    expect(midi.tracks[1]!.instrument.percussion).toBe(true);
  });

  it('skips channel 9 for pitched parts and reuses channels after fifteen', () => {
    const parts = Array.from({ length: 17 }, (_, i) => part([measure(wholeBar())], { id: `P${i + 1}`, name: `Part ${i + 1}` }));
    const channels = roundTrip(score(...parts)).tracks.map((t) => t.channel);
    expect(channels).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 0, 1]);
  });

  it('writes a transposing part at sounding pitch', () => {
    const clarinet = part([measure(wholeBar('D5'))], { name: 'Clarinet in B♭', midiProgram: 71, transposition: { diatonic: -1, chromatic: -2 } });
    const horn = part([measure(wholeBar('G4'))], { name: 'Horn in F', midiProgram: 60, transposition: { diatonic: -4, chromatic: -7 } });
    const bass = part([measure(wholeBar('E3'))], { name: 'Bass', midiProgram: 32, transposition: { diatonic: 0, chromatic: 0, octaveChange: -1 } });
    const midi = roundTrip(score(clarinet, horn, bass));
    expect(midi.tracks.map((t) => t.notes[0]!.midi)).toEqual([72, 60, 40]);
  });

  it('merges tied notes across a barline into one note', () => {
    const s = score(
      part([
        measure([note('C4', 'half'), note('G4', 'half', { tieStart: true })], { time: FOUR_FOUR }),
        measure([note('G4', 'quarter', { tieStop: true }), note('E4', 'quarter'), note('E4', 'half')]),
      ]),
    );
    const notes = roundTrip(s).tracks[0]!.notes;
    expect(notes.map((n) => [n.midi, n.ticks, n.durationTicks])).toEqual([
      [60, 0, 960],
      [67, 960, 1440],
      [64, 2400, 480],
      [64, 2880, 960],
    ]);
    expect(midiNoteCount(s)).toBe(4);
  });

  it('merges tie chains, and survives dangling ties', () => {
    const s = score(
      part([
        measure([note('C4', 'whole', { tieStart: true })]),
        measure([note('C4', 'whole', { tieStart: true, tieStop: true })]),
        // The chain ends here; the next C4's tie start leads nowhere.
        measure([note('C4', 'half', { tieStop: true }), note('C4', 'half', { tieStart: true })]),
        // A tie stop with nothing before it (the previous note is a D) plays as a note.
        measure([note('D4', 'half'), note('C4', 'half', { tieStop: true })]),
      ]),
    );
    const notes = roundTrip(s).tracks[0]!.notes;
    expect(notes.map((n) => [n.midi, n.ticks, n.durationTicks])).toEqual([
      [60, 0, 2 * 1920 + 960],
      [60, 2 * 1920 + 960, 960],
      [62, 3 * 1920, 960],
      [60, 3 * 1920 + 960, 960],
    ]);
  });

  it('ties a note of a chord alone, within its staff, across a change of voice', () => {
    const chord = note(['C4', 'E4'], 'whole');
    chord.notes[1]!.tieStart = true;
    const continued = note(['C4', 'E4'], 'whole');
    continued.notes[1]!.tieStop = true;
    const s = score(
      part(
        [
          measure([[chord], [note('C3', 'whole', { staff: 2, tieStart: true })]]),
          measure([[continued], [note('C3', 'whole', { staff: 2, tieStop: true })]]),
          // A tie start on staff 1 is not continued by the same pitch on staff 2.
          measure([[note('F4', 'whole', { tieStart: true })], [rest('whole', { staff: 2 })]]),
          measure([[rest('whole')], [note('F4', 'whole', { staff: 2, tieStop: true })]]),
          // Voice 1 ties into voice 2 on the same staff.
          measure([[note('A4', 'whole', { tieStart: true })], [rest('whole', { staff: 2 })]]),
          measure([[rest('whole', { hidden: true })], [note('A4', 'whole', { tieStop: true })]]),
        ],
        { staves: 2 },
      ),
    );
    const notes = roundTrip(s).tracks[0]!.notes;
    expect(notes.map((n) => [n.midi, n.ticks, n.durationTicks])).toEqual([
      [48, 0, 3840],
      [60, 0, 1920],
      [64, 0, 3840],
      [60, 1920, 1920],
      [65, 3840, 1920],
      [65, 5760, 1920],
      [69, 7680, 3840],
    ]);
    expect(midiNoteCount(s)).toBe(7);
  });

  it('sounds a unison of two voices once', () => {
    const s = score(part([measure([[note('C4', 'whole')], [note('C4', 'half'), note('C4', 'half')]])]));
    const notes = roundTrip(s).tracks[0]!.notes;
    expect(notes.map((n) => [n.midi, n.ticks, n.durationTicks])).toEqual([
      [60, 0, 960],
      [60, 960, 960],
    ]);
    expect(midiNoteCount(s)).toBe(2);
  });

  it('sounds every note of a chord at the same tick', () => {
    const s = score(part([measure([note(['C4', 'E4', 'G4'], 'half'), rest('half')])]));
    const notes = roundTrip(s).tracks[0]!.notes;
    expect(notes.map((n) => [n.midi, n.ticks, n.durationTicks])).toEqual([
      [60, 0, 960],
      [64, 0, 960],
      [67, 0, 960],
    ]);
  });

  it('leaves out grace and cue notes and keeps hidden rests as gaps', () => {
    const s = score(
      part([
        measure([
          note('D4', 'eighth', { grace: true }),
          note('C4', 'quarter'),
          note('A4', 'quarter', { cue: true }),
          rest('quarter', { hidden: true }),
          note('E4', 'quarter'),
        ]),
      ]),
    );
    const notes = roundTrip(s).tracks[0]!.notes;
    expect(notes.map((n) => [n.midi, n.ticks, n.durationTicks])).toEqual([
      [60, 0, 480],
      [64, 1440, 480],
    ]);
    expect(midiNoteCount(s)).toBe(2);
  });

  it('places triplet eighths on exact ticks', () => {
    const triplet = { actual: 3, normal: 2 };
    const s = score(
      part([
        measure([
          note('C4', 'eighth', { tuplet: { ...triplet, start: true } }),
          note('D4', 'eighth', { tuplet: triplet }),
          note('E4', 'eighth', { tuplet: { ...triplet, stop: true } }),
          note('F4', 'quarter'),
          note('G4', 'half'),
        ]),
      ]),
    );
    const notes = roundTrip(s).tracks[0]!.notes;
    expect(notes.map((n) => [n.ticks, n.durationTicks])).toEqual([
      [0, 160],
      [160, 160],
      [320, 160],
      [480, 480],
      [960, 960],
    ]);
  });

  it('follows the dynamics of each part', () => {
    const s = score(
      part([
        measure([note('C4', 'half'), note('D4', 'half')], { directions: [direction(frac(2), { dynamics: 'pp' })] }),
        measure([note('E4', 'half'), note('F4', 'half')], { directions: [direction(ZERO, { dynamics: 'ff' }), direction(frac(2), { dynamics: 'sfz' })] }),
      ]),
    );
    const velocities = roundTrip(s).tracks[0]!.notes.map((n) => Math.round(n.velocity * 127));
    expect(velocities).toEqual([80, 33, 112, 112]);
  });

  it('counts the notes it writes', () => {
    const s = score(
      part(
        [
          measure(
            [
              [note('B4', 'half'), note('C5', 'eighth', { grace: true }), note(['C4', 'E4', 'G4'], 'half', { tieStart: true })],
              [note('C3', 'whole', { staff: 2 })],
            ],
            { time: FOUR_FOUR },
          ),
          measure([[note(['C4', 'E4', 'G4'], 'whole', { tieStop: true })], [rest('whole', { staff: 2 })]]),
        ],
        { staves: 2 },
      ),
      part([measure([note('C4', 'quarter', { cue: true }), note('C4', 'half', { dots: 1 })]), measure(wholeBar('D4'))], { id: 'P2', name: 'Flute', midiProgram: 73 }),
    );
    const midi = roundTrip(s);
    const parsed = midi.tracks.reduce((sum, t) => sum + t.notes.length, 0);
    expect(midiNoteCount(s)).toBe(5 + 2);
    expect(parsed).toBe(midiNoteCount(s));
  });

  it('writes a file with no parts', () => {
    const midi = roundTrip(score());
    expect(midi.tracks).toHaveLength(0);
    expect(midiNoteCount(score())).toBe(0);
  });
});
