/**
 * Ground truth of one staff of one system: what a recogniser reading that
 * staff alone should produce. Taken from the page's ground truth: the staff's
 * part, the system's measures, and only the events drawn on that staff (events
 * of a voice that crosses to another staff become hidden rests, so time still
 * adds up).
 */
import type { Part, Score, VoiceEvent } from '../../src/score/model.js';
import { excerpt } from './excerpt.js';

export interface StaffRef {
  /** Part index in the page's score. */
  part: number;
  /** Staff within the part, 1-based. */
  staffInPart: number;
  /** Measure indices of the system within the page's score, [from, to). */
  measures: readonly [number, number];
}

export function staffTruth(page: Score, ref: StaffRef): Score {
  const one = excerpt(page, { parts: [ref.part], measures: ref.measures });
  const part = one.parts[0]!;
  const onStaff = (e: VoiceEvent): VoiceEvent =>
    e.staff === ref.staffInPart ? { ...e, staff: 1 } : { kind: 'rest', duration: e.duration, dots: 0, staff: 1, hidden: true };
  const measures: Part['measures'] = part.measures.map((m) => ({
    ...m,
    clefs: m.clefs.filter((c) => c.staff === ref.staffInPart).map((c) => ({ ...c, staff: 1 })),
    directions: m.directions.filter((d) => d.staff === ref.staffInPart).map((d) => ({ ...d, staff: 1 })),
    voices: m.voices
      .filter((v) => v.events.some((e) => e.staff === ref.staffInPart && !(e.kind === 'rest' && e.hidden)))
      .map((v) => ({ ...v, events: v.events.map(onStaff) })),
  }));
  return { ...one, parts: [{ ...part, staves: 1, measures }], partGroups: [] };
}
