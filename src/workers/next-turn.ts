/**
 * A turn of the event loop. A page's recognition holds its thread for
 * seconds, and awaiting a settled promise (a model's run among them) gives
 * no turn, so messages from other threads would wait for the whole page:
 * the text stage's OCR worker, which starts and reads through such messages,
 * would sit idle until then. Long stages await this between their steps.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
}
