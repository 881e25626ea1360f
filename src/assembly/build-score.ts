/**
 * The systems read from every page, joined into one score.
 *
 * Parts come from the fullest system: each staff is a part, except staves a
 * brace joins, which are one instrument (a piano's grand staff). Systems
 * with fewer staves (orchestral scores drop resting instruments) are matched
 * to those slots by their clefs. Clef, key and time carry from system to
 * system and page to page, so pitches and measure lengths are settled here,
 * in reading order.
 */
import { add, compare, sub, toNumber, ZERO, type Fraction } from '../score/fraction.js';
import type { Box, Clef, Direction, Evidence, Measure, Note, NoteEvent, Part, Pitch, RestEvent, Score, TimeSignature, VoiceEvent } from '../score/model.js';
import { keyAlter, STEPS } from '../score/pitch.js';
import { beamValues } from './beams.js';
import { diatonicAt } from './clef-pitch.js';
import { staffLineY } from '../staves/detect-staves.js';
import { notatedDuration, timeSignatureLength } from '../score/timeline.js';
import { toSourcePoint, type PageTransform } from '../reading/page-transform.js';
import type { AccidentalKind } from '../symbols/read-symbols.js';
import { repairVoice, voiceDuration, type TimedItem } from './measure-repair.js';
import type { StaffReading, SystemReading } from './read-page.js';
import { restType, strokeType, type StaffItem, type Stroke } from './strokes.js';
import { TiesAndSlurs, type PlacedStroke } from './ties-slurs.js';
import { mostRead, reconcileOpeningKeys } from './opening-keys.js';
import { inferTimeSignature, settleTimes } from './time-signature.js';
import { splitVoices } from './voices.js';
import { numberEndings, withEnding } from './voltas.js';
import { cueNotes, gapsByPlace, handBackTrailing, lateStart, leadingGap, timeGrid, type PlacedItem } from './voice-timing.js';
import { markFamily } from '../reading/mark-kinds.js';

interface Slot {
  part: number;
  /** 1-based staff within the part. */
  staff: number;
}

interface Layout {
  parts: { staves: number }[];
  slots: Slot[];
  /** Opening clef of each slot in the reference system, to match other systems against. */
  clefs: (Clef | undefined)[];
}

interface StaffMeasure {
  voices: PlacedItem[][];
}

const DEFAULT_CLEF: Clef = { sign: 'G', line: 2 };
const NEAR_START_SPACES = 8;

