/**
 * The store for browsers: one IndexedDB database with an object store per
 * collection, keyed by the record key.
 *
 * Other tabs share the database, so the connection is managed rather than
 * held: it yields to a tab that needs to upgrade the schema, survives the
 * browser dropping it, and is reopened by the next call either way.
 */
import { wrap, type DBSchema, type IDBPDatabase } from 'idb';
import { OmrError } from '../errors.js';
import type { StoreSchema } from '../jobs/records.js';
import type { Collection, Store } from './store.js';

/**
 * An IndexedDB: the browser's `indexedDB`, or an implementation such as
 * `fake-indexeddb`'s. Named by the one method the store starts from, so that
 * the library's typings do not need the DOM's; it must be a whole `IDBFactory`.
 */
export interface IndexedDbFactory {
  open(name: string, version?: number): unknown;
}

export interface IndexedDbStoreOptions {
  /** Database name; 'scoresight' unless told. */
  name?: string;
  /** The IndexedDB to use; the global one unless told (tests pass `fake-indexeddb`'s). */
  indexedDB?: IndexedDbFactory;
  /**
   * How long to wait, once another tab's older connection blocks the
   * upgrade, before giving up with an error; 10 s unless told.
   */
  blockedTimeoutMs?: number;
}

/** Keys in `meta` of records moved aside by `quarantine`: `quarantine/<collection>/<key>/<time>`. */
export const QUARANTINE_PREFIX = 'quarantine/';

/** Raise when the schema changes, and add a step to {@link upgrade}. */
const VERSION = 1;

type Schema = { [C in Collection]: { key: string; value: StoreSchema[C] } };
type Database = IDBPDatabase<Schema>;

// Each step brings a database from the version before it to its own, so a
// database at any older version walks up through all the steps it missed.
function upgrade(db: Database, oldVersion: number): void {
  if (oldVersion < 1) {
    // Version 1's stores, named here rather than taken from COLLECTIONS, which later versions extend.
    for (const name of ['jobs', 'results', 'blobs', 'scores', 'revisions', 'tasks', 'meta'] as const) db.createObjectStore(name);
  }
}

export async function openIndexedDbStore(options: IndexedDbStoreOptions = {}): Promise<Store> {
  const name = options.name ?? 'scoresight';
  const factory = (options.indexedDB as IDBFactory | undefined) ?? globalThis.indexedDB;
  const blockedTimeoutMs = options.blockedTimeoutMs ?? 10_000;
  // Typed as always present, but Node and some private modes have none.
  if (!factory) throw new OmrError('INTERNAL_ERROR', 'IndexedDB is not available here; in Node, use the file store.');

  let connection: Promise<Database> | undefined;
  let closed = false;

  function connect(): Promise<Database> {
    if (closed) return Promise.reject(new OmrError('INTERNAL_ERROR', `The IndexedDB store "${name}" is closed; open it again to keep storing.`));
    if (!connection) {
      const attempt: Promise<Database> = open(factory, name, blockedTimeoutMs, () => {
        if (connection === attempt) connection = undefined;
      });
      connection = attempt;
      // A failed open is not remembered: the next call tries again.
      attempt.catch(() => {
        if (connection === attempt) connection = undefined;
      });
    }
    return connection;
  }

  await connect();

  return {
    async get(collection, key) {
      return (await connect()).get(collection, key);
    },
    async put(collection, key, value) {
      await (await connect()).put(collection, value as never, key);
    },
    async putJson(collection, key, json) {
      await (await connect()).put(collection, JSON.parse(json) as never, key);
    },
    async delete(collection, key) {
      await (await connect()).delete(collection, key);
    },
    async keys(collection, prefix = '') {
      // U+FFFF is a noncharacter, so no real key continues the prefix past it.
      const range = prefix ? IDBKeyRange.bound(prefix, prefix + '\uffff') : undefined;
      return (await connect()).getAllKeys(collection, range);
    },
    async values<C extends Collection>(collection: C) {
      return (await connect()).getAll(collection) as Promise<StoreSchema[C][]>;
    },
    async quarantine(collection, key) {
      // Kept in `meta` under a name no engine key uses, so nothing reads it as live data.
      const db = await connect();
      const value = await db.get(collection, key);
      if (value === undefined) return;
      await db.put('meta', value, `${QUARANTINE_PREFIX}${collection}/${key}/${new Date().toISOString()}`);
      await db.delete(collection, key);
    },
    async close() {
      closed = true;
      const last = connection;
      connection = undefined;
      (await last?.catch(() => undefined))?.close();
    },
  };
}

/**
 * Opens the database, calling `lost` when the connection goes away later.
 * `openDB` from idb always uses the global IndexedDB, so the request is made
 * on the given factory and handed to idb's `wrap`, which is what `openDB` does.
 */
async function open(factory: IDBFactory, name: string, blockedTimeoutMs: number, lost: () => void): Promise<Database> {
  const request = factory.open(name, VERSION);
  request.addEventListener('upgradeneeded', (event) => upgrade(wrap(request.result) as unknown as Database, event.oldVersion));
  const opened = wrap(request) as Promise<unknown> as Promise<Database>;

  // Blocked: another tab holds an older version open and has not let go.
  // Ours is the newer code, so wait for it a while, then say what to do.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const blocked = new Promise<never>((_, reject) => {
    request.addEventListener('blocked', () => {
      timer = setTimeout(() => {
        const message = `The ScoreSight database "${name}" is held open by another tab running an older version; close that tab or reload it, then try again.`;
        reject(new OmrError('INTERNAL_ERROR', message));
      }, blockedTimeoutMs);
    });
  });

  let db: Database;
  try {
    db = await Promise.race([opened, blocked]);
  } catch (error) {
    // If the open still succeeds after we gave up, nobody will use it.
    opened.then((late) => late.close(), () => {});
    if (error instanceof OmrError) throw error;
    if ((error as DOMException | null)?.name === 'VersionError') {
      const message = `The ScoreSight database "${name}" was upgraded by a newer version open in another tab; reload this page.`;
      throw new OmrError('INTERNAL_ERROR', message, { cause: error });
    }
    throw new OmrError('INTERNAL_ERROR', `Could not open the ScoreSight database "${name}": ${(error as Error).message}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }

  // Blocking: another tab wants a newer version (or to delete the database).
  // Step aside so it can proceed; the next call here reopens.
  db.addEventListener('versionchange', () => {
    db.close();
    lost();
  });
  // Terminated: the browser closed the connection (storage cleared, disk
  // error); the next call reopens.
  db.addEventListener('close', lost);
  return db;
}
