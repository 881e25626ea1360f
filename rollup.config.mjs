// Builds the library for Node and for browsers, the command line, the self-contained
// browser bundle, and (through tsc) the type declarations.
//
// - dist/node, dist/browser: dependencies stay external; an application's bundler or Node resolves them.
//   dist/browser needs no Node module and names every file it loads (the worker, the models) with
//   `new URL('./…', import.meta.url)`, which Vite and webpack copy into the application's build.
// - dist/bundle: everything bundled, for pages without a bundler (the drop-in demo): the library
//   (scoresight.js), the recognition and parse workers (recognition-worker.js, parse-worker.js), lazily loaded chunks beside them
//   (pdf.js and its in-thread worker, the HEIC and WebP decoders), and the assets they fetch:
//   models/ (the ONNX models) and wasm/ (onnxruntime-web's WebAssembly and its loader, libwebp).
//   Every asset URL is relative to the bundle's own files (import.meta.url): no CDN, works offline.
//   These are the package's only copies: dist/node and dist/browser load the same models from
//   dist/bundle/models/, and leave onnxruntime-web and libwebp to find their WebAssembly in their own packages.
//
// No source maps: they were 11 MiB of the published package.
import commonjs from '@rollup/plugin-commonjs';
import resolve from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';
import { builtinModules, createRequire } from 'node:module';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const require = createRequire(import.meta.url);
/** Every package the library may import at run time, whichever kind of dependency it is. */
const runtimeDeps = [pkg.dependencies, pkg.optionalDependencies, pkg.peerDependencies].flatMap((deps) => Object.keys(deps ?? {}));
const external = (id) => id.startsWith('node:') || runtimeDeps.some((dep) => id === dep || id.startsWith(`${dep}/`));

const ts = () =>
  typescript({ tsconfig: './tsconfig.build.json', declaration: false, declarationMap: false, outDir: undefined, sourceMap: false });

/** Rewrites one string literal in one source file, failing the build when the literal is gone. */
const rewrite = (name, file, replacements) => ({
  name,
  transform(code, id) {
    if (!id.replaceAll('\\', '/').endsWith(file)) return null;
    for (const [from, to] of replacements) {
      if (!code.includes(from)) throw new Error(`${file} no longer contains ${from}: update rollup.config.mjs (${name})`);
      code = code.replaceAll(from, to);
    }
    return { code, map: null };
  },
});

// src/env.ts names each model in models/, one folder up from src/. The built files (dist/node/*.js,
// dist/browser/*.js) use the bundle's copy, dist/bundle/models/, the package's only one. Chunks stay beside
// their entries to keep that path fixed.
const assetPaths = () => rewrite('asset-paths', '/src/env.ts', [["'../models/", "'../bundle/models/"]]);

/** Empties an output folder first: chunk names carry content hashes, and old chunks and maps would pile up and ship. */
const clean = (dir) => ({ name: 'clean', buildStart: () => rmSync(dir, { recursive: true, force: true }) });

// onnxruntime-node (the native backend, an optional peer dependency) is for Node only: browser builds replace its one
// import with a rejection, so that no bundler looks for it, and refuse any output that still names it.
const NATIVE_RUNTIME = 'onnxruntime-node';
const withoutNativeRuntime = () =>
  rewrite('without-native-runtime', '/src/symbols/onnx-model.ts', [
    [`import('${NATIVE_RUNTIME}')`, `Promise.reject(new Error('${NATIVE_RUNTIME} runs in Node only'))`],
  ]);
const noNativeRuntime = () => ({
  name: 'no-native-runtime',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      const imports = [...chunk.imports, ...chunk.dynamicImports].filter((id) => id === NATIVE_RUNTIME || id.startsWith(`${NATIVE_RUNTIME}/`));
      if (imports.length || chunk.code.includes(`import('${NATIVE_RUNTIME}`) || chunk.code.includes(`import("${NATIVE_RUNTIME}`)) {
        throw new Error(`${chunk.fileName} imports ${NATIVE_RUNTIME}, which browsers cannot load`);
      }
    }
  },
});

/**
 * The browser build imports onnxruntime-web's WebAssembly-only build, as the self-contained bundle does:
 * an application's bundler then copies its 14 MB WebAssembly (named by `new URL(…, import.meta.url)` in
 * it), not the default build's 28 MB one with WebGPU, which ScoreSight never uses.
 */
const BROWSER_PATHS = { 'onnxruntime-web': 'onnxruntime-web/wasm' };

/**
 * An application's bundler would need a stand-in for any Node module the browser build imported, even on a
 * path only Node takes: Node's modules are reached there through `process.getBuiltinModule`, and an import
 * of one fails the build.
 */
const noNodeImports = () => ({
  name: 'no-node-imports',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      const node = chunk.type === 'chunk' ? [...chunk.imports, ...chunk.dynamicImports].filter(nodeBuiltin) : [];
      if (node.length) throw new Error(`dist/browser/${chunk.fileName} imports ${node.join(', ')}, which a bundler would have to stand in for`);
    }
  },
});

