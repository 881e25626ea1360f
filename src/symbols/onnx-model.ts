/**
 * The ONNX models of recognition, each loaded once from `env.modelBase` and
 * run by onnxruntime-web's WebAssembly backend — the same code in Node and in
 * browsers. The WebAssembly settings come from `env` when the first model loads.
 *
 * Inferences run one at a time: onnxruntime-web's WebAssembly session
 * breaks (a null output, then a TypeError deep in its run) when a second run
 * starts before the first has finished, which the staves of a page, read
 * side by side, would otherwise do. So runs queue, across models too, as
 * they all share one WebAssembly instance.
 */
import * as ort from 'onnxruntime-web';
import { env, loadAsset } from '../env.js';

/** A loaded model: its runs take turns. */
export interface OnnxModel {
  run(feeds: Record<string, ort.Tensor>): Promise<ort.InferenceSession.ReturnType>;
}

const sessions = new Map<string, Promise<OnnxModel>>();

export function onnxModel(file: string): Promise<OnnxModel> {
  let session = sessions.get(file);
  if (!session) {
    ort.env.wasm.numThreads = env.threads;
    if (env.wasmBase) ort.env.wasm.wasmPaths = env.wasmBase;
    session = loadAsset(env.modelBase, file)
      .then((bytes) => ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' }))
      .then(oneRunAtATime);
    // A failed load (a missing file) is not cached: the next recognition tries again.
    session.catch(() => sessions.delete(file));
    sessions.set(file, session);
  }
  return session;
}

/** The run last started, of any model: the next waits for it (one WebAssembly instance runs them all). */
let last: Promise<unknown> = Promise.resolve();

export function oneRunAtATime(session: Pick<ort.InferenceSession, 'run'>): OnnxModel {
  return {
    run(feeds) {
      const result = last.then(() => session.run(feeds));
      // The next run waits for this one to settle, whether it succeeds or fails.
      last = result.catch(() => undefined);
      return result;
    },
  };
}
