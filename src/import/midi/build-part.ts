/**
 * The measures of one imported part, from its voices and the score's
 * measures.
 *
 * Chords are cut at barlines and written as tied values (note-values.ts);
 * the gaps between them are rests, so that every voice fills its measure
 * exactly. The first voice of each staff is always there (a whole-measure
 * rest where it has nothing); further voices appear only in measures where
 * they have notes, and their gaps are hidden rests, as engravers leave them.
 * Voices are numbered 1–4 on the first staff and 5–8 on the second, as
 * notation programs number them.
 */
import { add, compare, div, max, sub, toNumber, ZERO, type Fraction } from '../../score/fraction.js';
import type { Direction, KeySignature, Measure, NoteEvent, Part, RestEvent, Voice, VoiceEvent } from '../../score/model.js';
import type { MeasureSpan } from './meter.js';
import { beatOf, noteValues } from './note-values.js';
import type { PartLayout } from './part-layout.js';
import { spell } from './spelling.js';
import { MAX_VOICES, type Chord } from './voices.js';

export interface PartContent {
  id: string;
  name: string;
  program: number;
  percussion: boolean;
  layout: PartLayout;
  /** Voices of each staff, top staff first. */
  staves: Chord[][][];
}

export interface MeasureContext {
  spans: readonly MeasureSpan[];
  /** Written key of each measure where it changes (none for percussion). */
  keys: ReadonlyMap<number, KeySignature>;
  /** Directions of each measure, with offsets from its start. */
  directions: ReadonlyMap<number, Direction[]>;
}

export function buildPart(content: PartContent, context: MeasureContext): Part {
  const { layout } = content;
  const voices = content.staves.flatMap((staffVoices, s) =>
    staffVoices.map((chords, v) => ({ id: String(MAX_VOICES * s + v + 1), staff: s + 1, first: v === 0, chords, next: 0 })),
  );
  let key: KeySignature = { fifths: 0 };
  let time: string | undefined;
  const measures = context.spans.map((span, m): Measure => {
    const measure: Measure = { number: String(m + 1), clefs: [], voices: [], directions: context.directions.get(m) ?? [] };
    const newKey = context.keys.get(m);
    if (newKey) measure.key = key = newKey;
    const timeText = `${span.time.beats}/${span.time.beatType}`;
    if (timeText !== time) measure.time = { ...span.time };
    time = timeText;
    if (m === 0) measure.clefs = layout.clefs.map((clef, s) => ({ ...clef, staff: s + 1, offset: ZERO }));
    const end = add(span.start, span.length);
    for (const voice of voices) {
      // Chords that ended before this measure are done with.
      while (voice.next < voice.chords.length && compare(voice.chords[voice.next]!.end, span.start) <= 0) voice.next++;
      const inMeasure: Chord[] = [];
      for (let i = voice.next; i < voice.chords.length && compare(voice.chords[i]!.onset, end) < 0; i++) inMeasure.push(voice.chords[i]!);
      if (!inMeasure.length && !voice.first) continue;
      const events = inMeasure.length
        ? voiceEvents(inMeasure, span, voice.staff, !voice.first, (k) => writtenPitch(content, k, key))
        : [measureRest(span.length, voice.staff)];
      measure.voices.push({ id: voice.id, events } satisfies Voice);
    }
    return measure;
  });

  const part: Part = {
    id: content.id,
    name: content.name,
    instrumentId: layout.instrument.id,
    midiProgram: content.program,
    staves: layout.clefs.length,
    measures,
  };
  if (content.percussion) part.percussion = true;
  if (layout.transposition) part.transposition = { ...layout.transposition };
  return part;
}

function writtenPitch(content: PartContent, key: number, signature: KeySignature): NoteEvent['notes'][number] {
  if (content.percussion) return { pitch: spell(key, 0), unpitched: true };
  return { pitch: spell(key, signature.fifths, signature.mode) };
}

/** The events of one voice in one measure: its chords, cut to the measure, and rests between them. */
function voiceEvents(chords: readonly Chord[], span: MeasureSpan, staff: number, hiddenRests: boolean, note: (key: number) => NoteEvent['notes'][number]): VoiceEvent[] {
  const beat = beatOf(span.time.beats, span.time.beatType);
  const placed: { event: VoiceEvent; offset: Fraction; triplet: boolean }[] = [];
  const rests = (from: Fraction, to: Fraction) => {
    let at = from;
    for (const value of noteValues(from, to, beat)) {
      const event: RestEvent = { kind: 'rest', duration: value.duration, type: value.type, dots: value.dots, staff };
      if (hiddenRests) event.hidden = true;
      placed.push({ event, offset: at, triplet: value.triplet });
      at = add(at, value.duration);
    }
  };
  let cursor = ZERO;
  for (const chord of chords) {
    const from = max(sub(chord.onset, span.start), ZERO);
    const to = min(sub(chord.end, span.start), span.length);
    if (compare(cursor, from) < 0) rests(cursor, from);
    const values = noteValues(from, to, beat);
    let at = from;
    values.forEach((value, i) => {
      const tieStop = i > 0 || compare(chord.onset, span.start) < 0;
      const tieStart = i < values.length - 1 || compare(sub(chord.end, span.start), span.length) > 0;
      const event: NoteEvent = {
        kind: 'note',
        duration: value.duration,
        type: value.type,
        dots: value.dots,
        staff,
        lyrics: [],
        notes: chord.keys.map((k) => ({ ...note(k), ...(tieStart && { tieStart: true }), ...(tieStop && { tieStop: true }) })),
      };
      placed.push({ event, offset: at, triplet: value.triplet });
      at = add(at, value.duration);
    });
    cursor = to;
  }
  if (compare(cursor, span.length) < 0) rests(cursor, span.length);
  markTriplets(placed, beat);
  return placed.map((p) => p.event);
}

/**
 * Brackets triplets: a run of consecutive triplet values within one beat
 * shares a bracket, opened on its first value and closed on its last.
 */
function markTriplets(placed: readonly { event: VoiceEvent; offset: Fraction; triplet: boolean }[], beat: Fraction): void {
  const beatOfOffset = (offset: Fraction) => Math.floor(toNumber(div(offset, beat)));
  placed.forEach((p, i) => {
    if (!p.triplet) return;
    const before = placed[i - 1];
    const after = placed[i + 1];
    const start = !before?.triplet || beatOfOffset(before.offset) !== beatOfOffset(p.offset);
    const stop = !after?.triplet || beatOfOffset(after.offset) !== beatOfOffset(p.offset);
    p.event.tuplet = { actual: 3, normal: 2, ...(start && { start: true }), ...(stop && { stop: true }) };
  });
}

function measureRest(length: Fraction, staff: number): RestEvent {
  return { kind: 'rest', duration: length, dots: 0, staff, measureRest: true };
}

function min(a: Fraction, b: Fraction): Fraction {
  return compare(a, b) <= 0 ? a : b;
}
