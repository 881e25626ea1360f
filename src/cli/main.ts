/**
 * The `scoresight` command line for Node scripts.
 *
 *   scoresight recognize <page.pdf|.png|.jpg>... --out <dir> [--formats musicxml,mxl,midi,thumbnail.png] [--locale <bcp47>]
 *   scoresight convert <score.musicxml|.mxl> --out <dir> [--formats musicxml,mxl,midi]
 *   scoresight serve [--port 8080] [--host 127.0.0.1] [--tokens tokens.json] [--store <dir>] [--public-url <url>]
 *
 * Exit codes: 0 success, 1 a failure with its error code printed, 2 a usage error.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { OmrError } from '../errors.js';
import { writeMidi } from '../exports/midi.js';
import { writeMusicXml } from '../exports/musicxml.js';
import { writeMxl } from '../exports/mxl.js';
import { writeThumbnail } from '../exports/thumbnail.js';
import type { Raster } from '../image/raster.js';
import { readMusicXml } from '../import/musicxml/read-score.js';
import { RECOGNITION_MODEL_VERSION, recognizeScore, type RecognizeProgress } from '../recognize/recognize-score.js';
import type { Score } from '../score/model.js';
import { createOmrServer } from '../server/server.js';
import { loadTokens } from '../server/tokens.js';
import { LIBRARY_VERSION } from '../version.js';

const USAGE = `scoresight ${LIBRARY_VERSION}

Usage:
  scoresight recognize <file>... --out <dir> [--formats musicxml,mxl,midi,thumbnail.png] [--locale <bcp47>]
      Recognises the given PDF, PNG and JPEG files as the pages of one score
      and writes it as <dir>/<name>.<ext> for each format (musicxml by
      default), <name> being the first file's name. --locale names the
      language of the lyrics and title (BCP 47, e.g. de, en-GB; English by
      default); text in a language without installed data is read as well
      as its script allows.
  scoresight convert <score.musicxml|score.mxl> --out <dir> [--formats musicxml,mxl,midi]
      Reads a MusicXML or compressed MusicXML score and writes it in the given
      formats as <dir>/<name>.<ext> (musicxml by default).
  scoresight serve [--port 8080] [--host 127.0.0.1] [--tokens tokens.json] [--store <dir>] [--public-url <url>]
      Runs the Music Recognition Service's /v2 interface over HTTP at
      http://<host>:<port>/v2 (--host 0.0.0.0 to take connections from other
      machines). --tokens names a JSON file of accepted bearer tokens:
        [{ "token": "<secret, 8+ characters>", "account": "alice",
           "scopes": ["omr", "scores", "tasks.readonly"],
           "kind": "personal" }]
      kind is "personal" (default) or "oauth"; an oauth token needs "scores"
      to create library scores and "tasks.readonly" to poll tasks, every
      token needs "omr"; an optional "rateLimit" sets the account's requests
      per hour (default 7200). --store keeps each account's jobs in
      <dir>/<account> so they survive a restart (memory otherwise).
      --public-url is the base URL clients reach the server at, /v2
      included (e.g. https://omr.example.org/v2 behind a proxy): download
      links and list pages are built on it. Without it, links use the
      listening address (or the Host header when it names that address).
      Ctrl-C (SIGINT) or SIGTERM stops it gracefully: requests in flight
      finish, running jobs resume on the next start.
  scoresight --version
  scoresight --help
`;

interface Output {
  score: Score;
  /** The first page, for the thumbnail (recognition only). */
  firstPage?: Raster;
  modelVersion?: string;
}

const WRITERS: Record<string, { ext: string; recognitionOnly?: boolean; write: (out: Output) => string | Uint8Array }> = {
  musicxml: { ext: 'musicxml', write: (o) => writeMusicXml(o.score, { modelVersion: o.modelVersion }) },
  mxl: { ext: 'mxl', write: (o) => writeMxl(o.score, { modelVersion: o.modelVersion }) },
  midi: { ext: 'mid', write: (o) => writeMidi(o.score) },
  'thumbnail.png': { ext: 'thumbnail.png', recognitionOnly: true, write: (o) => writeThumbnail(o.firstPage!) },
};

const STAGE_LABEL: Record<RecognizeProgress['stage'], string> = {
  prepared: 'page prepared',
  staves: 'staves found',
  symbols: 'symbols read',
  assembled: 'assembled',
};

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Stops `serve` as SIGINT and SIGTERM do (for embedding and tests). */
  shutdown?: AbortSignal;
}

const consoleIO: CliIO = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
};