export function buildScore(systems: readonly SystemReading[]): Score {
  if (!systems.length) return { credits: {}, parts: [], partGroups: [] };
  const layout = partLayout(systems);
  const slotsOf = systems.map((s) => matchSlots(s, layout));

  // Pass 1: events in voices with their notated durations, per system, measure and staff slot.
  const content = systems.map((system, si) =>
    system.measures.bounds.slice(0, -1).map((left, m) => {
      const right = system.measures.bounds[m + 1]!;
      const bySlot = new Map<number, StaffMeasure>();
      system.staves.forEach((reading, k) => {
        const inside = reading.items.filter((i) => i.x >= left && i.x < right);
        const voices = splitVoices(inside, reading.staff, system.space).map((voice) => voice.map(timedItem));
        bySlot.set(slotsOf[si]![k]!, { voices });
      });
      return bySlot;
    }),
  );

  // Time signatures: as printed at the start of a system or measure; inferred from the measures where unreadable.
  // A rest alone in its measure fills whatever metre is in force, so it says nothing of the metre.
  const measureLengths = content.flatMap((sys) =>
    sys.map((bySlot) => [...bySlot.values()].flatMap((sm) => (sm.voices[0] && !(sm.voices[0].length === 1 && sm.voices[0][0]!.isRest) ? [voiceDuration(sm.voices[0])] : []))),
  );
  const settledTimes = settleTimes(
    systems.flatMap((system) => {
      // The opening signature stands before the first notes; a stroke taken for a barline may cut it off.
      const opening = median(system.staves.flatMap((r) => (r.items.length ? [r.items[0]!.x] : []))) ?? system.measures.bounds[1]!;
      const bounds = system.measures.bounds;
      return bounds.slice(0, -1).map((left, m) => timeAt(system, m === 0 ? left : Math.max(left, opening), m === 0 ? Math.max(bounds[1]!, opening) : bounds[m + 1]!));
    }),
    measureLengths,
  );
  const inferred = inferTimeSignature(measureLengths.flat()) ?? { beats: 4, beatType: 4 };

  const parts: Part[] = layout.parts.map((p, i) => ({
    id: `P${i + 1}`,
    name: p.staves === 2 ? 'Piano' : `Staff ${i + 1}`,
    instrumentId: 'keyboard.piano',
    midiProgram: 0,
    staves: p.staves,
    measures: [],
  }));
  // Opening keys: every system restates one, so the readings are reconciled before any is believed.
  const openingReadings = systems.map((system, si) => {
    const bySlot = layout.slots.map((): number | undefined => undefined);
    system.staves.forEach((reading, k) => (bySlot[slotsOf[si]![k]!] = openingKey(system, reading)));
    return bySlot;
  });
  const openingKeys = reconcileOpeningKeys(openingReadings);
  // A staff hidden in the first system (orchestral scores leave silent staves out) or with its clef
  // unreadable there starts in the clef and key it shows where it first appears.
  const clefState: Clef[] = layout.slots.map((_, s) => firstOpeningClef(systems, slotsOf, s) ?? DEFAULT_CLEF);
  const keyState: number[] = layout.slots.map((_, s) => firstOpeningKey(openingKeys, s) ?? 0);
  /** Per staff: marked triplets have been read, so unmarked ones may follow. */
  const tripletsShown: boolean[] = layout.slots.map(() => false);
  // Ties and slurs join strokes; they are laid on the notes once a system's strokes all have theirs.
  const placed = new Map<Stroke, PlacedStroke>();
  const curves = new TiesAndSlurs({
    stroke: (stroke) => placed.get(stroke),
    note: (head, stroke) => placed.get(stroke)?.event.notes[stroke.heads.indexOf(head)],
  });
  let time: TimeSignature | undefined;
  let measureNumber = 1;
  let printedIndex = 0;
  const endingNumbers = numberEndings(systems.map((s) => ({ endings: s.endings, repeatsBack: s.measures.bounds.slice(1).map((_, m) => s.measures.right[m]?.repeat?.direction === 'backward') })));

  systems.forEach((system, si) => {
    const slots = slotsOf[si]!;
    // A system that shows no key at all (none was read, or C major follows a change) keeps the one in
    // force; the first takes what later systems show.
    const shown = openingReadings[si]!.some((value) => value !== undefined);
    system.measures.bounds.slice(0, -1).forEach((left, m) => {
      const right = system.measures.bounds[m + 1]!;
      const printed = settledTimes[printedIndex++];
      const first = measureNumber === 1;
      const newTime = printed ?? (first ? inferred : undefined);
      const timeChanged = newTime && (!time || newTime.beats !== time.beats || newTime.beatType !== time.beatType || newTime.symbol !== time.symbol);
      if (newTime) time = newTime;
      const expected = timeSignatureLength(time ?? inferred);
      const startsEnding = system.endings.findIndex((e) => e.first === m);
      const stopsEnding = system.endings.findIndex((e) => e.last === m);
      const leftBarline = startsEnding < 0 ? system.measures.left[m] : withEnding(system.measures.left[m], endingNumbers[si]![startsEnding]!, 'start');
      const rightBarline = stopsEnding < 0 ? system.measures.right[m] : withEnding(system.measures.right[m], endingNumbers[si]![stopsEnding]!, system.endings[stopsEnding]!.closed ? 'stop' : 'discontinue');
      const measures = parts.map((): Measure => ({
        number: String(measureNumber),
        clefs: [],
        voices: [],
        directions: [],
        ...(timeChanged ? { time: { ...time! } } : {}),
        ...(m === 0 && si > 0 ? { systemBreak: true } : {}),
        ...(m === 0 && si > 0 && system.page !== systems[si - 1]!.page ? { pageBreak: true } : {}),
        ...(leftBarline ? { leftBarline } : {}),
        ...(rightBarline ? { rightBarline } : {}),
      }));
      // A key change inside a system moves every staff by one amount; a staff that missed reading it follows.
      const midKeys = m === 0 ? [] : system.staves.map((reading) => reading.signatures.keys.find((kk) => kk.x >= left - system.space && kk.x < right && !isOpening(system, reading, kk.x) && keySeenAcross(system, reading, kk.x))?.value);
      const midShift = mostRead(midKeys.flatMap((value, k) => (value === undefined ? [] : [value - keyState[slots[k]!]!])));
      // Keys and clefs, staff by staff, then the notes under them.
      layout.slots.forEach((slot, s) => {
        const k = slots.indexOf(s);
        const reading = k >= 0 ? system.staves[k] : undefined;
        const measure = measures[slot.part]!;
        if (reading) {
          const clefs = reading.signatures.clefs.filter((c) => c.x >= left - system.space * 2 && c.x < right);
          for (const c of clefs) {
            const atStart = m === 0 ? c.x < reading.staff.x0 + system.space * NEAR_START_SPACES : false;
            if (atStart && !first && misreadAtBreak(c.value, clefState[s]!)) c.value = clefState[s]!;
            const changed = !sameClef(c.value, clefState[s]!) || (first && atStart);
            if (!changed && atStart) continue;
            if (!atStart && sameClef(c.value, clefState[s]!)) continue;
            const offset = atStart ? ZERO : onsetAfter(content[si]![m]!.get(s), c.x);
            measure.clefs.push({ ...c.value, staff: slot.staff, offset });
            if (atStart || compare(offset, ZERO) === 0) clefState[s] = c.value;
          }
          const key = m === 0 ? (shown || first ? openingKeys[si]![s] : undefined) : (midKeys[k] ?? (midShift === undefined ? undefined : keyState[s]! + midShift));
          if (key !== undefined && (key !== keyState[s] || first)) {
            keyState[s] = key;
            if (slot.staff === 1) measure.key = { fifths: key };
          } else if (first && slot.staff === 1) measure.key = { fifths: keyState[s]! };
        } else if (first) {
          measure.clefs.push({ ...clefState[s]!, staff: slot.staff, offset: ZERO });
          if (slot.staff === 1) measure.key = { fifths: keyState[s]! };
        }
        if (first && !measure.clefs.some((c) => c.staff === slot.staff)) measure.clefs.push({ ...clefState[s]!, staff: slot.staff, offset: ZERO });
        const staffMeasure = content[si]![m]!.get(s);
        const voices = staffMeasure?.voices ?? [];
        if (!voices.length) {
          measure.voices.push({ id: voiceId(slot, 0), events: [measureRest(expected, slot.staff)] });
          return;
        }
        const marks = reading ? tupletMarks(reading, left, right) : [];
        // A second voice that enters later starts where the first voice stands at that place; the
        // rests before it are often not printed (a choir's alto joining the soprano's line).
        const others = [...content[si]![m]!.entries()].filter(([slotIndex]) => slotIndex !== s).flatMap(([, sm]) => sm.voices);
        const othersGrid = timeGrid(others, expected, right);
        const leads = voices.map((items, v) => (v > 0 ? leadingGap(voices[0]!, items, system.space) : lateStart(items, othersGrid, expected, system.space)));
        if (voices.length > 1) handBackTrailing(voices[0]!, voices[1]!, sub(expected, leads[1]!), expected);
        voices.forEach((items, v) => {
          if (v > 0) cueNotes(items, sub(expected, leads[v]!));
          if (repairVoice(items, sub(expected, leads[v]!), marks, system.space, tripletsShown[s] || (reading?.tuplets.length ?? 0) > 0)) tripletsShown[s] = true;
        });
        // An accidental holds for the rest of the measure on its staff, in every voice: events are made
        // left to right across the voices.
        const accidentalState = new Map<number, number>();
        const events = new Map<PlacedItem, VoiceEvent>();
        for (const item of voices.flat().sort((a, b) => a.x - b.x)) {
          const event = toEvent(item, slot.staff, reading!, system, clefAt(reading!, item.x, clefState[s]!), keyState[s]!, accidentalState);
          events.set(item, event);
          if (item.source.kind === 'chord' && event.kind === 'note') placed.set(item.source, { event, part: slot.part });
        }
        // A voice still short once repaired may stand between other staves' notes: their places time it.
        const grid = timeGrid([...others, ...voices], expected, right);
        const hiddenRest = (duration: Fraction): VoiceEvent[] => (compare(duration, ZERO) > 0 ? [{ kind: 'rest', duration, dots: 0, staff: slot.staff, hidden: true }] : []);
        // Where each item starts as written, and where the staff's measure ends: hairpins start and stop there.
        const itemOf = new Map([...events].map(([item, event]) => [event, item]));
        const onsets: PlacedOnset[] = [];
        let end = ZERO;
        voices.forEach((items, v) => {
          const gaps = compare(leads[v]!, ZERO) === 0 ? gapsByPlace(items, grid, expected, system.space) : undefined;
          const voiceEvents = gaps
            ? [...items.flatMap((item, k) => [...hiddenRest(gaps[k]!), events.get(item)!]), ...hiddenRest(gaps[items.length]!)]
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
        if (reading) measure.directions.push(...hairpinDirections(reading, onsets, end, left, right, slot.staff, system.space));
        // Clef changes later in the measure hold for the next measure.
        const last = measure.clefs.filter((c) => c.staff === slot.staff).pop();
        if (last) clefState[s] = { sign: last.sign, line: last.line, ...(last.octaveChange ? { octaveChange: last.octaveChange } : {}) };
      });
      const run = multiRestRun(system, left, right);
      measures.forEach((measure, p) => {
        measure.evidence = measureEvidence(system, slots, layout, p, left, right, measure);
        measure.voices.sort((a, b) => Number(a.id) - Number(b.id));
        measure.clefs.sort((a, b) => compare(a.offset, b.offset) || a.staff - b.staff);
        parts[p]!.measures.push(measure);
        // A multi-measure rest is that many measures, each a whole-measure rest; the first says how many.
        if (run > 1) {
          measure.multiRest = run;
          for (let k = 1; k < run; k++) {
            parts[p]!.measures.push({
              number: String(measureNumber + k),
              clefs: [],
              voices: Array.from({ length: layout.parts[p]!.staves }, (_, staff) => ({ id: voiceId({ part: p, staff: staff + 1 }, 0), events: [measureRest(expected, staff + 1)] })),
              directions: [],
              ...(measure.evidence ? { evidence: measure.evidence } : {}),
            });
          }
        }
      });
      measureNumber += Math.max(1, run);
    });
    curves.system(system.curves);
  });
  markPickup(parts, parts[0]?.measures[0]?.time ? timeSignatureLength(parts[0].measures[0].time) : undefined);
  return { credits: {}, parts, partGroups: [] };
}

// ---------------------------------------------------------------------------
// Layout.

/** Parts from the system with the most staves: braced staves are one part, every other staff its own. */
function partLayout(systems: readonly SystemReading[]): Layout {
  const reference = systems.reduce((best, s) => (s.staves.length > best.staves.length ? s : best), systems[0]!);
  const parts: { staves: number }[] = [];
  const slots: Slot[] = [];
  // A brace missed on one system (the first, crowded by instrument names) is seen on the others.
  const braces = systems.filter((s) => s.staves.length === reference.staves.length).flatMap((s) => s.braces);
  for (let k = 0; k < reference.staves.length; ) {
    const brace = braces.find(([a]) => a === k);
    const count = brace ? brace[1] - brace[0] + 1 : 1;
    for (let j = 0; j < count; j++) slots.push({ part: parts.length, staff: j + 1 });
    parts.push({ staves: count });
    k += count;
  }
  return { parts, slots, clefs: reference.staves.map((r) => openingClef(r)) };
}

/**
 * Which slot each staff of a system fills. A full system maps one to one; a
 * system with fewer staves is matched in order to the slots whose opening
 * clefs agree best, and whose braces (an alignment that keeps the
 * top-to-bottom order).
 */
function matchSlots(system: SystemReading, layout: Layout): number[] {
  const n = system.staves.length;
  const m = layout.slots.length;
  if (n >= m) return system.staves.map((_, k) => Math.min(k, m - 1));
  const clefs = system.staves.map((r) => openingClef(r));
  // A staff the system braces to another goes to a keyboard's slots rather than to a staff of its own
  // (a voice and a piano's right hand both read treble); clefs weigh more, as braces may go unseen.
  const braced = (k: number) => system.braces.some(([a, b]) => k >= a && k <= b);
  // cost[i][j]: best cost placing the first i staves within the first j slots.
  const cost = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(Infinity));
  for (let j = 0; j <= m; j++) cost[0]![j] = 0;
  for (let i = 1; i <= n; i++) {
    for (let j = i; j <= m; j++) {
      const mismatch = clefDistance(clefs[i - 1], layout.clefs[j - 1]) + (braced(i - 1) === (layout.parts[layout.slots[j - 1]!.part]!.staves > 1) ? 0 : 0.25);
      cost[i]![j] = Math.min(cost[i]![j - 1]!, cost[i - 1]![j - 1]! + mismatch);
    }
  }
  const result = new Array<number>(n);
  for (let i = n, j = m; i > 0; j--) {
    if (cost[i]![j] === cost[i]![j - 1]) continue;
    result[i - 1] = j - 1;
    i--;
  }
  return result;
}

/** 0 for the same clef, ½ for the same clef an octave apart (the 8 under it missed or imagined), else 1. */
function clefDistance(a: Clef | undefined, b: Clef | undefined): number {
  if (sameClef(a, b)) return 0;
  return a && b && a.sign === b.sign && a.line === b.line ? 0.5 : 1;
}

function openingClef(reading: StaffReading): Clef | undefined {
  return reading.signatures.clefs[0]?.value;
}

/**
 * A system's opening clef that cannot be a change from the clef in force: an octave clef does not
 * come and go at a system break, nor does a C clef jump two lines there (alto to tenor is one). The
 * clef's box ran into something on the page.
 */
function misreadAtBreak(read: Clef, current: Clef): boolean {
  const octaveOnly = sameClef({ ...read, octaveChange: 0 }, { ...current, octaveChange: 0 });
  const cClefJump = read.sign === 'C' && current.sign === 'C' && Math.abs(read.line - current.line) >= 2;
  return octaveOnly || cClefJump;
}

function sameClef(a: Clef | undefined, b: Clef | undefined): boolean {
  return !!a && !!b && a.sign === b.sign && a.line === b.line && (a.octaveChange ?? 0) === (b.octaveChange ?? 0);
}

function voiceId(slot: Slot, voice: number): string {
  return String((slot.staff - 1) * 4 + voice + 1);
}

// ---------------------------------------------------------------------------
// Time.

/** The time signature printed in a measure: every staff shows it, so the staves vote (a digit misread on one loses). */
function timeAt(system: SystemReading, left: number, right: number): TimeSignature | undefined {
  const votes = new Map<string, { value: TimeSignature; count: number }>();
  for (const reading of system.staves) {
    const value = reading.times.find((tt) => tt.x >= left - system.space && tt.x < right && tt.value)?.value;
    if (!value) continue;
    const key = `${value.beats}/${value.beatType}/${value.symbol ?? ''}`;
    const vote = votes.get(key) ?? { value, count: 0 };
    vote.count++;
    votes.set(key, vote);
  }
  let best: { value: TimeSignature; count: number } | undefined;
  for (const vote of votes.values()) if (!best || vote.count > best.count) best = vote;
  // Every staff prints the signature; on a big system, digits read on one or two staves alone are a
  // dynamic's or a rehearsal number's.
  return best && best.count >= Math.ceil(system.staves.length / 4) ? best.value : undefined;
}

function timedItem(item: StaffItem): PlacedItem {
  const type = item.kind === 'chord' ? strokeType(item) : restType(item);
  const grace = item.kind === 'chord' && item.grace;
  const beamGroup = item.kind === 'chord' ? item.beamGroup : undefined;
  return { x: item.x, type, dots: item.dots, isRest: item.kind === 'rest', grace, duration: grace ? ZERO : notatedDuration(type, item.dots), source: item, ...(beamGroup === undefined ? {} : { beamGroup }) };
}

/** A written item's place across the page and its onset in its measure. */
interface PlacedOnset {
  x: number;
  onset: Fraction;
}

/** A hairpin starts under the first note at most this many spaces left of its open or pointed end … */
const HAIRPIN_START_LEAD = 0.5;
/** … and stops at the first note past this many spaces short of its other end (or its measure's end). */
const HAIRPIN_STOP_SHORT = 1;

/**
 * The hairpins of a staff that start or stop in a measure, as wedge directions at the onsets of the
 * notes they start under and stop before. A hairpin that reaches no note past the measure's last one
 * stops at the measure's end, in this measure, as engravers write one that ends at the barline. A
 * hairpin's number is its staff's, so the two hands of a piano part can swell apart.
 */
function hairpinDirections(reading: StaffReading, onsets: readonly PlacedOnset[], end: Fraction, left: number, right: number, staff: number, space: number): Direction[] {
  const middle = (x: number) => staffLineY(reading.staff, 2, x);
  return reading.hairpins.flatMap((h): Direction[] => {
    const placement = (h.y0 + h.y1) / 2 > middle((h.x0 + h.x1) / 2) ? 'below' : 'above';
    const out: Direction[] = [];
    const [start, stop] = [h.x0 - space * HAIRPIN_START_LEAD, h.x1 - space * HAIRPIN_STOP_SHORT];
    if (h.x0 >= left && h.x0 < right) out.push({ offset: onsetAt(onsets, start, end), staff, placement, wedge: { type: h.kind, number: staff } });
    if (stop >= left && stop < right) out.push({ offset: onsetAt(onsets, stop, end), staff, placement, wedge: { type: 'stop', number: staff } });
    return out;
  });
}

/** The onset of the written item nearest right of x (the earliest, of items in line); the measure's end if none. */
function onsetAt(onsets: readonly PlacedOnset[], x: number, end: Fraction): Fraction {
  let best: PlacedOnset | undefined;
  for (const o of onsets) if (o.x > x && (!best || o.x < best.x || (o.x === best.x && compare(o.onset, best.onset) < 0))) best = o;
  return best?.onset ?? end;
}

function tupletMarks(reading: StaffReading, left: number, right: number): number[] {
  return reading.tuplets.filter((x) => x >= left && x < right);
}

/** Onset in the measure of the first event right of x (in any voice); the measure's end if none. */
function onsetAfter(staffMeasure: StaffMeasure | undefined, x: number): Fraction {
  let best: Fraction | undefined;
  for (const voice of staffMeasure?.voices ?? []) {
    let t = ZERO;
    for (const item of voice) {
      if (item.x > x) {
        if (!best || compare(t, best) < 0) best = t;
        break;
      }
      t = add(t, item.duration);
    }
  }
  return best ?? voiceDuration(staffMeasure?.voices[0] ?? []);
}

/**
 * An opening measure shorter than its time signature, followed by a full
 * one, is a pickup (anacrusis): it does not count, so numbering starts at 0.
 */
function markPickup(parts: Part[], expected: Fraction | undefined): void {
  if (!expected || !parts.length || parts[0]!.measures.length < 2) return;
  const length = (measure: Measure) => measure.voices.reduce((most, v) => (compare(voiceDuration(v.events), most) > 0 ? voiceDuration(v.events) : most), ZERO);
  const short = parts.every((p) => compare(length(p.measures[0]!), expected) < 0 && compare(length(p.measures[0]!), ZERO) > 0);
  const fullNext = parts.some((p) => compare(length(p.measures[1]!), expected) === 0);
  if (!short || !fullNext) return;
  for (const part of parts) {
    part.measures[0]!.implicit = true;
    part.measures.forEach((measure, i) => (measure.number = String(i)));
  }
}

/**
 * How many measures a system measure stands for: n when every staff holds
 * nothing but a multi-measure rest whose number reads n, else 1.
 */
function multiRestRun(system: SystemReading, left: number, right: number): number {
  let run = 0;
  for (const reading of system.staves) {
    const inside = reading.items.filter((i) => i.x >= left && i.x < right);
    const only = inside.length === 1 && inside[0]!.kind === 'rest' ? inside[0]!.rest : undefined;
    const n = only ? reading.multiRests.get(only) : undefined;
    if (!n || (run && n !== run)) return 1;
    run = n;
  }
  return run || 1;
}

// ---------------------------------------------------------------------------
// Events.

function measureRest(expected: Fraction, staff: number): RestEvent {
  return { kind: 'rest', duration: expected, dots: 0, staff, measureRest: true };
}

/**
 * A key change inside a system is printed on every staff at that barline; a
 * run of accidentals on one staff of several is a chord's, not a key. (The
 * opening keys of systems are settled apart: opening-keys.ts.)
 */
function keySeenAcross(system: SystemReading, reading: StaffReading, x: number): boolean {
  if (system.staves.length < 2) return true;
  const seen = system.staves.filter((r) => r.signatures.keys.some((k) => Math.abs(k.x - x) < system.space * 3)).length;
  return seen >= Math.ceil(system.staves.length / 2) + (system.staves.length === 2 ? 1 : 0);
}

function median(values: readonly number[]): number | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/** The key printed right after a staff's opening clef, if one was read there. */
/** The clef slot s shows at the start of the first system where one is read there. */
function firstOpeningClef(systems: readonly SystemReading[], slotsOf: readonly number[][], s: number): Clef | undefined {
  for (const [si, system] of systems.entries()) {
    const reading = system.staves[slotsOf[si]!.indexOf(s)];
    const clef = reading?.signatures.clefs.find((c) => isOpening(system, reading, c.x));
    if (clef) return clef.value;
  }
  return undefined;
}

/**
 * The key slot s starts in, where the first system shows none for it: the one it shows where it
 * first appears, less the change the staves read in both systems went through meanwhile.
 */
function firstOpeningKey(openingKeys: readonly (number | undefined)[][], s: number): number | undefined {
  const first = openingKeys[0]!;
  const si = openingKeys.findIndex((keys) => keys[s] !== undefined);
  if (si <= 0) return si === 0 ? first[s] : undefined;
  const later = openingKeys[si]!;
  const shift = mostRead(later.flatMap((key, t) => (key === undefined || first[t] === undefined ? [] : [key - first[t]!]))) ?? 0;
  return later[s]! - shift;
}

function openingKey(system: SystemReading, reading: StaffReading): number | undefined {
  return reading.signatures.keys.find((k) => isOpening(system, reading, k.x))?.value;
}

function isOpening(system: SystemReading, reading: StaffReading, x: number): boolean {
  return x < reading.staff.x0 + system.space * NEAR_START_SPACES;
}

/** The clef in force at x: the last one printed on this staff before it, or the one carried in. */
function clefAt(reading: StaffReading, x: number, current: Clef): Clef {
  let clef = current;
  for (const c of reading.signatures.clefs) if (c.x < x) clef = c.value;
  return clef;
}

const ALTER: Record<AccidentalKind, number> = { sharp: 1, flat: -1, natural: 0, 'double-sharp': 2, 'flat-flat': -2 };

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
    const octave = Math.floor(diatonic / 7);
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
  if (item.grace) event.grace = { slash: false };
  if (item.cue) event.cue = true;
  if (source.up !== undefined) event.stem = source.up ? 'up' : 'down';
  // A measured tremolo stays as written: the note with its strokes (MIDI plays the note once).
  if (source.tremolo && !item.grace) event.tremolo = { type: 'single', marks: source.tremolo };
  if (source.arpeggio) event.arpeggiate = true;
  for (const kind of reading.articulations.get(source) ?? []) {
    const family = markFamily(kind);
    (family === 'ornament' ? (event.ornaments ??= []) : family === 'technical' ? (event.technical ??= []) : (event.articulations ??= [])).push(kind);
  }
  return event;
}

