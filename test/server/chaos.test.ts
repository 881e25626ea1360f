/**
 * Chaos: the real `scoresight serve` process, with a file store and a credit
 * grant, serving three accounts through hostile uploads, a SIGKILL while a
 * page is being read, a graceful SIGTERM and SIGINT, restarts on the same
 * store, and one account whose storage stops taking writes (across a
 * restart, and again while its page is being read) while the other two
 * are served. At the end every job is where
 * the spec says it ends, none is lost or doubled for one idempotency key,
 * and each balance is the grant less the pages of the jobs that were done.
 *
 * Nothing is timed against a clock: each step waits for a state the server
 * reports, with a generous bound that only turns a hang into a failure.
 * The refusal times and the peak memory are printed, not asserted.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_LOCALES } from '../../src/server/request-limits.js';
import { DEFAULT_LIMITS } from '../../src/server/server.js';
import type { Job } from '../../src/jobs/types.js';
import { startServer, type ServerProcess } from '../support/server-process.js';

/** Credits each account is granted (`--credits`). */
const GRANT = 10;
const TOKENS = { alice: 'alice-chaos-token', bob: 'bob-chaos-token', carol: 'carol-chaos-token' } as const;
type Account = keyof typeof TOKENS;
const ACCOUNTS = Object.keys(TOKENS) as Account[];

/** The smallest page of music the other tests read: one page, a few seconds to recognise. */
const PAGE = readFileSync(new URL('../fixtures/recognition/melody-300dpi.png', import.meta.url));
const MELODY_PDF = readFileSync(new URL('../fixtures/recognition/melody.pdf', import.meta.url));
const LOCKED_PDF = readFileSync(new URL('../fixtures/input/encrypted-aes256.pdf', import.meta.url));
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const PAGE_FILE = { file: b64(PAGE), filename: 'melody.png' };

/** Bound on any one wait for the server: a hang fails the test instead of holding CI. */
const WAIT_BOUND_MS = 240_000;
/** Statuses the spec calls terminal. */
const TERMINAL = ['done', 'error', 'canceled'];
/** Progress keys of a page being read. */
const READING = ['OMR_DETECTING_STAVES', 'OMR_READING_NOTES', 'OMR_PROCESSING_PAGE'];

const dir = mkdtempSync(join(tmpdir(), 'scoresight-chaos-'));
const started: ServerProcess[] = [];
afterAll(async () => {
  for (const server of started) if (server.alive()) await server.stop('SIGKILL');
  repairStorage?.();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  // The parsed JSON answer (or the text of a file download), read field by field by the checks.
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  ms: number;
}

/** One request; a string body is sent as it is, anything else as JSON. */
async function call(server: ServerProcess, account: Account | undefined, method: string, path: string, body?: unknown): Promise<Answer> {
  const begun = performance.now();
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(account ? { authorization: `Bearer ${TOKENS[account]}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const type = response.headers.get('content-type') ?? '';
  const json = type.startsWith('application/json') ? await response.json() : await response.text();
  return { status: response.status, json, ms: performance.now() - begun };
}

/** A body whose Content-Length says more than the server reads; only the headers are sent. */
function oversizedDeclaration(server: ServerProcess, account: Account): Promise<Answer> {
  const begun = performance.now();
  const url = new URL(`${server.url}/omr/jobs`);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS[account]}`, 'content-type': 'application/json', 'content-length': String(DEFAULT_LIMITS.maxBodyBytes + 1) },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, json: JSON.parse(text), ms: performance.now() - begun });
      });
    });
    req.flushHeaders();
  });
}

/** An .mxl whose score inflates to 100 MiB from ~100 KiB, declaring just the most the reader takes, so only inflating finds it out. */
function zipBomb(): Uint8Array {
  const container = strToU8('<?xml version="1.0"?><container><rootfiles><rootfile full-path="score.xml" media-type="application/vnd.recordare.musicxml+xml"/></rootfiles></container>');
  const zip = zipSync({ 'META-INF/container.xml': container, 'score.xml': new Uint8Array(100 * 2 ** 20).fill(0x20) }, { level: 9 });
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  // The score entry's uncompressed size, in its local header and in the central directory: 64 MiB, the limit.
  for (let i = 0; i + 4 <= zip.length; i++) {
    const signature = view.getUint32(i, true);
    const size = signature === 0x04034b50 ? i + 22 : signature === 0x02014b50 ? i + 24 : -1;
    if (size >= 0 && view.getUint32(size, true) === 100 * 2 ** 20) view.setUint32(size, 64 * 2 ** 20, true);
  }
  return zip;
}

