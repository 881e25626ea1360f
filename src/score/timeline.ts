/**
 * Time positions derived from the score model: where measures and events
 * start. Voices run from the start of their measure, so an event's onset is
 * its measure's start plus the durations before it in its voice.
 */
import { add, compare, frac, max, mul, ZERO, type Fraction } from './fraction.js';
import type { DurationType, Measure, Note, NoteEvent, Part, Pitch, Score, TimeSignature, VoiceEvent } from './model.js';

/** Length in quarter notes of each notated type. */
export const TYPE_QUARTERS: Record<DurationType, Fraction> = {
  maxima: frac(32),
  long: frac(16),
  breve: frac(8),
  whole: frac(4),
  half: frac(2),
  quarter: frac(1),
  eighth: frac(1, 2),
  '16th': frac(1, 4),
  '32nd': frac(1, 8),
  '64th': frac(1, 16),
  '128th': frac(1, 32),
  '256th': frac(1, 64),
  '512th': frac(1, 128),
  '1024th': frac(1, 256),
};

/** Sounding duration of a notated value: type, dots, and an `actual:normal` tuplet ratio. */
export function notatedDuration(type: DurationType, dots = 0, tuplet?: { actual: number; normal: number }): Fraction {
  // Each dot adds half of the previous addition: 2 - 1/2^dots times the base.
  let d = mul(TYPE_QUARTERS[type], frac(2 ** (dots + 1) - 1, 2 ** dots));
  if (tuplet) d = mul(d, frac(tuplet.normal, tuplet.actual));
  return d;
}

/** Length of a full measure under a time signature, in quarter notes. */
export function timeSignatureLength(time: Pick<TimeSignature, 'beats' | 'beatType'>): Fraction {
  return frac(time.beats * 4, time.beatType);
}

/** Sum of the durations of a voice's events. */
export function voiceLength(events: readonly VoiceEvent[]): Fraction {
  return events.reduce((sum, e) => add(sum, e.duration), ZERO);
}

/**
 * Actual length of a measure: its longest voice. An empty measure lasts as
 * long as its time signature says (`time` is the signature in force).
 */
export function measureLength(measure: Measure, time: Pick<TimeSignature, 'beats' | 'beatType'> | undefined): Fraction {
  let len = ZERO;
  for (const v of measure.voices) len = max(len, voiceLength(v.events));
  if (compare(len, ZERO) === 0 && time) return timeSignatureLength(time);
  return len;
}

/** Start of each measure of a part, in quarter notes from the beginning of the piece. */
export function measureStarts(part: Part): Fraction[] {
  const starts: Fraction[] = [];
  let t = ZERO;
  let time: TimeSignature | undefined;
  for (const m of part.measures) {
    if (m.time) time = m.time;
    starts.push(t);
    t = add(t, measureLength(m, time));
  }
  return starts;
}

/** One sounding (or written) note with its absolute position, for comparing scores. */
export interface PlacedNote {
  part: number;
  staff: number;
  measure: number;
  voice: string;
  onset: Fraction;
  duration: Fraction;
  pitch: Pitch;
  note: Note;
  event: NoteEvent;
  grace: boolean;
}

/** Walks every note of every part in time order within each voice. */
export function* placedNotes(score: Score): Generator<PlacedNote> {
  for (const [p, part] of score.parts.entries()) {
    const starts = measureStarts(part);
    for (const [m, measure] of part.measures.entries()) {
      for (const voice of measure.voices) {
        let t = starts[m]!;
        for (const event of voice.events) {
          if (event.kind === 'note') {
            for (const note of event.notes) {
              yield {
                part: p,
                staff: event.staff,
                measure: m,
                voice: voice.id,
                onset: t,
                duration: event.duration,
                pitch: note.pitch,
                note,
                event,
                grace: !!event.grace,
              };
            }
          }
          t = add(t, event.duration);
        }
      }
    }
  }
}
