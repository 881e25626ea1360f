/**
 * Applications built by Vite and by webpack from the published package, with
 * no configuration: each imports `scoresight`, is built by its bundler, served
 * from the bundler's output alone, and recognises the fixture PDF in real
 * Chromium in the library's worker, into exactly the notes it was engraved from.
 * And the same Vite application on Vite's development server, with the one
 * line of configuration the README gives for it.
 *
 * Each application is a temporary folder whose `node_modules/scoresight` is
 * the packed tarball (`npm pack`), unpacked as `npm install` would put it.
 * The package's own dependencies are linked to the project's installed copies
 * rather than installed: the tests run offline, and a bundler follows the
 * links to the real folders (Vite and webpack both resolve symlinks), so each
 * dependency resolves its own dependencies where they are installed. The
 * bundlers are the project's (devDependencies vite, webpack and webpack-cli),
 * run from its node_modules with the application's folder as the working
 * directory: Vite with no config file at all, webpack with its defaults
 * (`src/index.js` to `dist/`) and `--mode production`.
 *
 * That the output holds the models and onnxruntime-web's WebAssembly, and
 * that the page fetches nothing outside it, shows the bundler found every file
 * the library loads.
 */
import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { noteContent } from '../support/note-content.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CHROMIUM = process.env.SCORESIGHT_CHROMIUM ?? '/usr/bin/chromium';
const FIXTURE_PDF = join(ROOT, 'test/fixtures/recognition/melody.pdf');
const FIXTURE_TRUTH = join(ROOT, 'test/fixtures/recognition/melody.musicxml');
/** The bundlers, as the project's devDependencies install them. */
const VITE = join(ROOT, 'node_modules/vite/bin/vite.js');
const WEBPACK = join(ROOT, 'node_modules/webpack-cli/bin/cli.js');
const BUILD_TIMEOUT_MS = 540_000;

/** What an application's page does: one recognition of a served file in the library's worker, as MusicXML. */
const APP_SOURCE = `import { createRecognitionPool, writeMusicXml } from 'scoresight';

window.recognise = async (url) => {
  const data = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const pool = createRecognitionPool({ size: 1 });
  try {
    const { score } = await pool.recognize({ files: [{ filename: 'melody.pdf', data }] });
    return writeMusicXml(score);
  } finally {
    await pool.close();
  }
};
document.body.dataset.ready = 'true';
`;

const page = (script: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>app</title></head><body><script type="module" src="${script}"></script></body></html>
`;

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
};

let work: string;
let tarball: string;
let browser: Browser;

beforeAll(async () => {
  const missing = [VITE, WEBPACK].filter((bin) => !existsSync(bin));
  if (missing.length) {
    throw new Error(`The bundlers are not installed (${missing.join(', ')}): they are devDependencies (vite, webpack, webpack-cli); run \`npm install\`.`);
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: run \`bash scripts/install-system-deps.sh\` (npm test does), or set SCORESIGHT_CHROMIUM.`);
  }
  if (!existsSync(join(ROOT, 'dist/browser/index.js'))) throw new Error('dist/browser/ is missing: run `npm run build` (npm test does).');
  work = mkdtempSync(join(tmpdir(), 'scoresight-bundlers-'));
  tarball = pack(work);
  browser = await chromium.launch({ executablePath: CHROMIUM });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (work) rmSync(work, { recursive: true, force: true, maxRetries: 5 });
});

/** The package as `npm publish` would publish it (already built: npm test builds first). */
function pack(into: string): string {
  const r = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', into], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack failed: ${r.stderr}`);
  return join(into, (JSON.parse(r.stdout) as { filename: string }[])[0]!.filename);
}

