/**
 * The remote client's own behaviour against a scripted `fetch`: what it
 * sends, and how it reads what a service (or a proxy in front of one) may
 * answer — error bodies with and without codes, timeouts, aborts, rate
 * limits, links and download headers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { createRemoteClient, type RemoteClientOptions } from '../../src/remote/remote-client.js';
import { dispositionFilename, nextLink } from '../../src/remote/wire.js';
import { rejection } from '../support/rejection.js';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

type Script = (request: Sent, signal: AbortSignal) => Response | Promise<Response>;

function scripted(script: Script, options: Partial<RemoteClientOptions> = {}) {
  const sent: Sent[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const request: Sent = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>)),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    sent.push(request);
    return script(request, init!.signal!);
  }) as typeof globalThis.fetch;
  const client = createRemoteClient({ baseUrl: 'https://omr.example.com/v2/', token: 'tok', fetch, ...options });
  return { client, sent };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A promise whose settling can be looked at without awaiting it. */
function watch<T>(promise: Promise<T>): { promise: Promise<T>; readonly settled: boolean } {
  let settled = false;
  const watched = promise.finally(() => (settled = true));
  watched.catch(() => {}); // looked at later, by whoever awaits `promise`
  return {
    promise: watched,
    get settled() {
      return settled;
    },
  };
}

/** The timers and clock of the next lines are the test's, moved by `vi.advanceTimersByTimeAsync` (requests never touch the network here). */
function useFakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  // A quarter past a second, so that a reset in whole seconds is never now.
  vi.setSystemTime(new Date('2030-01-01T00:00:00.250Z'));
}

afterEach(() => {
  vi.useRealTimers();
});

/** A response that never comes, until the request is aborted. */
const hang = (_: Sent, signal: AbortSignal) =>
  new Promise<Response>((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason));
  });