/** Long-polls a job until `ready` holds for it. */
async function until(server: ServerProcess, account: Account, id: string, ready: (job: Job) => boolean): Promise<Job> {
  const bound = Date.now() + WAIT_BOUND_MS;
  for (;;) {
    const answer = await call(server, account, 'GET', `/omr/jobs/${id}?wait=10`);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    if (ready(answer.json)) return answer.json as Job;
    if (Date.now() > bound) throw new Error(`job ${id} of ${account} never got there: ${JSON.stringify(answer.json)}`);
  }
}

const reading = (job: Job) => TERMINAL.includes(job.status) || (job.status === 'processing' && READING.includes(job.progress?.key ?? ''));

async function credits(server: ServerProcess, account: Account): Promise<number> {
  const answer = await call(server, account, 'GET', '/omr/capabilities');
  expect(answer.status).toBe(200);
  return answer.json.remainingCredits;
}

async function jobsOf(server: ServerProcess, account: Account): Promise<Job[]> {
  const answer = await call(server, account, 'GET', '/omr/jobs?limit=100');
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json as Job[];
}

/** How carol's writes were made to fail, and how to undo it. */
let repairStorage: (() => void) | undefined;

/**
 * Makes one account's directory refuse writes: read-only by chmod where that
 * binds the test's user; as root (which chmod does not stop) the directory is
 * moved aside and a plain file put in its place, so every path under it
 * fails. Returns which was done.
 */
function breakStorage(accountDir: string): 'chmod' | 'file-in-place' {
  const dirs = [accountDir, ...readdirSync(accountDir, { recursive: true }).map(String).map((p) => join(accountDir, p)).filter((p) => statSync(p).isDirectory())];
  for (const d of dirs) chmodSync(d, 0o555);
  const probe = join(accountDir, 'meta', 'probe');
  let writable = false;
  try {
    writeFileSync(probe, 'x');
    unlinkSync(probe);
    writable = true;
  } catch {
    // read-only, as meant
  }
  if (!writable) {
    repairStorage = () => {
      for (const d of dirs) chmodSync(d, 0o755);
      repairStorage = undefined;
    };
    return 'chmod';
  }
  for (const d of dirs) chmodSync(d, 0o755);
  const aside = `${accountDir}.aside`;
  const blocker = `${accountDir}.blocker`;
  writeFileSync(blocker, 'not a directory');
  renameSync(accountDir, aside);
  // A write in flight may make the directory again in between: it is let go (the store failed it in effect) and the file put in its place.
  for (let tries = 0; ; tries++) {
    try {
      renameSync(blocker, accountDir);
      break;
    } catch (err) {
      if (tries > 100) throw err;
      rmSync(accountDir, { recursive: true, force: true });
    }
  }
  repairStorage = () => {
    unlinkSync(accountDir);
    renameSync(aside, accountDir);
    repairStorage = undefined;
  };
  return 'file-in-place';
}

