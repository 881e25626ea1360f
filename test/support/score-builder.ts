/**
 * Concise construction of score-model fixtures for tests:
 * `score(part([measure([note('C4', 'quarter'), rest('half')])]))`.
 */
import { ZERO, type Fraction } from '../../src/score/fraction.js';
import type { Direction, DurationType, Measure, NoteEvent, Part, RestEvent, Score, Step, Tuplet, VoiceEvent } from '../../src/score/model.js';
import { notatedDuration } from '../../src/score/timeline.js';

export interface NoteOptions {
  dots?: number;
  tuplet?: Tuplet;
  staff?: number;
  tieStart?: boolean;
  tieStop?: boolean;
  grace?: boolean;
  cue?: boolean;
}

/** A note or chord: `note('C4', 'quarter')`, `note(['C4', 'E4', 'G4'], 'half')`, `note('F#5', 'eighth')`. */
export function note(pitches: string | string[], type: DurationType, options: NoteOptions = {}): NoteEvent {
  const dots = options.dots ?? 0;
  const event: NoteEvent = {
    kind: 'note',
    duration: options.grace ? ZERO : notatedDuration(type, dots, options.tuplet),
    type,
    dots,
    staff: options.staff ?? 1,
    lyrics: [],
    notes: (Array.isArray(pitches) ? pitches : [pitches]).map((text) => {
      const match = /^([A-G])(##|#|bb|b)?(-?\d)$/.exec(text);
      if (!match) throw new Error(`bad pitch ${text}`);
      const alter = { '##': 2, '#': 1, bb: -2, b: -1 }[match[2] ?? ''] ?? 0;
      return {
        pitch: { step: match[1] as Step, alter, octave: Number(match[3]) },
        ...(options.tieStart && { tieStart: true }),
        ...(options.tieStop && { tieStop: true }),
      };
    }),
  };
  if (options.tuplet) event.tuplet = options.tuplet;
  if (options.grace) event.grace = { slash: true };
  if (options.cue) event.cue = true;
  return event;
}

export function rest(type: DurationType, options: { hidden?: boolean; staff?: number; dots?: number } = {}): RestEvent {
  const dots = options.dots ?? 0;
  const event: RestEvent = { kind: 'rest', duration: notatedDuration(type, dots), type, dots, staff: options.staff ?? 1 };
  if (options.hidden) event.hidden = true;
  return event;
}

/** A measure with one voice, or several given as arrays of events. */
export function measure(voices: VoiceEvent[] | VoiceEvent[][], extra: Partial<Measure> = {}): Measure {
  const list = Array.isArray(voices[0]) ? (voices as VoiceEvent[][]) : [voices as VoiceEvent[]];
  return { number: '1', clefs: [], directions: [], voices: list.map((events, i) => ({ id: String(i + 1), events })), ...extra };
}

export function direction(offset: Fraction, fields: Partial<Direction>): Direction {
  return { offset, staff: 1, ...fields };
}

export function part(measures: Measure[], extra: Partial<Part> = {}): Part {
  return { id: 'P1', name: 'Piano', instrumentId: 'keyboard.piano', midiProgram: 0, staves: 1, measures, ...extra };
}

export function score(...parts: Part[]): Score {
  return { credits: { title: 'Test' }, parts, partGroups: [] };
}

/** Renumbers measures 1, 2, 3 … (builders default every measure to "1"). */
export function numbered(measures: Measure[]): Measure[] {
  return measures.map((m, i) => ({ ...m, number: String(i + 1) }));
}
