import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

describe('the published typings', () => {
  it('are built (npm run build)', () => {
    expect(existsSync(join(ROOT, 'dist/types/index.d.ts'))).toBe(true);
    expect(existsSync(join(ROOT, 'dist/types/node.d.ts'))).toBe(true);
  });

  // test/package/consumer: imports `scoresight` and `scoresight/node` by name, under lib ES2022 and
  // types node only, with skipLibCheck off, and marks exportJob(id, 'pdf') as an expected error.
  it('type-check a Node project without the DOM lib, and reject an export format no client offers', { timeout: 60_000 }, () => {
    const r = spawnSync(process.execPath, [TSC, '-p', join(ROOT, 'test/package/consumer/tsconfig.json')], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('name no comlink type', () => {
    const workerHandle = readFileSync(join(ROOT, 'dist/types/workers/worker-handle.d.ts'), 'utf8');
    expect(workerHandle).not.toMatch(/from 'comlink'/);
  });
});
