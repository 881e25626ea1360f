/**
 * A bounded load test on loopback: three accounts submit 20 jobs through
 * the remote client while 200 long-polls wait on them at once, then the
 * pages are let go. Nothing may be lost or leak between accounts, and a
 * throttled token must be held to its limit under concurrency.
 */
import { afterEach, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { waitForJob } from '../../src/jobs/follow.js';
import type { Job } from '../../src/jobs/types.js';
import { createRemoteClient, type RemoteClient } from '../../src/remote/remote-client.js';
import { createOmrServer, type OmrServer } from '../../src/server/server.js';
import { createFakePool, pngPage } from '../support/fake-pool.js';
import { heldDeadlines } from '../support/held-deadlines.js';

const ACCOUNTS = ['alice', 'bob', 'carol'] as const;
const JOBS = 20;
const POLLS_PER_JOB = 10;
const THROTTLED_LIMIT = 10;

let server: OmrServer | undefined;
afterEach(async () => {
  await server?.close();
});

it('200 concurrent long-polls over 20 jobs of 3 accounts: no job lost, no leak between accounts, limits held', async () => {
  const pool = createFakePool({ hold: ['*#0'] });
  const deadlines = heldDeadlines();
  server = createOmrServer({
    tokens: [
      ...ACCOUNTS.map((account) => ({ token: `${account}-load-token`, account, scopes: ['omr', 'scores', 'tasks.readonly'] })),
      { token: 'throttled-token', account: 'throttled', scopes: ['omr'], rateLimit: THROTTLED_LIMIT },
    ],
    clientOptions: { pool, sweepIntervalMs: 0, longPollTimer: deadlines.longPollTimer },
  });
  const url = await server.listen(0);
  const clients = Object.fromEntries(ACCOUNTS.map((a) => [a, createRemoteClient({ baseUrl: url, token: `${a}-load-token` })])) as Record<(typeof ACCOUNTS)[number], RemoteClient>;
  const started = performance.now();

  const submitted = await Promise.all(
    Array.from({ length: JOBS }, async (_, i) => {
      const account = ACCOUNTS[i % ACCOUNTS.length]!;
      const file = `${account}-${i}.png`;
      const job = await clients[account].createJob({ output: 'musicxml', files: [pngPage(file)], autoStart: true, idempotencyKey: `load-${i}` });
      return { account, file, job };
    }),
  );
  await Promise.all(submitted.map((s) => pool.reached(`${s.file}#0`)));
  // Every job now sits on its held first page; one read each lets the last progress write land.
  const held = await Promise.all(submitted.map((s) => clients[s.account].getJob(s.job.id)));

  // Every poll's deadline is held until the server holds them all: a poll lost on the way fails by the test's timeout.
  const holding = deadlines.hold(JOBS * POLLS_PER_JOB);
  const polls = submitted.flatMap((s) => Array.from({ length: POLLS_PER_JOB }, () => clients[s.account].getJob(s.job.id, { wait: 20 })));
  const waits = await holding;
  const concurrentPolls = server.stats.inFlight;
  for (const s of submitted) pool.release(`${s.file}#0`);
  const answers = await Promise.all(polls);
  const releasedAfter = performance.now();
  // None of them ran out (none can here): each was answered by its job's change, which stopped its deadline.
  await Promise.all(waits.map((wait) => wait.stopped));

  // Each poll answered its own job, and only once that job had moved on.
  answers.forEach((job, i) => {
    const index = Math.floor(i / POLLS_PER_JOB);
    expect(job.id).toBe(submitted[index]!.job.id);
    expect(JSON.stringify([job.status, job.progress])).not.toBe(JSON.stringify([held[index]!.status, held[index]!.progress]));
  });
  const finals = await Promise.all(submitted.map((s) => waitForJob(clients[s.account], s.job.id, { wait: 5 })));
  expect(finals.map((j) => j.status)).toEqual(Array(JOBS).fill('done'));

  // Each account lists exactly its own jobs (paged through Link), and cannot see the others'.
  for (const account of ACCOUNTS) {
    const listed: Job[] = [];
    for await (const page of clients[account].listAllJobs({ limit: 3 })) listed.push(...page.jobs);
    const own = submitted.filter((s) => s.account === account).map((s) => s.job.id);
    expect(listed.map((j) => j.id).sort()).toEqual([...own].sort());
    const foreign = submitted.filter((s) => s.account !== account);
    const refusals = await Promise.allSettled(foreign.map((s) => clients[account].getJob(s.job.id)));
    for (const refusal of refusals) {
      expect(refusal.status).toBe('rejected');
      expect((refusal as PromiseRejectedResult).reason).toMatchObject({ code: 'OMR_JOB_NOT_FOUND', status: 404 });
    }
  }

  // A throttled token under a burst: exactly its limit gets through.
  const throttled = createRemoteClient({ baseUrl: url, token: 'throttled-token' });
  const burst = await Promise.allSettled(Array.from({ length: THROTTLED_LIMIT + 5 }, () => throttled.listJobs()));
  const refused = burst.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as OmrError);
  expect(burst.length - refused.length).toBe(THROTTLED_LIMIT);
  expect(refused.map((e) => e.code)).toEqual(Array(5).fill('API_RATE_LIMIT_EXCEEDED'));
  expect((await clients.alice.getCapabilities()).locales).toHaveLength(65); // the others are not slowed

  const elapsed = performance.now() - started;
  console.log(
    `load: ${server.stats.requests} requests in ${(elapsed / 1000).toFixed(2)} s; ${concurrentPolls} long-polls held at once ` +
      `(peak in flight ${server.stats.peakInFlight}), all answered ${(releasedAfter - started).toFixed(0)} ms in; ` +
      `${JOBS} jobs of ${ACCOUNTS.length} accounts done; throttled token: ${THROTTLED_LIMIT} allowed, ${refused.length} refused`,
  );
  await pool.close();
});
