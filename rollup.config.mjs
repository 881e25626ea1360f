// Builds the library for Node and for browsers, the command line, and (through
// tsc) the type declarations. Dependencies stay external: an application's
// bundler or Node resolves them.
import typescript from '@rollup/plugin-typescript';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = (id) =>
  id.startsWith('node:') || Object.keys(pkg.dependencies ?? {}).some((dep) => id === dep || id.startsWith(`${dep}/`));

const ts = () =>
  typescript({ tsconfig: './tsconfig.build.json', declaration: false, declarationMap: false, outDir: undefined, sourceMap: true });

// src/env.ts finds models/ one folder up from src/; a built file sits two up (dist/node/*.js), so the
// built copy looks two folders up. Chunks stay beside their entries to keep that depth fixed.
const assetPaths = () => ({
  name: 'asset-paths',
  transform(code, id) {
    if (!id.replaceAll('\\', '/').endsWith('/src/env.ts')) return null;
    if (!code.includes("'../models/'")) throw new Error('src/env.ts no longer names ../models/: update rollup.config.mjs');
    return { code: code.replace("'../models/'", "'../../models/'"), map: null };
  },
});

const build = (input, dir) => ({
  input,
  external,
  plugins: [assetPaths(), ts()],
  output: { dir, format: 'es', sourcemap: true, entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
  onwarn(warning, warn) {
    // xmlbuilder2 and fflate are external; anything else unresolved is a real problem.
    if (warning.code === 'UNRESOLVED_IMPORT') throw new Error(warning.message);
    warn(warning);
  },
});

// The recognition worker is an entry of its own in both builds, so that the pool's
// `new URL('./recognition-worker.js', import.meta.url)` finds it beside index.js.
const worker = { 'recognition-worker': 'src/workers/recognition-worker.ts' };

export default [
  build({ index: 'src/index.ts', cli: 'src/cli/main.ts', ...worker }, 'dist/node'),
  build({ index: 'src/index.ts', ...worker }, 'dist/browser'),
];
