/**
 * Timing: when each item of each voice happens. Voices are repaired to fill
 * their measures (tuplets, marked or implied by beams; dots and flags the
 * page lost: measure-repair.ts); where the printed notes leave the time open
 * (rests an engraver left out, a voice joining another, small notes), the
 * other voices and staves of the measure say it (voice-timing.ts).
 *
 * Staves are timed in order, measure by measure: a staff is timed against
 * the others as they stand then, those above it repaired, those below not
 * yet.
 *
 * Reads: the voices, the measures' lengths, the tuplet marks.
 * Adds: the voices' items repaired in place; per staff measure, each
 * voice's lead and the hidden rests its items' places give it.
 */
import { compare, equals, sub, ZERO, type Fraction } from '../../score/fraction.js';
import { repairVoice, voiceDuration } from '../measure-repair.js';
import type { StaffReading } from '../read-page.js';
import { cueNotes, gapsByPlace, handBackTrailing, lateStart, leadingGap, timeGrid, type PlacedItem } from '../voice-timing.js';
import type { Barline, BarStyle } from '../../score/model.js';
import { readingAt, type MeasureState, type ScorePass } from './reading-state.js';

export const timingPass: ScorePass = {
  name: 'timing',
  run(state) {
    /** Per staff: marked triplets have been read, so unmarked ones may follow. */
    const tripletsShown: boolean[] = state.layout.slots.map(() => false);
    state.measures.forEach((measure, i) => {
      const { left, right, expected } = measure;
      const sectionEdge = atSectionEdge(state.measures, i);
      const space = state.systems[measure.system]!.space;
      // 6/8, 9/8, 12/8 (and 6/4, 6/16 …): beats of three, which a duplet splits in two.
      const compound = !!measure.time && measure.time.beats % 3 === 0 && measure.time.beats > 3 && measure.time.beatType >= 4;
      state.layout.slots.forEach((_, s) => {
        const staffMeasure = measure.staves.get(s);
        const voices = staffMeasure?.voices ?? [];
        if (!staffMeasure || !voices.length) return;
        const reading = readingAt(state, measure, s);
        const marks = reading ? tupletMarks(reading, left, right) : [];
        // A second voice that enters later starts where the first voice stands at that place; the
        // rests before it are often not printed (a choir's alto joining the soprano's line).
        const others = [...measure.staves.entries()].filter(([slotIndex]) => slotIndex !== s).flatMap(([, sm]) => sm.voices);
        const othersGrid = timeGrid(others, expected, right);
        const leads = voices.map((items, v) => (v > 0 ? leadingGap(voices[0]!, items, space) : lateStart(items, othersGrid, expected, space)));
        if (voices.length > 1) handBackTrailing(voices[0]!, voices[1]!, sub(expected, leads[1]!), expected);
        voices.forEach((items, v) => {
          if (v > 0) cueNotes(items, sub(expected, leads[v]!));
          if (shortMeasureRest(items, others, expected) || (sectionEdge && compare(leads[v]!, ZERO) === 0 && shortAsTheOthers(items, others, expected))) return;
          if (repairVoice(items, sub(expected, leads[v]!), marks, space, tripletsShown[s] || (reading?.tuplets.length ?? 0) > 0, compound)) tripletsShown[s] = true;
        });
        // A voice still short once repaired may stand between other staves' notes: their places time it.
        const grid = timeGrid([...others, ...voices], expected, right);
        staffMeasure.leads = leads;
        staffMeasure.gaps = voices.map((items, v) => (compare(leads[v]!, ZERO) === 0 ? gapsByPlace(items, grid, expected, space) : undefined));
      });
    });
  },
};

/**
 * Whether a voice of one rest stands in a measure shorter than its time signature, as long as the rest:
 * a pickup, or the part of a measure a repeat barline splits off, where the parts that do not play print
 * a quarter or eighth rest. That is so where the notes of every other staff last one length, shorter
 * than the time signature's, and the rest is no whole or half rest (those fill a measure whatever it
 * holds). Such a rest keeps its length instead of becoming a whole-measure rest.
 */
function shortMeasureRest(items: readonly PlacedItem[], others: readonly (readonly PlacedItem[])[], expected: Fraction): boolean {
  const rest = items.length === 1 && items[0]!.isRest ? items[0]! : undefined;
  if (!rest || rest.type === 'whole' || rest.type === 'half' || compare(rest.duration, expected) >= 0) return false;
  const played = others.filter((voice) => voice.some((item) => !item.isRest));
  return played.length > 0 && played.every((voice) => equals(voiceDuration(voice), rest.duration));
}

/**
 * Whether a measure stands where a section starts or ends, and so may be short: a double, final or repeat barline
 * ends it or the measure before it, or a repeat starts it or the measure after it. A movement's last measure
 * completes its pickup there, a repeat barline splits a measure in two, and a new section opens with a pickup.
 */
function atSectionEdge(measures: readonly MeasureState[], i: number): boolean {
  const edge = (barline: Barline | undefined) => !!barline && (!!barline.repeat || SECTION_BARLINES.has(barline.style));
  const [before, here, after] = [measures[i - 1], measures[i], measures[i + 1]].map((m) => m?.parts[0]);
  return edge(before?.rightBarline) || edge(here?.leftBarline) || edge(here?.rightBarline) || !!after?.leftBarline?.repeat;
}

const SECTION_BARLINES = new Set<BarStyle>(['light-light', 'light-heavy', 'heavy-light', 'heavy-heavy']);

/**
 * Whether a voice falls short of its time signature by just as much as every other staff's notes do, in a measure
 * at a section's edge (atSectionEdge). Such a measure is short, and a dot or flag added to fill it would be one the
 * page does not print. Elsewhere all staves falling short alike is a rhythm read alike wrongly in all of them (a
 * double dot read as one, duplets in compound time), which the repair is for.
 */
function shortAsTheOthers(items: readonly PlacedItem[], others: readonly (readonly PlacedItem[])[], expected: Fraction): boolean {
  const length = voiceDuration(items);
  if (compare(length, expected) >= 0 || compare(length, ZERO) <= 0) return false;
  const played = others.filter((voice) => voice.some((item) => !item.isRest));
  return played.length > 0 && played.every((voice) => equals(voiceDuration(voice), length));
}

function tupletMarks(reading: StaffReading, left: number, right: number): number[] {
  return reading.tuplets.filter((x) => x >= left && x < right);
}
