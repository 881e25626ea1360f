/**
 * Ties and slurs: each system's curves laid on the notes of the strokes
 * they join, system by system in reading order, a tie or slur that runs off
 * one system picked up on the next (ties-slurs.ts).
 *
 * Reads: the systems' curves, the event each stroke became.
 * Adds: ties and slurs on the notes (a tied note takes the first one's alter).
 */
import { TiesAndSlurs } from '../ties-slurs.js';
import type { ScorePass } from './reading-state.js';

export const tiesPass: ScorePass = {
  name: 'ties',
  run(state) {
    const { placed } = state;
    const curves = new TiesAndSlurs({
      stroke: (stroke) => placed.get(stroke),
      note: (head, stroke) => placed.get(stroke)?.event.notes[stroke.heads.indexOf(head)],
    });
    for (const system of state.systems) curves.system(system.curves);
  },
};
