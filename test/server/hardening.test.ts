/**
 * The server against hostile or careless callers: field limits, a bound on
 * upload bytes held at once, downloads racing an erase, download names,
 * strict parsing, slow and crowding connections, and links that a forged
 * Host header cannot redirect. Every check counts or compares; none times.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRemoteClient } from '../../src/remote/remote-client.js';
import { contentDisposition, MAX_DOWNLOAD_NAME_BYTES } from '../../src/server/content-disposition.js';
import { MAX_FILES, MAX_INSTRUMENTS, MAX_JSON_BODY_BYTES, MAX_LOCALES, MAX_OBJECT_KEYS } from '../../src/server/request-limits.js';
import {
  createOmrServer,
  DEFAULT_LIMITS,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_CONNECTIONS,
  REQUEST_TIMEOUT_MS,
  type OmrServer,
  type OmrServerOptions,
} from '../../src/server/server.js';
import { UPLOAD_RETRY_AFTER_SECONDS } from '../../src/server/upload-budget.js';
import type { TokenEntry } from '../../src/server/tokens.js';
import { MAX_PDF_PAGES } from '../../src/input/limits.js';
import { createFakePool, pngPage, type FakePoolOptions } from '../support/fake-pool.js';
import { buildPdf } from '../support/pdf-build.js';

const TOKENS: TokenEntry[] = [{ token: 'alice-token', account: 'alice', scopes: ['omr', 'scores', 'tasks.readonly'] }];
const ALICE = { authorization: 'Bearer alice-token' };
const PNG_BASE64 = Buffer.from(pngPage('a.png').file).toString('base64');

const servers: OmrServer[] = [];
const sockets: Socket[] = [];
const directories: string[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const dir of directories.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temporaryDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scoresight-hardening-'));
  directories.push(dir);
  return dir;
}

async function start(options: Partial<OmrServerOptions> = {}, pool: FakePoolOptions = {}) {
  const fake = createFakePool(pool);
  const server = createOmrServer({ tokens: TOKENS, ...options, clientOptions: { pool: fake, sweepIntervalMs: 0, ...options.clientOptions } });
  servers.push(server);
  const url = await server.listen(0);
  return { server, url, port: Number(new URL(url).port) };
}

const post = (url: string, body: unknown, headers: Record<string, string> = ALICE) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

async function refusal(response: Promise<Response>): Promise<{ status: number; code: string; message: string }> {
  const answer = await response;
  const body = (await answer.json()) as { code: string; message: string };
  return { status: answer.status, ...body };
}

/** A job with output musicxml, recognised and done. */
async function doneJob(url: string): Promise<string> {
  const client = createRemoteClient({ baseUrl: url, token: 'alice-token' });
  const job = await client.createJob({ output: 'musicxml', files: [pngPage('a.png')], autoStart: true });
  while ((await client.getJob(job.id, { wait: 1 })).status !== 'done');
  return job.id;
}

/** A raw connection, for requests `fetch` cannot make: partial, stalled, or with a forged Host. */
function open(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => {});
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

