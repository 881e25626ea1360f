/**
 * The WebGPU backend (env.backend 'webgpu', env.webgpuBase) in real Chromium:
 * the library's model loading, bundled by esbuild as an application's bundler
 * would (onnxruntime-web being its WebAssembly-only build, as in dist/browser),
 * imports onnxruntime-web's WebGPU build from the folder the page serves it in,
 * and runs the committed symbol model on one small window of a committed page.
 *
 * The only adapter here is Chromium's software one (SwiftShader, with
 * `--enable-unsafe-webgpu`), hundreds of times slower than WebAssembly: the
 * window is 64 × 128 pixels, a few seconds' work for it, and 'auto' must
 * refuse that adapter. Without the flag Chromium gives no adapter at all, and
 * an explicit 'webgpu' is BACKEND_UNAVAILABLE.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng } from '../../src/input/png.js';
import { CANONICAL_STAFF_SPACE, preparePage } from '../../src/preparation/prepare-page.js';
import { detectStaves } from '../../src/staves/detect-staves.js';
import type { PageResult } from './webgpu-page.js';

const CHROMIUM = process.env.SCORESIGHT_CHROMIUM ?? '/usr/bin/chromium';
const ROOT = join(import.meta.dirname, '../..');
const ORT_DIST = join(ROOT, 'node_modules/onnxruntime-web/dist');

/** Share of pixels whose best class must agree between the backends: float rounding flips only near-ties. */
const MIN_ARGMAX_AGREEMENT = 0.999;

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
};

/** The window the model reads: 64 × 128 pixels of the melody's first staff, prepared as segmentation prepares a page. */
function melodyWindow() {
  const prepared = preparePage(decodePng(new Uint8Array(readFileSync(join(ROOT, 'test/fixtures/recognition/melody-300dpi.png')))));
  const staff = detectStaves(prepared.ink, { staffSpace: CANONICAL_STAFF_SPACE })[0]!;
  // From just above the top line, past the clef: the staff's five lines and its first notes.
  const [y0, height, x0, width] = [Math.max(0, Math.floor(staff.lines[0]![0]! - 8) & ~15), 64, (Math.floor(staff.x0) + 64) & ~15, 128];
  const input = new Array<number>(width * height).fill(1);
  for (let y = 0; y < height && y0 + y < prepared.gray.height; y++) {
    for (let x = 0; x < width && x0 + x < prepared.gray.width; x++) input[y * width + x] = prepared.gray.data[(y0 + y) * prepared.gray.width + x0 + x]! / 255;
  }
  return { input, height, width };
}

let server: Server;
let base: string;
let page: string;

/** Serves the bundled page at `/`, the models at `/models/`, and onnxruntime-web's dist/ (both builds) at `/ort/`. */
function serve(bundle: string): Promise<void> {
  const folders: Record<string, string> = { '/models/': join(ROOT, 'models'), '/ort/': ORT_DIST };
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (path === '/') return void res.writeHead(200, { 'Content-Type': MIME_TYPES['.html'] }).end(page);
    if (path === '/page.js') return void res.writeHead(200, { 'Content-Type': MIME_TYPES['.js'] }).end(bundle);
    const prefix = Object.keys(folders).find((p) => path.startsWith(p));
    const dir = prefix && folders[prefix]!;
    const file = dir && normalize(join(dir, path.slice(prefix.length)));
    if (!dir || !file || !file.startsWith(dir + sep) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': MIME_TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  // 127.0.0.1 is a secure context, as WebGPU needs.
  return new Promise((done) => server.listen(0, '127.0.0.1', done));
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: run \`bash scripts/install-system-deps.sh\` (npm test does), or set SCORESIGHT_CHROMIUM.`);
  }
  const { outputFiles } = await build({
    entryPoints: [join(import.meta.dirname, 'webgpu-page.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    // As dist/browser: onnxruntime-web's WebAssembly-only build, and never onnxruntime-node.
    alias: { 'onnxruntime-web': 'onnxruntime-web/wasm' },
    external: ['onnxruntime-node'],
    logLevel: 'error',
  });
  page = '<!doctype html><html><head><meta charset="utf-8"></head><body><script type="module" src="/page.js"></script></body></html>';
  await serve(outputFiles[0]!.text);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}, 60_000);

