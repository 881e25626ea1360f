/**
 * The MIDI reader on files built for each rule: quantisation, barlines and
 * ties, chords and voices, written values, time and key signatures, tempo,
 * parts, staves, clefs and transposition. Every score read must have every
 * measure exactly full.
 */
import { describe, expect, it } from 'vitest';
import * as library from '../../../src/index.js';
import { readMidi } from '../../../src/import/midi/read-midi.js';
import { frac, toString } from '../../../src/score/fraction.js';
import type { Measure, Score, VoiceEvent } from '../../../src/score/model.js';
import { placedNotes } from '../../../src/score/timeline.js';
import { measureProblem, soundingNotes } from './score-checks.js';
import { smfBytes, song, text, trackBody, type SongSpec, type TrackSpec } from './smf-build.js';

const TYPE_CODES: Record<string, string> = { breve: 'b', whole: 'w', half: 'h', quarter: 'q', eighth: '8', '16th': '16', '32nd': '32', '64th': '64' };

/** An event as text: `C4 q`, `[C4 E4 G4] h.`, `~G4 8~` (tied both ways), `F#4 8/3` (triplet), `r q`, `R` (measure rest), `x 8` (hidden rest). */
function show(e: VoiceEvent): string {
  const value = `${e.type ? TYPE_CODES[e.type] : '?'}${'.'.repeat(e.dots)}${e.tuplet ? '/3' : ''}`;
  if (e.kind === 'rest') return e.measureRest ? 'R' : `${e.hidden ? 'x' : 'r'} ${value}`;
  const names = e.notes.map((n) => `${n.pitch.step}${n.pitch.alter > 0 ? '#'.repeat(n.pitch.alter) : 'b'.repeat(-n.pitch.alter)}${n.pitch.octave}`);
  const tieStop = e.notes.some((n) => n.tieStop) ? '~' : '';
  const tieStart = e.notes.some((n) => n.tieStart) ? '~' : '';
  return `${tieStop}${names.length > 1 ? `[${names.join(' ')}]` : names[0]} ${value}${tieStart}`;
}

/** Each voice of a measure as `id: events`. */
function voices(measure: Measure): string[] {
  return measure.voices.map((v) => `${v.id}: ${v.events.map(show).join(', ')}`);
}

function read(tracks: TrackSpec[], spec?: SongSpec): Score {
  const score = readMidi(song(tracks, spec));
  expect(measureProblem(score)).toBeUndefined();
  return score;
}

const piano = (notes: TrackSpec['notes'], extra: Partial<TrackSpec> = {}): TrackSpec => ({ name: 'Piano', program: 0, notes, ...extra });

