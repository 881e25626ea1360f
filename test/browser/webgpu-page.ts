/**
 * The page of test/browser/webgpu.test.ts, bundled by esbuild: the library's own model loading
 * (src/env.ts, src/symbols/onnx-model.ts), driven from the test through `window.webgpuTest`.
 * The page's address says where the models and onnxruntime-web's files are served.
 */
import * as ort from 'onnxruntime-web';
import { env, type InferenceBackend } from '../../src/env.js';
import type { OmrError } from '../../src/errors.js';
import { activeBackend, onnxModel } from '../../src/symbols/onnx-model.js';
import { SYMBOL_MODEL_FILE } from '../../src/symbols/segment.js';

env.modelBase = new URL('/models/', location.href).href;
env.wasmBase = new URL('/ort/', location.href).href;
env.webgpuBase = new URL('/ort/', location.href).href;

/** What one run of the symbol model gave, or the error that stopped it (an error does not cross into the test whole). */
export type PageResult =
  | { backend: string; best: number[]; dims: readonly number[]; seconds: number; gpuSubmits: number }
  | { error: { code?: string; message: string } };

/**
 * Command buffers submitted to any GPU queue: work that ran on the GPU. onnxruntime falls back to the next
 * execution provider when one fails to start, so a right answer alone would not show that WebGPU ran.
 */
let gpuSubmits = 0;
type Submit = (this: unknown, ...args: unknown[]) => unknown;
const queue = (globalThis as { GPUQueue?: { prototype: { submit: Submit } } }).GPUQueue?.prototype;
if (queue) {
  const submit = queue.submit;
  queue.submit = function (...args) {
    gpuSubmits++;
    return submit.apply(this, args);
  };
}

const webgpuTest = {
  /** The symbol model's best class per pixel for one window, with `env.backend` set to `backend`. */
  async classes(backend: InferenceBackend, input: number[], height: number, width: number): Promise<PageResult> {
    try {
      env.backend = backend;
      const active = await activeBackend();
      const model = await onnxModel(SYMBOL_MODEL_FILE);
      const [started, submitted] = [performance.now(), gpuSubmits];
      const output = await model.run({ image: new ort.Tensor('float32', Float32Array.from(input), [1, 1, height, width]) }, ['best']);
      return { backend: active, best: Array.from(output.best!.data as Uint8Array), dims: output.best!.dims, seconds: (performance.now() - started) / 1000, gpuSubmits: gpuSubmits - submitted };
    } catch (err) {
      return { error: { code: (err as OmrError).code, message: (err as Error).message } };
    }
  },
  /** The backend `backend` resolves to here, or the error it gives. */
  async resolve(backend: InferenceBackend): Promise<{ backend: string } | { error: { code?: string; message: string } }> {
    try {
      env.backend = backend;
      return { backend: await activeBackend() };
    } catch (err) {
      return { error: { code: (err as OmrError).code, message: (err as Error).message } };
    }
  },
  /** What the browser's adapter says of itself, for the test's messages. */
  async adapter(): Promise<{ architecture?: string; vendor?: string; isFallbackAdapter?: boolean } | null> {
    type Info = { architecture?: string; vendor?: string; isFallbackAdapter?: boolean };
    const gpu = (navigator as { gpu?: { requestAdapter(): Promise<{ info?: Info } | null> } }).gpu;
    const info = (await gpu?.requestAdapter())?.info;
    // The info's fields are getters of its class: copied one by one, as a spread would see none.
    return info ? { architecture: info.architecture, vendor: info.vendor, isFallbackAdapter: info.isFallbackAdapter } : null;
  },
};

(globalThis as { webgpuTest?: typeof webgpuTest }).webgpuTest = webgpuTest;
document.body.dataset.ready = 'true';
