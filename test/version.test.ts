import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { LIBRARY_VERSION } from '../src/version.js';

it('LIBRARY_VERSION is the package version', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  expect(LIBRARY_VERSION).toBe(pkg.version);
});
