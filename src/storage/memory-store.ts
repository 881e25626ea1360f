/**
 * A store that lives and dies with the process: for tests and for clients
 * that do not need jobs to survive a reload.
 */
import { OmrError } from '../errors.js';
import type { StoreSchema } from '../jobs/records.js';
import { COLLECTIONS, type Collection, type Store } from './store.js';

export function createMemoryStore(): Store {
  const data = new Map<Collection, Map<string, unknown>>(COLLECTIONS.map((c) => [c, new Map()]));
  /** Records moved aside by `quarantine`, kept as they were. */
  const quarantined: { collection: Collection; key: string; value: unknown }[] = [];
  let closed = false;

  // Every call goes through here, so a closed store rejects everywhere alike.
  function collection(name: Collection): Map<string, unknown> {
    if (closed) throw new OmrError('INTERNAL_ERROR', 'The memory store is closed; create a new one to keep storing.');
    return data.get(name)!;
  }

  // Values are cloned in and out, as IndexedDB and the file store do by
  // nature, so a caller mutating what it put or got cannot change the store.
  return {
    async get<C extends Collection>(name: C, key: string) {
      const value = collection(name).get(key);
      return value === undefined ? undefined : (structuredClone(value) as StoreSchema[C]);
    },
    async put(name, key, value) {
      collection(name).set(key, structuredClone(value));
    },
    async putJson(name, key, json) {
      collection(name).set(key, JSON.parse(json));
    },
    async delete(name, key) {
      collection(name).delete(key);
    },
    async keys(name, prefix = '') {
      return [...collection(name).keys()].filter((key) => key.startsWith(prefix)).sort();
    },
    async values<C extends Collection>(name: C) {
      const records = collection(name);
      return [...records.keys()].sort().map((key) => structuredClone(records.get(key)) as StoreSchema[C]);
    },
    async quarantine(name, key) {
      const records = collection(name);
      if (!records.has(key)) return;
      quarantined.push({ collection: name, key, value: records.get(key) });
      records.delete(key);
    },
    async close() {
      closed = true;
      data.clear();
    },
  };
}
