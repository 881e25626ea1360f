/**
 * The server's HTTP behaviour seen with plain `fetch`: statuses, headers,
 * CORS, body limits, rate limits per IP, signed downloads, and a graceful
 * close that keeps running jobs for the next start.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRemoteClient } from '../../src/remote/remote-client.js';
import { createOmrServer, DEFAULT_LIMITS, type OmrServer, type OmrServerOptions } from '../../src/server/server.js';
import { loadTokens, validateTokens, type TokenEntry } from '../../src/server/tokens.js';
import { createFakePool, pngPage, type FakePoolOptions } from '../support/fake-pool.js';
import { heldDeadlines } from '../support/held-deadlines.js';

const TOKENS: TokenEntry[] = [
  { token: 'alice-token', account: 'alice', scopes: ['omr', 'scores', 'tasks.readonly'] },
  { token: 'bob-token-1', account: 'bob', scopes: ['omr', 'scores', 'tasks.readonly'] },
];
const ALICE = { authorization: 'Bearer alice-token' };

const servers: OmrServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options: Partial<OmrServerOptions> = {}, pool: FakePoolOptions = {}) {
  const fake = createFakePool(pool);
  const server = createOmrServer({ tokens: TOKENS, ...options, clientOptions: { pool: fake, sweepIntervalMs: 0, ...options.clientOptions } });
  servers.push(server);
  const url = await server.listen(0);
  return { server, url, pool: fake };
}

const post = (url: string, body: unknown, headers: Record<string, string> = ALICE) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('statuses and headers', () => {
  it('201 for a draft, 202 for a one-shot job, JSON bodies that are the local client’s objects', async () => {
    const { url } = await start();
    const draft = await post(`${url}/omr/jobs`, { output: 'musicxml' });
    expect(draft.status).toBe(201);
    expect(draft.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await draft.json()).toMatchObject({ status: 'draft', output: 'musicxml' });
    const oneShot = await post(`${url}/omr/jobs`, { output: 'musicxml', autoStart: true, files: [{ file: Buffer.from(pngPage('a.png').file).toString('base64'), filename: 'a.png' }] });
    expect(oneShot.status).toBe(202);
    expect(await oneShot.json()).toMatchObject({ status: 'processing', estimatedCredits: 1 });
  });

  it('401 without a token, 404 for unknown paths, 405 for a wrong method, 400 for malformed JSON — all { message, code } with rate-limit headers', async () => {
    const { url } = await start();
    const cases: [Promise<Response>, number, string][] = [
      [fetch(`${url}/omr/jobs`), 401, 'UNAUTHORIZED'],
      [fetch(`${url}/omr/jobs`, { headers: { authorization: 'Basic abc' } }), 401, 'UNAUTHORIZED'],
      [fetch(`${url}/omr/nothing`, { headers: ALICE }), 404, 'NOT_FOUND'],
      [fetch(url.replace('/v2', '/v1/omr/jobs'), { headers: ALICE }), 404, 'NOT_FOUND'],
      [fetch(`${url}/omr/capabilities`, { method: 'DELETE', headers: ALICE }), 405, 'METHOD_NOT_ALLOWED'],
      [post(`${url}/omr/jobs`, '{"output": '), 400, 'INVALID_ARGUMENT'],
      [fetch(`${url}/omr/jobs?expired=maybe`, { headers: ALICE }), 400, 'INVALID_ARGUMENT'],
    ];
    for (const [pending, status, code] of cases) {
      const response = await pending;
      expect(response.status).toBe(status);
      const body = await response.json();
      expect(Object.keys(body).sort()).toEqual(['code', 'message']);
      expect(body.code).toBe(code);
      expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    }
  });

  it('CORS: a preflight answers 204; answers allow any origin and expose the headers a browser client reads', async () => {
    const { url } = await start();
    const preflight = await fetch(`${url}/omr/jobs`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/DELETE/);
    const answer = await fetch(`${url}/omr/capabilities`, { headers: { origin: 'https://app.example' } });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = answer.headers.get('access-control-expose-headers')!;
    for (const name of ['X-RateLimit-Remaining', 'Link', 'Content-Disposition', 'x-service-score-revision']) expect(exposed).toContain(name);
  });

  it('exports download with Content-Type and an RFC 8187 Content-Disposition; Link pages are absolute URLs under publicUrl', async () => {
    const { url } = await start({ publicUrl: 'https://omr.example.org/v2/' });
    const client = createRemoteClient({ baseUrl: url, token: 'alice-token' });
    const job = await client.createJob({ output: 'musicxml', interactiveSteps: ['details'], files: [pngPage('a.png')], autoStart: true });
    while ((await client.getJob(job.id, { wait: 1 })).status !== 'awaitingInput');
    await client.submitJobStep(job.id, 'details', { step: 'details', title: 'Ständchen' });
    while ((await client.getJob(job.id, { wait: 1 })).status !== 'done');
    const response = await fetch(`${url}/omr/jobs/${job.id}/exports/mxl`, { headers: ALICE });
    expect(response.headers.get('content-type')).toBe('application/vnd.recordare.musicxml');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="Standchen.mxl"; filename*=UTF-8''St%C3%A4ndchen.mxl`);

    await client.createJob({ output: 'musicxml' });
    await client.createJob({ output: 'musicxml' });
    const list = await fetch(`${url}/omr/jobs?limit=1&status=draft`, { headers: ALICE });
    expect(list.headers.get('link')).toMatch(/^<https:\/\/omr\.example\.org\/v2\/omr\/jobs\?status=draft&limit=1&cursor=c\d+>; rel="next"$/);
  });
});

describe('request bodies', () => {
  it('refuses a body over the limit with 413 FILE_TOO_LARGE as it streams in, never reading an endless one', async () => {
    const { url } = await start({ limits: { maxBodyBytes: 4096 } });
    const declared = await post(`${url}/omr/jobs`, { files: [{ file: 'A'.repeat(10_000), filename: 'a.png' }] });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ code: 'FILE_TOO_LARGE' });

    // No Content-Length and no end: only a server that stops reading can answer.
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 16_384;
        controller.enqueue(new Uint8Array(16_384).fill(0x41));
      },
    });
    const streamed = await rawPost(`${url}/omr/jobs/job_x/files`, endless);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });

  it('the default limit fits one maxFileSize file in Base64 plus its JSON', () => {
    expect(DEFAULT_LIMITS.maxBodyBytes).toBeGreaterThan(Math.ceil((25 * 1024 * 1024) / 3) * 4);
    expect(DEFAULT_LIMITS.maxBodyBytes).toBeLessThan(34 * 1024 * 1024);
  });
});

/** A chunked POST through node:http, resolving with the answer even while the body is still being sent. */
function rawPost(url: string, body: ReadableStream<Uint8Array>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { ...ALICE, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', () => {}); // the server closes the connection once it has answered
    const reader = body.getReader();
    const pump = async (): Promise<void> => {
      for (;;) {
        const { value } = await reader.read();
        if (req.destroyed || !req.write(value)) {
          if (req.destroyed) return reader.cancel();
          await new Promise<void>((r) => {
            const go = () => {
              req.off('drain', go).off('close', go);
              r();
            };
            req.once('drain', go).once('close', go);
          });
        }
      }
    };
    pump().catch(reject);
  });
}

