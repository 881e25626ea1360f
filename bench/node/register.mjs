/**
 * `node --import ./bench/node/register.mjs bench/….ts`: the benchmarks run
 * under plain Node, with only the project's own TypeScript compiled as it
 * loads (esbuild, types stripped) and every dependency loaded as published,
 * as the built library loads them. A general TypeScript runner (tsx) also
 * recompiles dependencies: pdf.js's multi-megabyte bundles cost it some
 * 370 MB of memory that no user's process ever holds, which would swamp the
 * peak-memory figure.
 */
import { register } from 'node:module';

register('./typescript-hooks.mjs', import.meta.url);
