/**
 * Parts: every part's measures in order, voices and clefs sorted, a
 * multi-measure rest spelled out as that many measures (the first says how
 * many, the others are whole-measure rests).
 *
 * Reads: the measures made and filled by the passes before.
 * Adds: the parts' measure lists.
 */
import { compare } from '../../score/fraction.js';
import { measureRest, voiceId, type ScorePass } from './reading-state.js';

export const partsPass: ScorePass = {
  name: 'parts',
  run(state) {
    const { parts, layout } = state;
    for (const { parts: measures, run, expected } of state.measures) {
      measures.forEach((measure, p) => {
        measure.voices.sort((a, b) => Number(a.id) - Number(b.id));
        measure.clefs.sort((a, b) => compare(a.offset, b.offset) || a.staff - b.staff);
        parts[p]!.measures.push(measure);
        // A multi-measure rest is that many measures, each a whole-measure rest; the first says how many.
        if (run > 1) {
          measure.multiRest = run;
          for (let k = 1; k < run; k++) {
            parts[p]!.measures.push({
              number: String(Number(measure.number) + k),
              clefs: [],
              voices: Array.from({ length: layout.parts[p]!.staves }, (_, staff) => ({ id: voiceId({ part: p, staff: staff + 1 }, 0), events: [measureRest(expected, staff + 1)] })),
              directions: [],
              ...(measure.evidence ? { evidence: measure.evidence } : {}),
            });
          }
        }
      });
    }
  },
};