describe('readMidi: values, barlines and rests', () => {
  it('reads a melody into full measures of plain values', () => {
    const score = read([piano([[60, 0, 1], [62, 1, 1], [64, 2, 0.5], [65, 2.5, 0.5], [67, 3, 1], [72, 4, 2]])]);
    const [m1, m2] = score.parts[0]!.measures;
    expect(voices(m1!)).toEqual(['1: C4 q, D4 q, E4 8, F4 8, G4 q']);
    expect(voices(m2!)).toEqual(['1: C5 h, r h']);
    expect(m1!.time).toEqual({ beats: 4, beatType: 4 });
    expect(m1!.key).toEqual({ fifths: 0 });
    expect(m1!.clefs).toEqual([{ sign: 'G', line: 2, staff: 1, offset: { n: 0, d: 1 } }]);
    expect(score.parts[0]!.measures).toHaveLength(2);
  });

  it('ties a note across the barline and writes off-beat lengths as tied values', () => {
    const score = read([piano([[60, 2, 3], [62, 5, 1.25], [64, 6.25, 1.75]])]);
    const [m1, m2] = score.parts[0]!.measures;
    expect(voices(m1!)).toEqual(['1: r h, C4 h~']);
    // 5/16 from beat 2: a quarter tied to a 16th; then a dotted eighth to the beat and a quarter.
    expect(voices(m2!)).toEqual(['1: ~C4 q, D4 q~, ~D4 16, E4 8.~, ~E4 q']);
  });

  it('fills silence with rests, an empty measure with a measure rest, and pads the last measure', () => {
    const score = read([piano([[60, 0.5, 0.25], [62, 9, 1]])]);
    const measures = score.parts[0]!.measures;
    expect(measures.map(voices)).toEqual([['1: r 8, C4 16, r 16, r h.'], ['1: R'], ['1: r q, D4 q, r h']]);
  });

  it('writes eighth and 16th triplets with brackets per beat', () => {
    const t = 1 / 3;
    const score = read([piano([[60, 0, t], [62, t, t], [64, 2 * t, t], [65, 1, 2 * t], [67, 1 + 2 * t, t], [69, 2, 1 / 6], [71, 2 + 1 / 6, 1 / 6], [72, 2 + 1 / 3, 1 / 6], [74, 2.5, 0.5]])]);
    const m1 = score.parts[0]!.measures[0]!;
    expect(voices(m1)).toEqual(['1: C4 8/3, D4 8/3, E4 8/3, F4 q/3, G4 8/3, A4 16/3, B4 16/3, C5 16/3, D5 8, r q']);
    const tuplets = m1.voices[0]!.events.map((e) => (e.tuplet ? `${e.tuplet.start ? '[' : ''}${e.tuplet.actual}:${e.tuplet.normal}${e.tuplet.stop ? ']' : ''}` : '-'));
    expect(tuplets).toEqual(['[3:2', '3:2', '3:2]', '[3:2', '3:2]', '[3:2', '3:2', '3:2]', '-', '-']);
  });

  it('reads 32nds and dotted values, and writes an off-beat note as tied values', () => {
    const score = read([piano([[60, 0, 1 / 8], [62, 1 / 8, 3 / 8], [64, 0.5, 1.5], [65, 2, 4 / 3], [67, 2 + 4 / 3, 2 / 3]])]);
    expect(voices(score.parts[0]!.measures[0]!)).toEqual(['1: C4 32, D4 16., E4 8~, ~E4 q, F4 q~, ~F4 8/3, G4 q/3']);
  });
});

