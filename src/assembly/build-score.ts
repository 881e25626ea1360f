/**
 * The systems read from every page, joined into one score, in named passes
 * over one reading state (passes/reading-state.ts). Each pass reads what the
 * ones before it settled and adds its share; its module says which. Clef,
 * key and time carry from system to system and page to page, so pitches and
 * measure lengths are settled here, in reading order.
 */
import type { Score } from '../score/model.js';
import type { SystemReading } from './read-page.js';
import { evidencePass } from './passes/evidence-pass.js';
import { hairpinsPass } from './passes/hairpins-pass.js';
import { layoutPass } from './passes/layout-pass.js';
import { measuresPass } from './passes/measures-pass.js';
import { octaveLinesPass } from './passes/octave-lines-pass.js';
import { partsPass } from './passes/parts-pass.js';
import { pickupPass } from './passes/pickup-pass.js';
import { pitchesPass } from './passes/pitches-pass.js';
import { readingState, scoreOf, type ReadingState, type ScorePass } from './passes/reading-state.js';
import { signaturesPass } from './passes/signatures-pass.js';
import { tiesPass } from './passes/ties-pass.js';
import { timePass } from './passes/time-pass.js';
import { timingPass } from './passes/timing-pass.js';
import { voicesPass } from './passes/voices-pass.js';

/** The passes that read a score, in the order they run. */
export const SCORE_PASSES: readonly ScorePass[] = [
  layoutPass, // parts, slots, the measures' places
  voicesPass, // each staff measure's voices, timed as written
  timePass, // the time signature in force, the measures' lengths
  measuresPass, // the parts' measures: numbers, breaks, barlines, endings, multi-measure rests
  signaturesPass, // clefs and keys, carried across systems and pages
  timingPass, // voices repaired to fill their measures: tuplets, leads, hidden rests
  pitchesPass, // events: pitches, accidentals, marks, beams
  tiesPass, // ties and slurs, across systems
  hairpinsPass, // wedges at the notes, by staff
  octaveLinesPass, // 8va and 8vb lines at the notes they cover
  evidencePass, // each measure's box and confidence
  partsPass, // the parts' measure lists, multi-measure rests spelled out
  pickupPass, // an opening pickup measure numbered 0
];

/** Runs the passes over the systems; `observe` sees the state after each (tests). */
export function buildScore(systems: readonly SystemReading[], observe?: (pass: ScorePass, state: ReadingState) => void): Score {
  if (!systems.length) return { credits: {}, parts: [], partGroups: [] };
  const state = readingState(systems);
  for (const pass of SCORE_PASSES) {
    pass.run(state);
    observe?.(pass, state);
  }
  return scoreOf(state);
}
