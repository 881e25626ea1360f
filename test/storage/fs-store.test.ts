import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileStore } from '../../src/storage/fs-store.js';
import type { Collection } from '../../src/storage/store.js';
import { AWKWARD_KEYS, storeContract } from './contract.js';

const directories: string[] = [];
async function freshDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'scoresight-store-'));
  directories.push(directory);
  return directory;
}
afterAll(async () => {
  await Promise.all(directories.map((d) => rm(d, { recursive: true, force: true })));
});

storeContract('the file store', async () => createFileStore(await freshDirectory()));

describe('the file store on disk', () => {
  it('keeps one plain file per record: JSON, or raw bytes for blobs', async () => {
    const directory = await freshDirectory();
    const store = await createFileStore(directory);
    await store.put('jobs', 'job:1', { seq: 1 } as never);
    await store.put('blobs', 'file:job:1:0', new Uint8Array([0xff, 0, 7]));
    await store.put('meta', 'con', 'device name');
    expect(JSON.parse(await readFile(path.join(directory, 'jobs', 'job%3A1.json'), 'utf8'))).toEqual({ seq: 1 });
    expect([...(await readFile(path.join(directory, 'blobs', 'file%3Ajob%3A1%3A0.bin')))]).toEqual([0xff, 0, 7]);
    expect(await readdir(path.join(directory, 'meta'))).toEqual(['con~.json']);
    expect((await readdir(directory)).sort()).toEqual(['blobs', 'jobs', 'meta', 'results', 'revisions', 'scores', 'tasks']);
    await store.close();
  });

  it('keeps every name short, plain ASCII and distinct even where case is folded', async () => {
    const directory = await freshDirectory();
    const store = await createFileStore(directory);
    for (const key of AWKWARD_KEYS) await store.put('meta', key, key);
    const names = await readdir(path.join(directory, 'meta'), { recursive: true });
    for (const name of names) {
      for (const part of name.split(path.sep)) expect(part).toMatch(/^[a-z0-9_%A-F~U.-]{1,130}$/);
    }
    const files = names.filter((name) => name.endsWith('.json'));
    expect(files).toHaveLength(AWKWARD_KEYS.length);
    expect(new Set(files.map((f) => f.toLowerCase())).size).toBe(files.length);
    await store.close();
  });

  it('ignores files it did not write', async () => {
    const directory = await freshDirectory();
    const store = await createFileStore(directory);
    await store.put('meta', 'a', 1);
    for (const name of ['.DS_Store', 'notes.txt', 'Upper.json', '%zz.json', 'a.bin']) await writeFile(path.join(directory, 'meta', name), 'x');
    expect(await store.keys('meta')).toEqual(['a']);
    expect(await store.values('meta')).toEqual([1]);
    await store.close();
  });

  it('keeps what it stored across close and reopen', async () => {
    const directory = await freshDirectory();
    const first = await createFileStore(directory);
    for (const key of AWKWARD_KEYS) await first.put('meta', key, { key });
    await first.put('blobs', 'file:j:0', new Uint8Array([1, 2, 3]));
    await first.put('meta', 'gone', 0);
    await first.delete('meta', 'gone');
    await first.close();

    const second = await createFileStore(directory);
    expect(await second.keys('meta')).toEqual([...AWKWARD_KEYS].sort());
    expect(await second.get('meta', 'a/b')).toEqual({ key: 'a/b' });
    expect([...(await second.get('blobs', 'file:j:0'))!]).toEqual([1, 2, 3]);
    await second.close();
  });

  it('ignores temporary files a crash left behind, and removes them on open', async () => {
    const directory = await freshDirectory();
    const store = await createFileStore(directory);
    await store.put('meta', 'a', 'old');
    await store.put('meta', 'k'.repeat(300), 'long');
    const longDir = path.join(directory, 'meta', 'k'.repeat(120));
    // What a crash between writing and renaming leaves: the old file and a torn new one.
    const leftovers = [path.join(directory, 'meta', 'a.json.1234.tmp'), path.join(longDir, 'k'.repeat(60) + '.json.5678.tmp')];
    for (const file of leftovers) await writeFile(file, '{"torn');
    expect(await store.keys('meta')).toEqual(['a', 'k'.repeat(300)]);
    expect(await store.values('meta')).toEqual(['old', 'long']);
    await store.close();

    const reopened = await createFileStore(directory);
    const names = await readdir(path.join(directory, 'meta'), { recursive: true });
    expect(names.filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(await reopened.get('meta', 'a')).toBe('old');
    await reopened.close();
  });

  it('moves a corrupt record to quarantine/ and reports it once, keeping the others', async () => {
    const directory = await freshDirectory();
    const reports: [Collection, string, unknown, string][] = [];
    const store = await createFileStore(directory, { onCorrupt: (...report) => reports.push(report) });
    for (const key of ['a', 'b', 'c']) await store.put('jobs', key, { key } as never);
    const damaged = '{"key": "b", "job": {"st'; // truncated by a crash
    await writeFile(path.join(directory, 'jobs', 'b.json'), damaged);

    expect(await store.values('jobs')).toEqual([{ key: 'a' }, { key: 'c' }]);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.slice(0, 2)).toEqual(['jobs', 'b']);
    expect(reports[0]![2]).toBeInstanceOf(SyntaxError);
    // Moved aside, never deleted: the bytes are kept for a person to look at.
    expect(path.relative(directory, reports[0]![3])).toMatch(/^quarantine[/\\]jobs[/\\]b\..+\.json$/);
    expect(await readFile(reports[0]![3], 'utf8')).toBe(damaged);

    expect(await store.get('jobs', 'b')).toBeUndefined();
    expect(await store.keys('jobs')).toEqual(['a', 'c']);
    expect(reports).toHaveLength(1);
    await store.put('jobs', 'b', { key: 'b' } as never); // writing it again starts it afresh
    expect(await store.values('jobs')).toEqual([{ key: 'a' }, { key: 'b' }, { key: 'c' }]);
    await store.close();
  });

  it('quarantine() moves a record aside under quarantine/, keeping its bytes', async () => {
    const directory = await freshDirectory();
    const store = await createFileStore(directory);
    await store.put('meta', 'credits', 'not a number');
    await store.quarantine('meta', 'credits');
    await store.quarantine('meta', 'missing');
    expect(await store.keys('meta')).toEqual([]);
    const kept = await readdir(path.join(directory, 'quarantine', 'meta'));
    expect(kept).toHaveLength(1);
    expect(JSON.parse(await readFile(path.join(directory, 'quarantine', 'meta', kept[0]!), 'utf8'))).toBe('not a number');
    await store.close();
  });

  it('lands 50 concurrent puts to one key as one valid value, the last one', async () => {
    const directory = await freshDirectory();
    const store = await createFileStore(directory);
    // Sizes vary so unordered writes would finish out of order.
    const values = Array.from({ length: 50 }, (_, i) => ({ i, text: 'x'.repeat(((i * 7919) % 50) * 2000) }));
    await Promise.all(values.map((value) => store.put('meta', 'same', value)));
    expect(await store.get('meta', 'same')).toEqual(values[49]);
    expect(await readdir(path.join(directory, 'meta'))).toEqual(['same.json']);
    expect(JSON.parse(await readFile(path.join(directory, 'meta', 'same.json'), 'utf8'))).toEqual(values[49]);
    await store.close();
  });

  it('reads its own writes while they are still in flight, and finishes them before closing', async () => {
    const directory = await freshDirectory();
    const store = await createFileStore(directory);
    const put = store.put('meta', 'a', 'v');
    expect(await store.get('meta', 'a')).toBe('v');
    const second = store.put('meta', 'b', 'w');
    void store.delete('meta', 'a');
    await store.close();
    await put;
    await second;
    const reopened = await createFileStore(directory);
    expect(await reopened.keys('meta')).toEqual(['b']);
    await reopened.close();
  });
});