describe('readMidi: quantisation', () => {
  it('snaps played timing to 16ths, keeping a played triplet beat in triplets', () => {
    // Jitter of up to ±20 ticks at 480 a quarter, and notes released early.
    const jitter = (i: number, edge: 'on' | 'off') => (edge === 'on' ? [13, -17, 9, -20, 15, -8, 11, -14][i % 8]! : -30 - (i % 3) * 10);
    const score = read([piano([[60, 0, 0.25], [62, 0.25, 0.25], [64, 0.5, 0.5], [65, 1, 1 / 3], [67, 4 / 3, 1 / 3], [69, 5 / 3, 1 / 3], [71, 2, 2]])], { jitter });
    expect(voices(score.parts[0]!.measures[0]!)).toEqual(['1: C4 16, D4 16, E4 8, F4 8/3, G4 8/3, A4 8/3, B4 h']);
  });

  it('does not turn one early 16th into a triplet', () => {
    // An onset at 0.30 of the beat sits nearer 1/3 than 1/4, but not clearly so.
    const score = read([piano([[60, 0, 0.3], [62, 0.3, 0.7], [64, 1, 3]])], { jitter: (i, edge) => (edge === 'off' ? -30 : 0) });
    expect(voices(score.parts[0]!.measures[0]!)).toEqual(['1: C4 16, D4 8., E4 h.']);
  });

  it('keeps the written values of a file from notation software, down to 64ths and 32nd triplets', () => {
    const notes: TrackSpec['notes'] = [[60, 0, 1 / 16], [62, 1 / 16, 1 / 16], [64, 1 / 8, 1 / 8], [65, 1 / 4, 3 / 4], [67, 1, 1 / 12], [69, 1 + 1 / 12, 1 / 12], [71, 1 + 1 / 6, 1 / 12], [72, 1.25, 0.75], [74, 2, 2]];
    const score = read([piano(notes)]);
    expect(voices(score.parts[0]!.measures[0]!)).toEqual(['1: C4 64, D4 64, E4 32, F4 8., G4 32/3, A4 32/3, B4 32/3, C5 8., D5 h']);
  });

  it('gives a note too short for the grid one grid step', () => {
    const score = read([piano([[60, 0, 0.02], [62, 1, 3]])], { jitter: () => 0 });
    expect(voices(score.parts[0]!.measures[0]!)).toEqual(['1: C4 16, r 8., D4 h.']);
  });

  it('reads files of any resolution, and SMPTE-timed files as if at 120 quarters a minute', () => {
    const low = read([piano([[60, 0, 0.5], [62, 0.5, 0.5], [64, 1, 1 / 3], [65, 4 / 3, 1 / 3], [67, 5 / 3, 1 / 3], [69, 2, 2]])], { ppq: 24 });
    expect(voices(low.parts[0]!.measures[0]!)).toEqual(['1: C4 8, D4 8, E4 8/3, F4 8/3, G4 8/3, A4 h']);
    // 25 frames a second × 40 ticks a frame: 500 ticks a quarter at 120.
    const notes = trackBody([
      [0, [0x90, 60, 80]],
      [500, [0x80, 60, 0]],
      [500, [0x90, 64, 80]],
      [1500, [0x80, 64, 0]],
    ]);
    const smpte = readMidi(smfBytes([notes], { format: 0, division: 0xe728 }));
    expect(voices(smpte.parts[0]!.measures[0]!)).toEqual(['1: C4 q, E4 h, r q']);
  });
});

describe('readMidi: chords and voices', () => {
  it('makes a chord of notes that start and end together, lowest first', () => {
    const score = read([piano([[67, 0, 2], [60, 0, 2], [64, 0, 2], [72, 2, 2]])]);
    expect(voices(score.parts[0]!.measures[0]!)).toEqual(['1: [C4 E4 G4] h, C5 h']);
  });

  it('puts overlapping notes of different lengths in a second voice, with hidden rests', () => {
    const score = read([piano([[64, 0, 1], [65, 1, 1], [67, 2, 1], [69, 3, 1], [60, 0, 2], [62, 4, 4]])]);
    const [m1, m2] = score.parts[0]!.measures;
    expect(voices(m1!)).toEqual(['1: E4 q, F4 q, G4 q, A4 q', '2: C4 h, x h']);
    expect(voices(m2!)).toEqual(['1: D4 w']);
  });

  it('keeps at most four voices a staff, shortening notes rather than losing them', () => {
    // Measure 1: four held notes, then a fifth starts: the voice that frees soonest (A4) is cut short.
    // Measure 2: five notes start together with five lengths: F4 joins the chord nearest its length.
    const score = read([
      piano([[72, 0, 4], [71, 0.5, 3.5], [69, 1, 2], [67, 1.5, 2.5], [65, 2, 1]]),
      piano([[72, 4, 0.5], [71, 4, 1], [69, 4, 1.5], [67, 4, 2], [65, 4, 2.5]]),
    ]);
    const [cut, joined] = [score.parts[0]!.measures[0]!, score.parts[1]!.measures[1]!];
    expect(voices(cut)).toEqual(['1: C5 w', '2: x 8, B4 8~, ~B4 h.', '3: x q, A4 q, F4 q, x q', '4: x q., G4 8~, ~G4 h']);
    expect(voices(joined)).toEqual(['1: C5 8, r 8, r h.', '2: B4 q, x h.', '3: A4 q., x 8, x h', '4: [F4 G4] h, x h']);
    const onsets = [...placedNotes(score)].filter((n) => !n.note.tieStop).map((n) => `${toString(n.onset)}:${n.pitch.step}`);
    expect(onsets.sort()).toEqual(['0:C', '1/2:B', '1:A', '2:F', '3/2:G', '4:A', '4:B', '4:C', '4:F', '4:G']);
  });

  it('ends a note where the next on its key starts, and keeps the longer of two that start together', () => {
    // MIDI pairs a key's note-ons and note-offs first come, first served: C4 sounds [0, 2) and [1, 3).
    const score = read([piano([[60, 0, 2], [60, 1, 2], [64, 3, 0.5], [64, 3, 1]])]);
    expect(voices(score.parts[0]!.measures[0]!)).toEqual(['1: C4 q, C4 h, E4 q']);
  });
});

