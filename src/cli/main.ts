/**
 * The `scoresight` command line for Node scripts.
 *
 *   scoresight recognize <page.pdf|.png|.jpg|…>... [--out <dir>] [--formats musicxml,mxl,midi,thumbnail.png] [--locale <bcp47>]
 *                        [--pages 1,3-5] [--no-text] [--json] [--quiet] [--debug <dir>]
 *   scoresight convert <score.musicxml|.mxl|.mid|.mei> --out <dir> [--formats musicxml,mxl,midi]
 *   scoresight serve [--port 8080] [--host 127.0.0.1] [--tokens tokens.json] [--store <dir>]
 *                    [--public-url <url>] [--page-timeout 120] [--memory-budget <MiB>] [--credits <n>]
 *
 * Exit codes: 0 success, 1 a failure with its error code printed, 2 a usage error
 * (also `--pages` beyond the document, found once the files are read).
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
import type { Score } from '../score/model.js';
import { createOmrServer } from '../server/server.js';
import { loadTokens } from '../server/tokens.js';
import { LIBRARY_VERSION } from '../version.js';
import { parsePageList } from './page-list.js';
import { CONVERT_INPUTS, RECOGNIZE_INPUTS, readScoreFile } from './read-score-file.js';
import { runRecognize } from './recognize-command.js';

/** Width help text is wrapped to. */
const HELP_WIDTH = 80;

/** Text as lines of at most {@link HELP_WIDTH} characters, each starting with `indent`. */
function wrap(text: string, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent.length + line.length + 1 + word.length > HELP_WIDTH) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, indent + line].join('\n');
}