const build = (input, dir, { browser = false } = {}) => ({
  input,
  external,
  plugins: [clean(dir), assetPaths(), ...(browser ? [withoutNativeRuntime(), noNativeRuntime(), noNodeImports()] : []), ts()],
  output: { dir, format: 'es', sourcemap: false, entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js', ...(browser && { paths: BROWSER_PATHS }) },
  onwarn(warning, warn) {
    // The runtime dependencies are external; anything else unresolved is a real problem.
    if (warning.code === 'UNRESOLVED_IMPORT') throw new Error(warning.message);
    warn(warning);
  },
});

// The recognition and parse workers are entries of their own in both builds, so that the pools'
// `new URL('./recognition-worker.js', import.meta.url)` and `new URL('./parse-worker.js', …)` find them beside index.js.
const worker = { 'recognition-worker': 'src/workers/recognition-worker.ts', 'parse-worker': 'src/workers/parse-worker.ts' };

// ---------------------------------------------------------------------------
// The self-contained browser bundle

const BUNDLE = 'dist/bundle';
/** A file of an installed package, by its path inside the package (whatever the package exports). */
const pkgFile = (spec) => {
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
  const dir = require.resolve.paths(name).map((base) => path.join(base, name)).find((d) => existsSync(`${d}/package.json`));
  if (!dir) throw new Error(`rollup.config.mjs: ${name} is not installed`);
  return path.join(dir, spec.slice(name.length));
};
const ortDist = pkgFile('onnxruntime-web/dist');

/**
 * Which files of a dependency the bundle takes, where the package offers several:
 * - onnxruntime-web: the WebAssembly-only build whose Emscripten loader is a file of its own
 *   (wasm/ort-wasm-simd-threaded.mjs, which also starts the inference threads of an isolated page),
 *   rather than the default build with WebGPU/JSEP and its 28 MB WebAssembly.
 * - pdf.js: the minified builds of the library and of its worker (which runs in-thread).
 */
const aliases = {
  'onnxruntime-web': `${ortDist}/ort.wasm.min.mjs`,
  'pdfjs-dist': pkgFile('pdfjs-dist/build/pdf.min.mjs'),
  'pdfjs-dist/build/pdf.worker.mjs': pkgFile('pdfjs-dist/build/pdf.worker.min.mjs'),
};
const alias = () => ({
  name: 'bundle-aliases',
  resolveId: (id) => aliases[id] ?? null,
});

/** The assets the bundle fetches at run time, copied beside it: [source, destination in dist/bundle]. */
const ASSETS = [
  ['models/symbols.onnx', 'models/symbols.onnx'],
  ['models/digits.onnx', 'models/digits.onnx'],
  ['models/marks.onnx', 'models/marks.onnx'],
  ['models/dynamics.onnx', 'models/dynamics.onnx'],
  ['models/pedals.onnx', 'models/pedals.onnx'],
  [`${ortDist}/ort-wasm-simd-threaded.mjs`, 'wasm/ort-wasm-simd-threaded.mjs'],
  [`${ortDist}/ort-wasm-simd-threaded.wasm`, 'wasm/ort-wasm-simd-threaded.wasm'],
  [pkgFile('@jsquash/webp/codec/dec/webp_dec.wasm'), 'wasm/webp_dec.wasm'],
  // Text recognition, fetched only when a page's text is read: tesseract.js, its worker, the three
  // builds of its core (the browser picks one by its SIMD support) and the bundled English data.
  [pkgFile('tesseract.js/dist/tesseract.esm.min.js'), 'tesseract/tesseract.esm.min.js'],
  [pkgFile('tesseract.js/dist/worker.min.js'), 'tesseract/worker.min.js'],
  ...['lstm', 'simd-lstm', 'relaxedsimd-lstm'].map((v) => [pkgFile(`tesseract.js-core/tesseract-core-${v}.wasm.js`), `tesseract/tesseract-core-${v}.wasm.js`]),
  [pkgFile('@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz'), 'tessdata/eng.traineddata.gz'],
];

/** What an asset is, for the size table. */
const assetKind = (to) => (to.startsWith('wasm/') ? 'WebAssembly and loader' : to.startsWith('models/') ? 'model' : 'text recognition');

const copyAssets = () => ({
  name: 'copy-assets',
  writeBundle() {
    for (const [from, to] of ASSETS) {
      mkdirSync(path.dirname(`${BUNDLE}/${to}`), { recursive: true });
      copyFileSync(from, `${BUNDLE}/${to}`);
    }
  },
});

/** Where most of a chunk comes from (a package, or the library's source), for the size table. */
const origin = (chunk) => {
  const bytes = new Map();
  for (const [id, info] of Object.entries(chunk.modules)) {
    const name = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id.replaceAll('\\', '/'))?.[1] ?? 'ScoreSight';
    bytes.set(name, (bytes.get(name) ?? 0) + info.renderedLength);
  }
  return [...bytes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'empty';
};

/** A browser cannot load a module that imports one of Node's statically. */
const noStaticNodeImports = () => ({
  name: 'no-static-node-imports',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      const node = chunk.type === 'chunk' ? chunk.imports.filter(nodeBuiltin) : [];
      if (node.length) throw new Error(`${BUNDLE}/${chunk.fileName} imports ${node.join(', ')} statically`);
    }
  },
});

