/**
 * Voices: each staff's strokes and rests between a measure's barlines,
 * split into voices, each item with the duration its notation gives it
 * (grace notes none). Nothing is repaired yet: these are the lengths as
 * written, which the time signatures are inferred from.
 *
 * Reads: the measures' places, each staff's items.
 * Adds: per measure, the staff measure of every slot its system shows.
 */
import { ZERO } from '../../score/fraction.js';
import type { Tuplet } from '../../score/model.js';
import { notatedDuration } from '../../score/timeline.js';
import { restType, strokeType, type StaffItem } from '../strokes.js';
import type { PlacedItem } from '../voice-timing.js';
import { splitVoices } from '../voices.js';
import { staffMeasure, type ScorePass } from './reading-state.js';

/** The time modification of a two-note tremolo's notes: two in the time of one. */
const TREMOLO_PAIR: Tuplet = { actual: 2, normal: 1 };

export const voicesPass: ScorePass = {
  name: 'voices',
  run(state) {
    for (const measure of state.measures) {
      const system = state.systems[measure.system]!;
      system.staves.forEach((reading, k) => {
        const inside = reading.items.filter((i) => i.x >= measure.left && i.x < measure.right);
        const voices = splitVoices(inside, reading.staff, system.space).map((voice) => voice.map(timedItem));
        measure.staves.set(state.slotsOf[measure.system]![k]!, staffMeasure(voices));
      });
    }
  },
};

function timedItem(item: StaffItem): PlacedItem {
  const type = item.kind === 'chord' ? strokeType(item) : restType(item);
  const grace = item.kind === 'chord' && item.grace;
  const beamGroup = item.kind === 'chord' ? item.beamGroup : undefined;
  // A two-note tremolo's notes share the time one of them is written to fill.
  const tuplet = item.kind === 'chord' && item.tremoloPair ? TREMOLO_PAIR : undefined;
  return {
    x: item.x,
    type,
    dots: item.dots,
    isRest: item.kind === 'rest',
    grace,
    duration: grace ? ZERO : notatedDuration(type, item.dots, tuplet),
    source: item,
    ...(tuplet ? { tuplet: { ...tuplet } } : {}),
    ...(beamGroup === undefined ? {} : { beamGroup }),
  };
}
