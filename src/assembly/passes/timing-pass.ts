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
import { compare, sub, ZERO } from '../../score/fraction.js';
import { repairVoice } from '../measure-repair.js';
import type { StaffReading } from '../read-page.js';
import { cueNotes, gapsByPlace, handBackTrailing, lateStart, leadingGap, timeGrid } from '../voice-timing.js';
import { readingAt, type ScorePass } from './reading-state.js';

export const timingPass: ScorePass = {
  name: 'timing',
  run(state) {
    /** Per staff: marked triplets have been read, so unmarked ones may follow. */
    const tripletsShown: boolean[] = state.layout.slots.map(() => false);
    for (const measure of state.measures) {
      const { left, right, expected } = measure;
      const space = state.systems[measure.system]!.space;
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
          if (repairVoice(items, sub(expected, leads[v]!), marks, space, tripletsShown[s] || (reading?.tuplets.length ?? 0) > 0)) tripletsShown[s] = true;
        });
        // A voice still short once repaired may stand between other staves' notes: their places time it.
        const grid = timeGrid([...others, ...voices], expected, right);
        staffMeasure.leads = leads;
        staffMeasure.gaps = voices.map((items, v) => (compare(leads[v]!, ZERO) === 0 ? gapsByPlace(items, grid, expected, space) : undefined));
      });
    }
  },
};

function tupletMarks(reading: StaffReading, left: number, right: number): number[] {
  return reading.tuplets.filter((x) => x >= left && x < right);
}