/** Prints the bundle's sizes, as the budgets count them (shared chunks count in both entries). */
const printSizes = () => ({
  name: 'print-sizes',
  writeBundle(_options, bundle) {
    const kib = (n) => `${(n / 1024).toFixed(0).padStart(7)} KiB`;
    const size = (file) => statSync(`${BUNDLE}/${file}`).size;
    // What loading an entry fetches before it runs: the entry and the chunks it imports statically.
    const closure = (entry, seen = new Set()) => {
      if (!seen.has(entry)) {
        seen.add(entry);
        for (const dep of bundle[entry]?.imports ?? []) closure(dep, seen);
      }
      return seen;
    };
    const sum = (files) => [...files].reduce((n, f) => n + size(f), 0);
    const library = closure('scoresight.js');
    const worker = closure('recognition-worker.js');
    const lazy = Object.values(bundle).filter((f) => f.type === 'chunk' && !library.has(f.fileName) && !worker.has(f.fileName));
    const rows = [
      ['library JavaScript: scoresight.js and its static imports', sum(library)],
      ['worker JavaScript: recognition-worker.js and its static imports', sum(worker)],
      ...lazy.map((c) => [`loaded when needed: ${c.fileName} (${origin(c)})`, size(c.fileName)]),
      ...ASSETS.map(([, to]) => [`${assetKind(to)}: ${to}`, size(to)]),
    ];
    const total = readdirSync(BUNDLE, { recursive: true })
      .filter((f) => statSync(`${BUNDLE}/${f}`).isFile())
      .reduce((n, f) => n + size(f), 0);
    console.log(`\n${BUNDLE} sizes:`);
    for (const [label, bytes] of rows) console.log(`  ${kib(bytes)}  ${label}`);
    console.log(`  ${kib(total)}  all files\n`);
  },
});

const nodeBuiltin = (id) => id.startsWith('node:') || builtinModules.includes(id);

const bundle = {
  input: { scoresight: 'src/index.ts', ...worker },
  // Only Node branches import Node's modules (dynamically); a static one is refused below.
  external: nodeBuiltin,
  plugins: [
    // The bundle's files sit in one folder, its assets in models/ and wasm/ beside them.
    rewrite('bundle-asset-paths', '/src/env.ts', [
      ["'../models/", "'./models/"],
      ['wasmBase: undefined,', "wasmBase: new URL('./wasm/', import.meta.url).href,"],
      ['tessdata: undefined,', "tessdata: { base: new URL('./tessdata/', import.meta.url).href, languages: ['eng'], gzip: true },"],
      ['tesseractBase: undefined,', "tesseractBase: new URL('./tesseract/', import.meta.url).href,"],
    ]),
    // libwebp's loader fetches its WebAssembly beside its own script, which is now a chunk of the bundle.
    rewrite('webp-wasm-path', '/codec/dec/webp_dec.js', [['"webp_dec.wasm"', '"./wasm/webp_dec.wasm"']]),
    withoutNativeRuntime(),
    alias(),
    resolve({ browser: true, preferBuiltins: false, exportConditions: ['browser', 'import', 'module', 'default'] }),
    // Emscripten loaders require Node's modules only on their Node path; leave those requires alone.
    commonjs({ ignore: nodeBuiltin, ignoreDynamicRequires: true }),
    ts(),
    noStaticNodeImports(),
    noNativeRuntime(),
    clean(BUNDLE),
    copyAssets(),
    printSizes(),
  ],
  output: {
    dir: BUNDLE,
    format: 'es',
    sourcemap: false,
    entryFileNames: '[name].js',
    // Beside the entries, so every `new URL('./…', import.meta.url)` resolves the same from any of them.
    chunkFileNames: '[name]-[hash].js',
  },
  onwarn(warning, warn) {
    if (warning.code === 'UNRESOLVED_IMPORT') throw new Error(`${BUNDLE}: ${warning.message}`);
    // pdf.js, onnxruntime-web and Emscripten output use eval-free `this` at the top level and circular imports.
    if (warning.code === 'THIS_IS_UNDEFINED' || warning.code === 'CIRCULAR_DEPENDENCY' || warning.code === 'EVAL') return;
    warn(warning);
  },
};

export default [
  build({ index: 'src/index.ts', node: 'src/node.ts', cli: 'src/cli/main.ts', ...worker }, 'dist/node'),
  build({ index: 'src/index.ts', ...worker }, 'dist/browser', { browser: true }),
  bundle,
];
