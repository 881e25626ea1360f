/**
 * The OCR worker kept between jobs: a second job reads with the first one's
 * worker, a job in other languages gets its own, and a script that read text
 * ends by itself without waiting for the kept worker to be closed.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEEP_IDLE_MS, openOcr } from '../../src/text/ocr.js';
import { titleLine } from '../support/text-line.js';

const ROOT = resolve(import.meta.dirname, '../..');
mkdirSync(join(ROOT, '.data'), { recursive: true });
const dir = mkdtempSync(join(ROOT, '.data', 'ocr-kept-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = (words: { text: string }[]) => words.map((w) => w.text).join(' ');

describe('the OCR worker kept between jobs', () => {
  it('reads for a second job after the first closed its reader, and for a job in other languages', { timeout: 60_000 }, async () => {
    const first = await openOcr(['en']);
    expect(first).toBeDefined();
    expect(text(await first!.readLine(titleLine()))).toBe('Abendlied');
    await first!.close();
    await first!.close(); // closing twice hands it back once
    const second = await openOcr(['en']);
    const other = await openOcr(['de']);
    try {
      expect(text(await second!.readLine(titleLine()))).toBe('Abendlied');
      expect(text(await other!.readLine(titleLine()))).toBe('Abendlied');
    } finally {
      await second!.close();
      await other!.close();
    }
  });

  it('never holds a finished script open', { timeout: 60_000 }, async () => {
    const script = join(dir, 'read-twice.ts');
    writeFileSync(
      script,
      [
        `import { openOcr } from '../../src/text/ocr.js';`,
        `import { titleLine } from '../../test/support/text-line.js';`,
        `for (let i = 0; i < 2; i++) {`,
        `  const ocr = await openOcr(['en']);`,
        `  console.log((await ocr!.readLine(titleLine())).map((w) => w.text).join(' '));`,
        `  await ocr!.close();`,
        `}`,
      ].join('\n'),
    );
    const started = Date.now();
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
      execFile(process.execPath, ['--import', './bench/node/register.mjs', script], { cwd: ROOT, timeout: 50_000, encoding: 'utf8' }, (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
      ),
    );
    expect({ code: r.code, stdout: r.stdout.trim() }, r.stderr).toEqual({ code: 0, stdout: 'Abendlied\nAbendlied' });
    // Had the kept worker held it, the script would have waited for it to be closed.
    expect(Date.now() - started).toBeLessThan(KEEP_IDLE_MS);
  });
});