/** A new application folder with the tarball unpacked into node_modules/scoresight and its dependencies linked. */
function createApp(name: string): string {
  const app = join(work, name);
  const modules = join(app, 'node_modules');
  mkdirSync(modules, { recursive: true });
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', modules], { encoding: 'utf8' });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  const pkg = join(modules, 'scoresight');
  spawnSync('mv', [join(modules, 'package'), pkg]);
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
    const installed = join(ROOT, 'node_modules', dep);
    if (!existsSync(installed)) continue; // an optional dependency left out, as an install may
    mkdirSync(dirname(join(modules, dep)), { recursive: true });
    symlinkSync(realpathSync(installed), join(modules, dep), 'dir');
  }
  mkdirSync(join(app, 'src'));
  return app;
}

/**
 * Runs a bundler's command line in the application's folder; its output is the failure message. Not
 * spawnSync: a build takes minutes, and the test runner's worker must keep answering meanwhile.
 */
function run(app: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: app, timeout: BUILD_TIMEOUT_MS });
    let output = '';
    child.stdout.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
    child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
    child.on('error', fail);
    child.on('close', (code, signal) => (code === 0 ? done() : fail(new Error(`${args.join(' ')} failed (${code ?? signal}):\n${output}`))));
  });
}

/** Every file under a folder, relative to it. */
const filesIn = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => f.replaceAll('\\', '/'));

/** Serves a folder on a free port. */
async function serve(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const file = normalize(join(dir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(dir + sep) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': MIME_TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((done) => server.close(() => done())) };
}

/** A free port on this machine, for a server that wants one named. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/** Terminal colour and style codes. */
const ANSI_ESCAPE = /\u001b\[[0-9;]*m/g;

/**
 * Starts Vite's development server on the application and resolves once it listens. It serves the
 * library's files as they are in node_modules (not one prebundled file), which is what the documented
 * line of configuration asks of it.
 */
async function startViteDev(app: string): Promise<{ url: string; close: () => Promise<void> }> {
  const port = await freePort();
  // NO_COLOR: with CI set in the environment, Vite colours its output even into a pipe, and the
  // colour codes would split the address it prints.
  const child = spawn(process.execPath, [VITE, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    cwd: app,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let output = '';
  const started = new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`vite did not start:\n${output}`)), 120_000);
    const listen = (chunk: Buffer) => {
      output += chunk;
      if (output.replace(ANSI_ESCAPE, '').includes(`:${port}/`)) {
        clearTimeout(timer);
        done();
      }
    };
    child.stdout.on('data', listen);
    child.stderr.on('data', listen);
    child.on('exit', (code) => fail(new Error(`vite exited (${code}):\n${output}`)));
  });
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  try {
    await started;
  } catch (err) {
    child.kill();
    await exited;
    throw err;
  }
  return { url: `http://127.0.0.1:${port}/`, close: () => (child.kill(), exited) };
}

/**
 * Opens the application at `url`, recognises the fixture PDF there (served beside it as melody.pdf) and
 * returns the MusicXML, with every problem seen on the way: page errors, failed requests, and requests
 * outside the application's origin.
 */
async function recogniseAt(url: string): Promise<{ xml: string; problems: string[] }> {
  const context = await browser.newContext();
  const problems: string[] = [];
  try {
    const tab = await context.newPage();
    tab.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    context.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
    context.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });
    context.on('request', (request) => {
      const target = request.url();
      if (!target.startsWith(url) && !target.startsWith('blob:') && !target.startsWith('data:')) problems.push(`request off the page's origin: ${target}`);
    });
    await tab.goto(url);
    await tab.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 120_000 });
    const xml = await tab.evaluate((pdf) => (window as unknown as { recognise(url: string): Promise<string> }).recognise(pdf), `${url}melody.pdf`);
    return { xml, problems };
  } finally {
    await context.close();
  }
}

/** Serves a built application's output folder, with the fixture PDF beside it, and recognises it there. */
async function recogniseIn(out: string): Promise<{ xml: string; problems: string[] }> {
  copyFileSync(FIXTURE_PDF, join(out, 'melody.pdf'));
  const { url, close } = await serve(out);
  try {
    return await recogniseAt(url);
  } finally {
    await close();
  }
}

