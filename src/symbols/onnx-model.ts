/**
 * The ONNX models of recognition, each loaded once from where {@link modelUrl} says and
 * run by one of three backends (`env.backend`):
 * - onnxruntime-web's WebAssembly backend, the same code in Node and in
 *   browsers, whose settings come from `env` when the first model loads;
 * - in Node, onnxruntime-node's native CPU backend, an optional peer
 *   dependency: about three times faster per window, so `'auto'` prefers it
 *   wherever `npm install onnxruntime-node` put it. Browser builds never
 *   import it (rollup.config.mjs replaces the import).
 * - in browsers, onnxruntime-web's WebGPU build, opt-in: imported at run time
 *   from `env.webgpuBase`, where the host serves it, as the package does not
 *   ship its 27 MB WebAssembly (the browser build imports the WebAssembly-only
 *   onnxruntime-web, rollup.config.mjs).
 * All take and return onnxruntime-common tensors; the class maps they give
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

/**
 * onnxruntime-web's WebGPU build, a module of its own with its own copy of onnxruntime-common, whose
 * `Tensor` class is not the one of the build imported here.
 */
export type WebGpuRuntime = Pick<typeof ort, 'InferenceSession' | 'Tensor' | 'env'>;

/** The GPU a browser offers, as far as choosing a backend goes. */
export interface GpuAdapter {
  /** A fallback or software adapter (SwiftShader): it computes on the CPU, hundreds of times slower than WebAssembly. */
  software: boolean;
}

