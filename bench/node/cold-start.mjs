/**
 * Preloaded into each `scoresight recognize` process of `bench:speed --cold`
 * (`node --import ./bench/node/cold-start.mjs bin/scoresight.js …`): sets the
 * inference backend the built library uses (SCORESIGHT_BENCH_BACKEND: wasm or
 * native; unset leaves 'auto'), and at exit writes to SCORESIGHT_BENCH_REPORT
 * when Node had started (this module's first line, milliseconds since the
 * process began), when it exited, and the process's peak resident memory.
 * Both backends load the library here the same way, so their times compare.
 */
import { writeFileSync } from 'node:fs';

const started = performance.now();
const backend = process.env.SCORESIGHT_BENCH_BACKEND;
// The command line's own modules share this instance of `env` (the same chunk of dist/node).
if (backend) (await import('../../dist/node/index.js')).env.backend = backend;

process.on('exit', () => {
  const report = { started, exited: performance.now(), maxRss: process.resourceUsage().maxRSS * 1024 };
  writeFileSync(process.env.SCORESIGHT_BENCH_REPORT, JSON.stringify(report));
});