describe('rate limits per IP address', () => {
  it('requests without a token share the address’s limit; a token’s account has its own', async () => {
    const { url } = await start({ limits: { unauthenticated: 2 } });
    for (const remaining of [1, 0]) {
      const ok = await fetch(`${url}/omr/capabilities`);
      expect([ok.status, ok.headers.get('x-ratelimit-remaining')]).toEqual([200, String(remaining)]);
    }
    const refused = await fetch(`${url}/omr/jobs`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'API_RATE_LIMIT_EXCEEDED' });
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('-1');
    const authenticated = await fetch(`${url}/omr/capabilities`, { headers: ALICE });
    expect([authenticated.status, authenticated.headers.get('x-ratelimit-limit')]).toEqual([200, '7200']);
  });
});

describe('export task downloads', () => {
  it('result.url is a signed http URL on the server that needs no token; a changed signature or account is 404', async () => {
    const { url } = await start();
    const client = createRemoteClient({ baseUrl: url, token: 'alice-token' });
    const xml = await import('node:fs').then((fs) => fs.readFileSync('test/fixtures/recognition/melody.musicxml'));
    const imported = await client.importScore({ title: 'Lied', filename: 'm.musicxml', data: new Uint8Array(xml) });
    if (imported.status !== 200) throw new Error('expected 200');
    const task = await client.exportScore(imported.score.id, imported.revision, 'mxl');
    const link = new URL(task.result!.url!);
    expect(link.href.startsWith(`${url}/exports/${task.id}?`)).toBe(true);
    const download = await fetch(link);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/vnd.recordare.musicxml');
    expect(download.headers.get('content-disposition')).toContain(`filename*=UTF-8''Lied.mxl`);
    const forged = new URL(link);
    forged.searchParams.set('account', 'bob');
    expect((await fetch(forged)).status).toBe(404);
    const tampered = new URL(link);
    tampered.searchParams.set('sig', 'x'.repeat(43));
    expect(await (await fetch(tampered)).json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('lifecycle', () => {
  it('close() answers a waiting long-poll at once, finishes requests in flight, then refuses connections', async () => {
    // The poll's deadline never runs out here: only close() can answer it (else the test times out).
    const deadlines = heldDeadlines();
    const { server, url } = await start({ clientOptions: { longPollTimer: deadlines.longPollTimer } });
    const client = createRemoteClient({ baseUrl: url, token: 'alice-token' });
    const draft = await client.createJob({ output: 'musicxml' });
    const held = deadlines.next();
    const poll = client.getJob(draft.id, { wait: 20 });
    const deadline = await held;
    expect(deadline.ms).toBe(20_000);
    await server.close();
    expect((await poll).status).toBe('draft');
    await deadline.stopped;
    expect(server.stats.requests).toBeGreaterThanOrEqual(2);
    await expect(client.getJob(draft.id)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('with a store directory, each account has its own; a job running at close resumes on the next start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scoresight-server-'));
    try {
      const first = await start({ storeDirectory: dir }, { hold: ['slow.png#0'] });
      const alice = createRemoteClient({ baseUrl: first.url, token: 'alice-token' });
      const job = await alice.createJob({ output: 'musicxml', files: [pngPage('slow.png')], autoStart: true });
      await first.pool.reached('slow.png#0');
      await first.server.close();
      await first.pool.close();
      expect(existsSync(join(dir, 'alice', 'jobs'))).toBe(true);
      expect(existsSync(join(dir, 'bob', 'jobs'))).toBe(true);

      const second = await start({ storeDirectory: dir });
      const again = createRemoteClient({ baseUrl: second.url, token: 'alice-token' });
      let current = await again.getJob(job.id);
      while (current.status === 'processing') current = await again.getJob(job.id, { wait: 1 });
      expect(current.status).toBe('done');
      const bob = createRemoteClient({ baseUrl: second.url, token: 'bob-token-1' });
      expect((await bob.listJobs()).jobs).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('listen twice or after close is refused', async () => {
    const { server } = await start();
    await expect(server.listen(0)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await server.close();
    await expect(server.listen(0)).rejects.toThrow(/closed/);
  });
});

describe('tokens', () => {
  it('validates entries, naming the bad one', () => {
    expect(validateTokens([{ token: 'abcdefgh', account: 'a', scopes: ['omr'] }])).toEqual([{ token: 'abcdefgh', account: 'a', scopes: ['omr'], kind: 'personal' }]);
    expect(() => validateTokens([])).toThrow(/non-empty array/);
    expect(() => validateTokens([{ token: 'short', account: 'a', scopes: [] }])).toThrow(/entry 0: token/);
    expect(() => validateTokens([{ token: 'abcdefgh', account: '../x', scopes: [] }])).toThrow(/entry 0: account/);
    expect(() => validateTokens([{ token: 'abcdefgh', account: 'a', scopes: ['admin'] }])).toThrow(/unknown scope/);
    expect(() => validateTokens([{ token: 'abcdefgh', account: 'a', scopes: [], kind: 'robot' }])).toThrow(/kind/);
    expect(() => validateTokens([{ token: 'abcdefgh', account: 'a', scopes: [], rateLimit: 0 }])).toThrow(/rateLimit/);
    const twice = { token: 'abcdefgh', account: 'a', scopes: [] };
    expect(() => validateTokens([twice, twice])).toThrow(/entry 1: the same token/);
  });

  it('loads a file, with a clear message when it is missing or not JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scoresight-tokens-'));
    try {
      const file = join(dir, 'tokens.json');
      await expect(loadTokens(file)).rejects.toThrow(/does not exist/);
      writeFileSync(file, '[{');
      await expect(loadTokens(file)).rejects.toThrow(/not valid JSON/);
      writeFileSync(file, JSON.stringify([{ token: 'abcdefgh', account: 'a', scopes: ['omr'], kind: 'oauth', rateLimit: 60 }]));
      expect(await loadTokens(file)).toEqual([{ token: 'abcdefgh', account: 'a', scopes: ['omr'], kind: 'oauth', rateLimit: 60 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