describe('requests', () => {
  it('sends the bearer token (not to capabilities without one), JSON bodies, Base64 files and encoded path segments', async () => {
    const { client, sent } = scripted(() => json({ id: 'job_1', status: 'draft' }));
    await client.createJob({ output: 'musicxml', files: [{ file: new Uint8Array([1, 2, 3]), filename: 'a.png' }] });
    expect(sent[0]).toMatchObject({ url: 'https://omr.example.com/v2/omr/jobs', method: 'POST', headers: { authorization: 'Bearer tok', 'content-type': 'application/json' } });
    expect(sent[0]!.body).toEqual({ output: 'musicxml', files: [{ file: 'AQID', filename: 'a.png' }] });
    await client.exportJob('job/1', 'thumbnail.png');
    expect(sent[1]!.url).toBe('https://omr.example.com/v2/omr/jobs/job%2F1/exports/thumbnail.png');
    await client.listJobs({ status: 'done', expired: false, limit: 5 });
    expect(sent[2]!.url).toBe('https://omr.example.com/v2/omr/jobs?status=done&expired=false&limit=5');
    await client.getJob('job_1', { wait: 7 });
    expect(sent[3]!.url).toBe('https://omr.example.com/v2/omr/jobs/job_1?wait=7');
    const anonymous = scripted(() => json({}), { token: undefined });
    await anonymous.client.getCapabilities();
    expect(anonymous.sent[0]!.headers.authorization).toBeUndefined();
  });

  it('refuses a bad base URL and timeout up front', () => {
    expect(() => createRemoteClient({ baseUrl: 'omr.example.com' })).toThrow(OmrError);
    expect(() => createRemoteClient({ baseUrl: 'ftp://omr.example.com/v2' })).toThrow(/http/);
    expect(() => createRemoteClient({ baseUrl: 'https://omr.example.com/v2', timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  it('checks byte inputs locally before uploading, with the local client’s codes', async () => {
    const { client, sent } = scripted(() => json({}));
    expect(await rejection(client.addJobFile('job_1', { file: new Uint8Array(0), filename: 'a.png' }))).toMatchObject({ code: 'CORRUPTED_FILE' });
    expect(await rejection(client.addJobFile('job_1', { file: 42 as never, filename: 'a.png' }))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(sent).toHaveLength(0);
  });
});

describe('errors', () => {
  it('maps the body code with the response status, adding a provider message', async () => {
    const { client } = scripted(() => json({ code: 'OMR_JOB_NOT_DONE', message: 'Not yet.', providerMessage: 'Noch nicht.' }, 409));
    expect(await rejection(client.exportJob('job_1', 'midi'))).toMatchObject({ code: 'OMR_JOB_NOT_DONE', status: 409, message: 'Not yet. (Noch nicht.)' });
  });

  it('gives a code by status when the body has none (a proxy page)', async () => {
    const cases: [number, string][] = [
      [400, 'INVALID_ARGUMENT'],
      [401, 'UNAUTHORIZED'],
      [403, 'FORBIDDEN'],
      [404, 'NOT_FOUND'],
      [413, 'FILE_TOO_LARGE'],
      [429, 'API_RATE_LIMIT_EXCEEDED'],
      [500, 'INTERNAL_ERROR'],
      [502, 'SERVICE_UNAVAILABLE'],
      [504, 'TIMEOUT'],
    ];
    for (const [status, code] of cases) {
      const { client } = scripted(() => new Response('<html><body>Bad Gateway</body></html>', { status, headers: { 'content-type': 'text/html' } }));
      const error = await rejection(client.getJob('job_1'));
      expect([error.code, error.status]).toEqual([code, status]);
      expect(error.message).toContain('Bad Gateway');
    }
  });

  it('a 200 that is not JSON, and a network failure', async () => {
    expect(await rejection(scripted(() => new Response('oops')).client.getJob('j'))).toMatchObject({ code: 'INTERNAL_ERROR', status: 502 });
    const down = scripted(() => Promise.reject(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') })));
    const error = await rejection(down.client.getJob('j'));
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('timeouts and aborts', () => {
  it('a request with no answer fails with TIMEOUT (504); a long-poll gets its wait on top', async () => {
    useFakeClock();
    const { client } = scripted(hang, { timeoutMs: 50 });
    const start = watch(rejection(client.startJob('job_1')));
    await vi.advanceTimersByTimeAsync(49);
    expect(start.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await start.promise).toMatchObject({ code: 'TIMEOUT', status: 504 });
    const poll = scripted(hang, { timeoutMs: 50 });
    const get = watch(rejection(poll.client.getJob('job_1', { wait: 1 })));
    await vi.advanceTimersByTimeAsync(1049);
    expect(get.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await get.promise).toMatchObject({ code: 'TIMEOUT' });
  });

  it('the signal aborts any call with ABORTED, before or during the request', async () => {
    const late = new AbortController();
    // Aborted once the request is out, with no answer coming.
    const { client, sent } = scripted((request, signal) => {
      late.abort();
      return hang(request, signal);
    });
    const early = new AbortController();
    early.abort();
    expect(await rejection(client.createJob({}, { signal: early.signal }))).toMatchObject({ code: 'ABORTED' });
    expect(sent).toHaveLength(0);
    expect(await rejection(client.cancelJob('job_1', { signal: late.signal }))).toMatchObject({ code: 'ABORTED' });
    expect(sent).toHaveLength(1);
  });

  it("getJob's signal ends the long-poll early with the job as it is, as on the local engine", async () => {
    const controller = new AbortController();
    // Aborted once the long-poll is out, with no answer coming.
    const { client, sent } = scripted((request, signal) => {
      if (!request.url.includes('wait=')) return json({ id: 'job_1', status: 'processing' });
      controller.abort();
      return hang(request, signal);
    });
    expect(await client.getJob('job_1', { wait: 25, signal: controller.signal })).toEqual({ id: 'job_1', status: 'processing' });
    expect(sent.map((s) => s.url.replace('https://omr.example.com/v2', ''))).toEqual(['/omr/jobs/job_1?wait=25', '/omr/jobs/job_1']);
  });

  it('close() rejects calls in flight and later ones', async () => {
    const { client } = scripted(hang);
    const pending = client.getJob('job_1');
    await client.close();
    expect(await rejection(pending)).toMatchObject({ status: 503 });
    expect(await rejection(client.getTask('t'))).toMatchObject({ message: expect.stringContaining('closed') });
  });
});

describe('rate limits', () => {
  const limited = (reset: number) =>
    json({ message: 'Slow down.', code: 'API_RATE_LIMIT_EXCEEDED' }, 403, { 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '-1', 'X-RateLimit-Reset': String(reset) });

  it('records the last headers seen; by default fails at once', async () => {
    const { client, sent } = scripted(() => limited(Math.ceil(Date.now() / 1000) + 1));
    expect(client.rateLimit).toBeUndefined();
    expect(await rejection(client.listJobs())).toMatchObject({ code: 'API_RATE_LIMIT_EXCEEDED', status: 403 });
    expect(client.rateLimit).toMatchObject({ limit: 10, remaining: -1 });
    expect(sent).toHaveLength(1);
  });

  it('with a budget, waits until X-RateLimit-Reset and sends again; a reset beyond the budget fails at once', async () => {
    useFakeClock();
    let calls = 0;
    const reset = Math.ceil(Date.now() / 1000) + 1; // 1.75 s from now
    const { client, sent } = scripted(
      () => (++calls === 1 ? limited(reset) : json([], 200, { 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '9', 'X-RateLimit-Reset': String(reset + 3600) })),
      { rateLimitRetryBudgetMs: 3000 },
    );
    const listed = watch(client.listJobs());
    await vi.advanceTimersByTimeAsync(1749);
    expect([sent.length, listed.settled]).toEqual([1, false]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await listed.promise).toEqual({ jobs: [] });
    expect(sent).toHaveLength(2);
    expect(Date.now()).toBe(reset * 1000);
    expect(client.rateLimit?.remaining).toBe(9);
    // The clock is not moved: were the client waiting for the reset, this would never settle.
    const far = scripted(() => limited(Math.ceil(Date.now() / 1000) + 3600), { rateLimitRetryBudgetMs: 3000 });
    const before = Date.now();
    expect(await rejection(far.client.listJobs())).toMatchObject({ code: 'API_RATE_LIMIT_EXCEEDED' });
    expect([far.sent.length, Date.now(), vi.getTimerCount()]).toEqual([1, before, 0]);
  });

  it('the signal ends a wait for the window', async () => {
    useFakeClock();
    const { client, sent } = scripted(() => limited(Math.ceil(Date.now() / 1000) + 2), { rateLimitRetryBudgetMs: 5000 });
    const controller = new AbortController();
    const listed = watch(rejection(client.listJobs({}, { signal: controller.signal })));
    await vi.advanceTimersByTimeAsync(1000); // well into the 2.75 s wait
    expect([sent.length, listed.settled]).toEqual([1, false]);
    controller.abort();
    expect(await listed.promise).toMatchObject({ code: 'ABORTED' });
    expect([sent.length, vi.getTimerCount()]).toEqual([1, 0]);
  });
});

describe('pages and downloads', () => {
  it('reads nextCursor from the Link header; listAllJobs follows it, never to another origin', async () => {
    const { client } = scripted((request) => {
      if (new URL(request.url).searchParams.get('cursor') === 'c2') return json([{ id: 'job_2' }]);
      return json({ jobs: [{ id: 'job_3' }] }, 200, { Link: '</v2/omr/jobs?status=done&cursor=c2>; rel="next"' });
    });
    expect(await client.listJobs({ status: 'done' })).toEqual({ jobs: [{ id: 'job_3' }], nextCursor: 'c2' });
    const all = [];
    for await (const page of client.listAllJobs({ status: 'done' })) all.push(...page.jobs.map((j) => j.id));
    expect(all).toEqual(['job_3', 'job_2']);

    const hostile = scripted(() => json([], 200, { Link: '<https://elsewhere.example/v2/omr/jobs?cursor=x>; rel="next"' }));
    const iterator = hostile.client.listAllJobs();
    await iterator.next();
    expect(await rejection(iterator.next())).toMatchObject({ status: 502, message: expect.stringContaining('not sending the token') });
    expect(hostile.sent).toHaveLength(1);
  });

  it('downloads keep the bytes, the content type and the Content-Disposition filename', async () => {
    const { client } = scripted(
      () =>
        new Response(new Uint8Array([0x4d, 0x54, 0x68, 0x64]), {
          headers: { 'content-type': 'audio/midi', 'content-disposition': `attachment; filename="Fur Elise.mid"; filename*=UTF-8''F%C3%BCr%20Elise.mid` },
        }),
    );
    expect(await client.exportJob('job_1', 'midi')).toEqual({ data: new Uint8Array([0x4d, 0x54, 0x68, 0x64]), contentType: 'audio/midi', filename: 'Für Elise.mid' });
    const bare = scripted(() => new Response(new Uint8Array([1]), { headers: { 'content-type': 'image/png' } }));
    expect((await bare.client.exportJob('job_1', 'thumbnail.png')).filename).toBe('score.png');
    expect((await bare.client.getJobFile('job_1', 2)).filename).toBe('page-3');
  });

  it('import answers: 200 with the revision headers, 202 with a task', async () => {
    const score = { id: 'score_1', title: 'T', creationDate: '2026-01-01T00:00:00.000Z', revision: 'rev_1', revisions: [] };
    const ready = scripted(() => json(score, 200, { 'x-service-score-revision': 'rev_9', 'x-service-score-revision-date': '2026-02-02T00:00:00.000Z' }));
    expect(await ready.client.importScore({ filename: 'a.musicxml', data: new Uint8Array([60]) })).toEqual({ status: 200, score, revision: 'rev_9', revisionDate: '2026-02-02T00:00:00.000Z' });
    expect(ready.sent[0]!.body).toEqual({ filename: 'a.musicxml', data: 'PA==', dataEncoding: 'base64' });
    const task = { id: 'task_1', type: 'import-omr', state: 'created', progress: { percent: 0 }, creationDate: '2026-01-01T00:00:00.000Z' };
    expect(await scripted(() => json(task, 202)).client.importScore({ filename: 'a.pdf', data: 'JVBERg==', supportsTasks: true })).toEqual({ status: 202, task });
  });
});

describe('header parsing', () => {
  it('Content-Disposition: filename* first, quoted and bare names, no directories', () => {
    expect(dispositionFilename(`attachment; filename*=UTF-8''%E2%99%AB%20Song.mxl; filename="x.mxl"`)).toBe('♫ Song.mxl');
    expect(dispositionFilename(`attachment; filename*=iso-8859-1'en'F%FCr.mid`)).toBe('Für.mid');
    expect(dispositionFilename('attachment; filename="a \\"b\\".musicxml"')).toBe('a "b".musicxml');
    expect(dispositionFilename('attachment; filename=plain.png')).toBe('plain.png');
    expect(dispositionFilename('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(dispositionFilename('inline')).toBeUndefined();
    expect(dispositionFilename(null)).toBeUndefined();
  });

  it('Link: the rel="next" target among several', () => {
    expect(nextLink('<https://a/x?cursor=1>; rel="prev", <https://a/x?cursor=3>; rel="next"')).toBe('https://a/x?cursor=3');
    expect(nextLink('<https://a/x?cursor=3>; rel=next')).toBe('https://a/x?cursor=3');
    expect(nextLink('<https://a/x>; rel="last"')).toBeUndefined();
    expect(nextLink(null)).toBeUndefined();
  });
});
