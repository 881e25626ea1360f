/**
 * OmrErrors across a comlink boundary, with their code and status.
 *
 * comlink sends a thrown Error as its name, message and stack only, so an
 * OmrError would arrive as a plain Error without its code. This wraps
 * comlink's own "throw" handler (the one every thrown value goes through):
 * OmrErrors travel as their JSON form and are revived by `OmrError.from`;
 * anything else is left to comlink as before, so other comlink users in the
 * same program see no change.
 *
 * Both sides of a boundary install it: the worker, for errors its calls
 * throw, and the main thread, for those and for a cancel thrown from
 * `beforePage` on its way into the worker.
 */
import { transferHandlers, type TransferHandler } from 'comlink';
import { OmrError, type OmrErrorData } from '../errors.js';

interface Thrown {
  value: unknown;
}

interface SerializedOmrError {
  omrError: OmrErrorData;
}

let installed = false;

export function installOmrErrorTransfer(): void {
  const comlinkThrow = transferHandlers.get('throw');
  if (installed || !comlinkThrow) return;
  installed = true;
  const handler: TransferHandler<Thrown, unknown> = {
    canHandle: (value): value is Thrown => comlinkThrow.canHandle(value),
    serialize(thrown) {
      if (thrown.value instanceof OmrError) return [{ omrError: thrown.value.toJSON() } satisfies SerializedOmrError, []];
      return comlinkThrow.serialize(thrown);
    },
    deserialize(serialized) {
      // comlink's "throw" handler throws from deserialize; so does this one.
      if (isSerializedOmrError(serialized)) throw OmrError.from(serialized.omrError);
      return comlinkThrow.deserialize(serialized) as Thrown;
    },
  };
  transferHandlers.set('throw', handler);
}

function isSerializedOmrError(value: unknown): value is SerializedOmrError {
  return typeof value === 'object' && value !== null && 'omrError' in value;
}
