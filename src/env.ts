/**
 * Where ScoreSight finds its assets: one object, set once by the host page or
 * script before the first recognition.
 *
 * Defaults are the library's own files — its models, and onnxruntime-web's
 * `.wasm` files from that package — never a CDN, so recognition works
 * offline and from the page's own origin. The published package holds each
 * once: the models and the WebAssembly in the self-contained bundle's
 * `dist/bundle/models/` and `dist/bundle/wasm/`, which the Node and browser
 * builds read the models from too (the build rewrites the models' paths).
 *
 * An application bundled by Vite or webpack from `dist/browser/` needs no
 * setting: each model is named by a `new URL('…', import.meta.url)` of its
 * own, which both bundlers copy into the application's build, and
 * onnxruntime-web names its WebAssembly the same way.
 */
export interface ScoreSightEnv {
  /**
   * Base URL (browsers) or file URL (Node) of the `models/` folder. Its default is the folder of the
   * package's own models (in a bundled application, the folder the bundler put them in, under names of its
   * own); a host that sets it serves `symbols.onnx`, `digits.onnx`, `marks.onnx`, `dynamics.onnx` and `pedals.onnx` there under those names.
   */
  modelBase: string;
  /**
   * Base URL of onnxruntime-web's WebAssembly files; undefined lets onnxruntime find them next to its own
   * module (in Node, the installed onnxruntime-web package). The self-contained bundle sets it to its own
   * `wasm/` folder; a host serving the files elsewhere copies `dist/bundle/wasm/` there and points this at it.
   */
  wasmBase: string | undefined;
  /**
   * Base URL of onnxruntime-web's WebGPU build, for browsers; undefined (the default) leaves WebGPU off. The
   * package does not ship it (its WebAssembly is 27 MB): a host that wants it serves the three files
   * `ort.webgpu.min.mjs`, `ort-wasm-simd-threaded.asyncify.mjs` and `ort-wasm-simd-threaded.asyncify.wasm`,
   * copied from `node_modules/onnxruntime-web/dist/`, in one folder and points this at it.
   */
  webgpuBase: string | undefined;
  /**
   * Threads for inference (WebAssembly's, or each model's on the native backend); default
   * {@link defaultThreads}: the cores available, up to {@link MAX_DEFAULT_THREADS} (in browsers only on a
   * cross-origin isolated page, else 1). Set it before the first recognition to override.
   */
  threads: number;
  /**
   * Where text recognition (tesseract) finds its traineddata: one folder of `<code>.traineddata` files
   * (`.traineddata.gz` with `gzip`), as a path or file URL in Node, a base URL in browsers, listing the
   * codes it holds (a URL cannot be listed; in Node the folder is read when `languages` is absent).
   * Undefined: Node uses Debian's tesseract-ocr-* folders and the installed `@tesseract.js-data/*`
   * packages (English ships with ScoreSight); browsers read no text until it is set (the self-contained
   * bundle sets it to its own `tessdata/` folder).
   */
  tessdata: { base: string; languages?: string[]; gzip?: boolean } | undefined;
  /**
   * Base URL of tesseract.js's `worker.min.js` and tesseract.js-core's WebAssembly, for browsers (Node
   * loads both from the packages); undefined: text is not read in browsers, rather than fetched from a CDN.
   * The self-contained bundle sets it to its own `tesseract/` folder.
   */
  tesseractBase: string | undefined;
  /**
   * What runs the models, read when each model first loads: `'auto'` (default) uses onnxruntime-node's native
   * CPU backend in Node when the package is installed (`npm install onnxruntime-node`: the symbol model runs
   * about three times faster than on WebAssembly, a dense page about twice as fast) and onnxruntime-web's
   * WebAssembly otherwise; in browsers it uses WebGPU where `webgpuBase` is set and the browser gives a
   * hardware GPU adapter (never a software one, far slower than WebAssembly), else WebAssembly. `'wasm'`
   * always uses WebAssembly; `'native'` requires onnxruntime-node, and `'webgpu'` a browser with WebGPU and
   * `webgpuBase` (a software adapter will do): either fails with `BACKEND_UNAVAILABLE` where it cannot run.
   * All give the same class maps but for float rounding.
   */
  backend: InferenceBackend;
}

/** What runs the models: see {@link ScoreSightEnv.backend}. */
export type InferenceBackend = 'auto' | 'wasm' | 'native' | 'webgpu';

const crossOriginIsolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
const isNode = typeof process !== 'undefined' && !!process.versions?.node;

/**
 * Most inference threads by default: the models are small, so a fifth thread
 * and beyond mostly waits for memory, and every recognition worker of a pool
 * (up to four) has threads of its own.
 */
export const MAX_DEFAULT_THREADS = 4;

/** Where {@link defaultThreads} learns about the host; the running one by default. */
export interface ThreadHost {
  /** Node's `os.availableParallelism()`, when running in Node. */
  availableParallelism?: () => number;
  /** `navigator.hardwareConcurrency`, in browsers. */
  hardwareConcurrency?: number;
  /** WebAssembly threads need SharedArrayBuffer, which browsers give cross-origin isolated pages only. */
  crossOriginIsolated?: boolean;
}

/**
 * The cores available to this process, from 1 to {@link MAX_DEFAULT_THREADS}: in
 * Node `os.availableParallelism()`, in browsers `navigator.hardwareConcurrency`
 * on a cross-origin isolated page (elsewhere 1, as onnxruntime cannot start threads).
 */
export function defaultThreads(host: ThreadHost = runningHost()): number {
  const cores = host.availableParallelism ? host.availableParallelism() : host.crossOriginIsolated ? host.hardwareConcurrency : 1;
  return Math.max(1, Math.min(MAX_DEFAULT_THREADS, Math.floor(cores || 1)));
}

function runningHost(): ThreadHost {
  if (isNode) return { availableParallelism: () => process.getBuiltinModule('os').availableParallelism() };
  return { hardwareConcurrency: typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : undefined, crossOriginIsolated };
}

/**
 * The models the package ships, by file name, each at a URL written out whole: bundlers see every
 * `new URL(…, import.meta.url)` with a literal path, copy the file into the application's build and put its final URL
 * (often a name with a hash) in its place. A folder URL (`'../models/'`) they would not copy.
 */
const SHIPPED_MODELS: Readonly<Record<string, string>> = {
  'symbols.onnx': new URL('../models/symbols.onnx', import.meta.url).href,
  'digits.onnx': new URL('../models/digits.onnx', import.meta.url).href,
  'marks.onnx': new URL('../models/marks.onnx', import.meta.url).href,
  'dynamics.onnx': new URL('../models/dynamics.onnx', import.meta.url).href,
  'pedals.onnx': new URL('../models/pedals.onnx', import.meta.url).href,
};

/** The folder the shipped models sit in: `env.modelBase` until the host sets it. */
export const SHIPPED_MODEL_BASE = new URL('./', SHIPPED_MODELS['symbols.onnx']).href;

export const env: ScoreSightEnv = {
  modelBase: SHIPPED_MODEL_BASE,
  wasmBase: undefined,
  webgpuBase: undefined,
  threads: defaultThreads(),
  tessdata: undefined,
  tesseractBase: undefined,
  backend: 'auto',
};

/**
 * Where a model is read from: the package's own copy (at the URL its bundler gave it) while `env.modelBase`
 * is the default, else `file` in the folder the host named.
 */
export function modelUrl(file: string): string {
  const shipped = env.modelBase === SHIPPED_MODEL_BASE ? SHIPPED_MODELS[file] : undefined;
  return shipped ?? new URL(file, withSlash(env.modelBase)).href;
}

/**
 * The settings a worker is given, each thread having its own module instance of `env`: all of them, but
 * `modelBase` only once the host has set it. A worker bundled apart from this thread has its own URLs for
 * the shipped models (its bundler's), which the default base of this thread's copy would hide.
 */
export function envForWorker(): Partial<ScoreSightEnv> {
  const { modelBase, ...rest } = env;
  return modelBase === SHIPPED_MODEL_BASE ? rest : { ...rest, modelBase };
}

const withSlash = (base: string) => (base.endsWith('/') ? base : `${base}/`);

/**
 * Reads an asset: the file system in Node for a file URL, fetch elsewhere. Node's file system is reached
 * through `process.getBuiltinModule`, not an import, so that no bundler looks for a Node module to stand in for.
 */
export async function loadAsset(href: string): Promise<Uint8Array> {
  const url = new URL(href);
  if (isNode && url.protocol === 'file:') {
    const { readFile } = process.getBuiltinModule('fs/promises');
    return new Uint8Array(await readFile(url));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load ${url.href}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
