/**
 * The value of a time signature from its glyphs: common time (C) and cut
 * time (¢, the C with a stroke through it, taller than the staff's middle),
 * or two numbers read digit by digit (symbols/printed-numbers.ts).
 *
 * When the glyphs cannot be read with confidence, or read as something no
 * one writes (5/3), the signature is left undefined and the score builder
 * infers it from what the measures hold (inferTimeSignature).
 */
import { compare, equals, frac, toNumber, type Fraction } from '../score/fraction.js';
import { timeSignatureLength } from '../score/timeline.js';
import type { TimeSignature } from '../score/model.js';
import type { PrintedTime } from '../reading/page-reading.js';

const BEAT_TYPES = new Set([1, 2, 4, 8, 16, 32, 64]);

/** A time signature from its printed glyphs (read by the page sight); undefined for a metre no one writes. */
export function timeSignatureFrom(printed: PrintedTime | undefined): TimeSignature | undefined {
  if (!printed) return undefined;
  if ('symbol' in printed) return printed.symbol === 'cut' ? { beats: 2, beatType: 2, symbol: 'cut' } : { beats: 4, beatType: 4, symbol: 'common' };
  return printed.beats >= 1 && BEAT_TYPES.has(printed.beatType) ? { beats: printed.beats, beatType: printed.beatType } : undefined;
}

/**
 * The time signature most measures agree with, given each full measure's
 * length in quarter notes: the most frequent length, written the usual way
 * (1.5 → 3/8, 3 → 3/4, 6 → 6/4 …). A length that only one measure has is no
 * evidence; then undefined.
 *
 * `beamed`, each voice's written length and the lengths of its beamed
 * groups, tells a compound metre from a simple one of the same length: where
 * the beams of voices that fill the measure join notes by dotted quarters,
 * three quarters are 6/8 and six are 12/8. (A voice of triplets the page
 * leaves unmarked overfills its measure, so its groups of three say nothing.)
 */
export function inferTimeSignature(lengths: readonly Fraction[], beamed: readonly BeamedVoice[] = []): TimeSignature | undefined {
  const usual = mostCommonLength(lengths);
  if (!usual) return undefined;
  const quarters = toNumber(usual);
  const groups = beamed.flatMap((voice) => (equals(voice.length, usual) ? voice.groups : []));
  if ((quarters === 3 || quarters === 6) && beamedInDottedQuarters(groups)) return { beats: quarters * 2, beatType: 8 };
  // Whole numbers of quarters are x/4; halves are x/8; quarters of a quarter are x/16.
  for (const beatType of [4, 8, 16]) {
    const beats = (quarters * beatType) / 4;
    if (Number.isInteger(beats) && beats >= 1 && beats <= 16) return { beats, beatType };
  }
  return undefined;
}

/** A voice's written length in quarter notes, and the length of each run of its notes one beam joins. */
export interface BeamedVoice {
  length: Fraction;
  groups: readonly Fraction[];
}

/** Beams join notes by dotted quarters (a compound metre) in at least this many groups … */
const COMPOUND_MIN_GROUPS = 4;
/** … and this many times as often as by quarters or halves (a hemiola or a misread group is no metre). */
const COMPOUND_MAJORITY = 2;

/** Whether beamed groups last a dotted quarter far more often than a quarter or a half. */
function beamedInDottedQuarters(groups: readonly Fraction[]): boolean {
  const dotted = groups.filter((g) => equals(g, frac(3, 2))).length;
  const simple = groups.filter((g) => equals(g, frac(1)) || equals(g, frac(2))).length;
  return dotted >= COMPOUND_MIN_GROUPS && dotted >= simple * COMPOUND_MAJORITY;
}

/**
 * Printed time signatures checked against what the measures hold. A digit
 * misread turns 3/4 into 3/1, and on small staves a dynamic's or tuplet's
 * digits pass for a change of metre; the notes show both. For each printed
 * signature (in measure order), the measures it governs vote with their
 * lengths:
 *
 * - a signature whose length the measures fill is kept;
 * - one whose beat type is unusual (not 2, 4 or 8: a misread digit) while
 *   its beats are right (the measures fill beats/x for another note value
 *   x) takes that beat type;
 * - a later one that the measures do not fill, while they do fill the
 *   signature already in force, is no change: it is dropped.
 *
 * `lengths[m]` lists the lengths of measure m's staves (zero where empty).
 */
const USUAL_BEAT_TYPES = [2, 4, 8];

export function settleTimes(printed: readonly (TimeSignature | undefined)[], lengths: readonly (readonly Fraction[])[]): (TimeSignature | undefined)[] {
  const settled = [...printed];
  let current: TimeSignature | undefined;
  for (let m = 0; m < settled.length; m++) {
    const time = settled[m];
    if (!time || time.symbol) {
      if (time) current = time;
      continue;
    }
    let end = m + 1;
    while (end < settled.length && !settled[end]) end++;
    const usual = mostCommonLength(lengths.slice(m, end).flat());
    if (usual && compare(timeSignatureLength(time), usual) !== 0) {
      const beatType = [1, 2, 4, 8, 16, 32].find((t) => t !== time.beatType && compare(timeSignatureLength({ beats: time.beats, beatType: t }), usual) === 0);
      // Only a beat type nobody writes is corrected: measures merged by a missed barline fill 6/2 as
      // well as 6/4 would fill its own.
      if (beatType && !USUAL_BEAT_TYPES.includes(time.beatType)) settled[m] = { beats: time.beats, beatType };
      else if (current && compare(timeSignatureLength(current), usual) === 0) settled[m] = undefined;
    }
    // Whole-note beats are all but unheard of; a 4 misread as 1 is not: x/1 that fits is 4x/4.
    const read = settled[m];
    if (read && read.beatType === 1) settled[m] = { beats: read.beats * 4, beatType: 4 };
    current = settled[m] ?? current;
  }
  return settled;
}

/** The length most staff-measures have; undefined when none is shared by two. */
function mostCommonLength(lengths: readonly Fraction[]): Fraction | undefined {
  const votes = new Map<string, { length: Fraction; n: number }>();
  for (const length of lengths) {
    if (compare(length, frac(0)) <= 0) continue;
    const v = votes.get(`${length.n}/${length.d}`) ?? { length, n: 0 };
    v.n++;
    votes.set(`${length.n}/${length.d}`, v);
  }
  const best = [...votes.values()].sort((a, b) => b.n - a.n)[0];
  return best && best.n >= 2 ? best.length : undefined;
}
