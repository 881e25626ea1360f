import type * as ort from 'onnxruntime-web';
import { describe, expect, it } from 'vitest';
import { oneRunAtATime } from '../../src/symbols/onnx-model.js';

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