describe('readMidi: meter, keys and tempo', () => {
  it('takes time signatures and their changes', () => {
    const score = read([piano([[60, 0, 3], [62, 3, 1.5], [64, 4.5, 1.5], [65, 6, 0.5], [67, 6.5, 2.5]])], { times: [[0, 3, 4], [3, 6, 8]] });
    const [m1, m2, m3] = score.parts[0]!.measures;
    expect([m1!.time, m2!.time, m3!.time]).toEqual([{ beats: 3, beatType: 4 }, { beats: 6, beatType: 8 }, undefined]);
    // Compound time beats in dotted quarters.
    expect(voices(m2!)).toEqual(['1: D4 q., E4 q.']);
    expect(voices(m3!)).toEqual(['1: F4 8, G4 q~, ~G4 q.']);
    // Whole beats tie in beats: three dotted quarters are a dotted half and a dotted quarter.
    const twelve = read([piano([[60, 0, 4.5], [62, 4.5, 1.5]])], { times: [[0, 12, 8]] });
    expect(voices(twelve.parts[0]!.measures[0]!)).toEqual(['1: C4 h.~, ~C4 q., D4 q.']);
  });

  it('gives a measure cut short by a time signature change a signature of its own length', () => {
    // A pickup written as 4/4 from the start, with the real 4/4 starting after one beat.
    const score = read([piano([[67, 0, 1], [72, 1, 4]])], { times: [[0, 4, 4], [1, 4, 4]] });
    const measures = score.parts[0]!.measures;
    expect(measures.map((m) => m.time)).toEqual([{ beats: 1, beatType: 4 }, { beats: 4, beatType: 4 }]);
    expect(measures.map(voices)).toEqual([['1: G4 q'], ['1: C5 w']]);
    // 6/8 interrupted after five eighths.
    const cut = read([piano([[60, 0, 2.5], [62, 2.5, 1]])], { times: [[0, 6, 8], [2.5, 2, 4]] });
    expect(cut.parts[0]!.measures.map((m) => m.time)).toEqual([{ beats: 5, beatType: 8 }, { beats: 2, beatType: 4 }]);
  });

  it('reads key signatures with their mode, spells in the key, and changes key at the next barline', () => {
    const score = read([piano([[66, 0, 1], [61, 1, 1], [70, 2, 1], [63, 3, 1], [70, 4, 1], [63, 5, 1], [66, 6, 2], [66, 8, 4]])], {
      keys: [[0, 2], [4, -3, true], [6.5, 0]],
    });
    const measures = score.parts[0]!.measures;
    expect(measures.map((m) => m.key)).toEqual([{ fifths: 2, mode: 'major' }, { fifths: -3, mode: 'minor' }, { fifths: 0, mode: 'major' }]);
    expect(measures.map(voices)).toEqual([['1: F#4 q, C#4 q, A#4 q, D#4 q'], ['1: Bb4 q, Eb4 q, F#4 h'], ['1: F#4 w']]);
  });

  it('spells chromatic notes towards the key', () => {
    const chromatic = Array.from({ length: 12 }, (_, i): [number, number, number] => [60 + i, i, 1]);
    const inC = read([piano(chromatic)], { times: [[0, 12, 4]] });
    expect(voices(inC.parts[0]!.measures[0]!)[0]).toBe('1: C4 q, C#4 q, D4 q, Eb4 q, E4 q, F4 q, F#4 q, G4 q, G#4 q, A4 q, Bb4 q, B4 q');
    const inGb = read([piano(chromatic)], { times: [[0, 12, 4]], keys: [[0, -6]] });
    expect(voices(inGb.parts[0]!.measures[0]!)[0]).toBe('1: C4 q, Db4 q, D4 q, Eb4 q, Fb4 q, F4 q, Gb4 q, G4 q, Ab4 q, A4 q, Bb4 q, Cb5 q');
  });

  it('keeps tempo changes as playback tempos of the first part', () => {
    const score = read([piano([[60, 0, 12]]), { program: 40, notes: [[72, 0, 12]] }], { tempos: [[0, 90], [4, 90], [9, 72.5]] });
    const [first, second] = score.parts;
    expect(first!.measures.map((m) => m.directions)).toEqual([[{ offset: { n: 0, d: 1 }, staff: 1, tempo: 90 }], [], [{ offset: { n: 1, d: 1 }, staff: 1, tempo: 72.5 }]]);
    expect(second!.measures.every((m) => m.directions.length === 0)).toBe(true);
  });
});

