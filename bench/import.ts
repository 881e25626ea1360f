/**
 * `npm run bench:import [-- --file score.mxl] [--runs 4]` — a score import
 * as a server runs it: the engine with a file store and the parse worker.
 * Prints each import's seconds and the longest stall of the calling thread
 * meanwhile (the time it could answer no other request). Without `--file`,
 * a generated 24 MB MusicXML score of 20 parts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createClient } from '../src/jobs/local-client.js';
import { createFileStore } from '../src/storage/fs-store.js';
import { createParseWorker } from '../src/workers/parse-pool.js';
import { largeMusicXml } from '../test/support/large-score.js';

const GENERATED_BYTES = 24e6;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { file: { type: 'string' }, runs: { type: 'string', default: '4' } } });
  const data = values.file ? new Uint8Array(readFileSync(values.file)) : largeMusicXml(GENERATED_BYTES);
  const filename = values.file ? basename(values.file) : 'generated.musicxml';
  const dir = mkdtempSync(join(tmpdir(), 'scoresight-bench-import-'));
  const parser = createParseWorker();
  const client = createClient({ store: await createFileStore(dir), parser, sweepIntervalMs: 0 });
  try {
    console.log(`${filename}, ${(data.length / 1e6).toFixed(1)} MB`);
    for (let run = 1; run <= Math.max(1, Number(values.runs) || 4); run++) {
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const started = performance.now();
      const answer = await client.importScore({ filename, data: Buffer.from(data).toString('base64'), dataEncoding: 'base64' });
      delay.disable();
      const seconds = (performance.now() - started) / 1000;
      console.log(`import ${run}: ${seconds.toFixed(2)} s, status ${answer.status}; longest stall of this thread ${(delay.max / 1e6).toFixed(0)} ms`);
    }
  } finally {
    await client.close();
    await parser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
