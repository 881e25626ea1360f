/** A line of printed text for OCR tests: the title "Abendlied" cut from a committed scan (bench/text-set). */
import { readFileSync } from 'node:fs';
import { toGray, type GrayImage } from '../../src/image/gray.js';
import { decodePng } from '../../src/input/png.js';

const SCAN = new URL('../../bench/text-set/text-abendlied/scan-1.png', import.meta.url);
/** The title's box on that scan, with a margin of paper. */
const TITLE = { x: 500, y: 40, width: 260, height: 70 };

export function titleLine(): GrayImage {
  const page = toGray(decodePng(new Uint8Array(readFileSync(SCAN))));
  const data = new Uint8Array(TITLE.width * TITLE.height);
  for (let y = 0; y < TITLE.height; y++) data.set(page.data.subarray((TITLE.y + y) * page.width + TITLE.x, (TITLE.y + y) * page.width + TITLE.x + TITLE.width), y * TITLE.width);
  return { width: TITLE.width, height: TITLE.height, data };
}
