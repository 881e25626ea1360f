import type { Staff } from '../../src/staves/detect-staves.js';

/** A level five-line staff for tests: its top line at `top`, lines `space` apart, running from x0 to x1. */
export function straightStaff(top: number, space: number, x0 = 0, x1 = 1000): Staff {
  return { xs: [x0, x1], lines: [0, 1, 2, 3, 4].map((l) => [top + l * space, top + l * space]), x0, x1, space };
}
