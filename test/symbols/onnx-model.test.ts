import type * as ort from 'onnxruntime-web';
import { describe, expect, it } from 'vitest';
import type { InferenceBackend } from '../../src/env.js';
import { oneRunAtATime, resolveBackend, type BackendHost, type InferenceRuntime } from '../../src/symbols/onnx-model.js';
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
  const installed: BackendHost = { node: true, importNative: async () => runtime };
  const missing: BackendHost = {
    node: true,
    importNative: () => Promise.reject(new Error("Cannot find package 'onnxruntime-node' imported from /app/onnx-model.js")),
  };
  const browser: BackendHost = { node: false, importNative: () => Promise.reject(new Error('never imported in a browser')) };

  it("'auto' runs natively where onnxruntime-node loads, on WebAssembly where it does not and in browsers", async () => {
    expect(await resolveBackend('auto', installed)).toEqual({ kind: 'native', runtime });
    expect(await resolveBackend('auto', missing)).toEqual({ kind: 'wasm' });
    expect(await resolveBackend('auto', browser)).toEqual({ kind: 'wasm' });
  });

  it("'wasm' never imports onnxruntime-node", async () => {
    let imports = 0;
    const counting: BackendHost = { node: true, importNative: async () => (imports++, runtime) };
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

  it('refuses a backend it does not know', async () => {
    expect((await rejection(resolveBackend('gpu' as InferenceBackend, installed))).code).toBe('INVALID_ARGUMENT');
  });
});
