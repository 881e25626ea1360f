/**
 * The store for Node: a directory with one subdirectory per collection and
 * one file per record — raw bytes for `blobs`, JSON for everything else — so
 * a person can look inside and back it up with ordinary tools.
 *
 * A directory belongs to one process at a time: writes to a key are ordered
 * in memory, and opening the store removes temporary files it finds.
 * Records that no longer parse are moved to `quarantine/<collection>/`
 * beside the collections, never deleted.
 *
 * A file-system failure (permissions, a full disk, a path that is a file)
 * rejects the call with `STORAGE_FAILED` (507 for a full disk or quota,
 * 500 otherwise). A directory that cannot be prepared does not fail
 * opening: every call tries again and fails alike until it can, so a
 * server with one broken account directory still serves the others.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { OmrError } from '../errors.js';
import type { StoreSchema } from '../jobs/records.js';
import { COLLECTIONS, type Collection, type Store } from './store.js';

export interface FileStoreOptions {
  /**
   * Told about a record that no longer parses (say, a file truncated by a
   * crash under an older version), once it was moved to `quarantine` (the
   * path it now has). The record then reads as missing instead of failing
   * the whole listing; writing the key again starts it afresh. Default: a
   * warning on the console.
   */
  onCorrupt?: (collection: Collection, key: string, error: unknown, quarantine: string) => void;
}

const TEMP_SUFFIX = '.tmp';
/** The folder, beside the collections, that damaged records are moved to. */
export const QUARANTINE_DIRECTORY = 'quarantine';

export async function createFileStore(directory: string, options: FileStoreOptions = {}): Promise<Store> {
  const onCorrupt = options.onCorrupt ?? warnCorrupt;
  const root = path.resolve(directory);
  // The last write (or delete) started on each file; later ones chain onto it
  // so they land in call order, as they do in IndexedDB, and reads wait for it.
  const pending = new Map<string, Promise<void>>();
  let closed = false;

  async function prepare(): Promise<void> {
    for (const collection of COLLECTIONS) {
      const dir = path.join(root, collection);
      await mkdir(dir, { recursive: true });
      // Temporary files are writes a crash cut short: the old value still stands.
      for (const name of await readdir(dir, { recursive: true })) {
        if (name.endsWith(TEMP_SUFFIX)) await unlink(path.join(dir, name)).catch(ignoreMissing);
      }
    }
  }

  let prepared: Promise<void> | undefined;
  /** Resolves once the directories exist; a failed attempt is not remembered, so a repaired directory heals. */
  async function ready(): Promise<void> {
    const attempt = (prepared ??= prepare());
    try {
      await attempt;
    } catch (error) {
      if (prepared === attempt) prepared = undefined;
      throw storageFailure(root, 'prepare its directories', error);
    }
  }
  await ready().catch(() => {}); // the calls report it

  /** Rejects once closed; otherwise waits for the directories, reporting a failure as STORAGE_FAILED. */
  async function ensureOpen(): Promise<void> {
    if (closed) throw new OmrError('INTERNAL_ERROR', `The file store at ${root} is closed; open it again to keep storing.`);
    await ready();
  }

  /** Runs a file-system step of a call, reporting its failure as STORAGE_FAILED. */
  async function guarded<T>(action: string, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      throw storageFailure(root, action, error);
    }
  }

  function fileOf(collection: Collection, key: string): string {
    return path.join(root, collection, keyToPath(key, extension(collection)));
  }

  function serialize(file: string, write: () => Promise<void>): Promise<void> {
    const done = (pending.get(file) ?? Promise.resolve()).then(write);
    const settled = done.catch(() => {});
    pending.set(file, settled);
    void settled.then(() => {
      if (pending.get(file) === settled) pending.delete(file);
    });
    return done;
  }

  async function read<C extends Collection>(collection: C, key: string): Promise<StoreSchema[C] | undefined> {
    const file = fileOf(collection, key);
    await pending.get(file);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    if (collection === 'blobs') return new Uint8Array(bytes) as StoreSchema[C];
    try {
      return JSON.parse(bytes.toString('utf8')) as StoreSchema[C];
    } catch (error) {
      let moved: string | undefined;
      await serialize(file, async () => {
        moved = await moveAside(collection, key);
      });
      if (moved) onCorrupt(collection, key, error, moved);
      return undefined;
    }
  }

  /** Moves a record's file under `quarantine/`, stamped so no earlier one is overwritten; its new path, or undefined if it was gone. */
  async function moveAside(collection: Collection, key: string): Promise<string | undefined> {
    const ext = extension(collection);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const target = path.join(root, QUARANTINE_DIRECTORY, collection, `${keyToPath(key, ext).slice(0, -ext.length)}.${stamp}${ext}`);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(fileOf(collection, key), target);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    return target;
  }

  async function list(collection: Collection): Promise<string[]> {
    await Promise.all(pending.values());
    const ext = extension(collection);
    const keys: string[] = [];
    for (const name of await readdir(path.join(root, collection), { recursive: true })) {
      const key = name.endsWith(ext) ? pathToKey(name, ext) : undefined;
      if (key !== undefined) keys.push(key);
    }
    return keys.sort();
  }

  /**
   * Writes beside the target and renames over it: a rename is atomic, so a crash leaves the old
   * file or the new one, never a torn one.
   */
  function write(collection: Collection, key: string, data: string | Uint8Array): Promise<void> {
    const file = fileOf(collection, key);
    return guarded(`write ${collection}/${key}`, () =>
      serialize(file, async () => {
        const temp = `${file}.${randomUUID()}${TEMP_SUFFIX}`;
        await mkdir(path.dirname(file), { recursive: true });
        try {
          await writeFile(temp, data, { flush: true });
          await rename(temp, file);
        } catch (error) {
          await unlink(temp).catch(() => {});
          throw error;
        }
      }),
    );
  }

  return {
    async get(collection, key) {
      await ensureOpen();
      return guarded(`read ${collection}/${key}`, () => read(collection, key));
    },

    async put(collection, key, value) {
      await ensureOpen();
      if (collection === 'blobs') return write(collection, key, value as Uint8Array);
      const json = JSON.stringify(value) as string | undefined;
      if (json === undefined) throw new OmrError('INVALID_ARGUMENT', `Cannot store ${typeof value} under ${collection}/${key}: not JSON.`);
      return write(collection, key, json);
    },

    async putJson(collection, key, json) {
      await ensureOpen();
      return write(collection, key, json);
    },

    async delete(collection, key) {
      await ensureOpen();
      const file = fileOf(collection, key);
      // Directories a long key needed stay behind: empty, harmless, and
      // removing them could race a put that is about to write into them.
      return guarded(`delete ${collection}/${key}`, () => serialize(file, () => unlink(file).catch(ignoreMissing)));
    },

    async keys(collection, prefix = '') {
      await ensureOpen();
      return (await guarded(`list ${collection}`, () => list(collection))).filter((key) => key.startsWith(prefix));
    },

    async values<C extends Collection>(collection: C) {
      await ensureOpen();
      return guarded(`read ${collection}`, async () => {
        const values: StoreSchema[C][] = [];
        // One file at a time: a large collection must not exhaust file handles.
        for (const key of await list(collection)) {
          const value = await read(collection, key);
          if (value !== undefined) values.push(value);
        }
        return values;
      });
    },

    async quarantine(collection, key) {
      await ensureOpen();
      await guarded(`quarantine ${collection}/${key}`, () => serialize(fileOf(collection, key), async () => void (await moveAside(collection, key))));
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(pending.values());
    },
  };
}

