/**
 * The page sight: the vision side's answers to the questions the music
 * reader may ask of a page (reading/page-reading.ts), from the prepared
 * page's gray pixels, its ink mask, the symbol model's class map and the
 * digit model.
 */
import type { GrayImage } from '../image/gray.js';
import type { BinaryImage } from '../preparation/binarize.js';
import type { PageSight } from '../reading/page-reading.js';
import { staffLineY, type Staff } from '../staves/detect-staves.js';
import { barlinesInPixels, lineAcross } from './barline-pixels.js';
import { beamAlong, beamBeyond, beamsAtStem, type StaffLinesNear } from './beam-pixels.js';
import { clefInk, keyAreaStrokes } from './ink-probes.js';
import { readNumberOver, readPrintedTime } from './printed-numbers.js';
import type { ClassMap } from './segment.js';
import { strokesAcrossStem } from './tremolo-strokes.js';
import { arpeggioBefore } from './arpeggio-lines.js';

export interface SightSources {
  /** The prepared page. */
  gray: GrayImage;
  /** Its ink (1) and paper (0), at the page's own threshold. */
  ink: BinaryImage;
  /** The symbol model's classes of the prepared page. */
  map: ClassMap;
  staves: readonly Staff[];
  /** Staff-line thickness on the prepared page, in pixels. */
  lineThickness: number;
  /** Staff space of the prepared page, in pixels. */
  space: number;
}

export function pageSight({ gray, ink, map, staves, lineThickness, space }: SightSources): PageSight {
  const staff = (index: number) => staves[index]!;
  const staffLines: StaffLinesNear = {
    at: (x) => staves.flatMap((st) => (x >= st.x0 && x <= st.x1 ? st.lines.map((_, l) => staffLineY(st, l, x)) : [])),
    thickness: lineThickness,
  };
  return {
    beamAlong: (from, to) => beamAlong(map, from, to, space),
    beamsAtStem: (x, tip, up, reach) => beamsAtStem(map, x, tip, up, reach, space, staffLines),
    beamBeyond: (x, from, way) => beamBeyond(map, x, from, way, space),
    tremoloStrokes: (x, tip, head) => strokesAcrossStem(ink, staves, x, tip, head, space),
    arpeggioBefore: (x, top, bottom) => arpeggioBefore(ink, x, top, bottom, space),
    barlinesInInk: (index, edges) => barlinesInPixels(ink, staff(index), index, space, edges),
    lineAcross: (index, x, slope) => lineAcross(ink, staff(index), x, slope, space),
    keyAreaStrokes: (index, x0, x1) => keyAreaStrokes(staff(index), x0, x1, ink, space),
    clefInk: (clef) => clefInk(clef, ink, space),
    printedTime: (glyphs, index) => readPrintedTime(glyphs, staff(index), gray, lineThickness),
    numberOver: (rest, index) => readNumberOver(rest, staff(index), gray, lineThickness),
  };
}
