/**
 * How an imported track is drawn: its instrument, staves and clefs.
 *
 * The instrument comes from the track's program (channel 10 is the drum
 * set). Its transposition makes the written pitches: a clarinet track sounds
 * as recorded and is written a tone higher, as players read it.
 *
 * Instruments drawn on a grand staff (piano, harpsichord, organ, harp …)
 * whose notes lie on both sides of middle C get two staves, treble and bass,
 * split at middle C. Every other part gets one staff, with the clef that
 * needs the fewest ledger lines for its notes among treble, bass and the
 * instrument's own clef (alto for a viola, the octave treble for a guitar or
 * a tenor); the instrument's own clef counts its ledger lines at half,
 * since players read their usual clef even where another would be a little
 * shorter.
 */
import { instrumentForProgram, type Instrument } from '../../score/instruments.js';
import type { Clef, Transposition } from '../../score/model.js';
import { diatonicIndex } from '../../score/pitch.js';
import { spell } from './spelling.js';

export interface PartLayout {
  instrument: Instrument;
  transposition?: Transposition;
  /** Clef of each staff, top first. */
  clefs: Clef[];
  /** Staff (1-based) of a written key number. */
  staffOf(key: number): number;
}

const TREBLE: Clef = { sign: 'G', line: 2 };
const BASS: Clef = { sign: 'F', line: 4 };
const PERCUSSION: Clef = { sign: 'percussion', line: 3 };
const MIDDLE_C = 60;

export function layoutPart(program: number, percussion: boolean, soundingKeys: readonly number[]): PartLayout {
  const instrument = instrumentForProgram(program, { percussion });
  if (percussion) return { instrument, clefs: [PERCUSSION], staffOf: () => 1 };
  const transposition = instrument.transposition;
  const shift = transposition ? transposition.chromatic + 12 * (transposition.octaveChange ?? 0) : 0;
  const keys = soundingKeys.map((k) => k - shift);
  const layout = transposition ? { instrument, transposition } : { instrument };
  if (instrument.staves === 2 && keys.some((k) => k >= MIDDLE_C) && keys.some((k) => k < MIDDLE_C)) {
    return { ...layout, clefs: [TREBLE, BASS], staffOf: (key) => (key >= MIDDLE_C ? 1 : 2) };
  }
  const own = instrument.clefs[0]!;
  const scored = [own, TREBLE, BASS].map((clef) => ({
    clef,
    cost: keys.reduce((sum, k) => sum + ledgerLines(k, clef), 0) * (clef === own ? 0.5 : 1),
  }));
  const best = scored.reduce((a, b) => (b.cost < a.cost ? b : a));
  return { ...layout, clefs: [{ ...best.clef }], staffOf: () => 1 };
}

/** Ledger lines a written key number needs on a staff with the clef (spelled with sharps). */
function ledgerLines(key: number, clef: Clef): number {
  const steps = Math.abs(diatonicIndex(spell(key, 0)) - middleLine(clef));
  return steps <= 5 ? 0 : Math.floor((steps - 4) / 2);
}

/** Diatonic index of the staff's middle line: the clef's note sits on its line, two steps a line. */
function middleLine(clef: Clef): number {
  const anchor = clef.sign === 'F' ? diatonicIndex({ step: 'F', octave: 3 }) : clef.sign === 'C' ? diatonicIndex({ step: 'C', octave: 4 }) : diatonicIndex({ step: 'G', octave: 4 });
  return anchor + 2 * (3 - clef.line) + 7 * (clef.octaveChange ?? 0);
}
