/**
 * Module resolution hooks that make packages look uninstalled: `node --import
 * ./test/package/hide-packages.mjs` with HIDE_PACKAGES=name,name. Used to run
 * the built library as an install without its optional peer dependencies would.
 */
import { register } from 'node:module';

if (!import.meta.url.includes('?hooks')) register(`${import.meta.url}?hooks`);

const hidden = (process.env.HIDE_PACKAGES ?? '').split(',').filter(Boolean);

/** Fails to resolve a hidden package the way Node does for one that is not installed. */
export async function resolve(specifier, context, next) {
  if (hidden.some((name) => specifier === name || specifier.startsWith(`${name}/`))) {
    const error = new Error(`Cannot find package '${specifier}' imported from ${context.parentURL}`);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}