afterAll(async () => {
  await new Promise((done) => server?.close(done));
});

/** Chromium with the given flags, on the test page; closed after `use`. */
async function withPage<T>(args: string[], use: (page: Page) => Promise<T>): Promise<T> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args });
  try {
    const tab = await browser.newPage();
    const problems: string[] = [];
    tab.on('pageerror', (err) => problems.push(err.message));
    await tab.goto(base);
    await tab.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 });
    const result = await use(tab);
    expect(problems).toEqual([]);
    return result;
  } finally {
    await browser.close();
  }
}

const classes = (tab: Page, backend: string, window: ReturnType<typeof melodyWindow>) =>
  tab.evaluate(
    ([backend, { input, height, width }]) => (globalThis as any).webgpuTest.classes(backend, input, height, width) as Promise<PageResult>,
    [backend, window] as const,
  );

const resolve = (tab: Page, backend: string) =>
  tab.evaluate((backend) => (globalThis as any).webgpuTest.resolve(backend) as Promise<{ backend?: string; error?: { code?: string; message: string } }>, backend);

describe('the WebGPU backend in Chromium', () => {
  it("runs the symbol model with env.backend 'webgpu' on a software adapter, to WebAssembly's classes; 'auto' refuses that adapter", { timeout: 90_000 }, async () => {
    const window = melodyWindow();
    await withPage(['--enable-unsafe-webgpu'], async (tab) => {
      const adapter = await tab.evaluate(() => (globalThis as any).webgpuTest.adapter());
      // The adapter this machine has: Chromium's software one.
      expect(adapter, 'no WebGPU adapter with --enable-unsafe-webgpu').not.toBeNull();

      const wasm = await classes(tab, 'wasm', window);
      const gpu = await classes(tab, 'webgpu', window);
      if ('error' in wasm) throw new Error(`wasm: ${wasm.error.message}`);
      if ('error' in gpu) throw new Error(`webgpu: ${gpu.error.message}`);
      expect(wasm.backend).toBe('wasm');
      expect(gpu.backend).toBe('webgpu');
      // The model ran on the GPU, not on the WebGPU build's WebAssembly alone; WebAssembly used no GPU.
      expect(gpu.gpuSubmits).toBeGreaterThan(0);
      expect(wasm.gpuSubmits).toBe(0);
      expect(gpu.dims).toEqual(wasm.dims);
      // The window holds music, not only paper.
      expect(wasm.best.filter((c) => c !== 0).length).toBeGreaterThan(wasm.best.length / 20);
      const agree = wasm.best.filter((c, i) => c === gpu.best[i]).length / wasm.best.length;
      expect(agree).toBeGreaterThanOrEqual(MIN_ARGMAX_AGREEMENT);
      console.log(`WebGPU on ${adapter.architecture} (${adapter.vendor}): ${gpu.seconds.toFixed(2)} s for the 64 × 128 window, WebAssembly ${wasm.seconds.toFixed(3)} s; agreement ${agree}, ${gpu.gpuSubmits} GPU submissions`);

      // webgpuBase is set and the build is served, but the adapter is a software one: 'auto' stays on WebAssembly.
      expect(await resolve(tab, 'auto')).toEqual({ backend: 'wasm' });
    });
  });

  it("without WebGPU in the browser, 'webgpu' is BACKEND_UNAVAILABLE and 'auto' is WebAssembly", { timeout: 60_000 }, async () => {
    await withPage([], async (tab) => {
      const explicit = await resolve(tab, 'webgpu');
      expect(explicit.error?.code, JSON.stringify(explicit)).toBe('BACKEND_UNAVAILABLE');
      expect(explicit.error?.message).toContain('no GPU adapter');
      expect(await resolve(tab, 'auto')).toEqual({ backend: 'wasm' });
    });
  });
});