function extension(collection: Collection): string {
  return collection === 'blobs' ? '.bin' : '.json';
}

/*
 * Keys become file names that are safe everywhere and map back exactly.
 * Lowercase letters, digits, '-' and '_' stand for themselves; every other
 * UTF-16 code unit becomes `%XX` or `%UXXXX` (uppercase hex). So names are
 * plain ASCII (no Unicode normalisation by the filesystem), contain no
 * separator, dot or character Windows forbids, and never differ only by case
 * (macOS and Windows fold case). Names longer than one segment are split into
 * nested directories, keeping every path component far below the usual
 * 255-byte limit. A last component that is empty or a Windows device name
 * (`con`, `nul`, …) gets a trailing `~`, which the encoding never produces.
 */
const SEGMENT = 120;
const DEVICE = /^(|con|prn|aux|nul|com\d|lpt\d)$/;

function encodeKey(key: string): string {
  let name = '';
  for (let i = 0; i < key.length; i++) {
    const char = key[i]!;
    const code = key.charCodeAt(i);
    if (/[a-z0-9_-]/.test(char)) name += char;
    else if (code < 0x100) name += '%' + code.toString(16).toUpperCase().padStart(2, '0');
    else name += '%U' + code.toString(16).toUpperCase().padStart(4, '0');
  }
  return name;
}

function keyToPath(key: string, ext: string): string {
  const parts = encodeKey(key).match(new RegExp(`.{1,${SEGMENT}}`, 'g')) ?? [''];
  if (DEVICE.test(parts.at(-1)!)) parts[parts.length - 1] += '~';
  return path.join(...parts) + ext;
}

/** The key a listed file holds, or undefined for a file this store did not write. */
function pathToKey(file: string, ext: string): string | undefined {
  const name = file.slice(0, -ext.length).split(path.sep).join('').replace(/~$/, '');
  const key = name.replace(/%U([0-9A-F]{4})|%([0-9A-F]{2})/g, (_, wide: string | undefined, narrow: string | undefined) =>
    String.fromCharCode(parseInt(wide ?? narrow!, 16)),
  );
  return keyToPath(key, ext) === file ? key : undefined;
}

/** File-system errors meaning the disk or the account's quota is full: 507 Insufficient Storage. */
const FULL_CODES = ['ENOSPC', 'EDQUOT'];

function storageFailure(root: string, action: string, error: unknown): OmrError {
  if (error instanceof OmrError) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const full = code !== undefined && FULL_CODES.includes(code);
  const advice = full ? 'Free some disk space (or raise the quota) and try again.' : 'Check that the directory exists and is writable, then try again.';
  return new OmrError('STORAGE_FAILED', `The job store at ${root} could not ${action} (${(error as Error)?.message ?? error}). ${advice}`, { status: full ? 507 : 500, cause: error });
}

function warnCorrupt(collection: Collection, key: string, error: unknown, quarantine: string): void {
  console.warn(`scoresight store: the ${collection} record ${JSON.stringify(key)} could not be read (${(error as Error)?.message ?? error}); it was moved to ${quarantine}.`);
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

function ignoreMissing(error: unknown): void {
  if (!isMissing(error)) throw error;
}
