/**
 * The one state the music reader's passes (build-score.ts) share: the
 * systems read off the pages, and what each pass has settled of the score
 * so far. Each pass reads what the passes before it added and adds its own
 * share; every field says which pass fills it.
 */
import { compare, ZERO, type Fraction } from '../../score/fraction.js';
import type { Clef, Measure, Part, RestEvent, Score, TimeSignature } from '../../score/model.js';
import type { StaffReading, SystemReading } from '../read-page.js';
import type { Stroke } from '../strokes.js';
import type { PlacedStroke } from '../ties-slurs.js';
import type { PlacedItem } from '../voice-timing.js';

/** A place a staff fills in the score: its part, and which of the part's staves. */
export interface Slot {
  part: number;
  /** 1-based staff within the part. */
  staff: number;
}

export interface Layout {
  parts: { staves: number }[];
  slots: Slot[];
  /** Opening clef of each slot in the reference system, to match other systems against. */
  clefs: (Clef | undefined)[];
}

/** A written item's place across the page and its onset in its measure. */
export interface PlacedOnset {
  x: number;
  onset: Fraction;
}

/** The onset of the written item nearest right of x (the earliest, of items in line); the measure's end if none. */
export function onsetAt(onsets: readonly PlacedOnset[], x: number, end: Fraction): Fraction {
  let best: PlacedOnset | undefined;
  for (const o of onsets) if (o.x > x && (!best || o.x < best.x || (o.x === best.x && compare(o.onset, best.onset) < 0))) best = o;
  return best?.onset ?? end;
}

/** One staff's share of a measure. */
export interface StaffMeasure {
  /** voices: the staff's items between the barlines, in voices, timed as written (timing repairs them in place). */
  voices: PlacedItem[][];
  /** signatures: the clef in force for the measure's notes (before any clef printed inside it). */
  clef?: Clef;
  /** signatures: the key in force for the measure's notes. */
  key?: number;
  /** timing: per voice, the time that passes before its first item (rests an engraver left out). */
  leads: Fraction[];
  /** timing: per voice, the hidden rest before each item and after the last, where the places of its items time it. */
  gaps: (Fraction[] | undefined)[];
  /** pitches: where each written item stands and its onset, for the directions at them. */
  onsets: PlacedOnset[];
  /** pitches: where the staff's longest voice ends. */
  end: Fraction;
}

/** One measure of a system, across its staves, and what it becomes in every part. */
export interface MeasureState {
  /** layout: index of the system in reading order. */
  system: number;
  /** layout: index of the measure in its system. */
  index: number;
  /** layout: x of the barline before it. */
  left: number;
  /** layout: x of the barline after it. */
  right: number;
  /** voices: per slot shown on the system, the staff's measure. */
  staves: Map<number, StaffMeasure>;
  /** time: the time signature in force (undefined until one is printed or inferred). */
  time: TimeSignature | undefined;
  /** time: whether the measure shows a time signature other than the one in force before it. */
  timeChanged: boolean;
  /** time: whether the measure shows a time signature at all (a change, or the same one restated at a new movement). */
  timeShown: boolean;
  /** time: the length the time signature in force gives the measure. */
  expected: Fraction;
  /** measures: how many measures it stands for: a multi-measure rest's count, else 1. */
  run: number;
  /** measures: the measure of each part, numbered, with its breaks and barlines; later passes fill it in. */
  parts: Measure[];
}

export interface ReadingState {
  /** The systems read off the pages, in reading order. */
  readonly systems: readonly SystemReading[];
  /** layout: the parts and their staves (slots). */
  layout: Layout;
  /** layout: per system, the slot each of its staves fills. */
  slotsOf: number[][];
  /** layout: the score's parts; parts adds their measures. */
  parts: Part[];
  /** layout: every measure of every system, in reading order. */
  measures: MeasureState[];
  /** pitches: the event and part each stroke became, for ties and slurs to join. */
  placed: Map<Stroke, PlacedStroke>;
}

/** One named step of reading the score: what it reads and adds is said where it is defined. */
export interface ScorePass {
  readonly name: string;
  run(state: ReadingState): void;
}

export function readingState(systems: readonly SystemReading[]): ReadingState {
  return { systems, layout: { parts: [], slots: [], clefs: [] }, slotsOf: [], parts: [], measures: [], placed: new Map() };
}

export function scoreOf(state: ReadingState): Score {
  return { credits: {}, parts: state.parts, partGroups: [] };
}

/** A staff's measure with its voices as written, for the later passes to fill in. */
export function staffMeasure(voices: PlacedItem[][]): StaffMeasure {
  return { voices, leads: [], gaps: [], onsets: [], end: ZERO };
}

/** The staff of the measure's system that fills slot s; undefined where the system leaves it out. */
export function readingAt(state: ReadingState, measure: MeasureState, s: number): StaffReading | undefined {
  const k = state.slotsOf[measure.system]!.indexOf(s);
  return k >= 0 ? state.systems[measure.system]!.staves[k] : undefined;
}

/** Voice numbers go up by four per staff of a part, as MusicXML writers number them. */
export function voiceId(slot: Slot, voice: number): string {
  return String((slot.staff - 1) * 4 + voice + 1);
}

export function measureRest(expected: Fraction, staff: number): RestEvent {
  return { kind: 'rest', duration: expected, dots: 0, staff, measureRest: true };
}
