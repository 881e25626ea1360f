/**
 * The IndexedDB store against fake-indexeddb, a fresh factory per test.
 *
 * idb recognises IndexedDB objects with `instanceof IDBRequest`,
 * `IDBDatabase` and so on, and the store builds ranges with the global
 * `IDBKeyRange`; Node has none of these, so this file lends it
 * fake-indexeddb's classes for its duration. The factory (`indexedDB`) is
 * never made global: each test passes its own.
 */
import {
  forceCloseDatabase,
  IDBCursor,
  IDBCursorWithValue,
  IDBDatabase,
  IDBFactory,
  IDBIndex,
  IDBKeyRange,
  IDBObjectStore,
  IDBOpenDBRequest,
  IDBRequest,
  IDBTransaction,
  IDBVersionChangeEvent,
} from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { openIndexedDbStore } from '../../src/storage/idb-store.js';
import { storeContract } from './contract.js';

beforeAll(() => {
  const classes = { IDBCursor, IDBCursorWithValue, IDBDatabase, IDBIndex, IDBKeyRange, IDBObjectStore, IDBOpenDBRequest, IDBRequest, IDBTransaction, IDBVersionChangeEvent };
  for (const [name, value] of Object.entries(classes)) vi.stubGlobal(name, value);
});
afterAll(() => {
  vi.unstubAllGlobals();
});

storeContract('the IndexedDB store', () => openIndexedDbStore({ indexedDB: new IDBFactory() }));

/** Settles a request from a second connection, as another tab would make it; being blocked settles it too. */
function settle<T>(request: IDBRequest<T>): Promise<{ result?: T; error?: DOMException | null; blocked?: true }> {
  return new Promise((resolve) => {
    request.addEventListener('blocked', () => resolve({ blocked: true }));
    request.addEventListener('success', () => resolve({ result: request.result }));
    request.addEventListener('error', (event) => {
      event.preventDefault();
      resolve({ error: request.error });
    });
  });
}

/** A factory that reports each connection it opens, so a test can act on the store's own connection. */
function watched(factory: IDBFactory): { factory: IDBFactory; connections: IDBDatabase[] } {
  const connections: IDBDatabase[] = [];
  const open = (name: string, version?: number) => {
    const request = factory.open(name, version);
    request.addEventListener('success', () => connections.push(request.result));
    return request;
  };
  return { factory: { open, deleteDatabase: (name) => factory.deleteDatabase(name), cmp: (a, b) => factory.cmp(a, b), databases: () => factory.databases() }, connections };
}

describe('the IndexedDB store and its connection', () => {
  it('creates the database "scoresight" at version 1 with a store per collection, and keeps data across reopen', async () => {
    const factory = new IDBFactory();
    const first = await openIndexedDbStore({ indexedDB: factory });
    await first.put('blobs', 'file:j:0', new Uint8Array([5, 6]));
    await first.put('meta', 'a/b', { ok: true });
    await first.close();
    expect(await factory.databases()).toEqual([{ name: 'scoresight', version: 1 }]);

    const second = await openIndexedDbStore({ indexedDB: factory });
    expect(await second.get('meta', 'a/b')).toEqual({ ok: true });
    expect(await second.get('blobs', 'file:j:0')).toEqual(new Uint8Array([5, 6]));
    await second.close();

    const raw = (await settle(factory.open('scoresight'))).result!;
    expect([...raw.objectStoreNames]).toEqual(['blobs', 'jobs', 'meta', 'results', 'revisions', 'scores', 'tasks']);
    raw.close();
  });

  it('steps aside for a newer version in another tab, then says to reload', async () => {
    const factory = new IDBFactory();
    const store = await openIndexedDbStore({ indexedDB: factory, name: 'db' });
    await store.put('meta', 'a', 1);

    const upgrade = factory.open('db', 2);
    upgrade.addEventListener('upgradeneeded', () => upgrade.result.createObjectStore('new'));
    const newer = await settle(upgrade);
    expect(newer.blocked).toBeUndefined(); // the store closed its connection when asked
    expect(newer.result?.version).toBe(2);

    const error = await store.get('meta', 'a').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OmrError);
    expect((error as OmrError).message).toMatch(/upgraded by a newer version.*reload/);
    newer.result!.close();
    await store.close();
  });

  it('reopens transparently when the other tab gives up its upgrade', async () => {
    const factory = new IDBFactory();
    const store = await openIndexedDbStore({ indexedDB: factory, name: 'db' });
    await store.put('meta', 'a', 1);

    const upgrade = factory.open('db', 2);
    upgrade.addEventListener('upgradeneeded', () => upgrade.transaction!.abort());
    const aborted = await settle(upgrade);
    expect(aborted.blocked).toBeUndefined();
    expect(aborted.error?.name).toBe('AbortError');

    expect(await store.get('meta', 'a')).toBe(1);
    await store.put('meta', 'b', 2);
    expect(await store.keys('meta')).toEqual(['a', 'b']);
    await store.close();
  });

  it('lets another tab delete the database, and recreates it on the next call', async () => {
    const factory = new IDBFactory();
    const store = await openIndexedDbStore({ indexedDB: factory, name: 'db' });
    await store.put('meta', 'a', 1);
    const deleted = await settle(factory.deleteDatabase('db'));
    expect(deleted.blocked).toBeUndefined();
    expect(await store.keys('meta')).toEqual([]);
    await store.put('meta', 'b', 2);
    expect(await store.values('meta')).toEqual([2]);
    await store.close();
  });

  it('reopens on the next call after the browser terminated the connection', async () => {
    const { factory, connections } = watched(new IDBFactory());
    const store = await openIndexedDbStore({ indexedDB: factory, name: 'db' });
    await store.put('meta', 'a', 1);
    expect(connections).toHaveLength(1);

    forceCloseDatabase(connections[0] as never); // its declared parameter type is wrong
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await store.get('meta', 'a')).toBe(1);
    expect(connections).toHaveLength(2);
    await store.close();
  });

  it('gives up with a clear error when an older tab blocks its upgrade, and closes the connection that comes late', async () => {
    // The store's schema is at version 1, which nothing older can block.
    // To play a future version, its requests ask for one version more than
    // it says, while a raw version-1 connection that ignores `versionchange`
    // plays the old tab.
    const real = new IDBFactory();
    const old = await settle(real.open('db', 1));
    let late: IDBOpenDBRequest | undefined;
    const future: IDBFactory = { ...watched(real).factory, open: (name, version) => (late = real.open(name, (version ?? 1) + 1)) };

    // The store's give-up timer is the test's (fake-indexeddb runs on setImmediate, which stays real).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let error: unknown;
    try {
      let settled = false;
      const opening = openIndexedDbStore({ indexedDB: future, name: 'db', blockedTimeoutMs: 50 })
        .catch((e: unknown) => e)
        .finally(() => (settled = true));
      // Blocked, it waits the 50 ms it was given (its timer), then gives up; not before.
      while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(49);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      error = await opening;
    } finally {
      vi.useRealTimers();
    }
    expect(error).toBeInstanceOf(OmrError);
    expect((error as OmrError).message).toMatch(/held open by another tab running an older version/);

    // Once the old tab lets go, the late connection opens and is closed at once: deleting is not blocked.
    old.result!.close();
    expect((await settle(late!)).result).toBeDefined();
    const deleted = await settle(real.deleteDatabase('db'));
    expect(deleted.blocked).toBeUndefined();
  });

  it('says so when there is no IndexedDB', async () => {
    await expect(openIndexedDbStore()).rejects.toThrow(/IndexedDB is not available/);
  });
});