describe('readMidi: parts, staves and clefs', () => {
  it('makes one part per track with notes, named by the track or else by the program', () => {
    const score = read(
      [
        { name: 'Violino I', program: 40, notes: [[76, 0, 4]] },
        { name: 'Empty', program: 41, notes: [] },
        { program: 42, notes: [[48, 0, 4]] },
        { name: 'Flöte – 1', program: 73, notes: [[79, 0, 4]] },
      ],
      { title: 'Serenade' },
    );
    expect(score.credits).toEqual({ title: 'Serenade' });
    expect(score.parts.map((p) => [p.id, p.name, p.instrumentId, p.midiProgram, p.staves])).toEqual([
      ['P1', 'Violino I', 'strings.violin', 40, 1],
      ['P2', 'Cello', 'strings.cello', 42, 1],
      ['P3', 'Flöte – 1', 'wind.flute', 73, 1],
    ]);
  });

  it('makes a drum part of channel 10, with unpitched notes on a percussion clef', () => {
    const score = read([{ name: 'Drums', channel: 9, notes: [[36, 0, 1], [38, 1, 1], [42, 0, 0.5]] }], { keys: [[0, 3]] });
    const part = score.parts[0]!;
    expect([part.instrumentId, part.percussion, part.midiProgram]).toEqual(['percussion.drum-set', true, 0]);
    const m1 = part.measures[0]!;
    expect(m1.clefs.map((c) => c.sign)).toEqual(['percussion']);
    expect(m1.key).toBeUndefined();
    expect(voices(m1)).toEqual(['1: F#2 8, r 8, D2 q, r h', '2: C2 q, x h.']);
    expect([...placedNotes(score)].every((n) => n.note.unpitched)).toBe(true);
  });

  it('writes a piano part spanning middle C on two staves, voices 1 and 5', () => {
    const score = read([piano([[72, 0, 4], [64, 0, 4], [48, 0, 2], [55, 2, 2], [60, 4, 4]])]);
    const part = score.parts[0]!;
    expect(part.staves).toBe(2);
    expect(part.measures[0]!.clefs.map((c) => [c.sign, c.staff])).toEqual([['G', 1], ['F', 2]]);
    expect(voices(part.measures[0]!)).toEqual(['1: [E4 C5] w', '5: C3 h, G3 h']);
    expect(voices(part.measures[1]!)).toEqual(['1: C4 w', '5: R']);
    expect(part.measures[0]!.voices[1]!.events.every((e) => e.staff === 2)).toBe(true);
    // All above middle C: one treble staff.
    expect(read([piano([[72, 0, 4]])]).parts[0]!.staves).toBe(1);
  });

  it('chooses the clef that needs the fewest ledger lines, the instrument’s own one favoured', () => {
    const clef = (program: number, notes: TrackSpec['notes']) => {
      const part = read([{ program, notes }]).parts[0]!;
      const c = part.measures[0]!.clefs[0]!;
      return `${c.sign}${c.line}${c.octaveChange ? c.octaveChange : ''}`;
    };
    const low: TrackSpec['notes'] = [[43, 0, 1], [48, 1, 1], [52, 2, 1], [55, 3, 1]];
    const middle: TrackSpec['notes'] = [[53, 0, 1], [57, 1, 1], [60, 2, 1], [67, 3, 1]];
    expect(clef(0, low)).toBe('F4');
    expect(clef(42, low)).toBe('F4');
    expect(clef(41, middle)).toBe('C3');
    expect(clef(40, middle)).toBe('G2');
    expect(clef(24, [[52, 0, 1], [55, 1, 1], [59, 2, 1], [64, 3, 1]])).toBe('G2-1');
    expect(clef(42, [[76, 0, 1], [79, 1, 1], [81, 2, 1], [84, 3, 1]])).toBe('G2');
  });

  it('writes a transposing instrument at written pitch, in its written key', () => {
    const score = read([{ name: 'Clarinet', program: 71, notes: [[70, 0, 2], [74, 2, 2]] }, { name: 'Bass', program: 33, notes: [[40, 0, 4]] }], { keys: [[0, -2]] });
    const [clarinet, bass] = score.parts;
    expect(clarinet!.transposition).toEqual({ diatonic: -1, chromatic: -2 });
    expect(clarinet!.measures[0]!.key).toEqual({ fifths: 0, mode: 'major' });
    expect(voices(clarinet!.measures[0]!)).toEqual(['1: C5 h, E5 h']);
    expect(bass!.transposition).toEqual({ diatonic: 0, chromatic: 0, octaveChange: -1 });
    expect(voices(bass!.measures[0]!)).toEqual(['1: E3 w']);
    expect(soundingNotes(score)).toEqual(['p0 @0 d2 k70', 'p0 @2 d2 k74', 'p1 @0 d4 k40']);
  });

  it('splits a format-0 file by channel, decodes UTF-8 names and drops control characters', () => {
    const body = trackBody([
      [0, text(0x03, 'Café\u0001 Band')],
      [0, [0xc0, 41]],
      [0, [0xc1, 0]],
      [0, [0x90, 60, 80]],
      [0, [0x91, 72, 80]],
      [1920, [0x80, 60, 0]],
      [1920, [0x81, 72, 0]],
    ]);
    const score = readMidi(smfBytes([body], { format: 0 }));
    expect(measureProblem(score)).toBeUndefined();
    expect(score.parts.map((p) => [p.name, p.instrumentId])).toEqual([
      ['Café Band', 'strings.viola'],
      ['Piano', 'keyboard.piano'],
    ]);
  });

  it('is exported from the package entry point', () => {
    expect(library.readMidi).toBe(readMidi);
  });
});

describe('readMidi: exact round trip of written music', () => {
  it('reads back onsets, durations and sounding pitches exactly, tied notes joined', () => {
    const notes: TrackSpec['notes'] = [
      [60, 0, 1.5], [64, 1.5, 0.5], [67, 2, 3], [72, 5, 1 / 3], [71, 5 + 1 / 3, 1 / 3], [69, 5 + 2 / 3, 1 / 3],
      [48, 0, 4], [55, 4, 2.75], [53, 6.75, 0.25], [52, 7, 5],
    ];
    const score = read([piano(notes)], { times: [[0, 4, 4], [8, 3, 4]] });
    const exact = (x: number) => toString(frac(Math.round(x * 48), 48));
    const expected = notes.map(([key, at, length]) => `p0 @${exact(at)} d${exact(length)} k${key}`);
    expect(soundingNotes(score)).toEqual(expected.sort());
  });
});
