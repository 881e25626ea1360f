/**
 * Signatures: the clef and key of every staff, carried from measure to
 * measure, system to system and page to page, written where they change.
 *
 * Opening keys are restated by every system, so they are reconciled across
 * systems before any is believed; a key change inside a system moves every
 * staff by one amount. A staff hidden in the first system, or with its
 * clef unreadable there, starts in the clef and key it shows where it first
 * appears. A clef after a measure's last note (printed before the barline
 * where the change comes) opens the next measure.
 *
 * Reads: the staves' clefs and keys, the layout, the written voices (where
 * in the measure a clef change falls), the time changes and barlines (where
 * a movement ends).
 * Adds: clefs and keys on the parts' measures; per staff measure, the clef
 * and key in force for its notes.
 */
import { add, compare, ZERO, type Fraction } from '../../score/fraction.js';
import type { Barline, Clef } from '../../score/model.js';
import { sameClef } from '../clef-pitch.js';
import { voiceDuration } from '../measure-repair.js';
import { mostRead, reconcileOpeningKeys } from '../opening-keys.js';
import type { StaffReading, SystemReading } from '../read-page.js';
import type { MeasureState, ScorePass, StaffMeasure } from './reading-state.js';

/** A staff's opening clef and key stand within this many spaces of its start. */
const NEAR_START_SPACES = 8;
/** A clef counts for a measure from this many spaces before its left barline. */
const CLEF_BEFORE_BARLINE = 2;
/** A key signature counts for a measure from this many spaces before its left barline. */
const KEY_BEFORE_BARLINE = 1;
/** Key signatures on other staves within this many spaces of one are the same change. */
const KEY_ACROSS_STAVES = 3;

/** A key that starts this many spaces or less before a system's end, after its last note, is a courtesy key for the next system (seven sharps and a barline fit). */
const COURTESY_KEY_REACH = 9;

/** The clef a staff is read in where none was ever read for it. */
const DEFAULT_CLEF: Clef = { sign: 'G', line: 2 };

