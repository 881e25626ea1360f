import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const MiB = 1024 * 1024;

/** The most the published tarball may weigh, compressed: 14.0 MiB measured (13.6 before the dynamics model), about 6.9 MiB of it without text recognition's files. */
const TARBALL_BUDGET = 14.5 * MiB;
/** The most its files other than text recognition's may weigh, uncompressed: 22.0 MiB measured. */
const UNPACKED_BUDGET_WITHOUT_OCR = 24 * MiB;
/** Text recognition's files in the self-contained bundle: tesseract's cores and worker, and its English data. */
const isOcr = (path: string) => path.startsWith('dist/bundle/tesseract/') || path.startsWith('dist/bundle/tessdata/');

interface PackResult {
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

/** What `npm pack` would publish, as it says with --dry-run (without building again). */
function dryRun(): PackResult {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as PackResult[])[0]!;
}

describe('npm pack', () => {
  let pack: PackResult;
  let paths: string[];
  beforeAll(() => {
    pack = dryRun();
    paths = pack.files.map((f) => f.path);
  }, 60_000);

  it('holds what the entries, the command line and the bundle load', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const targets = [pkg.main, pkg.types, ...Object.values(pkg.bin), ...Object.values<Record<string, string>>(pkg.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)))];
    for (const target of targets) expect(paths).toContain(target.replace(/^\.\//, ''));
    for (const asset of ['dist/node/cli.js', 'dist/node/recognition-worker.js', 'dist/browser/recognition-worker.js', 'dist/bundle/scoresight.js', 'dist/bundle/recognition-worker.js', 'dist/node/parse-worker.js', 'dist/browser/parse-worker.js', 'dist/bundle/parse-worker.js']) {
      expect(paths).toContain(asset);
    }
    for (const asset of ['models/symbols.onnx', 'models/digits.onnx', 'models/marks.onnx', 'models/dynamics.onnx', 'models/pedals.onnx', 'wasm/ort-wasm-simd-threaded.wasm', 'wasm/ort-wasm-simd-threaded.mjs', 'wasm/webp_dec.wasm']) {
      expect(paths).toContain(`dist/bundle/${asset}`);
    }
  });

  it('holds no source maps', () => {
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
  });

  it('holds each WebAssembly file and each model once', () => {
    const assets = paths.filter((p) => /\.(wasm|onnx)$/.test(p));
    const names = assets.map((p) => basename(p));
    expect(assets.length).toBeGreaterThanOrEqual(4);
    expect(new Set(names).size, assets.join(', ')).toBe(names.length);
  });

  it('the built Node entry finds its models inside the package', async () => {
    const { env } = await import(join(ROOT, 'dist/node/index.js'));
    const folder = relative(ROOT, fileURLToPath(env.modelBase)).replaceAll('\\', '/');
    expect(paths).toContain(`${folder}/symbols.onnx`);
    expect(paths).toContain(`${folder}/digits.onnx`);
    expect(paths).toContain(`${folder}/marks.onnx`);
    expect(paths).toContain(`${folder}/dynamics.onnx`);
    expect(paths).toContain(`${folder}/pedals.onnx`);
  });

  it('stays within its size budgets', () => {
    expect(pack.size).toBeLessThanOrEqual(TARBALL_BUDGET);
    const withoutOcr = pack.files.filter((f) => !isOcr(f.path)).reduce((n, f) => n + f.size, 0);
    expect(withoutOcr).toBeLessThanOrEqual(UNPACKED_BUDGET_WITHOUT_OCR);
  });
});