/** Beams over a voice's strokes, as the page's beams group them. */
function beamVoice(items: readonly PlacedItem[], events: ReadonlyMap<PlacedItem, VoiceEvent>): void {
  const strokes = items.map((item) => {
    const event = events.get(item)!;
    const group = item.source.kind === 'chord' ? item.source.beamGroup : undefined;
    return { group: event.kind === 'note' ? group : undefined, type: event.type, duration: toNumber(event.duration) };
  });
  beamValues(strokes).forEach((values, k) => {
    const event = events.get(items[k]!)!;
    if (values.length && event.kind === 'note') event.beams = values;
  });
}

/** A part's measure on the page: from barline to barline, over the part's staves; as sure as its events. */
function measureEvidence(system: SystemReading, slots: readonly number[], layout: Layout, part: number, left: number, right: number, measure: Measure): Evidence | undefined {
  const staves = system.staves.filter((_, k) => layout.slots[slots[k]!]?.part === part).map((r) => r.staff);
  if (!staves.length) return undefined;
  const y0 = Math.min(...staves.map((s) => Math.min(...s.lines[0]!)));
  const y1 = Math.max(...staves.map((s) => Math.max(...s.lines[4]!)));
  const confidences = measure.voices.flatMap((v) => v.events.flatMap((e) => (e.evidence ? [e.evidence.confidence] : [])));
  const confidence = confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length : 1;
  return evidenceOf(system.page, system.transform, { x0: left, x1: right, y0, y1 }, confidence);
}

function evidenceOf(page: number, transform: PageTransform, box: { x0: number; y0: number; x1: number; y1: number }, confidence: number): Evidence {
  const corners = [toSourcePoint(transform, box.x0, box.y0), toSourcePoint(transform, box.x1, box.y0), toSourcePoint(transform, box.x0, box.y1), toSourcePoint(transform, box.x1, box.y1)];
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  const x = Math.max(0, Math.floor(Math.min(...xs)));
  const y = Math.max(0, Math.floor(Math.min(...ys)));
  const result: Box = { x, y, width: Math.ceil(Math.max(...xs)) - x, height: Math.ceil(Math.max(...ys)) - y };
  return { page, box: result, confidence: Math.round(confidence * 1000) / 1000 };
}
