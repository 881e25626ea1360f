/**
 * Measures: each measure of each part, numbered across systems and pages,
 * with its system and page breaks, its barlines and the first and second
 * endings they carry, and the time signature where it changes. A measure
 * that holds a multi-measure rest on every staff stands for that many.
 *
 * Reads: the measures' places and time, the systems' barlines, endings and
 * multi-measure rests.
 * Adds: per measure, `run` and an empty measure per part (`parts`).
 */
import type { Measure } from '../../score/model.js';
import type { SystemReading } from '../read-page.js';
import { placeEndings, withEnding } from '../voltas.js';
import type { ScorePass } from './reading-state.js';

export const measuresPass: ScorePass = {
  name: 'measures',
  run(state) {
    const { systems } = state;
    const endings = placeEndings(systems.map((s) => ({ endings: s.endings, repeatsBack: s.measures.bounds.slice(1).map((_, m) => s.measures.right[m]?.repeat?.direction === 'backward') })));
    let measureNumber = 1;
    for (const measure of state.measures) {
      const { system: si, index: m, time, timeChanged } = measure;
      const system = systems[si]!;
      const { start, stop } = endings[si]![m]!;
      const leftBarline = start === undefined ? system.measures.left[m] : withEnding(system.measures.left[m], start, 'start');
      const rightBarline = stop === undefined ? system.measures.right[m] : withEnding(system.measures.right[m], stop.number, stop.type);
      measure.parts = state.parts.map((): Measure => ({
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
      measure.run = multiRestRun(system, measure.left, measure.right);
      measureNumber += Math.max(1, measure.run);
    }
  },
};

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
