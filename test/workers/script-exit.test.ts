/**
 * A Node script that uses the library as the README shows — create the local
 * client, recognise a page, print the result — ends by itself: idle workers
 * do not hold the process open, though none of the examples calls `close()`.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRecognitionPool } from '../../src/workers/worker-pool.js';
import { spawnNodeWorker } from '../../src/workers/node-worker.js';
import type { InputFile } from '../../src/input/decode-pages.js';

const ROOT = resolve(import.meta.dirname, '../..');
/** Longest a script may run before it counts as hanging: recognition of one page takes seconds, even on a busy machine. */
const SCRIPT_LIMIT_MS = 100_000;

mkdirSync(join(ROOT, '.data'), { recursive: true });
const dir = mkdtempSync(join(ROOT, '.data', 'script-exit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a TypeScript script under plain Node (bench/node/register.mjs), killing it at the limit. */
function runScript(name: string, lines: string[]): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  const script = join(dir, name);
  writeFileSync(script, lines.join('\n'));
  return new Promise((done) => {
    execFile(process.execPath, ['--import', './bench/node/register.mjs', script], { cwd: ROOT, timeout: SCRIPT_LIMIT_MS, encoding: 'utf8' }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, signal: error?.signal ?? null, stdout, stderr });
    });
  });
}

const readme = (end: string[]) => [
  `import { readFileSync } from 'node:fs';`,
  `import { createClient, runJob } from '../../src/index.js';`,
  `const pageBytes = new Uint8Array(readFileSync(${JSON.stringify(join(ROOT, 'test/fixtures/recognition/melody-300dpi.png'))}));`,
  `const client = createClient();`,
  `const job = await runJob(client, { output: 'musicxml', files: [{ file: pageBytes, filename: 'page1.png' }] });`,
  `const xml = await client.exportJob(job.id, 'musicxml');`,
  `console.log(job.status, xml.filename);`,
  ...end,
];

describe('a Node script using the local client', () => {
  it('prints its result and exits by itself with code 0, without calling close()', { timeout: SCRIPT_LIMIT_MS + 20_000 }, async () => {
    const r = await runScript('readme.ts', readme([]));
    expect({ code: r.code, signal: r.signal, stdout: r.stdout.trim() }, r.stderr).toEqual({ code: 0, signal: null, stdout: 'done score.musicxml' });
  });

  it('ends as well when it calls close(), which ends the workers', { timeout: SCRIPT_LIMIT_MS + 20_000 }, async () => {
    const r = await runScript('readme-close.ts', readme([`await client.close();`, `console.log('closed');`]));
    expect({ code: r.code, signal: r.signal, stdout: r.stdout.trim() }, r.stderr).toEqual({ code: 0, signal: null, stdout: 'done score.musicxml\nclosed' });
  });
});

describe('the worker pool in Node', () => {
  it('keeps a worker holding the process only while it runs a call', async () => {
    const told: boolean[] = [];
    const pool = createRecognitionPool({
      size: 1,
      spawn: () => {
        const handle = spawnNodeWorker(new URL('./test-worker.ts', import.meta.url));
        return { ...handle, keepAlive: (alive: boolean) => (told.push(alive), handle.keepAlive!(alive)) };
      },
    });
    const wait = (ms: number): InputFile => ({ filename: `wait:${ms}`, data: new Uint8Array(1) });
    try {
      expect(await pool.countPages(wait(1))).toBe(1);
      expect(told).toEqual([true, false]);
      // Two calls queued on one worker: it stays held from the first to the end of the second.
      await Promise.all([pool.countPages(wait(50)), pool.countPages(wait(1))]);
      expect(told).toEqual([true, false, true, true, false]);
    } finally {
      await pool.close();
    }
  });
});
