/**
 * Time: the time signature in force in every measure, and the length it
 * gives the measure. Signatures are taken as printed at the start of a
 * system or measure (one after a system's last note, at its end, is the
 * courtesy for the next system's), and inferred from the measures' lengths
 * where none is readable; the one in force carries from system to system and
 * page to page.
 *
 * Reads: the printed time signatures, the voices' written lengths and beam groups, the tuplet marks.
 * Adds: per measure, `time`, `timeChanged`, `timeShown` and `expected`.
 */
import { median } from '../../reading/median.js';
import { frac, sub, type Fraction } from '../../score/fraction.js';
import type { TimeSignature } from '../../score/model.js';
import { timeSignatureLength } from '../../score/timeline.js';
import { beamedEighthThrees, beamSpans, voiceDuration } from '../measure-repair.js';
import type { PlacedItem } from '../voice-timing.js';
import type { SystemReading } from '../read-page.js';
import { inferTimeSignature, settleTimes, type BeamedVoice } from '../time-signature.js';
import { readingAt, type ReadingState, type ScorePass } from './reading-state.js';

/** A time signature counts for a measure from this many spaces before its left barline. */
const TIME_BEFORE_BARLINE = 1;
/** A time signature stands where at least one staff in this many shows it (digits on fewer are a dynamic's or a rehearsal number's). */
const STAVES_PER_TIME_READING = 4;
/** Printed triplets of eighths in at least this many beamed groups show a page writing its threes as triplets (one "3" may be a speck). */
const MIN_PRINTED_TRIPLETS = 2;
/**
 * A time signature this many spaces or less before a system's end, after its last note, is a courtesy one
 * announcing the next system's (a double barline and two digits fit): the change is the next system's.
 */
const COURTESY_TIME_REACH = 5;
/** The time signature taken where none is printed and the measures' lengths suggest none. */
const DEFAULT_TIME: TimeSignature = { beats: 4, beatType: 4 };

export const timePass: ScorePass = {
  name: 'time',
  run(state) {
    const { systems } = state;
    // A rest alone in its measure fills whatever metre is in force, so it says nothing of the metre.
    const measureLengths = state.measures.map((measure) => [...measure.staves.values()].flatMap((sm) => (sm.voices[0] ? measureLengthOf(sm.voices[0]) : [])));
    const settledTimes = settleTimes(
      systems.flatMap((system) => {
        // The opening signature stands before the first notes; a stroke taken for a barline may cut it off.
        const opening = median(system.staves.flatMap((r) => (r.items.length ? [r.items[0]!.x] : []))) ?? system.measures.bounds[1]!;
        const bounds = system.measures.bounds;
        return bounds.slice(0, -1).map((left, m) => timeAt(system, m === 0 ? left : Math.max(left, opening), m === 0 ? Math.max(bounds[1]!, opening) : bounds[m + 1]!, m === bounds.length - 2));
      }),
      measureLengths,
    );
    // The inferred signature governs only the measures before the first printed one (a later movement's
    // printed metre says nothing of an opening that prints none).
    const firstPrinted = settledTimes.findIndex((t) => t);
    const governed = firstPrinted < 0 ? state.measures.length : firstPrinted;
    const { lengths, beamed } = inferenceEvidence(state, measureLengths.slice(0, governed));
    const inferred = inferTimeSignature(lengths, beamed) ?? { ...DEFAULT_TIME };
    let time: TimeSignature | undefined;
    state.measures.forEach((measure, i) => {
      const printed = settledTimes[i];
      const newTime = printed ?? (i === 0 ? inferred : undefined);
      measure.timeChanged = !!newTime && (!time || newTime.beats !== time.beats || newTime.beatType !== time.beatType || newTime.symbol !== time.symbol);
      measure.timeShown = !!printed;
      if (newTime) time = newTime;
      measure.time = time;
      measure.expected = timeSignatureLength(time ?? inferred);
    });
  },
};

/**
 * What the metre is inferred from where none is printed: the first voices' lengths (`measureLengths`, one
 * entry per measure the inferred signature governs), and those measures' voices' lengths and beamed
 * groups. Where the page prints triplets of eighths, its beamed threes of eighths are triplets, marked or
 * not (the marks are read into them later, by the timing pass): each lasts a quarter, not the dotted
 * quarter it is written as, and the threes are no compound metre.
 */
function inferenceEvidence(state: ReadingState, measureLengths: readonly Fraction[][]): { lengths: Fraction[]; beamed: BeamedVoice[] } {
  const measures = state.measures.slice(0, measureLengths.length);
  const threes = measures.map((measure) =>
    [...measure.staves.entries()].map(([s, sm]) => {
      const reading = readingAt(state, measure, s);
      const marks = reading ? reading.tuplets.filter((x) => x >= measure.left && x < measure.right) : [];
      return sm.voices.map((voice) => beamedEighthThrees(voice, marks, state.systems[measure.system]!.space));
    }),
  );
  if (threes.flat(2).reduce((n, t) => n + t.marked, 0) < MIN_PRINTED_TRIPLETS) {
    const beamed = measures.flatMap((measure) => [...measure.staves.values()].flatMap((sm) => sm.voices.map((voice) => ({ length: voiceDuration(voice), groups: beamGroupLengths(voice) }))));
    return { lengths: measureLengths.flat(), beamed };
  }
  const lengths = measures.flatMap((measure, m) =>
    [...measure.staves.values()].flatMap((sm, k) => {
      const [voice, counted] = [sm.voices[0], threes[m]![k]![0]];
      return voice && counted ? measureLengthOf(voice).map((length) => sub(length, frac(counted.marked + counted.unmarked, 2))) : [];
    }),
  );
  return { lengths, beamed: [] };
}

/** A first voice's written length, as evidence of its measure's: none for a rest alone. */
function measureLengthOf(voice: readonly PlacedItem[]): Fraction[] {
  return voice.length === 1 && voice[0]!.isRest ? [] : [voiceDuration(voice)];
}

/** The length of each run of a voice's items that one beam joins. */
function beamGroupLengths(items: readonly PlacedItem[]): Fraction[] {
  return beamSpans(items).flatMap((span) => (span.length > 1 ? [voiceDuration(span)] : []));
}

/**
 * The time signature printed in a measure: every staff shows it, so the staves vote (a digit misread on one
 * loses). In a system's `last` measure, a courtesy signature at the system's end is not the measure's.
 */
function timeAt(system: SystemReading, left: number, right: number, last: boolean): TimeSignature | undefined {
  const votes = new Map<string, { value: TimeSignature; count: number }>();
  for (const reading of system.staves) {
    const lastNote = last ? Math.max(left, ...reading.items.filter((item) => item.x < right).map((item) => item.x)) : Infinity;
    const courtesy = (x: number) => x > lastNote && reading.staff.x1 - x < system.space * COURTESY_TIME_REACH;
    const value = reading.times.find((tt) => tt.x >= left - system.space * TIME_BEFORE_BARLINE && tt.x < right && tt.value && !courtesy(tt.x))?.value;
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
  return best && best.count >= Math.ceil(system.staves.length / STAVES_PER_TIME_READING) ? best.value : undefined;
}
