/**
 * Runs async work while watching Node's unhandled rejections: pdf.js's stray
 * ones (which the library's guard ignores, see src/input/pdfjs-rejections.ts)
 * are counted, any other is collected for the test to fail on. Vitest's own
 * listener is set aside meanwhile, since it would report the stray ones too.
 */
import { isPdfjsStrayRejection } from '../../src/input/pdfjs-rejections.js';

export async function watchingRejections(run: () => Promise<void>): Promise<{ stray: number; other: unknown[] }> {
  const saved = process.listeners('unhandledRejection');
  process.removeAllListeners('unhandledRejection');
  const result = { stray: 0, other: [] as unknown[] };
  process.on('unhandledRejection', (reason) => {
    if (isPdfjsStrayRejection(reason)) result.stray++;
    else result.other.push(reason);
  });
  try {
    await run();
    // Rejections are reported after the microtask queue drains.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.removeAllListeners('unhandledRejection');
    for (const listener of saved) process.on('unhandledRejection', listener);
  }
  return result;
}
