/**
 * Random sequences of puts and deletes leave a store agreeing with a `Map`
 * on keys() — with and without a prefix — and values().
 */
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileStore } from '../../src/storage/fs-store.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { Store } from '../../src/storage/store.js';

const SEED = Number(process.env.FUZZ_SEED ?? 0x5703e);

/** Keys from a small pool, so operations hit the same keys; any UTF-16 code unit may appear. */
const unit = fc.oneof(
  fc.constantFrom('a', 'b', 'A', '/', '.', ':', '%', '~', '\\', ' '),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
);
const operations = fc.uniqueArray(fc.string({ unit, maxLength: 8 }), { minLength: 1, maxLength: 8 }).chain((pool) =>
  fc.array(
    fc.oneof(
      fc.record({ put: fc.constantFrom(...pool), value: fc.record({ n: fc.integer(), s: fc.string() }) }),
      fc.record({ delete: fc.constantFrom(...pool) }),
    ),
    { maxLength: 30 },
  ),
);

type Operations = typeof operations extends fc.Arbitrary<infer T> ? T : never;

async function apply(store: Store, ops: Operations): Promise<Map<string, unknown>> {
  const model = new Map<string, unknown>();
  for (const op of ops) {
    if ('put' in op) {
      await store.put('meta', op.put, op.value);
      model.set(op.put, op.value);
    } else {
      await store.delete('meta', op.delete);
      model.delete(op.delete);
    }
  }
  return model;
}

async function expectAgreement(store: Store, model: Map<string, unknown>): Promise<void> {
  const keys = [...model.keys()].sort();
  expect(await store.keys('meta')).toEqual(keys);
  expect(await store.values('meta')).toEqual(keys.map((key) => model.get(key)));
  for (const prefix of new Set(keys.map((key) => key.slice(0, 2)))) {
    expect(await store.keys('meta', prefix)).toEqual(keys.filter((key) => key.startsWith(prefix)));
  }
}

describe('stores agree with a Map model', () => {
  it('the memory store', async () => {
    await fc.assert(
      fc.asyncProperty(operations, async (ops) => {
        const store = createMemoryStore();
        await expectAgreement(store, await apply(store, ops));
        await store.close();
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('the file store, reopened before checking', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'scoresight-property-'));
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(operations, async (ops) => {
          const directory = path.join(root, String(run++));
          const store = await createFileStore(directory);
          const model = await apply(store, ops);
          await expectAgreement(store, model);
          await store.close();
          const reopened = await createFileStore(directory);
          await expectAgreement(reopened, model);
          await reopened.close();
        }),
        { seed: SEED, numRuns: 60 },
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
