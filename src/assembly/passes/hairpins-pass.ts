/**
 * Hairpins: the crescendo and diminuendo wedges of each staff, as
 * directions of its part at the onsets of the notes they start under and
 * stop before, on the staff they were read by.
 *
 * Reads: the staves' hairpins, the onsets of the written items.
 * Adds: wedge directions on the parts' measures, each with the hairpin's box as its evidence (the text
 * stage moves a hairpin's start to the dynamic it is drawn from: apply-text.ts).
 */
import type { Fraction } from '../../score/fraction.js';
import type { Direction } from '../../score/model.js';
import { staffLineY } from '../../staves/detect-staves.js';
import type { StaffReading, SystemReading } from '../read-page.js';
import { evidenceOf } from './evidence-pass.js';
import { onsetAt, readingAt, type PlacedOnset, type ScorePass } from './reading-state.js';

/** A hairpin starts under the first note at most this many spaces left of its open or pointed end … */
const HAIRPIN_START_LEAD = 0.5;
/**
 * … and stops at the first note past this many spaces short of its other end (or its measure's end):
 * it covers every note that starts under it, as engravers draw one to just short of the note after the
 * last it covers (the tolerance is for a thin tip the ink reading may cut short).
 */
const HAIRPIN_STOP_SHORT = 0.3;
/** A hairpin that ends less than this many spaces past a barline stops at the end of the measure it leaves. */
const HAIRPIN_PAST_BARLINE = 1;

export const hairpinsPass: ScorePass = {
  name: 'hairpins',
  run(state) {
    for (const measureState of state.measures) {
      const { left, right } = measureState;
      const system = state.systems[measureState.system]!;
      const { space } = system;
      state.layout.slots.forEach((slot, s) => {
        const staffMeasure = measureState.staves.get(s);
        const reading = readingAt(state, measureState, s);
        if (!staffMeasure?.voices.length || !reading) return;
        measureState.parts[slot.part]!.directions.push(...hairpinDirections(system, reading, staffMeasure.onsets, staffMeasure.end, left, right, slot.staff));
      });
    }
  },
};

/**
 * The hairpins of a staff that start or stop in a measure, as wedge directions at the onsets of the
 * notes they start under and stop before. A hairpin that reaches no note past the measure's last one,
 * or ends just past its barline, stops at the measure's end, in this measure, as engravers write one
 * that ends at the barline. A hairpin's number is its staff's, so the two hands of a piano part can
 * swell apart.
 */
function hairpinDirections(
  system: SystemReading,
  reading: StaffReading,
  onsets: readonly PlacedOnset[],
  end: Fraction,
  left: number,
  right: number,
  staff: number,
): Direction[] {
  const { space } = system;
  const middle = (x: number) => staffLineY(reading.staff, 2, x);
  return reading.hairpins.flatMap((h): Direction[] => {
    const placement = (h.y0 + h.y1) / 2 > middle((h.x0 + h.x1) / 2) ? 'below' : 'above';
    const evidence = evidenceOf(system.page, system.transform, h, h.confidence);
    const out: Direction[] = [];
    const [start, stop] = [h.x0 - space * HAIRPIN_START_LEAD, h.x1 - space * HAIRPIN_STOP_SHORT];
    const justPast = (barline: number) => barline > h.x1 - space * HAIRPIN_PAST_BARLINE && barline <= stop;
    if (h.x0 >= left && h.x0 < right) out.push({ offset: onsetAt(onsets, start, end), staff, placement, wedge: { type: h.kind, number: staff }, evidence });
    if (justPast(right)) out.push({ offset: end, staff, placement, wedge: { type: 'stop', number: staff }, evidence });
    else if (stop >= left && stop < right && !justPast(left)) out.push({ offset: onsetAt(onsets, stop, end), staff, placement, wedge: { type: 'stop', number: staff }, evidence });
    return out;
  });
}
