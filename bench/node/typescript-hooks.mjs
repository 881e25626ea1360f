/** Module hooks for register.mjs: `.js` imports between the project's TypeScript files, and their compilation. */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const isProjectTypeScript = (url) => url.startsWith('file:') && url.endsWith('.ts') && !url.includes('/node_modules/');

export async function resolve(specifier, context, next) {
  // TypeScript sources name each other by their compiled `.js` names.
  if (context.parentURL && isProjectTypeScript(context.parentURL) && /^\.{1,2}\/.*\.js$/.test(specifier)) {
    const url = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (existsSync(fileURLToPath(url))) return { url: url.href, format: 'module', shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!isProjectTypeScript(url)) return next(url, context);
  const file = fileURLToPath(url);
  const { code } = await transform(await readFile(file, 'utf8'), { loader: 'ts', format: 'esm', target: 'node20', sourcemap: 'inline', sourcefile: file });
  return { format: 'module', source: code, shortCircuit: true };
}
