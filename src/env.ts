/**
 * Where ScoreSight finds its assets: one object, set once by the host page or
 * script before the first recognition.
 *
 * Defaults are the library's own files — its models, and onnxruntime-web's
 * `.wasm` files from that package — never a CDN, so recognition works
 * offline and from the page's own origin. The published package holds each
 * once: the models and the WebAssembly in the self-contained bundle's
 * `dist/bundle/models/` and `dist/bundle/wasm/`, which the Node and browser
 * builds read the models from too (the build rewrites `modelBase`).
 */
export interface ScoreSightEnv {
  /** Base URL (browsers) or file URL (Node) of the `models/` folder. */
  modelBase: string;
  /**
   * Base URL of onnxruntime-web's WebAssembly files; undefined lets onnxruntime find them next to its own
   * module (in Node, the installed onnxruntime-web package). The self-contained bundle sets it to its own
   * `wasm/` folder; a host serving the files elsewhere copies `dist/bundle/wasm/` there and points this at it.
   */
  wasmBase: string | undefined;
  /** WebAssembly threads for inference; 1 unless the page is cross-origin isolated. */
  threads: number;
  /**
   * Where text recognition (tesseract) finds its traineddata: one folder of `<code>.traineddata` files
   * (`.traineddata.gz` with `gzip`), as a path or file URL in Node, a base URL in browsers, listing the
   * codes it holds (a URL cannot be listed; in Node the folder is read when `languages` is absent).
   * Undefined: Node uses Debian's tesseract-ocr-* folders and the installed `@tesseract.js-data/*`
   * packages (English ships with ScoreSight); browsers read no text until it is set (the self-contained
   * bundle sets it to its own `tessdata/` folder).
   */
  tessdata: { base: string; languages?: string[]; gzip?: boolean } | undefined;
  /**
   * Base URL of tesseract.js's `worker.min.js` and tesseract.js-core's WebAssembly, for browsers (Node
   * loads both from the packages); undefined: text is not read in browsers, rather than fetched from a CDN.
   * The self-contained bundle sets it to its own `tesseract/` folder.
   */
  tesseractBase: string | undefined;
}

const crossOriginIsolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
const isNode = typeof process !== 'undefined' && !!process.versions?.node;

export const env: ScoreSightEnv = {
  modelBase: new URL('../models/', import.meta.url).href,
  wasmBase: undefined,
  threads: crossOriginIsolated && typeof navigator !== 'undefined' ? Math.min(4, navigator.hardwareConcurrency || 1) : 1,
  tessdata: undefined,
  tesseractBase: undefined,
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