const USAGE = `scoresight ${LIBRARY_VERSION}

Usage:
  scoresight recognize <file>... [--out <dir>] [--formats musicxml,mxl,midi,thumbnail.png]
                       [--locale <bcp47>] [--pages 1,3-5] [--no-text] [--json] [--quiet]
                       [--debug <dir>]
      Recognises the given files as the pages of one score, every page of a
      PDF, TIFF or HEIC file. It reads
${wrap(`${RECOGNIZE_INPUTS}.`, '        ')}
      Writes the score as <dir>/<name>.<ext> for each format (musicxml by
      default), <name> being the first file's name and <dir> --out or,
      without it, the first file's folder.
        --locale   the language of the lyrics and title (BCP 47, e.g. de,
                   en-GB; English by default); text in a language without
                   installed data is read as well as its script allows.
        --pages    only these pages, counted from 1 over all the files.
        --no-text  skip reading text (lyrics, title, part names, tempo and
                   expression words): faster; parts keep generic names.
        --json     print one JSON summary on stdout and nothing else there:
                   parts, measures, notes, per-page timings, warnings,
                   low-confidence measures, output paths ({"ok": false,
                   "error": {...}} on failure).
        --quiet    print nothing but errors.
        --debug    also write, per page, a picture of each recognition stage
                   with a JSON summary beside it: <dir>/page-<n>/1-staves.png
                   … 6-notes.png (staves, class map, symbols, measures,
                   voices, final notes), to see why a measure went wrong.
      Progress goes to stderr: a bar on a terminal, a line per page elsewhere.
  scoresight convert <score> --out <dir> [--formats musicxml,mxl,midi]
      Reads a score and writes it in the given formats as <dir>/<name>.<ext>
      (musicxml by default). It reads
${wrap(`${CONVERT_INPUTS}.`, '        ')}
  scoresight serve [--port 8080] [--host 127.0.0.1] [--tokens tokens.json] [--store <dir>]
                   [--public-url <url>] [--page-timeout 120] [--memory-budget <MiB>] [--credits <n>]
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
      --page-timeout is how many seconds one page may be read (default
      120): a job whose page takes longer ends in error with ENGINE_TIMEOUT,
      and the worker reading it is replaced.
      --memory-budget is how many MiB of memory the server may hold while
      pages are read (default 4096, or three quarters of the machine's
      memory where that is less): past it, the job whose page has run
      longest ends in error with ENGINE_OUT_OF_MEMORY, and its worker is
      replaced.
      --credits gives each account a balance of n credits, charged one per
      page when a job starts and refunded when it fails or is canceled;
      kept in the store, it is the starting balance only on the first start
      with a given --store. Without it, credits are unlimited.
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

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Stops `serve` as SIGINT and SIGTERM do (for embedding and tests). */
  shutdown?: AbortSignal;
  /** Whether stderr is a terminal, where progress is a bar redrawn in place (default false: a line per page). */
  isTTY?: boolean;
}

const consoleIO: CliIO = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  get isTTY() {
    return process.stderr.isTTY === true;
  },
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
        pages: { type: 'string' },
        'no-text': { type: 'boolean' },
        json: { type: 'boolean' },
        quiet: { type: 'boolean', short: 'q' },
        debug: { type: 'string' },
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        tokens: { type: 'string' },
        store: { type: 'string' },
        'public-url': { type: 'string' },
        'page-timeout': { type: 'string' },
        'memory-budget': { type: 'string' },
        credits: { type: 'string' },
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
    if (!inputs.length) {
      io.stderr(`recognize takes one or more page files.\n\n${USAGE}`);
      return 2;
    }
    let pages: number[] | undefined;
    try {
      pages = values.pages === undefined ? undefined : parsePageList(values.pages);
    } catch (err) {
      io.stderr(`${(err as Error).message}\n`);
      return 2;
    }
    return runRecognize(
      {
        inputs,
        outDir: values.out,
        formats: formats.map((name) => ({ name, ext: WRITERS[name]!.ext, write: WRITERS[name]!.write })),
        ...(values.locale ? { locale: values.locale } : {}),
        ...(pages ? { pages } : {}),
        readText: !values['no-text'],
        json: values.json === true,
        quiet: values.quiet === true,
        ...(values.debug !== undefined ? { debugDir: values.debug } : {}),
      },
      { stdout: io.stdout, stderr: io.stderr, isTTY: io.isTTY === true },
    );
  }
  const recognizeOnly = (['pages', 'no-text', 'json', 'quiet', 'debug'] as const).filter((option) => values[option] !== undefined);
  if (recognizeOnly.length) {
    io.stderr(`--${recognizeOnly[0]} is an option of recognize, not of ${command}.\n\n${USAGE}`);
    return 2;
  }
  if (inputs.length !== 1 || !values.out) {
    io.stderr(`convert takes one score and --out <dir>.\n\n${USAGE}`);
    return 2;
  }
  const input = inputs[0]!;
  try {
    const score = readScoreFile(basename(input), new Uint8Array(await readFile(input)));
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

async function serve(
  values: { port?: string; host?: string; tokens?: string; store?: string; 'public-url'?: string; 'page-timeout'?: string; 'memory-budget'?: string; credits?: string },
  io: CliIO,
): Promise<number> {
  const port = Number(values.port ?? 8080);
  if (!/^\d+$/.test(values.port ?? '8080') || port > 65535) {
    io.stderr(`--port takes a port number from 0 to 65535, not "${values.port}".\n`);
    return 2;
  }
  const pageTimeout = values['page-timeout'];
  if (pageTimeout !== undefined && !(/^\d+(\.\d+)?$/.test(pageTimeout) && Number(pageTimeout) > 0)) {
    io.stderr(`--page-timeout takes a number of seconds above 0, not "${pageTimeout}".\n`);
    return 2;
  }
  const memoryBudget = values['memory-budget'];
  if (memoryBudget !== undefined && !(/^\d{1,7}$/.test(memoryBudget) && Number(memoryBudget) > 0)) {
    io.stderr(`--memory-budget takes a whole number of MiB above 0, not "${memoryBudget}".\n`);
    return 2;
  }
  const credits = values.credits;
  if (credits !== undefined && !/^\d{1,9}$/.test(credits)) {
    io.stderr(`--credits takes a whole number of credits (pages), not "${credits}".\n`);
    return 2;
  }
  const clientOptions = {
    ...(pageTimeout !== undefined ? { pageTimeoutMs: Number(pageTimeout) * 1000 } : {}),
    ...(memoryBudget !== undefined ? { memoryBudgetMb: Number(memoryBudget) } : {}),
    ...(credits !== undefined ? { credits: Number(credits) } : {}),
  };
  const tokensFile = values.tokens ?? 'tokens.json';
  let server;
  try {
    const tokens = await loadTokens(tokensFile);
    server = createOmrServer({
      tokens,
      ...(values.store ? { storeDirectory: values.store } : {}),
      ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
      ...(Object.keys(clientOptions).length ? { clientOptions } : {}),
    });
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
