/**
 * The ONNX models of recognition, each loaded once from where {@link modelUrl} says and
 * run by one of two backends (`env.backend`):
 * - onnxruntime-web's WebAssembly backend, the same code in Node and in
 *   browsers, whose settings come from `env` when the first model loads;
 * - in Node, onnxruntime-node's native CPU backend, an optional peer
 *   dependency: about three times faster per window, so `'auto'` prefers it
 *   wherever `npm install onnxruntime-node` put it. Browser builds never
 *   import it (rollup.config.mjs replaces the import).
 * Both take and return onnxruntime-common tensors; the class maps they give
 * differ only by float rounding.
 *
 * Inferences run one at a time: onnxruntime-web's WebAssembly session
 * breaks (a null output, then a TypeError deep in its run) when a second run
 * starts before the first has finished, which the staves of a page, read
 * side by side, would otherwise do. So runs queue, across models too, as
 * they all share one WebAssembly instance (and the native backend's threads
 * are the same cores: taking turns costs it nothing).
 */
import * as ort from 'onnxruntime-web';
import { env, loadAsset, modelUrl, type InferenceBackend } from '../env.js';
import { OmrError } from '../errors.js';

/** A loaded model: its runs take turns. */
export interface OnnxModel {
  /** Runs the model; `outputs` names the outputs wanted (default all), so the others are never copied out. */
  run(feeds: Record<string, ort.Tensor>, outputs?: readonly string[]): Promise<ort.InferenceSession.ReturnType>;
}

/** The part of onnxruntime-node (or of onnxruntime-web) that loads a model. */
export interface InferenceRuntime {
  InferenceSession: { create(model: Uint8Array, options: ort.InferenceSession.SessionOptions): Promise<Pick<ort.InferenceSession, 'run'>> };
}

/** Where {@link resolveBackend} looks for the native backend; the running host by default. */
export interface BackendHost {
  /** Whether this is Node (the native backend exists nowhere else). */
  node: boolean;
  /** Imports onnxruntime-node; rejects where it is not installed. */
  importNative: () => Promise<InferenceRuntime>;
}

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

/**
 * onnxruntime-node, a CommonJS package (its exports under `default` when imported). Browser builds
 * replace this import with a rejection (rollup.config.mjs), so that no bundler ever looks for it.
 */
const importNative = async (): Promise<InferenceRuntime> => {
  const module = (await import('onnxruntime-node')) as InferenceRuntime & { default?: InferenceRuntime };
  return module.default ?? module;
};

const runningHost: BackendHost = { node: isNode, importNative };

/** The backend that runs the models, and onnxruntime-node when it is the native one. */
export type ResolvedBackend = { kind: 'wasm' } | { kind: 'native'; runtime: InferenceRuntime };

/**
 * Which backend `requested` means here: `'auto'` is the native one where onnxruntime-node loads
 * (Node, installed), WebAssembly elsewhere; `'native'` where it cannot load is an
 * {@link OmrError} `BACKEND_UNAVAILABLE` that says how to install it.
 */
export async function resolveBackend(requested: InferenceBackend, host: BackendHost = runningHost): Promise<ResolvedBackend> {
  if (requested === 'wasm') return { kind: 'wasm' };
  if (requested !== 'auto' && requested !== 'native') {
    throw new OmrError('INVALID_ARGUMENT', `env.backend is 'auto', 'wasm' or 'native', not ${JSON.stringify(requested)}.`);
  }
  if (!host.node) {
    if (requested === 'auto') return { kind: 'wasm' };
    throw new OmrError('BACKEND_UNAVAILABLE', "env.backend 'native' (onnxruntime-node) runs in Node only; in browsers use 'auto' or 'wasm'.");
  }
  try {
    return { kind: 'native', runtime: await host.importNative() };
  } catch (err) {
    if (requested === 'auto') return { kind: 'wasm' };
    throw new OmrError(
      'BACKEND_UNAVAILABLE',
      `env.backend 'native' needs onnxruntime-node, which could not be loaded (${(err as Error).message?.split('\n')[0] ?? err}). ` +
        "Install it beside scoresight with `npm install onnxruntime-node`, or set env.backend to 'auto' or 'wasm'.",
      { cause: err },
    );
  }
}

/**
 * The promise `make` gives for `key`, made once and kept; a failed one (a missing file, a backend not
 * installed) is forgotten, so the next recognition tries again.
 */
function once<K, T>(cache: Map<K, Promise<T>>, key: K, make: () => Promise<T>): Promise<T> {
  let promise = cache.get(key);
  if (!promise) {
    promise = make();
    promise.catch(() => cache.delete(key));
    cache.set(key, promise);
  }
  return promise;
}

/** The backend each `env.backend` value resolved to in this thread, resolved once each. */
const backends = new Map<InferenceBackend, Promise<ResolvedBackend>>();

function backendFor(requested: InferenceBackend): Promise<ResolvedBackend> {
  return once(backends, requested, () => resolveBackend(requested));
}

/** The backend the models run on with the current `env.backend`: 'wasm' or 'native'. */
export async function activeBackend(): Promise<'wasm' | 'native'> {
  return (await backendFor(env.backend)).kind;
}

/** Loaded models, by backend and file: changing `env.backend` loads a model again on the other one. */
const sessions = new Map<string, Promise<OnnxModel>>();

export function onnxModel(file: string): Promise<OnnxModel> {
  const requested = env.backend;
  return once(sessions, `${requested}:${file}`, () =>
    Promise.all([backendFor(requested), loadAsset(modelUrl(file))])
      .then(([backend, bytes]) => createSession(backend, bytes))
      .then(oneRunAtATime),
  );
}

function createSession(backend: ResolvedBackend, bytes: Uint8Array): Promise<Pick<ort.InferenceSession, 'run'>> {
  if (backend.kind === 'native') {
    // One thread pool per session, of env.threads threads, as WebAssembly has; runs take turns anyway.
    return backend.runtime.InferenceSession.create(bytes, {
      executionProviders: ['cpu'],
      graphOptimizationLevel: 'all',
      intraOpNumThreads: env.threads,
      interOpNumThreads: 1,
    });
  }
  ort.env.wasm.numThreads = env.threads;
  if (env.wasmBase) ort.env.wasm.wasmPaths = env.wasmBase;
  return ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
}

/** The run last started, of any model: the next waits for it (one WebAssembly instance runs them all). */
let last: Promise<unknown> = Promise.resolve();

export function oneRunAtATime(session: Pick<ort.InferenceSession, 'run'>): OnnxModel {
  return {
    run(feeds, outputs) {
      const result = last.then(() => (outputs ? session.run(feeds, [...outputs]) : session.run(feeds)));
      // The next run waits for this one to settle, whether it succeeds or fails.
      last = result.catch(() => undefined);
      return result;
    },
  };
}

/** A classifier's most likely class for one row of logits, and its probability (a softmax of the row). */
export function softmaxBest(row: Float32Array): { index: number; probability: number } {
  let index = 0;
  for (let k = 1; k < row.length; k++) if (row[k]! > row[index]!) index = k;
  const total = row.reduce((s, v) => s + Math.exp(v - row[index]!), 0);
  return { index, probability: 1 / total };
}
