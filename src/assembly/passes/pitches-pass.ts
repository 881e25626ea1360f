/**
 * Pitches: every item becomes its event, and every staff measure its
 * voices. A head's pitch is its staff position under the clef in force,
 * altered by the key, or by an accidental printed before it or earlier in
 * the measure on its staff; a stroke carries its stem, its marks and its
 * beams. Hidden rests fill what timing found left out.
 *
 * Reads: the timed voices, the clef and key in force, the accidentals and
 * marks read on each staff.
 * Adds: the voices of the parts' measures (an empty staff measure a
 * whole-measure rest); per staff measure, the onsets of its written items;
 * the event each stroke became (`placed`).
 */
import { add, compare, ZERO, type Fraction } from '../../score/fraction.js';
import type { Clef, Note, NoteEvent, Pitch, RestEvent, VoiceEvent } from '../../score/model.js';
import { keyAlter, STEPS } from '../../score/pitch.js';
import { markFamily } from '../../reading/mark-kinds.js';
import type { AccidentalKind } from '../../symbols/read-symbols.js';
import { beamValues } from '../beams.js';
import { diatonicAt } from '../clef-pitch.js';
import type { StaffReading, SystemReading } from '../read-page.js';
import type { PlacedItem } from '../voice-timing.js';
import { evidenceOf } from './evidence-pass.js';
import { measureRest, readingAt, voiceId, type PlacedOnset, type ScorePass } from './reading-state.js';

const ALTER: Record<AccidentalKind, number> = { sharp: 1, flat: -1, natural: 0, 'double-sharp': 2, 'flat-flat': -2 };

export const pitchesPass: ScorePass = {
  name: 'pitches',
  run(state) {
    for (const measureState of state.measures) {
      const { expected } = measureState;
      const system = state.systems[measureState.system]!;
      state.layout.slots.forEach((slot, s) => {
        const measure = measureState.parts[slot.part]!;
        const staffMeasure = measureState.staves.get(s);
        const voices = staffMeasure?.voices ?? [];
        if (!staffMeasure || !voices.length) {
          measure.voices.push({ id: voiceId(slot, 0), events: [measureRest(expected, slot.staff)] });
          return;
        }
        const reading = readingAt(state, measureState, s)!;
        const { leads, gaps } = staffMeasure;
        // An accidental holds for the rest of the measure on its staff, in every voice: events are made
        // left to right across the voices.
        const accidentalState = new Map<number, number>();
        const events = new Map<PlacedItem, VoiceEvent>();
        for (const item of voices.flat().sort((a, b) => a.x - b.x)) {
          const event = toEvent(item, slot.staff, reading, system, clefAt(reading, item.x, staffMeasure.clef!), staffMeasure.key!, accidentalState);
          events.set(item, event);
          if (item.source.kind === 'chord' && event.kind === 'note') state.placed.set(item.source, { event, part: slot.part });
        }
        const hiddenRest = (duration: Fraction): VoiceEvent[] => (compare(duration, ZERO) > 0 ? [{ kind: 'rest', duration, dots: 0, staff: slot.staff, hidden: true }] : []);
        // Where each item starts as written, and where the staff's measure ends: hairpins start and stop there.
        const itemOf = new Map([...events].map(([item, event]) => [event, item]));
        const onsets: PlacedOnset[] = [];
        let end = ZERO;
        voices.forEach((items, v) => {
          const gapsOf = gaps[v];
          const voiceEvents = gapsOf
            ? [...items.flatMap((item, k) => [...hiddenRest(gapsOf[k]!), events.get(item)!]), ...hiddenRest(gapsOf[items.length]!)]
            : [...hiddenRest(leads[v]!), ...items.map((item) => events.get(item)!)];
          beamVoice(items, events);
          measure.voices.push({ id: voiceId(slot, v), events: voiceEvents });
          let t = ZERO;
          for (const event of voiceEvents) {
            const item = itemOf.get(event);
            if (item) onsets.push({ x: item.x, onset: t });
            t = add(t, event.duration);
          }
          if (compare(t, end) > 0) end = t;
        });
        staffMeasure.onsets = onsets;
        staffMeasure.end = end;
      });
    }
  },
};

/** The clef in force at x: the last one printed on this staff before it, or the one carried in. */
function clefAt(reading: StaffReading, x: number, current: Clef): Clef {
  let clef = current;
  for (const c of reading.signatures.clefs) if (c.x < x) clef = c.value;
  return clef;
}

function toEvent(item: PlacedItem, staff: number, reading: StaffReading, system: SystemReading, clef: Clef, fifths: number, accidentals: Map<number, number>): VoiceEvent {
  const source = item.source;
  const evidence = evidenceOf(system.page, system.transform, source, source.confidence);
  const timing = {
    duration: item.duration,
    type: item.type,
    dots: item.dots,
    staff,
    ...(item.tuplet ? { tuplet: item.tuplet } : {}),
    evidence,
  };
  if (source.kind === 'rest') {
    const rest: RestEvent = { kind: 'rest', ...timing };
    if (item.measureRest) {
      rest.measureRest = true;
      delete rest.type;
      rest.dots = 0;
    }
    return rest;
  }
  const notes: Note[] = source.heads.map((head) => {
    const diatonic = diatonicAt(clef, head.position);
    const step = STEPS[((diatonic % 7) + 7) % 7]!;
    const octave = Math.floor(diatonic / 7) + octavesAt(reading, source.x);
    const printed = reading.accidentals.get(head);
    if (printed) accidentals.set(diatonic, ALTER[printed]);
    const alter = accidentals.get(diatonic) ?? keyAlter(fifths, step);
    const pitch: Pitch = { step, alter, octave };
    return {
      pitch,
      ...(printed ? { accidental: { sign: printed } } : {}),
      evidence: evidenceOf(system.page, system.transform, head, head.confidence),
    };
  });
  const event: NoteEvent = { kind: 'note', ...timing, notes, lyrics: [] };
  if (item.grace) event.grace = { slash: !!source.slash };
  if (item.cue) event.cue = true;
  if (source.up !== undefined) event.stem = source.up ? 'up' : 'down';
  // A measured tremolo stays as written: the note with its strokes (MIDI plays the note once).
  if (source.tremolo && !item.grace) event.tremolo = { type: source.tremoloPair ?? 'single', marks: source.tremolo };
  if (source.arpeggio) event.arpeggiate = true;
  for (const kind of reading.articulations.get(source) ?? []) {
    const family = markFamily(kind);
    (family === 'ornament' ? (event.ornaments ??= []) : family === 'technical' ? (event.technical ??= []) : (event.articulations ??= [])).push(kind);
  }
  return event;
}

/** Octaves the notes at x sound from where they are written: those an 8va or 8vb line covers. */
function octavesAt(reading: StaffReading, x: number): number {
  return reading.octaveLines.find((line) => x >= line.x0 && x <= line.x1)?.octaves ?? 0;
}

/** Beams over a voice's strokes, as the page's beams group them. */
function beamVoice(items: readonly PlacedItem[], events: ReadonlyMap<PlacedItem, VoiceEvent>): void {
  const strokes = items.map((item) => {
    const event = events.get(item)!;
    const group = item.source.kind === 'chord' ? item.source.beamGroup : undefined;
    return { group: event.kind === 'note' ? group : undefined, type: event.type, rest: event.kind === 'rest' };
  });
  beamValues(strokes).forEach((values, k) => {
    const event = events.get(items[k]!)!;
    if (values.length && event.kind === 'note') event.beams = values;
  });
}
