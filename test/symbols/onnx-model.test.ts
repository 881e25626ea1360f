import type * as ort from 'onnxruntime-web';
import { describe, expect, it } from 'vitest';
import type { InferenceBackend } from '../../src/env.js';
import { oneRunAtATime, resolveBackend, type BackendHost, type GpuAdapter, type InferenceRuntime, type WebGpuRuntime } from '../../src/symbols/onnx-model.js';
import { rejection } from '../support/rejection.js';

/** A stand-in session that records how many of its runs overlap, and fails the runs it is told to. */
function fakeSession(failing: Set<number>) {
  let running = 0;
  let mostAtOnce = 0;
  const order: number[] = [];
  const session = {
    async run(feeds: Record<string, ort.Tensor>) {
      const k = (feeds.k as unknown as { id: number }).id;
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((resolve) => setTimeout(resolve, 3 - (k % 3)));
      running--;
      order.push(k);
      if (failing.has(k)) throw new Error(`run ${k} failed`);
      return { out: k } as unknown as ort.InferenceSession.ReturnType;
    },
  } as unknown as Pick<ort.InferenceSession, 'run'>;
  return { session, stats: () => ({ mostAtOnce, order }) };
}

describe('oneRunAtATime', () => {
  it('starts each run when the one before has settled, in call order, a failed run included', async () => {
    const { session, stats } = fakeSession(new Set([2]));
    const model = oneRunAtATime(session);
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map((id) => model.run({ k: { id } as unknown as ort.Tensor })));
    expect(results.map((r) => (r.status === 'fulfilled' ? (r.value as unknown as { out: number }).out : 'failed'))).toEqual([0, 1, 'failed', 3, 4]);
    expect(stats()).toEqual({ mostAtOnce: 1, order: [0, 1, 2, 3, 4] });
  });
});

