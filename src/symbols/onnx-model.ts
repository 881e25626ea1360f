/**
 * The ONNX models of recognition, each loaded once from `env.modelBase` and
 * run by onnxruntime-web's WebAssembly backend — the same code in Node and in
 * browsers. The WebAssembly settings come from `env` when the first model loads.
 */
import * as ort from 'onnxruntime-web';
import { env, loadAsset } from '../env.js';

const sessions = new Map<string, Promise<ort.InferenceSession>>();

export function onnxModel(file: string): Promise<ort.InferenceSession> {
  let session = sessions.get(file);
  if (!session) {
    ort.env.wasm.numThreads = env.threads;
    if (env.wasmBase) ort.env.wasm.wasmPaths = env.wasmBase;
    session = loadAsset(env.modelBase, file).then((bytes) => ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' }));
    // A failed load (a missing file) is not cached: the next recognition tries again.
    session.catch(() => sessions.delete(file));
    sessions.set(file, session);
  }
  return session;
}
