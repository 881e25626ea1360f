/**
 * Where ScoreSight finds its assets: one object, set once by the host page or
 * script before the first recognition.
 *
 * Defaults are the library's own files — `models/` and onnxruntime-web's
 * `.wasm` files shipped with the package — never a CDN, so recognition works
 * offline and from the page's own origin.
 */
export interface ScoreSightEnv {
  /** Base URL (browsers) or file URL (Node) of the `models/` folder. */
  modelBase: string;
  /** Base URL of onnxruntime-web's WebAssembly files; undefined lets onnxruntime find them next to its own module. */
  wasmBase: string | undefined;
  /** WebAssembly threads for inference; 1 unless the page is cross-origin isolated. */
  threads: number;
}

const crossOriginIsolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
const isNode = typeof process !== 'undefined' && !!process.versions?.node;

export const env: ScoreSightEnv = {
  modelBase: new URL('../models/', import.meta.url).href,
  wasmBase: undefined,
  threads: crossOriginIsolated && typeof navigator !== 'undefined' ? Math.min(4, navigator.hardwareConcurrency || 1) : 1,
};

/** Reads an asset relative to a base: the file system in Node, fetch elsewhere. */
export async function loadAsset(base: string, name: string): Promise<Uint8Array> {
  const url = new URL(name, base.endsWith('/') ? base : `${base}/`);
  if (isNode && url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return new Uint8Array(await readFile(url));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load ${url.href}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
