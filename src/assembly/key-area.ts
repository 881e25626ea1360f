/**
 * Key signatures counted from the page's ink. On tiny staves of a scan or a
 * photo the model misses a key's flats or calls them rests or naturals, but
 * between the opening clef and the time signature nothing else is printed:
 * every mark of ink there, beside the staff lines, is a sharp or a flat of
 * the key. Which of the two they are comes from the other staves of the
 * system, whose keys were read.
 */
import type { BinaryImage } from '../preparation/binarize.js';
import type { Staff } from '../staves/detect-staves.js';
import { positionY } from '../staves/staff-geometry.js';
import { mostRead } from './opening-keys.js';
import type { StaffSignatures } from './signatures.js';

/**
 * Raises a staff's opening key to the count of accidentals its key area
 * holds, when the area shows more than was read, the system's other staves
 * tell whether they are flats or sharps, and most of them read that key.
 */
export function keysFromKeyArea(signatures: readonly StaffSignatures[], staves: readonly Staff[], ink: BinaryImage, space: number): void {
  const inArea = (s: StaffSignatures, x: number) => x >= s.keyArea!.x0 - space && x < s.keyArea!.x1;
  const read = signatures.map((s) => (s.keyArea ? (s.keys.find((k) => inArea(s, k.x))?.value ?? 0) : undefined));
  const flats = read.filter((v) => v !== undefined && v < 0).length;
  const sharps = read.filter((v) => v !== undefined && v > 0).length;
  if (flats === sharps) return;
  const sign = flats > sharps ? -1 : 1;
  const counts = signatures.map((s, i) => {
    if (!s.keyArea) return undefined;
    const strokes = keyAreaStrokes(staves[i]!, s.keyArea.x0, s.keyArea.x1, ink, space);
    return Math.min(7, sign < 0 ? strokes : Math.round(strokes / 2));
  });
  // The key most staves read where the ink agrees: a stroke too many (a smudge, a clef's tail) must
  // not change a key read right, so a staff is only raised to this one.
  const common = mostRead(read.filter((v, i) => v !== undefined && v * sign > 0 && v === sign * counts[i]!));
  if (common === undefined) return;
  signatures.forEach((s, i) => {
    const current = read[i];
    if (current === undefined || current * sign < 0 || counts[i]! <= Math.abs(current) || sign * counts[i]! !== common) return;
    s.keys = [...s.keys.filter((k) => !inArea(s, k.x)), { x: s.keyArea!.x0 + space * 0.5, value: common }].sort((a, b) => a.x - b.x);
  });
}

/**
 * Upright strokes in [x0, x1) on a staff: columns whose longest run of ink
 * (through the staff lines it crosses) is a space and a half or more, next
 * to each other. A flat has one, a sharp two; the clef's tail and the staff
 * lines have none there.
 */
export function keyAreaStrokes(staff: Staff, x0: number, x1: number, ink: BinaryImage, space: number): number {
  const from = Math.max(0, Math.ceil(x0 + space * 0.4));
  const to = Math.min(ink.width, Math.floor(x1 - 1));
  let strokes = 0;
  let inStroke = false;
  let gap = 0;
  for (let x = from; x < to; x++) {
    const top = Math.max(0, Math.floor(positionY(staff, x, -4)));
    const bottom = Math.min(ink.height - 1, Math.ceil(positionY(staff, x, 10)));
    let longest = 0;
    let run = 0;
    for (let y = top; y <= bottom; y++) {
      run = ink.data[y * ink.width + x] ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    if (longest >= space * 1.5) {
      if (!inStroke) strokes++;
      inStroke = true;
      gap = 0;
    } else if (inStroke && ++gap > 1) inStroke = false;
  }
  return strokes;
}
