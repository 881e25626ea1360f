/** The inference threads ScoreSight uses unless told otherwise, and where it reads its models. */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultThreads, env, envForWorker, MAX_DEFAULT_THREADS, modelUrl, SHIPPED_MODEL_BASE } from '../src/env.js';

describe('env.threads', () => {
  it('defaults in Node to the cores available, capped', () => {
    expect(env.threads).toBe(Math.min(MAX_DEFAULT_THREADS, availableParallelism()));
    expect(defaultThreads({ availableParallelism: () => 1 })).toBe(1);
    expect(defaultThreads({ availableParallelism: () => 3 })).toBe(3);
    expect(defaultThreads({ availableParallelism: () => 64 })).toBe(MAX_DEFAULT_THREADS);
  });

  it('defaults in browsers to navigator.hardwareConcurrency on a cross-origin isolated page, else 1', () => {
    expect(defaultThreads({ hardwareConcurrency: 2, crossOriginIsolated: true })).toBe(2);
    expect(defaultThreads({ hardwareConcurrency: 16, crossOriginIsolated: true })).toBe(MAX_DEFAULT_THREADS);
    expect(defaultThreads({ hardwareConcurrency: 16, crossOriginIsolated: false })).toBe(1);
    // Browsers that hide the core count.
    expect(defaultThreads({ hardwareConcurrency: undefined, crossOriginIsolated: true })).toBe(1);
  });

  it('is a setting the host can still override before recognising (WebAssembly)', async () => {
    const before = { threads: env.threads, backend: env.backend };
    try {
      env.threads = MAX_DEFAULT_THREADS + 1;
      // The WebAssembly backend's threads (onnxruntime-node, where installed, would take the native one).
      env.backend = 'wasm';
      const ort = await import('onnxruntime-web');
      const { onnxModel } = await import('../src/symbols/onnx-model.js');
      await onnxModel('digits.onnx');
      expect(ort.env.wasm.numThreads).toBe(MAX_DEFAULT_THREADS + 1);
    } finally {
      Object.assign(env, before);
    }
  });
});

describe('where the models are read from', () => {
  it('reads each shipped model from its own URL while env.modelBase is the default, and from the folder the host names once set', () => {
    const before = env.modelBase;
    try {
      expect(env.modelBase).toBe(SHIPPED_MODEL_BASE);
      expect(modelUrl('symbols.onnx')).toBe(new URL('symbols.onnx', SHIPPED_MODEL_BASE).href);
      expect(existsSync(fileURLToPath(modelUrl('digits.onnx')))).toBe(true);
      env.modelBase = 'https://example.org/assets/models';
      expect(modelUrl('marks.onnx')).toBe('https://example.org/assets/models/marks.onnx');
    } finally {
      env.modelBase = before;
    }
  });

  it('gives a worker every setting, but env.modelBase only once the host has set it', () => {
    const before = env.modelBase;
    try {
      // A worker bundled apart has its own URLs for the shipped models: this thread's default would hide them.
      expect(envForWorker()).not.toHaveProperty('modelBase');
      expect(envForWorker()).toMatchObject({ threads: env.threads, backend: env.backend });
      env.modelBase = '/scoresight/models/';
      expect(envForWorker().modelBase).toBe('/scoresight/models/');
    } finally {
      env.modelBase = before;
    }
  });
});
