/**
 * What every `Store` promises, run against each implementation with a
 * factory that opens a fresh, empty store.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import type { Store } from '../../src/storage/store.js';

/** Keys that trip naive file-name or range handling. */
export const AWKWARD_KEYS = [
  '',
  '.',
  '..',
  '../x',
  'a/b',
  'a\\b',
  'job:1:file:0',
  'Job:1',
  'job:1',
  'con',
  'x.tmp',
  'x.json',
  '%41',
  '~',
  ' spaced ',
  'line\nbreak',
  'über',
  'u\u0308ber',
  '楽譜',
  '🎼',
  '\ud800',
  'k'.repeat(200),
  'K/'.repeat(100),
  '楽'.repeat(200),
];

export function storeContract(name: string, open: () => Promise<Store>): void {
  describe(`${name} keeps the Store contract`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    it('reads a missing key as undefined, and deleting it is fine', async () => {
      expect(await store.get('meta', 'nothing')).toBeUndefined();
      await store.delete('meta', 'nothing');
      expect(await store.keys('meta')).toEqual([]);
      expect(await store.values('meta')).toEqual([]);
    });

    it('puts, overwrites and deletes', async () => {
      await store.put('meta', 'a', { n: 1 });
      expect(await store.get('meta', 'a')).toEqual({ n: 1 });
      await store.put('meta', 'a', { n: 2, list: [1, 'two', null], nested: { ok: true } });
      expect(await store.get('meta', 'a')).toEqual({ n: 2, list: [1, 'two', null], nested: { ok: true } });
      await store.delete('meta', 'a');
      expect(await store.get('meta', 'a')).toBeUndefined();
      expect(await store.keys('meta')).toEqual([]);
    });

    it('stores a value given as JSON text as it stores the value: read back, listed, overwritten', async () => {
      const value = { n: 3, list: [1, 'two', null], nested: { ok: true, text: 'é "quoted" \\' } };
      await store.putJson('meta', 'j', JSON.stringify(value));
      expect(await store.get('meta', 'j')).toEqual(value);
      expect(await store.values('meta')).toEqual([value]);
      await store.put('meta', 'j', { n: 4 });
      expect(await store.get('meta', 'j')).toEqual({ n: 4 });
      await store.putJson('meta', 'j', '{"n":5}');
      expect(await store.get('meta', 'j')).toEqual({ n: 5 });
    });

    it('lists keys and values in ascending key order, keys optionally by prefix', async () => {
      for (const key of ['job:2', 'job:10', 'b', 'job:1', 'a', 'jobs', 'job']) await store.put('meta', key, key.toUpperCase());
      expect(await store.keys('meta')).toEqual(['a', 'b', 'job', 'job:1', 'job:10', 'job:2', 'jobs']);
      expect(await store.values('meta')).toEqual(['A', 'B', 'JOB', 'JOB:1', 'JOB:10', 'JOB:2', 'JOBS']);
      expect(await store.keys('meta', 'job:')).toEqual(['job:1', 'job:10', 'job:2']);
      expect(await store.keys('meta', 'job:1')).toEqual(['job:1', 'job:10']);
      expect(await store.keys('meta', 'job')).toEqual(['job', 'job:1', 'job:10', 'job:2', 'jobs']);
      expect(await store.keys('meta', 'zzz')).toEqual([]);
      expect(await store.keys('meta', '')).toHaveLength(7);
    });

    it('keeps collections apart', async () => {
      await store.put('meta', 'x', 'meta');
      await store.put('tasks', 'x', { task: { id: 'x' } } as never);
      await store.put('blobs', 'x', new Uint8Array([1]));
      expect(await store.get('meta', 'x')).toBe('meta');
      expect(await store.get('tasks', 'x')).toEqual({ task: { id: 'x' } });
      await store.delete('meta', 'x');
      expect(await store.keys('tasks')).toEqual(['x']);
      expect(await store.keys('blobs')).toEqual(['x']);
      expect(await store.keys('jobs')).toEqual([]);
    });

    it('returns blobs byte for byte, as Uint8Array', async () => {
      const every = Uint8Array.from({ length: 256 }, (_, i) => i);
      const view = new Uint8Array([9, 9, 1, 2, 3, 9]).subarray(2, 5);
      await store.put('blobs', 'file:a:0', every);
      await store.put('blobs', 'file:a:1', view);
      await store.put('blobs', 'file:a:2', new Uint8Array(0));
      for (const [key, bytes] of [['file:a:0', every], ['file:a:1', new Uint8Array([1, 2, 3])], ['file:a:2', new Uint8Array(0)]] as const) {
        const back = await store.get('blobs', key);
        expect(back).toBeInstanceOf(Uint8Array);
        expect(back && [...back]).toEqual([...bytes]);
      }
      const all = await store.values('blobs');
      expect(all.map((b) => [b instanceof Uint8Array, b.length])).toEqual([[true, 256], [true, 3], [true, 0]]);
    });

    it('hands out copies: changing what was put or got changes nothing stored', async () => {
      const value = { list: [1, 2] };
      await store.put('meta', 'k', value);
      value.list.push(3);
      const got = (await store.get('meta', 'k')) as { list: number[] };
      got.list.push(4);
      ((await store.values('meta'))[0] as { list: number[] }).list.push(5);
      const bytes = new Uint8Array([1, 2]);
      await store.put('blobs', 'b', bytes);
      bytes[0] = 7;
      (await store.get('blobs', 'b'))![1] = 7;
      expect(await store.get('meta', 'k')).toEqual({ list: [1, 2] });
      expect([...(await store.get('blobs', 'b'))!]).toEqual([1, 2]);
    });

    it('stores awkward keys under themselves', async () => {
      for (const key of AWKWARD_KEYS) await store.put('meta', key, { key });
      await store.put('blobs', '../x', new Uint8Array([4, 2]));
      expect(await store.keys('meta')).toEqual([...AWKWARD_KEYS].sort());
      expect(await store.values('meta')).toEqual([...AWKWARD_KEYS].sort().map((key) => ({ key })));
      for (const key of AWKWARD_KEYS) expect(await store.get('meta', key)).toEqual({ key });
      expect(await store.keys('meta', 'job:')).toEqual(['job:1', 'job:1:file:0']);
      expect(await store.keys('meta', 'K/K/')).toEqual(['K/'.repeat(100)]);
      expect([...(await store.get('blobs', '../x'))!]).toEqual([4, 2]);
      for (const key of AWKWARD_KEYS) await store.delete('meta', key);
      expect(await store.keys('meta')).toEqual([]);
    });

    it('quarantine moves a record out of sight; a missing key is fine; the key can be written afresh', async () => {
      await store.put('jobs', 'good', { seq: 1 } as never);
      await store.put('jobs', 'bad', { seq: 'two' } as never);
      await store.quarantine('jobs', 'bad');
      await store.quarantine('jobs', 'never-there');
      expect(await store.keys('jobs')).toEqual(['good']);
      expect(await store.get('jobs', 'bad')).toBeUndefined();
      expect(await store.values('jobs')).toEqual([{ seq: 1 }]);
      await store.put('jobs', 'bad', { seq: 2 } as never);
      expect(await store.values('jobs')).toEqual([{ seq: 2 }, { seq: 1 }]);
    });

    it('rejects every call once closed, with an OmrError', async () => {
      await store.put('meta', 'a', 1);
      await store.close();
      const calls = [
        store.get('meta', 'a'),
        store.put('meta', 'a', 2),
        store.delete('meta', 'a'),
        store.keys('meta'),
        store.values('meta'),
      ];
      for (const call of calls) {
        const error = await call.then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(OmrError);
        expect(error).toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringMatching(/closed/) });
      }
      await store.close(); // closing again is harmless
    });
  });
}