export const signaturesPass: ScorePass = {
  name: 'signatures',
  run(state) {
    const { systems, layout, slotsOf } = state;
    // Opening keys: every system restates one, so the readings are reconciled before any is believed.
    const openingReadings = systems.map((system, si) => {
      const bySlot = layout.slots.map((): number | undefined => undefined);
      system.staves.forEach((reading, k) => (bySlot[slotsOf[si]![k]!] = openingKey(system, reading)));
      return bySlot;
    });
    // A movement's systems are reconciled apart from the next movement's: its key is its own.
    const movementStarts = systems.map((_, si) => si > 0 && startsMovement(state.measures, si)).flatMap((starts, si) => (starts ? [si] : []));
    const chunks = [0, ...movementStarts, systems.length].slice(0, -1).map((from, i, all) => openingReadings.slice(from, all[i + 1] ?? systems.length));
    const openingKeys = chunks.flatMap((chunk) => reconcileOpeningKeys(chunk));
    const firstMovementKeys = openingKeys.slice(0, movementStarts[0] ?? systems.length);
    // A staff hidden in the first system (orchestral scores leave silent staves out) or with its clef
    // unreadable there starts in the clef and key it shows where it first appears.
    const clefState: Clef[] = layout.slots.map((_, s) => firstOpeningClef(systems, slotsOf, s) ?? DEFAULT_CLEF);
    // A key printed after the last note of a system is a courtesy one: the next system opens in it. A
    // first system that shows no key but ends in a courtesy key is in C, the key changing at the next.
    const lastOfSystem = state.measures.filter((m, i) => state.measures[i + 1]?.system !== m.system);
    const courtesy = (reading: StaffReading, x: number, measure: MeasureState) => lastOfSystem.includes(measure) && x > lastItemX(measure.staves.values(), measure.left) && reading.staff.x1 - x < systems[measure.system]!.space * COURTESY_KEY_REACH;
    const firstLast = lastOfSystem[0];
    const endsInCourtesy = !!firstLast && systems[0]!.staves.some((r) => r.signatures.keys.some((k) => k.value !== 0 && courtesy(r, k.x, firstLast)));
    const openingInC = endsInCourtesy && openingReadings[0]!.every((value) => value === undefined);
    const keyState: number[] = layout.slots.map((_, s) => (openingInC ? 0 : (firstOpeningKey(firstMovementKeys, s) ?? 0)));
    // Per staff: a clef printed after a measure's last note, where engravers put a change that comes at the
    // barline (or at a system's end, the next system's); it opens the next measure.
    const clefAhead: (Clef | undefined)[] = layout.slots.map(() => undefined);

    state.measures.forEach((measureState, i) => {
      const { system: si, index: m, left, right } = measureState;
      const system = systems[si]!;
      const slots = slotsOf[si]!;
      const first = i === 0;
      // A system that shows no key at all (none was read, or C major follows a change) keeps the one in
      // force; the first takes what later systems show. A new movement (a final barline, then a system
      // that opens with a time signature) starts in the key it shows: one that shows none is in C (no
      // naturals cancel a key across a movement's end).
      const shown = openingReadings[si]!.some((value) => value !== undefined);
      const newMovement = m === 0 && !shown && movementStarts.includes(si);
      // A key change inside a system moves every staff by one amount; a staff that missed reading it follows.
      const midKeys = m === 0 ? [] : system.staves.map((reading) => reading.signatures.keys.find((kk) => kk.x >= left - system.space * KEY_BEFORE_BARLINE && kk.x < right && !isOpening(system, reading, kk.x) && !courtesy(reading, kk.x, measureState) && keySeenAcross(system, reading, kk.x))?.value);
      const midShift = mostRead(midKeys.flatMap((value, k) => (value === undefined ? [] : [value - keyState[slots[k]!]!])));
      layout.slots.forEach((slot, s) => {
        const k = slots.indexOf(s);
        const reading = k >= 0 ? system.staves[k] : undefined;
        const measure = measureState.parts[slot.part]!;
        const staffMeasure = measureState.staves.get(s);
        const ahead = clefAhead[s];
        if (ahead) {
          measure.clefs.push({ ...ahead, staff: slot.staff, offset: ZERO });
          clefState[s] = ahead;
          clefAhead[s] = undefined;
        }
        if (reading) {
          const clefs = reading.signatures.clefs.filter((c) => c.x >= left - system.space * CLEF_BEFORE_BARLINE && c.x < right);
          for (const c of clefs) {
            const atStart = m === 0 ? c.x < reading.staff.x0 + system.space * NEAR_START_SPACES : false;
            if (atStart && !first && misreadAtBreak(c.value, clefState[s]!)) c.value = clefState[s]!;
            const changed = !sameClef(c.value, clefState[s]!) || (first && atStart);
            if (!changed && atStart) continue;
            if (!atStart && sameClef(c.value, clefState[s]!)) continue;
            if (!atStart && staffMeasure?.voices.length && lastItemX([staffMeasure], left) <= c.x) {
              clefAhead[s] = c.value;
              continue;
            }
            const offset = atStart ? ZERO : onsetAfter(staffMeasure, c.x);
            measure.clefs.push({ ...c.value, staff: slot.staff, offset });
            if (atStart || compare(offset, ZERO) === 0) clefState[s] = c.value;
          }
          const key = m === 0 ? (first && openingInC ? 0 : shown || first ? openingKeys[si]![s] : newMovement ? 0 : undefined) : (midKeys[k] ?? (midShift === undefined ? undefined : keyState[s]! + midShift));
          if (key !== undefined && (key !== keyState[s] || first)) {
            keyState[s] = key;
            if (slot.staff === 1) measure.key = { fifths: key };
          } else if (first && slot.staff === 1) measure.key = { fifths: keyState[s]! };
        } else if (first) {
          measure.clefs.push({ ...clefState[s]!, staff: slot.staff, offset: ZERO });
          if (slot.staff === 1) measure.key = { fifths: keyState[s]! };
        }
        if (first && !measure.clefs.some((c) => c.staff === slot.staff)) measure.clefs.push({ ...clefState[s]!, staff: slot.staff, offset: ZERO });
        // An empty staff measure is a whole-measure rest: nothing in it is read in a clef, nor carries one on.
        if (!staffMeasure?.voices.length) return;
        staffMeasure.clef = clefState[s]!;
        staffMeasure.key = keyState[s]!;
        // Clef changes later in the measure hold for the next measure.
        const last = measure.clefs.filter((c) => c.staff === slot.staff).pop();
        if (last) clefState[s] = { sign: last.sign, line: last.line, ...(last.octaveChange ? { octaveChange: last.octaveChange } : {}) };
      });
    });
  },
};

/** Whether system si opens a new movement: its first measure shows a time signature and the measure before ends with a final barline. */
function startsMovement(measures: readonly MeasureState[], si: number): boolean {
  const i = measures.findIndex((m) => m.system === si);
  return i > 0 && measures[i]!.timeShown && endsMovement(measures[i - 1]!.parts[0]?.rightBarline);
}

/** A final barline: light-heavy, with no repeat and no ending (a first ending's close repeats). */
function endsMovement(barline: Barline | undefined): boolean {
  return barline?.style === 'light-heavy' && !barline.repeat && !barline.ending;
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
 * A key change inside a system is printed on every staff at that barline; a
 * run of accidentals on one staff of several is a chord's, not a key. (The
 * opening keys of systems are settled apart: opening-keys.ts.)
 */
function keySeenAcross(system: SystemReading, reading: StaffReading, x: number): boolean {
  if (system.staves.length < 2) return true;
  const seen = system.staves.filter((r) => r.signatures.keys.some((k) => Math.abs(k.x - x) < system.space * KEY_ACROSS_STAVES)).length;
  return seen >= Math.ceil(system.staves.length / 2) + (system.staves.length === 2 ? 1 : 0);
}

/** Where the last note or rest of the staves of a measure given stands (`left`, the measure's start, where there is none). */
function lastItemX(staves: Iterable<StaffMeasure>, left: number): number {
  let x = left;
  for (const staff of staves) for (const voice of staff.voices) for (const item of voice) x = Math.max(x, item.x);
  return x;
}

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

/** The key printed right after a staff's opening clef, if one was read there. */
function openingKey(system: SystemReading, reading: StaffReading): number | undefined {
  return reading.signatures.keys.find((k) => isOpening(system, reading, k.x))?.value;
}

function isOpening(system: SystemReading, reading: StaffReading, x: number): boolean {
  return x < reading.staff.x0 + system.space * NEAR_START_SPACES;
}
