/** The benchmark runs end to end on the committed dev set (with the labelled trivial baseline until the engine lands). */
import { describe, expect, it } from 'vitest';
import { runBenchmark, RECOGNIZERS } from '../../bench/accuracy.js';

describe('bench:accuracy', () => {
  it('evaluates every condition of a document and labels the baseline as trivial', async () => {
    const { table, results } = await runBenchmark('empty-baseline', { only: 'vp-morgengruss', set: 'committed' });
    expect(results.map((r) => r.condition)).toEqual(['clean', 'scan', 'photo']);
    for (const r of results) {
      expect(r.metrics.strict.f1).toBe(0);
      expect(r.metrics.strict.truth).toBeGreaterThan(50);
    }
    expect(table).toContain('voice-piano / clean');
    expect(table).toMatch(/TUNED/);
    expect(results[0]!.metrics.notation.errorRate).toBe(1);
    expect(RECOGNIZERS['empty-baseline']!.description).toMatch(/TRIVIAL BASELINE/);
  });

  it('narrows to chosen documents and one condition', async () => {
    const { results } = await runBenchmark('empty-baseline', { only: 'vp-morgengruss,choir-glee', condition: 'scan', withoutText: true, set: 'committed' });
    expect(results.map((r) => `${r.id}/${r.condition}`)).toEqual(['vp-morgengruss/scan', 'choir-glee/scan']);
    await expect(runBenchmark('empty-baseline', { condition: 'fax' as never })).rejects.toThrow(/unknown condition/);
  });

  it('rejects an unknown recogniser', async () => {
    await expect(runBenchmark('nope')).rejects.toThrow(/unknown recognizer/);
  });
});
