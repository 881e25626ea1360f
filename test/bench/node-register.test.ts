/** The benchmarks' runner: plain Node compiling only the project's TypeScript (bench/node/register.mjs). */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

describe('bench/node/register.mjs', () => {
  it('runs a TypeScript script that imports the project’s sources by their .js names, and leaves dependencies as published', () => {
    mkdirSync(join(ROOT, '.data'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, '.data', 'register-'));
    const script = join(dir, 'script.ts');
    writeFileSync(
      script,
      [
        `import { add, frac } from '../../src/score/fraction.js';`,
        `import { transform } from 'esbuild';`,
        `const sum: { n: number; d: number } = add(frac(1, 3), frac(1, 6));`,
        `console.log(JSON.stringify({ sum, published: typeof transform }));`,
      ].join('\n'),
    );
    const out = execFileSync(process.execPath, ['--import', './bench/node/register.mjs', script], { cwd: ROOT, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ sum: { n: 1, d: 2 }, published: 'function' });
  });
});
