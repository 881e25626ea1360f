/**
 * Long synchronous loops in a test (reading a corpus, Verovio layout) keep
 * the worker from answering vitest's progress messages; past a minute on a
 * busy machine those time out and fail the run. Awaiting this between items
 * lets the worker answer.
 */
export function yieldToRunner(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