export async function main(argv: string[], io: CliIO = consoleIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: 'string', short: 'o' },
        formats: { type: 'string', short: 'f', default: 'musicxml' },
        locale: { type: 'string', short: 'l' },
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        tokens: { type: 'string' },
        store: { type: 'string' },
        'public-url': { type: 'string' },
        version: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    io.stderr(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    io.stdout(`${LIBRARY_VERSION}\n`);
    return 0;
  }
  const [command, ...inputs] = positionals;
  if (values.help || !command) {
    (values.help ? io.stdout : io.stderr)(USAGE);
    return values.help ? 0 : 2;
  }
  if (command === 'serve') {
    if (inputs.length) {
      io.stderr(`serve takes no file arguments.\n\n${USAGE}`);
      return 2;
    }
    return serve(values, io);
  }
  if (command !== 'convert' && command !== 'recognize') {
    io.stderr(`Unknown command "${command}".\n\n${USAGE}`);
    return 2;
  }
  const formats = values.formats.split(',').map((f) => f.trim()).filter(Boolean);
  const available = Object.keys(WRITERS).filter((f) => command === 'recognize' || !WRITERS[f]!.recognitionOnly);
  const unknown = formats.filter((f) => !available.includes(f));
  if (unknown.length || !formats.length) {
    io.stderr(`Unknown format(s): ${unknown.join(', ') || '(none)'}. Choose from ${available.join(', ')}.\n`);
    return 2;
  }
  if (values.locale !== undefined && !isLocale(values.locale)) {
    io.stderr(`--locale takes a BCP 47 language code such as de or en-GB, not "${values.locale}".\n`);
    return 2;
  }
  if (command === 'recognize') {
    if (!inputs.length || !values.out) {
      io.stderr(`recognize takes one or more page files and --out <dir>.\n\n${USAGE}`);
      return 2;
    }
    return recognize(inputs, values.out, formats, io, values.locale);
  }
  if (inputs.length !== 1 || !values.out) {
    io.stderr(`convert takes one score and --out <dir>.\n\n${USAGE}`);
    return 2;
  }
  const input = inputs[0]!;
  try {
    const score = readMusicXml(new Uint8Array(await readFile(input)));
    await mkdir(values.out, { recursive: true });
    const name = basename(input, extname(input));
    for (const format of formats) {
      const writer = WRITERS[format]!;
      const path = join(values.out, `${name}.${writer.ext}`);
      await writeFile(path, writer.write({ score }));
      io.stdout(`wrote ${path}\n`);
    }
    return 0;
  } catch (err) {
    const error = OmrError.from(err);
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      io.stderr(`error INVALID_ARGUMENT: ${input} does not exist.\n`);
      return 1;
    }
    io.stderr(`error ${error.code}: ${error.message}\n`);
    return 1;
  }
}

async function serve(values: { port?: string; host?: string; tokens?: string; store?: string; 'public-url'?: string }, io: CliIO): Promise<number> {
  const port = Number(values.port ?? 8080);
  if (!/^\d+$/.test(values.port ?? '8080') || port > 65535) {
    io.stderr(`--port takes a port number from 0 to 65535, not "${values.port}".\n`);
    return 2;
  }
  const tokensFile = values.tokens ?? 'tokens.json';
  let server;
  try {
    const tokens = await loadTokens(tokensFile);
    server = createOmrServer({ tokens, ...(values.store ? { storeDirectory: values.store } : {}), ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}) });
    const url = await server.listen(port, values.host ?? '127.0.0.1');
    const accounts = new Set(tokens.map((t) => t.account)).size;
    io.stdout(`ScoreSight OMR service listening on ${url} (${accounts} account(s), jobs kept ${values.store ? `in ${values.store}` : 'in memory'})\n`);
  } catch (err) {
    await server?.close();
    const error = OmrError.from(err);
    const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
    io.stderr(`error ${inUse ? 'INVALID_ARGUMENT' : error.code}: ${inUse ? `port ${port} is already in use; choose another with --port.` : error.message}\n`);
    if (!inUse && !values.tokens) io.stderr(`(serve reads its bearer tokens from ./tokens.json unless --tokens names another file; see --help.)\n`);
    return 1;
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      io.shutdown?.removeEventListener('abort', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (io.shutdown?.aborted) stop();
    else io.shutdown?.addEventListener('abort', stop, { once: true });
  });
  io.stdout('Stopping: finishing requests in flight…\n');
  await server.close();
  io.stdout('Stopped.\n');
  return 0;
}

/** BCP 47 shape: a 2–3 letter language, then subtags (script, region, variant). */
function isLocale(value: string): boolean {
  return /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(value);
}

async function recognize(inputs: string[], outDir: string, formats: string[], io: CliIO, locale?: string): Promise<number> {
  const files = [];
  for (const input of inputs) {
    try {
      files.push({ filename: basename(input), data: new Uint8Array(await readFile(input)) });
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(err as Error).message})`;
      io.stderr(`error INVALID_ARGUMENT: ${input} ${reason}.\n`);
      return 1;
    }
  }
  try {
    const started = performance.now();
    let firstPage: Raster | undefined;
    // Progress on a terminal only: a script capturing stderr gets no carriage-return noise.
    const tty = process.stderr.isTTY === true && io === consoleIO;
    const score = await recognizeScore(files, {
      ...(locale ? { locales: [locale] } : {}),
      onFirstPage: (raster) => (firstPage = raster),
      onProgress: ({ page, stage }) => {
        if (tty) io.stderr(`\rpage ${page + 1}: ${STAGE_LABEL[stage]}\u001b[K`);
      },
    });
    if (tty) io.stderr('\r\u001b[K');
    const notes = score.parts.reduce((n, p) => n + p.measures.reduce((m, measure) => m + measure.voices.reduce((v, voice) => v + voice.events.filter((e) => e.kind === 'note').length, 0), 0), 0);
    io.stdout(`recognised ${score.parts.length} part(s), ${score.parts[0]?.measures.length ?? 0} measures, ${notes} notes in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    await mkdir(outDir, { recursive: true });
    const name = basename(inputs[0]!, extname(inputs[0]!));
    for (const format of formats) {
      const writer = WRITERS[format]!;
      const path = join(outDir, `${name}.${writer.ext}`);
      await writeFile(path, writer.write({ score, firstPage, modelVersion: RECOGNITION_MODEL_VERSION }));
      io.stdout(`wrote ${path}\n`);
    }
    return 0;
  } catch (err) {
    const error = OmrError.from(err);
    io.stderr(`error ${error.code}: ${error.message}\n`);
    return 1;
  }
}
