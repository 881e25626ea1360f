/**
 * The `scoresight` command line for Node scripts.
 *
 *   scoresight convert <score.musicxml|.mxl> --out <dir> [--formats musicxml,mxl,midi]
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
import { readMusicXml } from '../import/musicxml/read-score.js';
import type { Score } from '../score/model.js';
import { LIBRARY_VERSION } from '../version.js';

const USAGE = `scoresight ${LIBRARY_VERSION}

Usage:
  scoresight convert <score.musicxml|score.mxl> --out <dir> [--formats musicxml,mxl,midi]
      Reads a MusicXML or compressed MusicXML score and writes it in the given
      formats as <dir>/<name>.<ext> (musicxml by default).
  scoresight --version
  scoresight --help
`;

const WRITERS: Record<string, { ext: string; write: (score: Score) => string | Uint8Array }> = {
  musicxml: { ext: 'musicxml', write: (s) => writeMusicXml(s) },
  mxl: { ext: 'mxl', write: (s) => writeMxl(s) },
  midi: { ext: 'mid', write: (s) => writeMidi(s) },
};

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
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
  if (command !== 'convert') {
    io.stderr(`Unknown command "${command}".\n\n${USAGE}`);
    return 2;
  }
  const formats = values.formats.split(',').map((f) => f.trim()).filter(Boolean);
  const unknown = formats.filter((f) => !WRITERS[f]);
  if (unknown.length || !formats.length) {
    io.stderr(`Unknown format(s): ${unknown.join(', ') || '(none)'}. Choose from ${Object.keys(WRITERS).join(', ')}.\n`);
    return 2;
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
      await writeFile(path, writer.write(score));
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
