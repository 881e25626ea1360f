/**
 * The accuracy guard: recognition of a fixed handful of dev pages (bench/guard.json)
 * must not fall past its floors. A change that costs notes, ties or beams fails here;
 * when the engine improves, raise the floors (`npm run bench:guard` prints the figures).
 */
import { describe, expect, it } from 'vitest';
import { guardFailures, guardSpec, runGuard } from '../../bench/guard.js';
import { ELEMENT_CLASSES } from '../../bench/evaluate/notation.js';

describe('accuracy guard', () => {
  const spec = guardSpec();

  it('covers every category, both splits and every condition', async () => {
    const { manifestOf, DEV_SET } = await import('../../bench/accuracy.js');
    const manifest = new Map(manifestOf(DEV_SET).map((e) => [e.id, e]));
    const entries = spec.documents.map((d) => manifest.get(d.id)!);
    expect(entries.every(Boolean)).toBe(true);
    expect(new Set(entries.map((e) => e.category))).toEqual(new Set(['monophonic', 'piano', 'voice-piano', 'choir', 'chamber', 'orchestral']));
    expect(new Set(entries.map((e) => e.split ?? 'tuned'))).toEqual(new Set(['tuned', 'heldout']));
    expect(new Set(spec.documents.map((d) => d.condition))).toEqual(new Set(['clean', 'scan', 'photo']));
    for (const cls of spec.classes) expect(ELEMENT_CLASSES).toContain(cls);
  });

  it('words what fell past a floor', () => {
    const floors = spec.floors;
    const worse = structuredClone(floors);
    worse.heldout.errorRate = floors.heldout.errorRate + 0.05;
    worse.tuned.tieMergedF1 = floors.tuned.tieMergedF1 - 0.05;
    worse.tuned.recall.ties = -1;
    const failures = guardFailures(worse, floors);
    expect(failures.some((f) => /heldout: error rate/.test(f))).toBe(true);
    expect(failures.some((f) => /tuned: tie-merged note F1/.test(f))).toBe(true);
    expect(failures.some((f) => /tuned: ties recall/.test(f))).toBe(true);
    expect(guardFailures(floors, floors)).toEqual([]);
  });

  it('holds every floor on its pages', { timeout: 600_000 }, async () => {
    const { figures } = await runGuard(spec);
    expect(guardFailures(figures, spec.floors)).toEqual([]);
  });
});
