/**
 * Key signatures counted from the page's ink (the strokes the page sight counts). On tiny staves of a scan or a
 * photo the model misses a key's flats or calls them rests or naturals, but
 * between the opening clef and the time signature nothing else is printed:
 * every mark of ink there, beside the staff lines, is a sharp or a flat of
 * the key. Which of the two they are comes from the other staves of the
 * system, whose keys were read.
 */
import type { PageSight } from '../reading/page-reading.js';
import { mostRead } from './opening-keys.js';
import type { StaffSignatures } from './signatures.js';

/** A key read from a key area's strokes stands this many spaces into the area. */
const KEY_INSIDE_AREA = 0.5;

/**
 * Raises a staff's opening key to the count of accidentals its key area
 * holds, when the area shows more than was read, the system's other staves
 * tell whether they are flats or sharps, and most of them read that key.
 */
export function keysFromKeyArea(signatures: readonly StaffSignatures[], staffIndices: readonly number[], sight: PageSight, space: number): void {
  const inArea = (s: StaffSignatures, x: number) => x >= s.keyArea!.x0 - space && x < s.keyArea!.x1;
  const read = signatures.map((s) => (s.keyArea ? (s.keys.find((k) => inArea(s, k.x))?.value ?? 0) : undefined));
  const flats = read.filter((v) => v !== undefined && v < 0).length;
  const sharps = read.filter((v) => v !== undefined && v > 0).length;
  if (flats === sharps) return;
  const sign = flats > sharps ? -1 : 1;
  const counts = signatures.map((s, i) => {
    if (!s.keyArea) return undefined;
    const strokes = sight.keyAreaStrokes(staffIndices[i]!, s.keyArea.x0, s.keyArea.x1);
    return Math.min(7, sign < 0 ? strokes : Math.round(strokes / 2));
  });
  // The key most staves read where the ink agrees: a stroke too many (a smudge, a clef's tail) must
  // not change a key read right, so a staff is only raised to this one.
  const common = mostRead(read.filter((v, i) => v !== undefined && v * sign > 0 && v === sign * counts[i]!));
  if (common === undefined) return;
  signatures.forEach((s, i) => {
    const current = read[i];
    if (current === undefined || current * sign < 0 || counts[i]! <= Math.abs(current) || sign * counts[i]! !== common) return;
    s.keys = [...s.keys.filter((k) => !inArea(s, k.x)), { x: s.keyArea!.x0 + space * KEY_INSIDE_AREA, value: common }].sort((a, b) => a.x - b.x);
  });
}