/** The notes the fixture was engraved from, which the engine reads exactly (test/recognize/recognize.test.ts). */
const expectedNotes = () => noteContent(readMusicXml(readFileSync(FIXTURE_TRUTH)));

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * The bundler copied what the library loads at run time, under names of its own: the four models and
 * onnxruntime-web's WebAssembly-only build (not the 28 MB one with WebGPU, which ScoreSight never runs),
 * found by their bytes.
 */
function expectAssetsEmitted(app: string, out: string): void {
  const emitted = new Set(filesIn(out).filter((f) => /\.(onnx|wasm)$/.test(f)).map((f) => sha(join(out, f))));
  const pkg = join(app, 'node_modules/scoresight/dist/bundle');
  for (const asset of ['models/symbols.onnx', 'models/digits.onnx', 'models/marks.onnx', 'models/dynamics.onnx', 'models/pedals.onnx', 'wasm/ort-wasm-simd-threaded.wasm']) {
    expect(emitted.has(sha(join(pkg, asset))), `${asset} in the build`).toBe(true);
  }
  expect(emitted.has(sha(join(ROOT, 'node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.jsep.wasm'))), 'the WebGPU build of onnxruntime').toBe(false);
}

/** A Vite application: index.html loading src/main.js. */
function createViteApp(name: string): string {
  const app = createApp(name);
  writeFileSync(join(app, 'index.html'), page('/src/main.js'));
  writeFileSync(join(app, 'src/main.js'), APP_SOURCE);
  return app;
}

/**
 * The one line a Vite user adds for the development server (README): Vite's dependency prebundling would
 * fold the library into one file, away from its worker and models; left out of it, the library's CommonJS
 * dependencies still need prebundling, named through it. Builds (`vite build`) need none of this.
 */
const VITE_DEV_LINE = `optimizeDeps: { exclude: ['scoresight'], include: ['scoresight > saxes', 'scoresight > @tonejs/midi', 'scoresight > jpeg-js', 'scoresight > heic-decode'] },`;

describe('applications bundled from the published package', () => {
  it('Vite, with no configuration: builds, and recognises the fixture PDF in Chromium', { timeout: BUILD_TIMEOUT_MS + 300_000 }, async () => {
    const app = createViteApp('vite-app');
    await run(app, [VITE, 'build', '--logLevel', 'warn']);
    const out = join(app, 'dist');
    expectAssetsEmitted(app, out);
    const { xml, problems } = await recogniseIn(out);
    expect(problems).toEqual([]);
    expect(noteContent(readMusicXml(xml))).toEqual(expectedNotes());
  });

  it("Vite's development server, with the one documented line: recognises the fixture PDF in Chromium", { timeout: 600_000 }, async () => {
    const app = createViteApp('vite-dev-app');
    // Beside the documented line, only what this test's layout needs: the dependencies are links to the
    // project's node_modules, outside the application's folder, which the server serves only when allowed.
    writeFileSync(join(app, 'vite.config.mjs'), `export default {\n  ${VITE_DEV_LINE}\n  server: { fs: { allow: ['/'] } },\n};\n`);
    mkdirSync(join(app, 'public'));
    copyFileSync(FIXTURE_PDF, join(app, 'public/melody.pdf'));
    const server = await startViteDev(app);
    try {
      const { xml, problems } = await recogniseAt(server.url);
      expect(problems).toEqual([]);
      expect(noteContent(readMusicXml(xml))).toEqual(expectedNotes());
    } finally {
      await server.close();
    }
  });

  it('webpack, with its defaults: builds, and recognises the fixture PDF in Chromium', { timeout: BUILD_TIMEOUT_MS + 300_000 }, async () => {
    const app = createApp('webpack-app');
    writeFileSync(join(app, 'src/index.js'), APP_SOURCE);
    await run(app, [WEBPACK, '--mode', 'production', '--no-stats']);
    const out = join(app, 'dist');
    writeFileSync(join(out, 'index.html'), page('main.js'));
    expectAssetsEmitted(app, out);
    const { xml, problems } = await recogniseIn(out);
    expect(problems).toEqual([]);
    expect(noteContent(readMusicXml(xml))).toEqual(expectedNotes());
  });
});
