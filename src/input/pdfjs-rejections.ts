/**
 * Keeps pdf.js's stray promise rejections from crashing a Node process.
 *
 * On damaged files pdf.js 5.6 leaves some promises rejected with nobody
 * waiting on them: it prefetches the page tree's entries and abandons the
 * prefetches when an earlier entry fails. The failure itself reaches the
 * caller through the awaited API call (as `CORRUPTED_FILE`); the abandoned
 * copies surface as "unhandled rejections", which Node by default turns into
 * an uncaught exception that ends the process — the opposite of "a broken
 * upload gives an error".
 *
 * So, in Node only (browsers merely log them), a listener ignores rejections
 * raised inside pdf.js and leaves every other one to behave as
 * Node would have without the listener: handled by the application's own
 * listeners if it has any, else re-thrown, or left to the warning modes of
 * `--unhandled-rejections`.
 */

let installed = false;

export function ignorePdfjsStrayRejections(): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', onUnhandledRejection);
}

/**
 * Whether the rejection comes from pdf.js: its exceptions and errors carry
 * the package's files in their stack (its built files, or with source maps
 * enabled, its sources mapped under the package folder).
 */
export function isPdfjsStrayRejection(reason: unknown): boolean {
  const stack = (reason as { stack?: unknown } | null)?.stack;
  return typeof stack === 'string' && /[\\/]pdfjs-dist[\\/]/.test(stack);
}

function onUnhandledRejection(reason: unknown): void {
  if (isPdfjsStrayRejection(reason)) return;
  // Another listener means the application handles rejections itself.
  if (process.listenerCount('unhandledRejection') > 1) return;
  const mode = /--unhandled-rejections[= ](\S+)/.exec([...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '))?.[1];
  if (mode === 'warn' || mode === 'none') return;
  if (mode === 'warn-with-error-code') {
    process.exitCode = 1;
    return;
  }
  // Node's default ("throw"): the rejection becomes an uncaught exception.
  throw reason;
}
