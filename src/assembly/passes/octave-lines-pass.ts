/**
 * Octave lines: each 8va or 8vb line of a staff as a pair of directions of
 * its part, starting at the first note it covers and stopping at the first
 * note past its end (or at the end of the measure, or of the system, it
 * ends in). The pitches under it were raised or lowered by the pitches pass.
 *
 * Reads: the staves' octave lines, the onsets of the written items.
 * Adds: octave-shift directions on the parts' measures, each with the line as its evidence.
 */
import type { Direction } from '../../score/model.js';
import { evidenceOf } from './evidence-pass.js';
import { onsetAt, readingAt, type ScorePass } from './reading-state.js';

export const octaveLinesPass: ScorePass = {
  name: 'octave lines',
  run(state) {
    for (const measureState of state.measures) {
      const { left, right } = measureState;
      const system = state.systems[measureState.system]!;
      const systemEnd = system.measures.bounds[system.measures.bounds.length - 1]!;
      state.layout.slots.forEach((slot, s) => {
        const staffMeasure = measureState.staves.get(s);
        const reading = readingAt(state, measureState, s);
        if (!staffMeasure?.voices.length || !reading) return;
        const at = (x: number) => onsetAt(staffMeasure.onsets, x, staffMeasure.end);
        const directions = reading.octaveLines.flatMap((line): Direction[] => {
          const placement = line.octaves > 0 ? 'above' : 'below';
          const evidence = evidenceOf(system.page, system.transform, line, line.confidence);
          const out: Direction[] = [];
          if (line.x0 >= left && line.x0 < right) out.push({ offset: at(line.x0), staff: slot.staff, placement, octaveShift: { type: line.octaves > 0 ? 'down' : 'up', size: 8 }, evidence });
          // A line running off the system stops with it: its continuation on the next is not read.
          const end = Math.min(line.x1, systemEnd - 1);
          if (end >= left && end < right) out.push({ offset: at(end), staff: slot.staff, placement, octaveShift: { type: 'stop', size: 8 }, evidence });
          return out;
        });
        measureState.parts[slot.part]!.directions.push(...directions);
      });
    }
  },
};

