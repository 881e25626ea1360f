/**
 * Quantisation: MIDI ticks to exact note-value positions.
 *
 * Each quarter note ("beat" here, whatever the time signature) gets its own
 * grid, chosen from the note-ons that fall in it:
 *
 * - A part whose note-ons almost all lie on exact subdivisions of the beat
 *   (within rounding to a tick) was written by notation software or
 *   quantised already. Each of its beats takes the simplest grid that holds
 *   every onset there without moving it: 16ths, then eighth triplets, 32nds,
 *   16th triplets, 64ths, 32nd triplets, and the grids that mix them (1/24
 *   and 1/48 of a quarter). A note end that lies exactly on a 64th or a
 *   32nd triplet stays where it is (a tied triplet may end in a beat with no
 *   triplet onsets); other ends — notes a player or a playback style cut
 *   short — snap to their beat's grid. Such a file reads back as written,
 *   unless it has quintuplets or finer.
 * - A played part's timing is loose, so only two grids are offered — 16ths
 *   and eighth triplets — and each beat takes the one its onsets sit closer
 *   to, triplets only when clearly closer (most music is binary, and one
 *   early 16th would otherwise turn a beat into triplets). How long a player
 *   holds a key says little about the written value, so ends just snap to
 *   their beat's grid.
 *
 * Everything is decided per part, so triplets in one part do not bend the
 * 16ths of another. Ticks that are not note times (time signatures, keys,
 * tempos) snap to the nearest 32nd, where barlines and tempo changes sit.
 */
import { frac, type Fraction } from '../../score/fraction.js';

export interface Quantiser {
  /** The position in quarter notes of a note-on. */
  onset(ticks: number): Fraction;
  /** The position in quarter notes of a note-off. */
  end(ticks: number): Fraction;
  /** The grid step of the beat a tick falls in: the shortest value a note there may have. */
  step(ticks: number): Fraction;
}

/** Grids for exact input, in subdivisions of a quarter, simplest first. Each divides 48. */
const EXACT_GRIDS = [4, 3, 8, 6, 16, 12, 24, 48];
/** Grids of written note ends: 64ths and 32nd triplets. */
const END_GRIDS = [16, 12];
const BINARY = 4;
const TRIPLET = 3;
/** Share of onsets exactly on a grid that marks a part as written rather than played. */
const WRITTEN_SHARE = 0.9;
/** Triplets must fit a played beat this many times better than 16ths. */
const TRIPLET_MARGIN = 2;
/** Grid of the ticks of meta events. */
const META_GRID = 8;

/** A quantiser for one part, from the ticks of its note-ons. */
export function partQuantiser(onsets: readonly number[], ticksPerQuarter: number): Quantiser {
  const quarters = (ticks: number) => ticks / ticksPerQuarter;
  // Exact means on the grid, or within rounding to the nearest tick where a grid step is not a whole
  // number of ticks (1/3 of 1000, 1/16 of 120). A grid finer than two ticks cannot be told from noise.
  const fits = (q: number, grid: number) => {
    const tolerance = ticksPerQuarter % grid === 0 ? 1e-9 : 0.5 / ticksPerQuarter + 1e-9;
    return Math.abs(q * grid - Math.round(q * grid)) <= tolerance * grid;
  };
  const usable = (grids: number[]) => grids.filter((g) => ticksPerQuarter / g >= 2);
  const exactGrids = usable(EXACT_GRIDS);
  const endGrids = usable(END_GRIDS);

  const onGrid = onsets.filter((t) => exactGrids.some((g) => fits(quarters(t) % 1, g))).length;
  const written = onGrid >= WRITTEN_SHARE * onsets.length;

  // Onset positions within their beat, by beat.
  const beats = new Map<number, number[]>();
  for (const t of onsets) {
    const q = quarters(t);
    const beat = Math.floor(q);
    const positions = beats.get(beat);
    if (positions) positions.push(q - beat);
    else beats.set(beat, [q - beat]);
  }
  const grids = new Map<number, number>();
  for (const [beat, positions] of beats) {
    const exact = written ? exactGrids.find((g) => positions.every((p) => fits(p, g))) : undefined;
    grids.set(beat, exact ?? playedGrid(positions));
  }

  const gridAt = (ticks: number) => grids.get(Math.floor(quarters(ticks))) ?? BINARY;
  return {
    onset: (ticks) => snapTo(quarters(ticks), gridAt(ticks)),
    end: (ticks) => {
      const q = quarters(ticks);
      const exact = written ? endGrids.find((g) => fits(q - Math.floor(q), g)) : undefined;
      return snapTo(q, exact ?? gridAt(ticks));
    },
    step: (ticks) => frac(1, gridAt(ticks)),
  };
}

/** Meta events (time signatures, keys, tempos) snap to the nearest 32nd. */
export function snapMeta(ticks: number, ticksPerQuarter: number): Fraction {
  return snapTo(ticks / ticksPerQuarter, META_GRID);
}

function playedGrid(positions: readonly number[]): number {
  const error = (grid: number) => positions.reduce((sum, p) => sum + Math.abs(p * grid - Math.round(p * grid)) / grid, 0);
  return error(TRIPLET) * TRIPLET_MARGIN < error(BINARY) ? TRIPLET : BINARY;
}

function snapTo(quarters: number, grid: number): Fraction {
  const beat = Math.floor(quarters);
  return frac(beat * grid + Math.round((quarters - beat) * grid), grid);
}