/** Yields to the event loop until `ready` holds (counts the server keeps, never a clock). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setImmediate(r));
}

describe('field limits', () => {
  it('refuses locales beyond the limit with 400 naming the field and its limit; the limit itself passes', async () => {
    const { url } = await start();
    const over = await refusal(post(`${url}/omr/jobs`, { output: 'musicxml', locales: Array(MAX_LOCALES + 1).fill('en') }));
    expect(over).toMatchObject({ status: 400, code: 'INVALID_ARGUMENT' });
    expect(over.message).toContain('locales');
    expect(over.message).toContain(String(MAX_LOCALES));
    const at = await post(`${url}/omr/jobs`, { output: 'musicxml', locales: Array(MAX_LOCALES).fill('en') });
    expect(at.status).toBe(201);
  });

  it('every field of every body has a limit: one past it is 400 naming the field', async () => {
    const { url } = await start();
    const job = (await (await post(`${url}/omr/jobs`, { output: 'musicxml' })).json()) as { id: string };
    const long = (n: number) => 'x'.repeat(n);
    const cases: [string, unknown, string][] = [
      ['/omr/jobs', { output: long(17) }, 'output'],
      ['/omr/jobs', { interactiveSteps: Array(9).fill('details') }, 'interactiveSteps'],
      ['/omr/jobs', { interactiveSteps: [long(33)] }, 'interactiveSteps[0]'],
      ['/omr/jobs', { locales: [long(36)] }, 'locales[0]'],
      ['/omr/jobs', { collection: long(256) }, 'collection'],
      ['/omr/jobs', { idempotencyKey: long(256) }, 'idempotencyKey'],
      ['/omr/jobs', { autoStart: 'yes' }, 'autoStart'],
      ['/omr/jobs', { files: Array(MAX_FILES + 1).fill({ file: 'AAAA', filename: 'a.png' }) }, 'files'],
      ['/omr/jobs', { files: [{ file: PNG_BASE64, filename: `${'é'.repeat(126)}.png` }] }, 'files[0].filename'],
      ['/omr/jobs', { files: [{ file: PNG_BASE64, filename: 'a', mimeType: long(256) }] }, 'files[0].mimeType'],
      ['/omr/jobs', { files: [{ file: 12, filename: 'a.png' }] }, 'files[0].file'],
      [`/omr/jobs/${job.id}/files`, { file: PNG_BASE64, filename: long(256) }, 'filename'],
      [`/omr/jobs/${job.id}/files`, { file: PNG_BASE64, mimeType: long(256) }, 'mimeType'],
      [`/omr/jobs/${job.id}/steps/details`, { step: long(33) }, 'step'],
      [`/omr/jobs/${job.id}/steps/details`, { step: 'details', title: long(513) }, 'title'],
      [`/omr/jobs/${job.id}/steps/details`, { step: 'details', mainLanguage: long(36) }, 'mainLanguage'],
      [`/omr/jobs/${job.id}/steps/details`, { step: 'details', instruments: Array(MAX_INSTRUMENTS + 1).fill({ index: 0 }) }, 'instruments'],
      [`/omr/jobs/${job.id}/steps/details`, { step: 'details', instruments: [{ index: 0, partName: long(257) }] }, 'instruments[0].partName'],
      [`/omr/jobs/${job.id}/steps/details`, { step: 'details', instruments: [{ index: 0, instrumentId: long(129) }] }, 'instruments[0].instrumentId'],
      [`/omr/jobs/${job.id}/steps/details`, { step: 'details', instruments: [{ index: 0, transposeKey: long(9) }] }, 'instruments[0].transposeKey'],
      [`/omr/jobs/${job.id}/steps/details`, { step: 'details', instruments: [{ index: 0.5 }] }, 'instruments[0].index'],
      ['/scores', { title: long(513), data: 'AAAA', supportsTasks: true }, 'title'],
      ['/scores', { filename: long(256), data: 'AAAA' }, 'filename'],
      ['/scores', { data: 'AAAA', dataEncoding: long(17) }, 'dataEncoding'],
      ['/scores', { data: 'AAAA', supportsTasks: 'true' }, 'supportsTasks'],
    ];
    for (const [path, body, field] of cases) {
      const answer = await refusal(post(`${url}${path}`, body));
      expect([path, field, answer.status, answer.code]).toEqual([path, field, 400, 'INVALID_ARGUMENT']);
      expect(answer.message.startsWith(`${field} `)).toBe(true);
    }
  });

  it('a body must be a JSON object with a bounded number of fields: [] and null are 400', async () => {
    const { url } = await start();
    for (const body of ['[]', 'null', '"draft"', '7']) {
      expect(await refusal(post(`${url}/omr/jobs`, body))).toMatchObject({ status: 400, code: 'INVALID_ARGUMENT', message: expect.stringMatching(/must be a JSON object/) });
    }
    const wide = Object.fromEntries(Array.from({ length: MAX_OBJECT_KEYS + 1 }, (_, i) => [`k${i}`, 1]));
    expect(await refusal(post(`${url}/omr/jobs`, wide))).toMatchObject({ status: 400, message: expect.stringContaining(String(MAX_OBJECT_KEYS)) });
    expect((await post(`${url}/omr/jobs`, '')).status).toBe(201);
  });

  it('an endpoint without a file takes a JSON body of at most 64 KiB', async () => {
    const { url } = await start();
    const job = (await (await post(`${url}/omr/jobs`, { output: 'musicxml' })).json()) as { id: string };
    const big = await refusal(post(`${url}/omr/jobs/${job.id}/steps/details`, { step: 'details', note: 'x'.repeat(MAX_JSON_BODY_BYTES) }));
    expect(big).toMatchObject({ status: 413, code: 'FILE_TOO_LARGE' });
    // Within the size, the body reaches the engine, which answers for the job's state.
    expect(await refusal(post(`${url}/omr/jobs/${job.id}/steps/details`, { step: 'details' }))).toMatchObject({ status: 409, code: 'OMR_NOT_AWAITING_STEP' });
  });
});

describe('upload bytes held at once', () => {
  /** Sends the headers and `sent` bytes of a body declared `length` long, then stalls. */
  async function stalledUpload(port: number, length: number, sent = 10) {
    const conn = await open(port);
    conn.socket.write(`POST /v2/omr/jobs/job_x/files HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer alice-token\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`);
    conn.socket.write('x'.repeat(sent));
    return conn;
  }

  it('simultaneous uploads are admitted while their bytes fit; the rest get 503 with Retry-After, and room comes back as they end', async () => {
    const { url, port, server } = await start({ limits: { maxBodyBytes: 10_000, maxBufferedBytes: 10_000 } });
    const admitted = [];
    for (let i = 0; i < 3; i++) {
      admitted.push(await stalledUpload(port, 3_000));
      await until(() => server.stats.bufferedBytes === 3_000 * (i + 1));
    }
    const body = JSON.stringify({ file: PNG_BASE64, filename: 'a.png', pad: 'x'.repeat(3_000 - PNG_BASE64.length) });
    const refused = await Promise.all([1, 2, 3, 4].map(() => post(`${url}/omr/jobs/job_x/files`, body)));
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe(String(UPLOAD_RETRY_AFTER_SECONDS));
      expect(await answer.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    }
    expect(server.stats.peakBufferedBytes).toBe(9_000);

    // Without a Content-Length the bytes are counted as they arrive: refused once they pass the room left.
    const chunked = await fetch(`${url}/omr/jobs/job_x/files`, {
      method: 'POST',
      headers: { ...ALICE, 'content-type': 'application/json' },
      body: new ReadableStream({
        pull(controller) {
          controller.enqueue(new Uint8Array(512).fill(0x20));
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(503);
    expect(server.stats.peakBufferedBytes).toBeLessThanOrEqual(10_000);

    for (const conn of admitted) conn.socket.destroy();
    await until(() => server.stats.bufferedBytes === 0);
    const again = await post(`${url}/omr/jobs/job_x/files`, body);
    expect(again.status).toBe(404); // admitted and read: the job does not exist
    expect(server.stats.bufferedBytes).toBe(0);
  });

  it('the buffer bound must leave room for the largest body', () => {
    expect(() => createOmrServer({ tokens: TOKENS, limits: { maxBodyBytes: 10_000, maxBufferedBytes: 9_999 } })).toThrow(/maxBufferedBytes/);
    expect(DEFAULT_LIMITS.maxBufferedBytes).toBe(4 * DEFAULT_LIMITS.maxBodyBytes);
  });
});

describe('downloads racing an erase', () => {
  const DOWNLOADS = ['exports/musicxml', 'exports/mxl', 'exports/midi', 'exports/thumbnail.png', 'files/0'];

  function expectFileOrExpired(answers: { status: number; code?: string }[]): void {
    for (const answer of answers) {
      if (answer.status === 200) continue;
      expect(answer).toEqual({ status: 409, code: 'OMR_JOB_EXPIRED' });
    }
  }

  async function download(url: string, jobId: string, path: string): Promise<{ status: number; code?: string }> {
    const answer = await fetch(`${url}/omr/jobs/${jobId}/${path}`, { headers: ALICE });
    if (answer.status === 200) {
      await answer.arrayBuffer();
      return { status: 200 };
    }
    return { status: answer.status, code: ((await answer.json()) as { code: string }).code };
  }

  it('every download around a DELETE is the file or 409 OMR_JOB_EXPIRED', async () => {
    // On disk, as a served account's jobs are kept: erasing takes a file operation per key, long enough to meet downloads.
    const { url } = await start({ storeDirectory: temporaryDirectory() });
    for (let round = 0; round < 3; round++) {
      const jobId = await doneJob(url);
      const before = Array.from({ length: 20 }, (_, i) => download(url, jobId, DOWNLOADS[i % DOWNLOADS.length]!));
      const erase = fetch(`${url}/omr/jobs/${jobId}`, { method: 'DELETE', headers: ALICE });
      const after = Array.from({ length: 20 }, (_, i) => download(url, jobId, DOWNLOADS[i % DOWNLOADS.length]!));
      expect((await erase).status).toBe(200);
      expectFileOrExpired(await Promise.all([...before, ...after]));
      expect(await download(url, jobId, 'exports/mxl')).toEqual({ status: 409, code: 'OMR_JOB_EXPIRED' });
    }
  });

  it('and around the retention sweep', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const { url, server } = await start({ storeDirectory: temporaryDirectory(), clientOptions: { now: () => new Date(now), retentionDays: 1 } });
    const jobId = await doneJob(url);
    now += 2 * 86_400_000;
    const downloads = Array.from({ length: 30 }, (_, i) => download(url, jobId, DOWNLOADS[i % DOWNLOADS.length]!));
    const swept = server.sweepRetention();
    const later = Array.from({ length: 10 }, (_, i) => download(url, jobId, DOWNLOADS[i % DOWNLOADS.length]!));
    expect(await swept).toBe(1);
    expectFileOrExpired(await Promise.all([...downloads, ...later]));
  });
});

describe('documents over the page limit', () => {
  it('a PDF with more pages than are read is refused with 413 FILE_TOO_LARGE before a job is made or a credit charged', async () => {
    const { url } = await start({ clientOptions: { credits: 10 } });
    const huge = Buffer.from(buildPdf(Array.from({ length: MAX_PDF_PAGES + 1 }, () => ({ width: 100, height: 100 })))).toString('base64');
    const oneShot = await refusal(post(`${url}/omr/jobs`, { output: 'musicxml', autoStart: true, files: [{ file: PNG_BASE64, filename: 'a.png' }, { file: huge, filename: 'book.pdf' }] }));
    expect(oneShot).toMatchObject({ status: 413, code: 'FILE_TOO_LARGE', message: expect.stringContaining('book.pdf') });
    const draft = (await (await post(`${url}/omr/jobs`, { output: 'musicxml' })).json()) as { id: string };
    expect(await refusal(post(`${url}/omr/jobs/${draft.id}/files`, { file: huge, filename: 'book.pdf' }))).toMatchObject({ status: 413, code: 'FILE_TOO_LARGE' });
    const client = createRemoteClient({ baseUrl: url, token: 'alice-token' });
    expect((await client.listJobs()).jobs.map((job) => [job.id, job.status])).toEqual([[draft.id, 'draft']]);
    expect((await client.getCapabilities()).remainingCredits).toBe(10);
    // A file for a job that does not exist is answered for that, as before.
    expect(await refusal(post(`${url}/omr/jobs/job_none/files`, { file: huge, filename: 'book.pdf' }))).toMatchObject({ status: 404, code: 'OMR_JOB_NOT_FOUND' });
  });
});

describe('download names', () => {
  const parts = (header: string) => {
    const [, ascii, exact] = /^attachment; filename="([^"]*)"; filename\*=UTF-8''(\S*)$/.exec(header)!;
    return { ascii: ascii!, exact: decodeURIComponent(exact!), encoded: exact! };
  };

  it('neither form keeps a path, "..", a control character or a bidi override', () => {
    for (const name of ['../../etc/passwd', '..\\..\\boot.ini', 'a/../b.png', '\u202Egnp.exe', 'x\u0000y.png', 'tab\there\r\n.png', '\u2066evil\u2069.png', '\ud800lone.png']) {
      const { ascii, exact, encoded } = parts(contentDisposition(name));
      for (const form of [ascii, exact]) {
        expect(form).not.toMatch(/[/\\]|\.\.|[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
        expect(form.length).toBeGreaterThan(0);
      }
      expect(encoded).not.toMatch(/%00|%E2%80%AE|%0A|%0D/i);
    }
    expect(parts(contentDisposition('St\u00e4ndchen.mxl'))).toMatchObject({ ascii: 'Standchen.mxl', exact: 'St\u00e4ndchen.mxl' });
    expect(parts(contentDisposition('..')).exact).toBe('download');
    expect(parts(contentDisposition('日本.png'))).toMatchObject({ ascii: 'download.png', exact: '日本.png' });
    expect(parts(contentDisposition('.htaccess')).exact).toBe('htaccess');
  });

  it('names are cut to 255 UTF-8 bytes in both forms, keeping the extension and whole characters', () => {
    for (const stem of ['a'.repeat(100_000), '\u00e9'.repeat(100_000), '\ud834\udd1e'.repeat(50_000)]) {
      const header = contentDisposition(`${stem}.musicxml`);
      const { ascii, exact } = parts(header);
      expect(Buffer.byteLength(exact, 'utf8')).toBeLessThanOrEqual(MAX_DOWNLOAD_NAME_BYTES);
      expect(ascii.length).toBeLessThanOrEqual(MAX_DOWNLOAD_NAME_BYTES);
      expect(exact.endsWith('.musicxml')).toBe(true);
      expect(exact).not.toContain('\ufffd');
      expect(header.length).toBeLessThan(4 * 1024);
    }
  });

  it('an uploaded file is served under a sanitised name', async () => {
    const { url } = await start();
    const job = (await (await post(`${url}/omr/jobs`, { output: 'musicxml', files: [{ file: PNG_BASE64, filename: '../x\u202Egnp.png' }] })).json()) as { id: string };
    const answer = await fetch(`${url}/omr/jobs/${job.id}/files/0`, { headers: ALICE });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="_xgnp.png"; filename*=UTF-8''_xgnp.png`);
  });
});

describe('strict parsing', () => {
  it('only a canonical decimal index names a page; 0x0, %20, -0, 00, +0, 0.0 and 1e0 are 404', async () => {
    const { url } = await start();
    const job = (await (await post(`${url}/omr/jobs`, { output: 'musicxml', files: [{ file: PNG_BASE64, filename: 'a.png' }] })).json()) as { id: string };
    expect((await fetch(`${url}/omr/jobs/${job.id}/files/0`, { headers: ALICE })).status).toBe(200);
    // %30 is "0" percent-encoded, the same URL by RFC 3986, so it is page 0 too.
    expect((await fetch(`${url}/omr/jobs/${job.id}/files/%30`, { headers: ALICE })).status).toBe(200);
    for (const index of ['0x0', '%20', '-0', '00', '+0', '0.0', '1e0', '0%20', '%200']) {
      expect([index, await refusal(fetch(`${url}/omr/jobs/${job.id}/files/${index}`, { headers: ALICE }))]).toMatchObject([index, { status: 404, code: 'OMR_FILE_NOT_FOUND' }]);
    }
  });

  it('wait and limit take canonical decimal integers only', async () => {
    const { url } = await start();
    const job = (await (await post(`${url}/omr/jobs`, { output: 'musicxml' })).json()) as { id: string };
    for (const query of ['wait=0x1', 'wait=', 'wait=%200', 'wait=1.0']) {
      expect(await refusal(fetch(`${url}/omr/jobs/${job.id}?${query}`, { headers: ALICE }))).toMatchObject({ status: 400, code: 'INVALID_ARGUMENT' });
    }
    expect(await refusal(fetch(`${url}/omr/jobs?limit=1e1`, { headers: ALICE }))).toMatchObject({ status: 400, code: 'INVALID_ARGUMENT' });
    expect((await fetch(`${url}/omr/jobs/${job.id}?wait=0`, { headers: ALICE })).status).toBe(200);
    expect((await fetch(`${url}/omr/jobs?limit=10`, { headers: ALICE })).status).toBe(200);
  });

  it('401 answers carry WWW-Authenticate: Bearer', async () => {
    const { url } = await start();
    const missing = await fetch(`${url}/omr/jobs`);
    expect([missing.status, missing.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    const wrong = await fetch(`${url}/omr/jobs`, { headers: { authorization: 'Bearer not-a-token' } });
    expect([wrong.status, wrong.headers.get('www-authenticate')]).toEqual([401, 'Bearer error="invalid_token"']);
    const fine = await fetch(`${url}/omr/jobs`, { headers: ALICE });
    expect(fine.headers.get('www-authenticate')).toBeNull();
  });
});

describe('slow and crowding clients', () => {
  it('the timeouts and the connection cap are named, and tighter than Node’s defaults', () => {
    expect(DEFAULT_LIMITS).toMatchObject({ headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS, keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS, maxConnections: MAX_CONNECTIONS });
    expect(HEADERS_TIMEOUT_MS).toBeLessThan(60_000);
    expect(REQUEST_TIMEOUT_MS).toBeLessThan(300_000);
    expect(HEADERS_TIMEOUT_MS).toBeLessThan(REQUEST_TIMEOUT_MS);
    expect(Number.isFinite(MAX_CONNECTIONS)).toBe(true);
  });

  it('a client that never finishes its headers, or its body, is answered 408 and disconnected', async () => {
    const { port } = await start({ limits: { headersTimeoutMs: 200, requestTimeoutMs: 400 } });
    const headers = await open(port);
    headers.socket.write(`GET /v2/omr/capabilities HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    const body = await open(port);
    body.socket.write(`POST /v2/omr/jobs HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer alice-token\r\nContent-Length: 100\r\n\r\n{"out`);
    await Promise.all([headers.closed, body.closed]);
    expect(headers.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(body.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('connections past the cap are closed without an answer; those within are served', async () => {
    const { port } = await start({ limits: { maxConnections: 2 } });
    const held = [await open(port), await open(port)];
    const extra = await open(port);
    await extra.closed;
    expect(extra.received()).toBe('');
    held[0]!.socket.write(`GET /v2/omr/capabilities HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    await held[0]!.closed;
    expect(held[0]!.received()).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('links under a trusted origin', () => {
  /** A list page's `Link` as a raw request with this Host header gets it. */
  async function linkWithHost(port: number, host: string): Promise<string> {
    const conn = await open(port);
    conn.socket.write(`GET /v2/omr/jobs?limit=1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer alice-token\r\nConnection: close\r\n\r\n`);
    await conn.closed;
    return /\r\nLink: <([^>]*)>/i.exec(conn.received())?.[1] ?? '';
  }

  it('without publicUrl a foreign Host is ignored for the listening address; this server’s own names are kept', async () => {
    const { url, port } = await start();
    await post(`${url}/omr/jobs`, { output: 'musicxml' });
    await post(`${url}/omr/jobs`, { output: 'musicxml' });
    expect(await linkWithHost(port, 'evil.example')).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/v2/omr/jobs\\?`));
    expect(await linkWithHost(port, `evil.example:${port}`)).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/v2/`));
    expect(await linkWithHost(port, `127.0.0.1:${port + 1}`)).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/v2/`));
    expect(await linkWithHost(port, `localhost:${port}`)).toMatch(new RegExp(`^http://localhost:${port}/v2/`));
  });

  it('with publicUrl every link uses it, whatever the Host; signed export URLs too', async () => {
    const { url, port } = await start({ publicUrl: 'https://omr.example.org/v2/' });
    await post(`${url}/omr/jobs`, { output: 'musicxml' });
    await post(`${url}/omr/jobs`, { output: 'musicxml' });
    expect(await linkWithHost(port, `localhost:${port}`)).toMatch(/^https:\/\/omr\.example\.org\/v2\/omr\/jobs\?/);
    const client = createRemoteClient({ baseUrl: url, token: 'alice-token' });
    const xml = await import('node:fs').then((fs) => fs.readFileSync('test/fixtures/recognition/melody.musicxml'));
    const imported = await client.importScore({ title: 'Lied', filename: 'm.musicxml', data: new Uint8Array(xml) });
    if (imported.status !== 200) throw new Error('expected 200');
    const task = await client.exportScore(imported.score.id, imported.revision, 'mxl');
    expect(task.result!.url!.startsWith('https://omr.example.org/v2/exports/')).toBe(true);
  });

  it('publicUrl must be an absolute http(s) URL', () => {
    expect(() => createOmrServer({ tokens: TOKENS, publicUrl: 'omr.example.org' })).toThrow(/absolute URL/);
    expect(() => createOmrServer({ tokens: TOKENS, publicUrl: 'ftp://omr.example.org/v2' })).toThrow(/http or https/);
  });
});
