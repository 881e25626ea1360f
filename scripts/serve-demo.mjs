#!/usr/bin/env node
/**
 * `npm run demo`: serves the drop-in demo page with the self-contained
 * browser bundle, on http://127.0.0.1:8080/ unless told otherwise. No
 * dependencies: Node's http module and a table of MIME types.
 *
 * The site it serves (and writes out with --export):
 *   /                    demo/ (index.html, demo.js, demo.css, examples/)
 *   /scoresight/         dist/bundle/ — the library, its worker, models/ and wasm/
 *   /vendor/verovio/     Verovio's ES module build, from node_modules/verovio/dist/
 *
 *   node scripts/serve-demo.mjs [--port 8080] [--host 127.0.0.1] [--isolated] [--export DIR] [--help]
 *
 * --isolated  sends the COOP/COEP headers that make the page cross-origin
 *             isolated, so onnxruntime-web runs inference on several threads.
 * --export    copies the site into DIR instead of serving it: a folder to put on any static host.
 *
 * The bundle is built first (`npm run build`) when dist/bundle/ is missing.
 * A busy port or a wrong argument is answered in one line (exit code 1 or 2), not a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** URL prefix → folder, longest prefix first; `only` limits a mount to the files listed. */
export const MOUNTS = [
  { prefix: '/scoresight/', dir: path.join(ROOT, 'dist/bundle') },
  { prefix: '/vendor/verovio/', dir: path.join(ROOT, 'node_modules/verovio/dist'), only: ['verovio.mjs', 'verovio-module.mjs'] },
  { prefix: '/', dir: path.join(ROOT, 'demo') },
];

export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.heic': 'image/heic',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.pdf': 'application/pdf',
  '.musicxml': 'application/vnd.recordare.musicxml+xml',
  '.mxl': 'application/vnd.recordare.musicxml',
  '.mid': 'audio/midi',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file a URL path names, or undefined when it names none (or tries to leave its folder). */
export function resolvePath(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const mount = MOUNTS.find((m) => decoded.startsWith(m.prefix));
  if (!mount) return undefined;
  let rest = decoded.slice(mount.prefix.length);
  if (rest === '' || rest.endsWith('/')) rest += 'index.html';
  if (mount.only && !mount.only.includes(rest)) return undefined;
  const file = path.resolve(mount.dir, rest);
  return file.startsWith(mount.dir + path.sep) ? file : undefined;
}

/** Builds the bundle when it is missing. */
export function ensureBuilt() {
  if (existsSync(path.join(ROOT, 'dist/bundle/scoresight.js'))) return;
  console.log('dist/bundle/ is missing: building it (npm run build)…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) throw new Error('npm run build failed');
}

/**
 * Starts the server; port 0 picks a free one. Resolves with its address
 * and a `close()`.
 */
export function startDemoServer({ port = 8080, host = '127.0.0.1', isolated = false, quiet = true } = {}) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const headers = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' };
    if (isolated) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
    }
    const send = (status, body, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { ...headers, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'Method not allowed\n');
    const file = resolvePath(url.pathname);
    try {
      if (!file) throw Object.assign(new Error('not found'), { code: 'ENOENT' });
      const info = await stat(file);
      if (info.isDirectory()) {
        res.writeHead(301, { ...headers, Location: `${url.pathname}/` });
        return res.end();
      }
      const body = await readFile(file);
      const type = MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
      send(200, body, type);
      if (!quiet) console.log(`200 ${url.pathname}`);
    } catch (err) {
      const missing = err?.code === 'ENOENT' || err?.code === 'ENOTDIR';
      send(missing ? 404 : 500, missing ? `Not found: ${url.pathname}\n` : 'Internal error\n');
      if (!quiet) console.log(`${missing ? 404 : 500} ${url.pathname}`);
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        url: `http://${host}:${address.port}/`,
        port: address.port,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/** Writes the served site into `dir`: a static folder with the same layout. */
export function exportSite(dir) {
  for (const mount of MOUNTS) {
    const target = path.join(dir, mount.prefix);
    mkdirSync(target, { recursive: true });
    for (const name of mount.only ?? ['']) {
      cpSync(path.join(mount.dir, name), path.join(target, name), {
        recursive: true,
        // The library's source maps stay behind; everything else is needed.
        filter: (src) => !src.endsWith('.map'),
      });
    }
  }
}

/** What `--help` prints, and what a wrong argument is answered with. */
export const USAGE = `Usage: npm run demo -- [options]   (or: node scripts/serve-demo.mjs [options])

Serves the ScoreSight demo page on http://127.0.0.1:8080/ (builds dist/bundle/ first if it is missing).

  --port N       listen on port N (default 8080; 0 picks a free one)
  --host H       listen on host H (default 127.0.0.1; 0.0.0.0 for other machines)
  --isolated     send COOP/COEP headers: cross-origin isolated, inference on several threads
  --export DIR   write the static site into DIR instead of serving it
  --help         print this text
`;

/** A mistake on the command line: printed as one line with the usage, exit code 2, never as a stack trace. */
class UsageError extends Error {}

/** The options of the command line, or `{ help: true }`; throws `UsageError` on a wrong argument. */
export function parseArgs(argv) {
  const options = { port: 8080, host: '127.0.0.1', isolated: false, export: undefined, help: false };
  const value = (i, name) => {
    const next = argv[i];
    if (next === undefined || next.startsWith('--')) throw new UsageError(`${name} needs a value`);
    return next;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--isolated') options.isolated = true;
    else if (arg === '--port') options.port = Number(value(++i, '--port'));
    else if (arg === '--host') options.host = value(++i, '--host');
    else if (arg === '--export') options.export = value(++i, '--export');
    else throw new UsageError(`unknown argument ${arg}`);
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) throw new UsageError('--port takes a port number from 0 to 65535');
  return options;
}

/**
 * Why the server could not listen, in one line a person can act on, or
 * undefined for an error that is not about the address (a real bug: its
 * stack is worth printing).
 */
export function listenProblem(err, { port, host }) {
  if (err?.code === 'EADDRINUSE') return `Port ${port} on ${host} is already in use (another demo server?). Stop that program, or pick another port: npm run demo -- --port ${port === 65535 ? 8081 : port + 1} (--port 0 picks a free one).`;
  if (err?.code === 'EACCES') return `Port ${port} on ${host} needs more privileges than this user has. Pick a port above 1023: npm run demo -- --port 8080.`;
  if (err?.code === 'EADDRNOTAVAIL' || err?.code === 'ENOTFOUND') return `Host ${host} is not an address of this machine. Use 127.0.0.1, or 0.0.0.0 for every interface.`;
  return undefined;
}

async function main(argv) {
  let options;
  try {
    options = parseArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`serve-demo: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  ensureBuilt();
  if (options.export) {
    exportSite(options.export);
    console.log(`Wrote the demo site to ${options.export}`);
    return 0;
  }
  try {
    const { url } = await startDemoServer({ ...options, quiet: false });
    console.log(`ScoreSight demo: ${url}${options.isolated ? ' (cross-origin isolated: inference on several threads)' : ''}`);
    return undefined; // keeps serving
  } catch (err) {
    const problem = listenProblem(err, options);
    if (!problem) throw err;
    process.stderr.write(`serve-demo: ${problem}\n`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const code = await main(process.argv.slice(2));
  if (code !== undefined) process.exitCode = code;
}