describe('resolveBackend', () => {
  const runtime = { InferenceSession: { create: async () => ({ run: async () => ({}) }) } } as unknown as InferenceRuntime;
  const gpuRuntime = { InferenceSession: runtime.InferenceSession } as unknown as WebGpuRuntime;
  const noGpu = { gpuAdapter: async () => null, importWebGpu: () => Promise.reject(new Error('no WebGPU here')) };
  const installed: BackendHost = { node: true, importNative: async () => runtime, ...noGpu };
  const missing: BackendHost = {
    node: true,
    importNative: () => Promise.reject(new Error("Cannot find package 'onnxruntime-node' imported from /app/onnx-model.js")),
    ...noGpu,
  };
  const browser: BackendHost = { node: false, importNative: () => Promise.reject(new Error('never imported in a browser')), ...noGpu };

  /** A browser whose GPU adapter is `adapter`, recording the folders the WebGPU build is imported from; `importFails` as a failed import. */
  function gpuBrowser(adapter: GpuAdapter | null, importFails?: string) {
    const imported: string[] = [];
    let adapterRequests = 0;
    const host: BackendHost = {
      ...browser,
      gpuAdapter: async () => (adapterRequests++, adapter),
      importWebGpu: async (base) => {
        imported.push(base);
        if (importFails) throw new Error(importFails);
        return gpuRuntime;
      },
    };
    return { host, imported, adapterRequests: () => adapterRequests };
  }
  const hardware = { software: false };
  const software = { software: true };
  const BASE = 'https://app.example/ort-webgpu';

  it("'auto' runs natively where onnxruntime-node loads, on WebAssembly where it does not and in browsers", async () => {
    expect(await resolveBackend('auto', installed)).toEqual({ kind: 'native', runtime });
    expect(await resolveBackend('auto', missing)).toEqual({ kind: 'wasm' });
    expect(await resolveBackend('auto', browser)).toEqual({ kind: 'wasm' });
  });

  it("'wasm' never imports onnxruntime-node", async () => {
    let imports = 0;
    const counting: BackendHost = { ...installed, importNative: async () => (imports++, runtime) };
    expect(await resolveBackend('wasm', counting)).toEqual({ kind: 'wasm' });
    expect(imports).toBe(0);
  });

  it("'native' without onnxruntime-node is BACKEND_UNAVAILABLE, saying how to install it", async () => {
    const error = await rejection(resolveBackend('native', missing));
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
    expect(error.message).toContain('npm install onnxruntime-node');
    expect(error.message).toContain("Cannot find package 'onnxruntime-node'");
    const inBrowser = await rejection(resolveBackend('native', browser));
    expect(inBrowser.code).toBe('BACKEND_UNAVAILABLE');
    expect(inBrowser.message).toContain('Node only');
  });

  it("'auto' in a browser takes WebGPU on a hardware adapter where webgpuBase is set, imported from that folder", async () => {
    const gpu = gpuBrowser(hardware);
    expect(await resolveBackend('auto', gpu.host, BASE)).toEqual({ kind: 'webgpu', runtime: gpuRuntime, base: `${BASE}/` });
    expect(gpu.imported).toEqual([`${BASE}/`]);
  });

  it("'auto' in a browser stays on WebAssembly without webgpuBase, on a software adapter, without an adapter, or when the import fails", async () => {
    const unset = gpuBrowser(hardware);
    expect(await resolveBackend('auto', unset.host, undefined)).toEqual({ kind: 'wasm' });
    // Without a base, WebGPU is not even asked for an adapter.
    expect(unset.adapterRequests()).toBe(0);
    const slow = gpuBrowser(software);
    expect(await resolveBackend('auto', slow.host, BASE)).toEqual({ kind: 'wasm' });
    expect(slow.imported).toEqual([]);
    expect(await resolveBackend('auto', gpuBrowser(null).host, BASE)).toEqual({ kind: 'wasm' });
    expect(await resolveBackend('auto', gpuBrowser(hardware, 'Failed to fetch dynamically imported module').host, BASE)).toEqual({ kind: 'wasm' });
  });

  it("'auto' in Node never looks for WebGPU, webgpuBase set or not", async () => {
    const nodeWithGpu: BackendHost = { ...gpuBrowser(hardware).host, node: true, importNative: async () => runtime };
    expect(await resolveBackend('auto', nodeWithGpu, BASE)).toEqual({ kind: 'native', runtime });
    expect(await resolveBackend('auto', { ...nodeWithGpu, importNative: missing.importNative }, BASE)).toEqual({ kind: 'wasm' });
  });

  it("'webgpu' runs on any adapter the browser gives, a software one included", async () => {
    expect(await resolveBackend('webgpu', gpuBrowser(hardware).host, BASE)).toMatchObject({ kind: 'webgpu', base: `${BASE}/` });
    expect(await resolveBackend('webgpu', gpuBrowser(software).host, `${BASE}/`)).toMatchObject({ kind: 'webgpu', base: `${BASE}/` });
  });

  it("'webgpu' where it cannot run is BACKEND_UNAVAILABLE, saying what to do", async () => {
    const inNode = await rejection(resolveBackend('webgpu', { ...gpuBrowser(hardware).host, node: true }, BASE));
    expect(inNode.code).toBe('BACKEND_UNAVAILABLE');
    expect(inNode.message).toContain('browsers only');

    const unset = await rejection(resolveBackend('webgpu', gpuBrowser(hardware).host, undefined));
    expect(unset.code).toBe('BACKEND_UNAVAILABLE');
    for (const file of ['ort.webgpu.min.mjs', 'ort-wasm-simd-threaded.asyncify.mjs', 'ort-wasm-simd-threaded.asyncify.wasm', 'env.webgpuBase']) {
      expect(unset.message).toContain(file);
    }

    const noAdapter = await rejection(resolveBackend('webgpu', gpuBrowser(null).host, BASE));
    expect(noAdapter.code).toBe('BACKEND_UNAVAILABLE');
    expect(noAdapter.message).toContain('no GPU adapter');

    const notServed = await rejection(resolveBackend('webgpu', gpuBrowser(hardware, 'Failed to fetch dynamically imported module').host, BASE));
    expect(notServed.code).toBe('BACKEND_UNAVAILABLE');
    expect(notServed.message).toContain(`${BASE}/ort.webgpu.min.mjs`);
    expect(notServed.message).toContain('Failed to fetch dynamically imported module');
  });

  it('refuses a backend it does not know', async () => {
    const unknown = await rejection(resolveBackend('gpu' as InferenceBackend, installed));
    expect(unknown.code).toBe('INVALID_ARGUMENT');
    expect(unknown.message).toContain("'webgpu'");
  });
});
