/**
 * The order a player reads the measures in: repeats taken, each volta on its
 * own pass. {@link unfoldRepeats} writes that order out as a score whose
 * measures follow one another, which the MIDI writer plays through.
 *
 * - A backward repeat goes back to the nearest forward repeat before it (or
 *   the start, or the measure after the previous backward repeat), `times`
 *   passes in all (two by default).
 * - A volta's measures are played on the passes its number lists ("1", "1, 2",
 *   "1-3"); on other passes they are skipped.
 * - A D.C. sends the player back to the start once its measure is played;
 *   from there repeats are not taken again and first endings are skipped,
 *   and the piece ends at the measure marked Fine (or at the end).
 * - D.S., segno and coda are not followed.
 */
import type { Measure, Part, Score } from './model.js';

/** A score read straight through plays at most this many times its measures (a guard against a runaway repeat). */
const MAX_UNFOLD = 8;

/** Indices of the measures in the order they are played. */
export function playbackOrder(measures: readonly Measure[]): number[] {
  const order: number[] = [];
  const volta = voltaRanges(measures);
  const passesLeft = new Map<number, number>();
  let start = 0;
  let pass = 1;
  let daCapo = false;
  for (let i = 0; i < measures.length && order.length < measures.length * MAX_UNFOLD; ) {
    const measure = measures[i]!;
    if (measure.leftBarline?.repeat?.direction === 'forward' && i !== start) {
      start = i;
      pass = 1;
    }
    const ending = volta.get(i);
    if (ending && (daCapo ? ending.numbers.includes(1) && ending.numbers.length === 1 : !ending.numbers.includes(pass))) {
      i = ending.last + 1;
      continue;
    }
    order.push(i);
    const jump = jumpIn(measure);
    if (daCapo && jump === 'fine') break;
    if (!daCapo && jump === 'daCapo') {
      daCapo = true;
      i = 0;
      continue;
    }
    const repeat = measure.rightBarline?.repeat;
    if (repeat?.direction === 'backward' && !daCapo) {
      const left = passesLeft.get(i) ?? (repeat.times ?? 2) - 1;
      if (left > 0) {
        passesLeft.set(i, left - 1);
        pass++;
        i = start;
        continue;
      }
      passesLeft.delete(i);
      start = i + 1;
      pass = 1;
    }
    i++;
  }
  return order;
}

/** The D.C. or Fine a measure's directions carry, if any. */
function jumpIn(measure: Measure): 'daCapo' | 'fine' | undefined {
  return measure.directions.find((d) => d.jump)?.jump;
}

/** The score with its repeats written out: each part's measures in playback order. */
export function unfoldRepeats(score: Score): Score {
  const reference = score.parts[0]?.measures ?? [];
  const order = playbackOrder(reference);
  if (order.length === reference.length && order.every((m, k) => m === k)) return score;
  const unfold = (part: Part): Part => ({ ...part, measures: order.flatMap((m) => (part.measures[m] ? [part.measures[m]] : [])) });
  return { ...score, parts: score.parts.map(unfold) };
}

/** Each volta's first measure, with the passes it is played on and its last measure. */
function voltaRanges(measures: readonly Measure[]): Map<number, { numbers: number[]; last: number }> {
  const ranges = new Map<number, { numbers: number[]; last: number }>();
  measures.forEach((measure, i) => {
    const ending = measure.leftBarline?.ending;
    if (ending?.type !== 'start') return;
    let last = i;
    while (last < measures.length - 1 && !measures[last]!.rightBarline?.ending && !measures[last + 1]!.leftBarline?.ending) last++;
    const numbers = passNumbers(ending.number);
    if (numbers.length) ranges.set(i, { numbers, last });
  });
  return ranges;
}

/** "1", "1, 2", "1-3" → [1], [1, 2], [1, 2, 3]. */
export function passNumbers(text: string): number[] {
  const out: number[] = [];
  for (const piece of text.split(/[,\s]+/)) {
    const range = /^(\d+)\s*[-–]\s*(\d+)$/.exec(piece);
    if (range) for (let n = Number(range[1]); n <= Number(range[2]) && n - Number(range[1]) < 16; n++) out.push(n);
    else if (/^\d+$/.test(piece)) out.push(Number(piece));
  }
  return out;
}