/** Where {@link resolveBackend} looks for the native and WebGPU backends; the running host by default. */
export interface BackendHost {
  /** Whether this is Node (the native backend exists nowhere else, WebGPU only in browsers). */
  node: boolean;
  /** Imports onnxruntime-node; rejects where it is not installed. */
  importNative: () => Promise<InferenceRuntime>;
  /** The browser's GPU adapter (`navigator.gpu.requestAdapter()`); null where there is none. */
  gpuAdapter: () => Promise<GpuAdapter | null>;
  /** Imports onnxruntime-web's WebGPU build from the folder `base` (a URL ending in `/`). */
  importWebGpu: (base: string) => Promise<WebGpuRuntime>;
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

/** The part of WebGPU's `GPUAdapter` read here (the DOM library of TypeScript may lack WebGPU's types). */
interface AdapterLike {
  isFallbackAdapter?: boolean;
  info?: { isFallbackAdapter?: boolean; architecture?: string; description?: string };
}

/** The browser's adapter, software or not; null without WebGPU, or where the browser gives none. */
const gpuAdapter = async (): Promise<GpuAdapter | null> => {
  const gpu = (globalThis.navigator as { gpu?: { requestAdapter(): Promise<AdapterLike | null> } } | undefined)?.gpu;
  const adapter = await gpu?.requestAdapter().catch(() => null);
  if (!adapter) return null;
  const info = adapter.info ?? {};
  const named = `${info.architecture ?? ''} ${info.description ?? ''}`;
  return { software: adapter.isFallbackAdapter === true || info.isFallbackAdapter === true || /swiftshader/i.test(named) };
};

/**
 * The WebGPU build, from the host's copy: a URL known only at run time, which no bundler must try to resolve
 * or copy (hence the comments; the build keeps them).
 */
const importWebGpu = async (base: string): Promise<WebGpuRuntime> =>
  (await import(/* @vite-ignore */ /* webpackIgnore: true */ new URL('ort.webgpu.min.mjs', base).href)) as WebGpuRuntime;

const runningHost: BackendHost = { node: isNode, importNative, gpuAdapter, importWebGpu };

/** The backend that runs the models, and its runtime when it is not the WebAssembly build imported here. */
export type ResolvedBackend =
  | { kind: 'wasm' }
  | { kind: 'native'; runtime: InferenceRuntime }
  | { kind: 'webgpu'; runtime: WebGpuRuntime; base: string };

const BACKENDS: readonly InferenceBackend[] = ['auto', 'wasm', 'native', 'webgpu'];

/**
 * Which backend `requested` means here: `'auto'` is the native one where onnxruntime-node loads
 * (Node, installed), WebGPU in a browser with `webgpuBase` set and a hardware adapter, WebAssembly
 * elsewhere; `'native'` or `'webgpu'` where it cannot run is an {@link OmrError} `BACKEND_UNAVAILABLE`
 * that says what to do.
 */
export async function resolveBackend(
  requested: InferenceBackend,
  host: BackendHost = runningHost,
  webgpuBase: string | undefined = env.webgpuBase,
): Promise<ResolvedBackend> {
  if (requested === 'wasm') return { kind: 'wasm' };
  if (!BACKENDS.includes(requested)) {
    throw new OmrError('INVALID_ARGUMENT', `env.backend is 'auto', 'wasm', 'native' or 'webgpu', not ${JSON.stringify(requested)}.`);
  }
  if (requested === 'webgpu') return webgpu(host, webgpuBase);
  if (!host.node) {
    // 'auto' tries WebGPU only where the host served it, and falls back to WebAssembly without a word.
    if (requested === 'auto') return (await webgpu(host, webgpuBase, { hardwareOnly: true }).catch(() => undefined)) ?? { kind: 'wasm' };
    throw new OmrError('BACKEND_UNAVAILABLE', "env.backend 'native' (onnxruntime-node) runs in Node only; in browsers use 'auto', 'wasm' or 'webgpu'.");
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
 * The WebGPU backend, or why not: explicitly asked for, any adapter will do (a software one runs the models
 * right, only slowly); `'auto'` takes a hardware adapter only.
 */
async function webgpu(host: BackendHost, base: string | undefined, { hardwareOnly = false } = {}): Promise<ResolvedBackend> {
  if (host.node) {
    throw new OmrError('BACKEND_UNAVAILABLE', "env.backend 'webgpu' runs in browsers only; in Node use 'auto', 'native' or 'wasm'.");
  }
  if (!base) {
    throw new OmrError(
      'BACKEND_UNAVAILABLE',
      "env.backend 'webgpu' needs onnxruntime-web's WebGPU build, which ScoreSight does not ship: serve ort.webgpu.min.mjs, " +
        'ort-wasm-simd-threaded.asyncify.mjs and ort-wasm-simd-threaded.asyncify.wasm from node_modules/onnxruntime-web/dist/ ' +
        "in one folder and set env.webgpuBase to its URL, or set env.backend to 'auto' or 'wasm'.",
    );
  }
  const adapter = await host.gpuAdapter();
  if (!adapter) {
    throw new OmrError(
      'BACKEND_UNAVAILABLE',
      "env.backend 'webgpu' needs WebGPU, and this browser gives no GPU adapter (navigator.gpu is missing or requestAdapter() " +
        "gave none: WebGPU may be off, or the page not a secure context). Set env.backend to 'auto' or 'wasm'.",
    );
  }
  if (hardwareOnly && adapter.software) throw new OmrError('BACKEND_UNAVAILABLE', 'a software GPU adapter runs the models slower than WebAssembly.');
  const folder = withSlash(base);
  try {
    return { kind: 'webgpu', runtime: await host.importWebGpu(folder), base: folder };
  } catch (err) {
    throw new OmrError(
      'BACKEND_UNAVAILABLE',
      `env.backend 'webgpu' could not import ${folder}ort.webgpu.min.mjs (${(err as Error).message?.split('\n')[0] ?? err}): ` +
        'serve it there, beside ort-wasm-simd-threaded.asyncify.mjs and ort-wasm-simd-threaded.asyncify.wasm, from node_modules/onnxruntime-web/dist/.',
      { cause: err },
    );
  }
}

const withSlash = (base: string) => (base.endsWith('/') ? base : `${base}/`);

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

/** The backend each `env.backend` value (with the `env.webgpuBase` of the time) resolved to in this thread, resolved once each. */
const backends = new Map<string, Promise<ResolvedBackend>>();

function backendFor(requested: InferenceBackend, webgpuBase: string | undefined): Promise<ResolvedBackend> {
  return once(backends, `${requested} ${webgpuBase ?? ''}`, () => resolveBackend(requested, runningHost, webgpuBase));
}

/** The backend the models run on with the current `env.backend`: 'wasm', 'native' or 'webgpu'. */
export async function activeBackend(): Promise<'wasm' | 'native' | 'webgpu'> {
  return (await backendFor(env.backend, env.webgpuBase)).kind;
}

/** Loaded models, by backend and file: changing `env.backend` (or `env.webgpuBase`) loads a model again. */
const sessions = new Map<string, Promise<OnnxModel>>();

export function onnxModel(file: string): Promise<OnnxModel> {
  const { backend: requested, webgpuBase } = env;
  return once(sessions, `${requested} ${webgpuBase ?? ''}:${file}`, () =>
    Promise.all([backendFor(requested, webgpuBase), loadAsset(modelUrl(file))])
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
      // Without its arena, a session hands the memory of a run's activations back when the run ends; with it, the
      // arena keeps the largest window's (about 200 MB for the symbol model) for good, at no measured gain in speed.
      enableCpuMemArena: false,
    });
  }
  if (backend.kind === 'webgpu') return webgpuSession(backend.runtime, backend.base, bytes);
  ort.env.wasm.numThreads = env.threads;
  if (env.wasmBase) ort.env.wasm.wasmPaths = env.wasmBase;
  return ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
}

/**
 * A session of the WebGPU build. The WebGPU execution provider lacks a few operators, which its CPU side
 * (WebAssembly, from the same folder) runs. Feeds are made again as the build's own tensors: onnxruntime-common
 * tells tensors apart with `instanceof` in places, and a tensor of the other copy is none of its own (1.30
 * reads feeds by their fields, but nothing promises it). Its outputs are read by `data` and `dims` only, as
 * any other backend's.
 */
async function webgpuSession(runtime: WebGpuRuntime, base: string, bytes: Uint8Array): Promise<Pick<ort.InferenceSession, 'run'>> {
  runtime.env.wasm.wasmPaths = base;
  runtime.env.wasm.numThreads = env.threads;
  const session = await runtime.InferenceSession.create(bytes, { executionProviders: ['webgpu', 'wasm'], graphOptimizationLevel: 'all' });
  const own = (feeds: Record<string, ort.Tensor>) =>
    Object.fromEntries(Object.entries(feeds).map(([name, t]) => [name, new runtime.Tensor(t.type as 'float32', t.data as Float32Array, t.dims)]));
  return {
    run: ((feeds: Record<string, ort.Tensor>, outputs?: readonly string[]) =>
      outputs ? session.run(own(feeds), [...outputs]) : session.run(own(feeds))) as ort.InferenceSession['run'],
  };
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
