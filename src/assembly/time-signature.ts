/**
 * The value of a time signature from its glyphs: common time (C) and cut
 * time (¢, the C with a stroke through it, taller than the staff's middle),
 * or numbers — read digit by digit where a digit reader is available.
 *
 * When the glyphs cannot be read, the signature is left undefined and the
 * score builder infers it from what the measures hold (inferTimeSignature).
 */
import { compare, frac, toNumber, type Fraction } from '../score/fraction.js';
import type { TimeSignature } from '../score/model.js';
import type { Staff } from '../staves/detect-staves.js';
import { localSpace } from '../staves/staff-geometry.js';
import type { TimeGlyph } from '../symbols/read-symbols.js';

export function readTimeSignature(glyphs: readonly TimeGlyph[], staff: Staff, space: number): TimeSignature | undefined {
  const common = glyphs.find((g) => g.common);
  if (common) {
    const s = localSpace(staff, (common.x0 + common.x1) / 2) || space;
    // ¢'s stroke reaches beyond the C, which itself spans two spaces.
    return common.y1 - common.y0 > s * 2.7 ? { beats: 2, beatType: 2, symbol: 'cut' } : { beats: 4, beatType: 4, symbol: 'common' };
  }
  return undefined;
}

/**
 * The time signature most measures agree with, given each full measure's
 * length in quarter notes: the most frequent length, written the usual way
 * (1.5 → 3/8, 3 → 3/4, 6 → 6/4 …). A length that only one measure has is no
 * evidence; then undefined.
 */
export function inferTimeSignature(lengths: readonly Fraction[]): TimeSignature | undefined {
  const votes = new Map<string, { length: Fraction; n: number }>();
  for (const length of lengths) {
    if (compare(length, frac(0)) <= 0) continue;
    const key = `${length.n}/${length.d}`;
    const v = votes.get(key) ?? { length, n: 0 };
    v.n++;
    votes.set(key, v);
  }
  const best = [...votes.values()].sort((a, b) => b.n - a.n)[0];
  if (!best || best.n < 2) return undefined;
  const quarters = toNumber(best.length);
  // Whole numbers of quarters are x/4; halves are x/8; quarters of a quarter are x/16.
  for (const beatType of [4, 8, 16]) {
    const beats = (quarters * beatType) / 4;
    if (Number.isInteger(beats) && beats >= 1 && beats <= 16) return { beats, beatType };
  }
  return undefined;
}