describe('scoresight serve under chaos', () => {
  it('loses no job and charges no page twice through hostile uploads, SIGKILL, graceful stops, restarts and one account’s failing storage', { timeout: 600_000 }, async () => {
    const tokens = join(dir, 'tokens.json');
    writeFileSync(tokens, JSON.stringify(ACCOUNTS.map((account) => ({ token: TOKENS[account], account, scopes: ['omr'] }))));
    const store = join(dir, 'store');
    const args = ['--tokens', tokens, '--store', store, '--credits', String(GRANT)];
    let peakRss = 0;
    const launch = async () => {
      const server = await startServer(args);
      started.push(server);
      return server;
    };
    const notePeak = (server: ServerProcess) => (peakRss = Math.max(peakRss, server.peakRss() ?? 0));
    /** Every job id a key was answered with, per account: one id per key is the check against doubles. */
    const keyed = new Map<string, Set<string>>();
    const accepted = (account: Account, key: string, answer: Answer, status: number) => {
      expect([key, answer.status, answer.json.code]).toEqual([key, status, undefined]);
      const ids = keyed.get(`${account}:${key}`) ?? new Set();
      ids.add(answer.json.id);
      keyed.set(`${account}:${key}`, ids);
      return answer.json as Job;
    };
    const oneShot = (key: string) => ({ output: 'musicxml', autoStart: true, idempotencyKey: key, files: [PAGE_FILE] });

    // ---- Run 1: hostile uploads from alice and bob while carol is served; then a SIGKILL mid-page.
    let server = await launch();
    const bomb = zipBomb();
    const hostile: Record<string, Answer> = {};
    const refusals = async () => {
      hostile['corrupt PDF'] = await call(server, 'alice', 'POST', '/omr/jobs', { ...oneShot('a-1'), files: [{ file: b64(MELODY_PDF.subarray(0, 900)), filename: 'broken.pdf' }] });
      hostile['encrypted PDF'] = await call(server, 'alice', 'POST', '/omr/jobs', { ...oneShot('a-locked'), files: [{ file: b64(LOCKED_PDF), filename: 'locked.pdf' }] });
      hostile['zip bomb .mxl as a page'] = await call(server, 'bob', 'POST', '/omr/jobs', { ...oneShot('b-bomb'), files: [{ file: b64(bomb), filename: 'bomb.mxl' }] });
      hostile['zip bomb .mxl imported'] = await call(server, 'bob', 'POST', '/scores', { filename: 'bomb.mxl', data: b64(bomb), dataEncoding: 'base64' });
      hostile['oversized declared body'] = await oversizedDeclaration(server, 'bob');
      hostile['wrong type (text)'] = await call(server, 'alice', 'POST', '/omr/jobs', { ...oneShot('a-text'), files: [{ file: b64(strToU8('just some words')), filename: 'notes.txt' }] });
      hostile['JSON [] body'] = await call(server, 'bob', 'POST', '/omr/jobs', '[]');
      hostile['1,000,000 locales'] = await call(server, 'alice', 'POST', '/omr/jobs', { ...oneShot('a-locales'), locales: Array(1_000_000).fill('en') });
      // The first refusal also waited for the parse worker to start: timed again with it running.
      hostile['corrupt PDF, parse worker started'] = await call(server, 'alice', 'POST', '/omr/jobs', { ...oneShot('a-1'), files: [{ file: b64(MELODY_PDF.subarray(0, 900)), filename: 'broken.pdf' }] });
    };
    const carolDrafts = async () => {
      const draft = accepted('carol', 'c-1', await call(server, 'carol', 'POST', '/omr/jobs', { output: 'musicxml', idempotencyKey: 'c-1' }), 201);
      expect((await call(server, 'carol', 'POST', `/omr/jobs/${draft.id}/files`, PAGE_FILE)).json).toEqual({ fileIndex: 0, fileCount: 1 });
      accepted('carol', 'c-2', await call(server, 'carol', 'POST', '/omr/jobs', { output: 'musicxml', idempotencyKey: 'c-2', files: [PAGE_FILE] }), 201);
    };
    await Promise.all([refusals(), carolDrafts()]);
    const expected: Record<string, [number, string]> = {
      'corrupt PDF': [400, 'CORRUPTED_FILE'],
      'encrypted PDF': [400, 'ENCRYPTED_PDF'],
      'zip bomb .mxl as a page': [400, 'UNSUPPORTED_FILE_TYPE'],
      'zip bomb .mxl imported': [413, 'FILE_TOO_LARGE'],
      'oversized declared body': [413, 'FILE_TOO_LARGE'],
      'wrong type (text)': [400, 'UNSUPPORTED_FILE_TYPE'],
      'JSON [] body': [400, 'INVALID_ARGUMENT'],
      '1,000,000 locales': [400, 'INVALID_ARGUMENT'],
      'corrupt PDF, parse worker started': [400, 'CORRUPTED_FILE'],
    };
    expect(Object.fromEntries(Object.entries(hostile).map(([name, a]) => [name, [a.status, a.json.code]]))).toEqual(expected);
    expect(hostile['1,000,000 locales']!.json.message).toContain(`at most ${MAX_LOCALES}`);
    // A refused request leaves nothing: no job, no charge, and its idempotency key is free for a good request.
    expect([(await jobsOf(server, 'alice')).length, (await jobsOf(server, 'bob')).length]).toEqual([0, 0]);
    expect(await Promise.all(ACCOUNTS.map((a) => credits(server, a)))).toEqual([GRANT, GRANT, GRANT]);

    // The same one-shot request twice at once: one job, one charge.
    const [a1, a1Again] = await Promise.all([call(server, 'alice', 'POST', '/omr/jobs', oneShot('a-1')), call(server, 'alice', 'POST', '/omr/jobs', oneShot('a-1'))]);
    const alice1 = accepted('alice', 'a-1', a1!, 202);
    accepted('alice', 'a-1', a1Again!, 202);
    const bob1 = accepted('bob', 'b-1', await call(server, 'bob', 'POST', '/omr/jobs', oneShot('b-1')), 202);
    expect([alice1.status, alice1.estimatedCredits, bob1.status]).toEqual(['processing', 1, 'processing']);
    const killedAt = await until(server, 'alice', alice1.id, reading);
    notePeak(server);
    expect((await server.stop('SIGKILL')).signal).toBe('SIGKILL');

    // ---- Run 2: the same store after the crash; carol's storage stops taking writes.
    server = await launch();
    accepted('alice', 'a-1', await call(server, 'alice', 'POST', '/omr/jobs', oneShot('a-1')), 202);
    expect((await jobsOf(server, 'alice')).map((j) => j.id)).toEqual([alice1.id]);
    expect(await Promise.all(ACCOUNTS.map((a) => credits(server, a)))).toEqual([GRANT - 1, GRANT - 1, GRANT]);
    const carolDir = join(store, 'carol');
    const how = breakStorage(carolDir);
    const c1 = [...keyed.get('carol:c-1')!][0]!;
    const storageFailure = (answer: Answer) => [[500, 507].includes(answer.status), answer.json.code];
    expect(storageFailure(await call(server, 'carol', 'POST', `/omr/jobs/${c1}/start`))).toEqual([true, 'STORAGE_FAILED']);
    expect(storageFailure(await call(server, 'carol', 'POST', '/omr/jobs', oneShot('c-3')))).toEqual([true, 'STORAGE_FAILED']);
    // The others are served meanwhile: bob starts a job and cancels it (refunded), anonymous callers get capabilities.
    const bob2 = accepted('bob', 'b-2', await call(server, 'bob', 'POST', '/omr/jobs', oneShot('b-2')), 202);
    expect((await call(server, 'bob', 'POST', `/omr/jobs/${bob2.id}/cancel`)).json.status).toBe('canceled');
    expect((await call(server, undefined, 'GET', '/omr/capabilities')).status).toBe(200);
    // Nothing was charged for the start that could not be stored.
    expect(await Promise.all(ACCOUNTS.map((a) => credits(server, a)))).toEqual([GRANT - 1, GRANT - 1, GRANT]);
    expect((await until(server, 'alice', alice1.id, (j) => TERMINAL.includes(j.status))).status).toBe('done');
    expect((await until(server, 'bob', bob1.id, (j) => TERMINAL.includes(j.status))).status).toBe('done');
    expect(server.alive()).toBe(true);
    notePeak(server);
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain('Stopped.');

    // ---- Run 3: restarted with carol's storage still failing; then it is repaired.
    server = await launch();
    expect(storageFailure(await call(server, 'carol', 'POST', '/omr/jobs', oneShot('c-3')))).toEqual([true, 'STORAGE_FAILED']);
    if (how === 'file-in-place') expect(storageFailure(await call(server, 'carol', 'GET', '/omr/jobs'))).toEqual([true, 'STORAGE_FAILED']);
    const exported = await call(server, 'alice', 'GET', `/omr/jobs/${alice1.id}/exports/musicxml`);
    expect([exported.status, String(exported.json).includes('<score-partwise')]).toEqual([200, true]);
    expect((await jobsOf(server, 'bob')).map((j) => [j.id, j.status])).toEqual([
      [bob2.id, 'canceled'],
      [bob1.id, 'done'],
    ]);
    expect(server.alive()).toBe(true);
    repairStorage!();
    const carolJobs = await jobsOf(server, 'carol');
    expect(carolJobs.map((j) => j.status)).toEqual(['draft', 'draft']);
    const carol3 = accepted('carol', 'c-3', await call(server, 'carol', 'POST', '/omr/jobs', oneShot('c-3')), 202);
    accepted('carol', 'c-3', await call(server, 'carol', 'POST', '/omr/jobs', oneShot('c-3')), 202);
    for (const draft of carolJobs) expect((await call(server, 'carol', 'POST', `/omr/jobs/${draft.id}/cancel`)).json.status).toBe('canceled');
    expect(await credits(server, 'carol')).toBe(GRANT - 1);
    // Carol's storage fails again while her page is read: the run ends without its end stored, and the job waits.
    await until(server, 'carol', carol3.id, reading);
    breakStorage(carolDir);
    const bound = Date.now() + WAIT_BOUND_MS;
    while (!server.output().includes(`Job ${carol3.id} could not record how its run ended`)) {
      if (Date.now() > bound) throw new Error(`carol's run never ended:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await call(server, 'carol', 'GET', `/omr/jobs/${carol3.id}`)).json.status).toBe('processing');
    expect((await call(server, 'alice', 'GET', `/omr/jobs/${alice1.id}`)).json.status).toBe('done');
    expect(server.alive()).toBe(true);
    // Repaired: carol's next request puts it back in the queue, and it is read again, charged once.
    repairStorage!();
    const interruptedAt = await until(server, 'carol', carol3.id, reading);
    expect(await credits(server, 'carol')).toBe(GRANT - 1);
    notePeak(server);
    expect(await server.stop('SIGINT')).toEqual({ code: 0, signal: null });

    // ---- Run 4: the job a graceful stop interrupted resumes and finishes; then every account is checked.
    server = await launch();
    accepted('carol', 'c-3', await call(server, 'carol', 'POST', '/omr/jobs', oneShot('c-3')), 202);
    expect((await until(server, 'carol', carol3.id, (j) => TERMINAL.includes(j.status))).status).toBe('done');
    const final: Record<Account, Job[]> = { alice: await jobsOf(server, 'alice'), bob: await jobsOf(server, 'bob'), carol: await jobsOf(server, 'carol') };
    expect(Object.fromEntries(ACCOUNTS.map((a) => [a, final[a].map((j) => j.status).sort()]))).toEqual({
      alice: ['done'],
      bob: ['canceled', 'done'],
      carol: ['canceled', 'canceled', 'done'],
    });
    // Every key answered with one job, and every job listed is one a key named: none lost, none doubled.
    for (const [key, ids] of keyed) expect([key, ids.size]).toEqual([key, 1]);
    const keyedIds = [...keyed.values()].flatMap((ids) => [...ids]).sort();
    expect(ACCOUNTS.flatMap((a) => final[a].map((j) => j.id)).sort()).toEqual(keyedIds);
    // Charged and kept: the pages of the jobs that were done; canceled ones were refunded, drafts never charged.
    const kept = (a: Account) => final[a].filter((j) => j.status === 'done').reduce((sum, j) => sum + (j.estimatedCredits ?? 0), 0);
    const balances = await Promise.all(ACCOUNTS.map((a) => credits(server, a)));
    expect(balances).toEqual(ACCOUNTS.map((a) => GRANT - kept(a)));
    expect(balances).toEqual([GRANT - 1, GRANT - 1, GRANT - 1]);
    notePeak(server);
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });

    const lost = keyedIds.length - ACCOUNTS.reduce((n, a) => n + final[a].length, 0);
    const duplicateCharges = ACCOUNTS.reduce((n, a, i) => n + (GRANT - balances[i]! - kept(a)), 0);
    console.log(
      [
        `chaos: carol's storage broken by ${how}; alice killed at ${killedAt.status}/${killedAt.progress?.key ?? '-'}, carol stopped at ${interruptedAt.status}/${interruptedAt.progress?.key ?? '-'}`,
        `chaos: refusal times (ms): ${Object.entries(hostile).map(([name, a]) => `${name} ${Math.round(a.ms)}`).join(', ')}`,
        `chaos: server peak RSS ${peakRss ? `${Math.round(peakRss / 2 ** 20)} MiB` : 'unknown (no /proc)'}; jobs lost ${lost}; duplicate charges ${duplicateCharges}`,
      ].join('\n'),
    );
  });
});
