/**
 * Damaged records in a file store, as the engine meets them when it opens:
 * set aside in quarantine/ (never deleted), reported, the credit balance
 * rebuilt from the jobs, and the engine opening regardless.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type EngineWarning, type LocalClient } from '../../src/jobs/local-client.js';
import type { Job } from '../../src/jobs/types.js';
import { createFileStore } from '../../src/storage/fs-store.js';
import type { Collection } from '../../src/storage/store.js';
import { createFakePool, pngPage } from '../support/fake-pool.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const GRANT = 10;

interface Opened {
  client: LocalClient;
  warnings: EngineWarning[];
  corrupt: [Collection, string][];
}

/** Opens an engine with a credit grant on the file store in `directory`, counting what it reports. */
async function open(directory: string): Promise<Opened> {
  const warnings: EngineWarning[] = [];
  const corrupt: [Collection, string][] = [];
  const store = await createFileStore(directory, { onCorrupt: (collection, key) => corrupt.push([collection, key]) });
  const pool = createFakePool();
  const client = createClient({ store, pool, sweepIntervalMs: 0, credits: GRANT, onWarning: (w) => warnings.push(w) });
  cleanup.push(async () => {
    await client.close();
    await pool.close();
  });
  await client.ready;
  return { client, warnings, corrupt };
}

/** A directory holding two done jobs of one page each (8 credits left), the engine closed. */
async function twoDoneJobs(): Promise<{ directory: string; jobs: Job[] }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'scoresight-damaged-'));
  cleanup.push(() => rm(directory, { recursive: true, force: true }));
  const { client } = await open(directory);
  const jobs: Job[] = [];
  for (const name of ['a.png', 'b.png']) {
    const job = await client.createJob({ output: 'musicxml', files: [pngPage(name)], autoStart: true });
    let current = job;
    while (current.status !== 'done') current = await client.getJob(job.id, { wait: 1 });
    jobs.push(current);
  }
  expect((await client.getCapabilities()).remainingCredits).toBe(GRANT - 2);
  await client.close();
  return { directory, jobs };
}

const jobFile = (directory: string, id: string) => path.join(directory, 'jobs', `${id}.json`);

async function quarantined(directory: string, collection: Collection): Promise<string[]> {
  return readdir(path.join(directory, 'quarantine', collection)).catch(() => []);
}

describe('damaged records in the file store', () => {
  it('a truncated job record is quarantined with its files and result, reported, and its charge refunded', async () => {
    const { directory, jobs } = await twoDoneJobs();
    const [lost, kept] = jobs as [Job, Job];
    const bytes = await readFile(jobFile(directory, lost.id), 'utf8');
    await writeFile(jobFile(directory, lost.id), bytes.slice(0, bytes.length >> 1)); // cut short by a crash

    const { client, warnings, corrupt } = await open(directory);
    expect(corrupt).toEqual([['jobs', lost.id]]);
    expect(warnings.map((w) => w.code).sort()).toEqual(['CREDITS_REBUILT', 'DAMAGED_RECORD']);
    expect(warnings.find((w) => w.code === 'DAMAGED_RECORD')!.message).toContain(lost.id);
    expect((await client.listJobs()).jobs.map((j) => j.id)).toEqual([kept.id]);
    expect((await client.exportJob(kept.id, 'musicxml')).data.length).toBeGreaterThan(100);
    // The lost job's charge comes back: only the surviving job holds one.
    expect((await client.getCapabilities()).remainingCredits).toBe(GRANT - 1);
    // Nothing deleted: the record, its upload, thumbnail and result are all kept aside.
    expect(await quarantined(directory, 'jobs')).toHaveLength(1);
    expect(await readFile(path.join(directory, 'quarantine', 'jobs', (await quarantined(directory, 'jobs'))[0]!), 'utf8')).toBe(bytes.slice(0, bytes.length >> 1));
    expect((await quarantined(directory, 'blobs')).filter((name) => name.startsWith(lost.id))).toHaveLength(2);
    expect(await quarantined(directory, 'results')).toHaveLength(1);
    expect((await readdir(path.join(directory, 'blobs'))).filter((name) => name.startsWith(lost.id))).toEqual([]);
  });

  it('a corrupt credit balance is rebuilt from the jobs, not reset to the grant', async () => {
    const { directory } = await twoDoneJobs();
    await writeFile(path.join(directory, 'meta', 'credits.json'), '{');
    const { client, warnings, corrupt } = await open(directory);
    expect(corrupt).toEqual([['meta', 'credits']]);
    expect(warnings.map((w) => w.code)).toEqual(['CREDITS_REBUILT']);
    expect((await client.getCapabilities()).remainingCredits).toBe(GRANT - 2);
    expect(await quarantined(directory, 'meta')).toHaveLength(1);
    // The rebuilt balance is stored again: the next open reads it without a warning.
    await client.close();
    const again = await open(directory);
    expect(again.warnings).toEqual([]);
    expect((await again.client.getCapabilities()).remainingCredits).toBe(GRANT - 2);
  });

  it('a balance of the wrong type is quarantined and rebuilt', async () => {
    const { directory } = await twoDoneJobs();
    await writeFile(path.join(directory, 'meta', 'credits.json'), '"lots"');
    const { client, warnings } = await open(directory);
    expect(warnings.map((w) => w.code)).toEqual(['CREDITS_REBUILT']);
    expect((await client.getCapabilities()).remainingCredits).toBe(GRANT - 2);
    expect(await quarantined(directory, 'meta')).toHaveLength(1);
  });

  it('job records of the wrong shape do not stop the engine from opening; the others are served', async () => {
    const { directory, jobs } = await twoDoneJobs();
    const [bad, kept] = jobs as [Job, Job];
    await writeFile(jobFile(directory, bad.id), JSON.stringify({ seq: 1, job: null }));
    await writeFile(jobFile(directory, 'job_stray'), '[1, 2, 3]');
    const { client, warnings } = await open(directory);
    expect(warnings.filter((w) => w.code === 'DAMAGED_RECORD')).toHaveLength(2);
    expect((await client.listJobs()).jobs.map((j) => j.id)).toEqual([kept.id]);
    expect(await quarantined(directory, 'jobs')).toHaveLength(2);
    expect((await client.getCapabilities()).remainingCredits).toBe(GRANT - 1);
    const fresh = await client.createJob({ output: 'musicxml', files: [pngPage('c.png')], autoStart: true });
    expect(fresh.status).toBe('processing');
  });
});
