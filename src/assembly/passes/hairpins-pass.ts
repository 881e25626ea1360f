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
import type { Hairpin } from '../../symbols/marks.js';
import { evidenceOf } from './evidence-pass.js';
import { onsetAt, readingAt, type PlacedOnset, type ReadingState, type ScorePass } from './reading-state.js';

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
/** A hairpin reaching within this many spaces of its system's end runs on to the next system … */
const HAIRPIN_SYSTEM_END = 0.5;
/**
 * … where it goes on in a hairpin of its kind, on the same part's staff, starting at least this many spaces before
 * the staff's first note: an engraver starts a new hairpin under a note, and its continuation where the staff's
 * music begins, after the clef and key.
 */
const HAIRPIN_CONTINUED_LEAD = 1.5;

export const hairpinsPass: ScorePass = {
  name: 'hairpins',
  run(state) {
    const breaks = systemBreaks(state);
    for (const measureState of state.measures) {
      const { left, right } = measureState;
      const system = state.systems[measureState.system]!;
      const { space } = system;
      state.layout.slots.forEach((slot, s) => {
        const staffMeasure = measureState.staves.get(s);
        const reading = readingAt(state, measureState, s);
        if (!staffMeasure?.voices.length || !reading) return;
        measureState.parts[slot.part]!.directions.push(...hairpinDirections(system, reading, staffMeasure.onsets, staffMeasure.end, left, right, slot.staff, breaks));
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
  breaks: SystemBreaks,
): Direction[] {
  const { space } = system;
  const middle = (x: number) => staffLineY(reading.staff, 2, x);
  return reading.hairpins.flatMap((h): Direction[] => {
    const placement = (h.y0 + h.y1) / 2 > middle((h.x0 + h.x1) / 2) ? 'below' : 'above';
    const evidence = evidenceOf(system.page, system.transform, h, h.confidence);
    const out: Direction[] = [];
    const [start, stop] = [h.x0 - space * HAIRPIN_START_LEAD, h.x1 - space * HAIRPIN_STOP_SHORT];
    const justPast = (barline: number) => barline > h.x1 - space * HAIRPIN_PAST_BARLINE && barline <= stop;
    if (h.x0 >= left && h.x0 < right && !breaks.goingOn.has(h)) out.push({ offset: onsetAt(onsets, start, end), staff, placement, wedge: { type: h.kind, number: staff }, evidence });
    if (breaks.runningOn.has(h)) return out;
    if (justPast(right)) out.push({ offset: end, staff, placement, wedge: { type: 'stop', number: staff }, evidence });
    else if (stop >= left && stop < right && !justPast(left)) out.push({ offset: onsetAt(onsets, stop, end), staff, placement, wedge: { type: 'stop', number: staff }, evidence });
    return out;
  });
}

/** Hairpins cut by a system break: the pieces that run on to the next system, and the pieces there that go on with them. */
interface SystemBreaks {
  /** Pieces that do not stop at their system's end. */
  runningOn: Set<Hairpin>;
  /** Pieces that do not start where they begin. */
  goingOn: Set<Hairpin>;
}

/**
 * The hairpins that run on from one system to the next: a piece reaching its system's end, and on the same part's
 * staff of the next system one of its kind that starts well before that staff's first note. The two are one
 * hairpin: it neither stops at the first system's end nor starts anew.
 */
function systemBreaks(state: ReadingState): SystemBreaks {
  const breaks: SystemBreaks = { runningOn: new Set(), goingOn: new Set() };
  state.systems.forEach((system, i) => {
    const next = state.systems[i + 1];
    if (!next) return;
    system.staves.forEach((reading, k) => {
      const slot = state.slotsOf[i]![k]!;
      const j = state.slotsOf[i + 1]!.indexOf(slot);
      const after = next.staves[j];
      const first = after?.items[0];
      if (!after || !first) return;
      for (const h of reading.hairpins) {
        if (h.x1 < reading.staff.x1 - system.space * HAIRPIN_SYSTEM_END) continue;
        const on = after.hairpins.find((g) => g.kind === h.kind && g.x0 < first.x0 - next.space * HAIRPIN_CONTINUED_LEAD);
        if (!on) continue;
        breaks.runningOn.add(h);
        breaks.goingOn.add(on);
      }
    });
  });
  return breaks;
}
