/**
 * A page sight over test pixels: the ink, class map and gray page a test
 * draws, blank where it draws none (a blank gray page is all paper).
 */
import type { BinaryImage } from '../../src/preparation/binarize.js';
import type { PageSight } from '../../src/reading/page-reading.js';
import type { Staff } from '../../src/staves/detect-staves.js';
import { pageSight } from '../../src/symbols/page-sight.js';
import type { ClassMap } from '../../src/symbols/segment.js';

export function sightOf(parts: { staves?: readonly Staff[]; ink?: BinaryImage; map?: ClassMap; space?: number }): PageSight {
  const ink = parts.ink ?? { width: 1, height: 1, data: new Uint8Array(1) };
  const map = parts.map ?? { width: 1, height: 1, data: new Uint8Array(1), confidence: new Uint8Array(1) };
  const gray = { width: ink.width, height: ink.height, data: new Uint8Array(ink.width * ink.height).fill(255) };
  return pageSight({ gray, ink, map, staves: parts.staves ?? [], lineThickness: 1, space: parts.space ?? 12 });
}
