/**
 * onnxruntime-node, the native inference backend, is an optional peer
 * dependency: Node installs that have it run the models on it, those without
 * it run them on WebAssembly, and browser builds never name it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'test/fixtures/recognition');
const NATIVE = 'onnxruntime-node';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** Runs Node with onnxruntime-node looking uninstalled, as an install without it would. */
const withoutNative = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', join(ROOT, 'test/package/hide-packages.mjs'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, HIDE_PACKAGES: NATIVE },
  });

/** A script for the built library that prints the backend the models ran on, after recognising the melody with `backend`. */
const script = (backend: string) => `
  import { readFileSync } from 'node:fs';
  import { env, activeBackend, recognizeScore } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/node/index.js')).href)};
  env.backend = ${JSON.stringify(backend)};
  try {
    const data = new Uint8Array(readFileSync(${JSON.stringify(join(FIXTURES, 'melody-300dpi.png'))}));
    const score = await recognizeScore([{ filename: 'melody.png', data }]);
    console.log(JSON.stringify({ backend: await activeBackend(), measures: score.parts[0].measures.length }));
  } catch (err) {
    console.log(JSON.stringify({ code: err.code, message: err.message }));
  }`;

describe('the native inference backend is optional', () => {
  const out = mkdtempSync(join(tmpdir(), 'scoresight-no-native-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  /** The script's file (Node's module hooks refuse --input-type with -e). */
  const recognizeWith = (backend: string) => {
    const file = join(out, `recognize-${backend}.mjs`);
    writeFileSync(file, script(backend));
    return file;
  };

  it('is an optional peer dependency (never downloaded for browsers) and a development one', () => {
    expect(pkg.peerDependencies[NATIVE]).toMatch(/1\.30/);
    expect(pkg.peerDependenciesMeta[NATIVE]).toEqual({ optional: true });
    expect(pkg.devDependencies[NATIVE]).toBe(pkg.peerDependencies[NATIVE]);
    expect(Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })).not.toContain(NATIVE);
  });

  it('is what the built library runs on where it is installed', { timeout: 60_000 }, () => {
    const run = spawnSync(process.execPath, [recognizeWith('auto')], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout), run.stderr).toEqual({ backend: 'native', measures: 8 });
  });

  it('without it, the built library and command line read on WebAssembly; asked for by name, it is BACKEND_UNAVAILABLE', { timeout: 120_000 }, () => {
    const auto = withoutNative(recognizeWith('auto'));
    expect(auto.status, auto.stderr).toBe(0);
    expect(JSON.parse(auto.stdout), auto.stderr).toEqual({ backend: 'wasm', measures: 8 });
    const native = JSON.parse(withoutNative(recognizeWith('native')).stdout);
    expect(native.code).toBe('BACKEND_UNAVAILABLE');
    expect(native.message).toContain(`npm install ${NATIVE}`);
    const cli = withoutNative(join(ROOT, 'bin/scoresight.js'), 'recognize', join(FIXTURES, 'melody-300dpi.png'), '--no-text', '--out', out);
    expect(cli.status, cli.stderr).toBe(0);
    expect(readFileSync(join(out, 'melody-300dpi.musicxml'), 'utf8')).toContain('<score-partwise');
  });

  it('is not named by the browser builds (a bundler would look for it)', () => {
    for (const dir of ['dist/browser', 'dist/bundle']) {
      const files = readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js') || f.endsWith('.mjs'));
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const code = readFileSync(join(ROOT, dir, file), 'utf8');
        expect(code, `${dir}/${file}`).not.toMatch(/(import\s*\(|from|require\s*\()\s*["']onnxruntime-node/);
      }
    }
    // The Node build does import it, lazily.
    const node = readdirSync(join(ROOT, 'dist/node')).map((f) => readFileSync(join(ROOT, 'dist/node', f), 'utf8'));
    expect(node.some((code) => code.includes(`import('${NATIVE}')`))).toBe(true);
  });
});
