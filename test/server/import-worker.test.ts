/**
 * Score imports off the thread that answers requests: while a large score is
 * read in the parse worker other requests are answered, and a score that
 * outgrows the worker's heap ends that worker with 413 `FILE_TOO_LARGE`
 * while the server goes on answering and importing. PDF page counts go to
 * the same worker.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createOmrServer, type OmrServer } from '../../src/server/server.js';
import type { TokenEntry } from '../../src/server/tokens.js';
import type { ScoreParser } from '../../src/workers/parse-api.js';
import { createParseWorker, type ParseWorkerOptions } from '../../src/workers/parse-pool.js';
import { createFakePool, pngPage } from '../support/fake-pool.js';
import { largeMusicXml } from '../support/large-score.js';
import { buildPdf } from '../support/pdf-build.js';

const TOKENS: TokenEntry[] = [
  { token: 'alice-token', account: 'alice', scopes: ['omr', 'scores'] },
  { token: 'bob-token-1', account: 'bob', scopes: ['omr', 'scores'] },
];
const melody = readFileSync(new URL('../fixtures/recognition/melody.musicxml', import.meta.url));

const opened: { server: OmrServer; parser: ScoreParser }[] = [];
afterEach(async () => {
  for (const { server, parser } of opened.splice(0)) {
    await server.close();
    await parser.close();
  }
});

/** A server whose parse worker tells `onCall` as each file is handed to it. */
async function start(options: ParseWorkerOptions = {}, onCall: (call: string) => void = () => undefined): Promise<string> {
  const worker = createParseWorker(options);
  const parser: ScoreParser = {
    ...worker,
    readScore: (file, readOptions) => (onCall('readScore'), worker.readScore(file, readOptions)),
    countPages: (file) => (onCall(`countPages ${file.filename}`), worker.countPages(file)),
  };
  const server = createOmrServer({ tokens: TOKENS, clientOptions: { pool: createFakePool(), parser, sweepIntervalMs: 0 } });
  opened.push({ server, parser: worker });
  return server.listen(0);
}

function importScore(url: string, data: Uint8Array, token = 'alice-token'): Promise<Response> {
  return fetch(`${url}/scores`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ title: 'Big', filename: 'big.musicxml', data: Buffer.from(data).toString('base64') }),
  });
}

const listJobs = (url: string, token: string) => fetch(`${url}/omr/jobs`, { headers: { authorization: `Bearer ${token}` } });

describe('score imports in the parse worker', () => {
  it('while a large score is being read, other requests are answered before it', { timeout: 60_000 }, async () => {
    const events: string[] = [];
    let reading!: () => void;
    const read = new Promise<void>((resolve) => (reading = resolve));
    const url = await start({}, () => (events.push('reading'), reading()));
    const imported = importScore(url, largeMusicXml(4e6)).then((res) => (events.push('imported'), res));
    await Promise.race([read, imported]);
    const [alice, bob] = await Promise.all([listJobs(url, 'alice-token'), listJobs(url, 'bob-token-1')]);
    events.push('listed');
    expect([alice.status, bob.status]).toEqual([200, 200]);
    const answer = await imported;
    expect(answer.status).toBe(200);
    expect(events).toEqual(['reading', 'listed', 'imported']);
  });

  it('a score that outgrows the parse worker’s heap is refused with 413 FILE_TOO_LARGE; the server answers the next request and the next import', { timeout: 60_000 }, async () => {
    const url = await start({ maxHeapMb: 24 });
    const refused = await importScore(url, largeMusicXml(4e6));
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.stringMatching(/more than the 24 MiB of memory/) });
    expect((await listJobs(url, 'bob-token-1')).status).toBe(200);
    const next = await importScore(url, melody);
    expect(next.status).toBe(200);
    expect(await next.json()).toMatchObject({ title: 'Big' });
  });

  it('a PDF added to a job is counted in the parse worker, an image without reading it', { timeout: 60_000 }, async () => {
    const calls: string[] = [];
    const url = await start({}, (call) => calls.push(call));
    const file = (data: Uint8Array, filename: string) => ({ file: Buffer.from(data).toString('base64'), filename });
    const pdf = buildPdf([{ width: 72, height: 72 }, { width: 72, height: 72 }, { width: 72, height: 72 }]);
    const answer = await fetch(`${url}/omr/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer alice-token' },
      body: JSON.stringify({ output: 'musicxml', autoStart: true, files: [file(pdf, 'three.pdf'), file(pngPage('p.png').file, 'p.png')] }),
    });
    expect(answer.status).toBe(202);
    expect(await answer.json()).toMatchObject({ estimatedCredits: 4 });
    expect(calls).toEqual(['countPages three.pdf']);
  });
});
