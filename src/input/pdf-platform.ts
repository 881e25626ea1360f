/**
 * Everything about PDF rendering that differs between Node and browsers, in
 * one place: which pdf.js build to load, where its canvases come from, and
 * where its font data lives.
 *
 * - Node: pdf.js's legacy build (the modern one needs newer JavaScript than
 *   Node 20 has) parses in this thread through its "fake worker", and draws on
 *   @napi-rs/canvas (Skia). Both are imported only when the first PDF is
 *   opened, through a specifier bundlers do not follow, so the library never
 *   loads a native module unless it renders a PDF, and browser bundles never
 *   try to include one. The canvas is an optional dependency (pdf.js's as
 *   well as ScoreSight's), so an install made with `--omit=optional`, say
 *   for browsers only, goes without its native binary; there opening a PDF
 *   in Node fails with a message that says what to install, and every other
 *   input works as before. Font and colour-profile data come from the installed
 *   pdfjs-dist package, read from disk. pdf.js's stray rejections on damaged
 *   files are kept from ending the process (`pdfjs-rejections.ts`).
 * - Browsers: the modern build, drawing on OffscreenCanvas, which exists in
 *   Web Workers as well as on pages (nothing here touches the DOM). pdf.js
 *   parses in its own worker when the host set `GlobalWorkerOptions.workerSrc`
 *   or `workerPort`; otherwise in the calling thread, which is already
 *   ScoreSight's worker when recognition runs in one.
 *
 * Either way pdf.js is asked never to fetch anything: no system fonts, no
 * eval, fonts drawn as outlines from the file's own embedded font programs.
 */
import { OmrError } from '../errors.js';
import { ignorePdfjsStrayRejections } from './pdfjs-rejections.js';

type Pdfjs = typeof import('pdfjs-dist');

/** A canvas to render one page on. */
export interface PageCanvas {
  context: CanvasRenderingContext2D;
  /** Frees the canvas's pixels now rather than at the next garbage collection. */
  release(): void;
}

export interface PdfPlatform {
  pdfjs: Pdfjs;
  /** The platform's options for `getDocument`. */
  documentOptions: Record<string, unknown>;
  createCanvas(width: number, height: number): PageCanvas;
}

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

let loading: Promise<PdfPlatform> | undefined;

/** Loads pdf.js and a canvas for this platform, once. */
export function pdfPlatform(): Promise<PdfPlatform> {
  loading ??= (isNode ? loadNode() : loadBrowser()).catch((err: unknown) => {
    loading = undefined;
    if (err instanceof OmrError) throw err;
    throw new OmrError('INTERNAL_ERROR', `PDF rendering is unavailable here: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  });
  return loading;
}

/** Imports a module by a name bundlers do not see, so they neither bundle nor resolve it. */
const importHidden = (specifier: string): Promise<unknown> => import(/* @vite-ignore */ /* webpackIgnore: true */ specifier);

/** The package Node draws PDF pages on; an optional dependency of ScoreSight. */
export const NODE_CANVAS_PACKAGE = '@napi-rs/canvas';

type NodeCanvas = typeof import('@napi-rs/canvas');

/**
 * Imports Node's canvas, or says how to get it. Only a missing package itself
 * becomes that message; a canvas that is installed but fails to load (a
 * missing native binary, say) keeps its own error.
 */
export async function importNodeCanvas(specifier: string = NODE_CANVAS_PACKAGE): Promise<NodeCanvas> {
  try {
    return (await importHidden(specifier)) as NodeCanvas;
  } catch (err) {
    if (!isPackageNotFound(err, specifier)) throw err;
    throw new OmrError(
      'INTERNAL_ERROR',
      `Reading PDFs in Node needs the optional package ${specifier}, which is not installed (an install with --omit=optional leaves it out): run \`npm install ${specifier}\` in the project that uses scoresight.`,
      { cause: err },
    );
  }
}

/** Whether an import failed because the package named is not installed (not because something inside it is missing). */
const isPackageNotFound = (err: unknown, specifier: string): boolean =>
  (err as { code?: unknown })?.code === 'ERR_MODULE_NOT_FOUND' && err instanceof Error && err.message.includes(`'${specifier}'`);

async function loadNode(): Promise<PdfPlatform> {
  const canvasModule = await importNodeCanvas();
  const pdfjs = (await importHidden('pdfjs-dist/legacy/build/pdf.mjs')) as Pdfjs;
  ignorePdfjsStrayRejections();
  const { createRequire } = process.getBuiltinModule('module');
  const root = createRequire(import.meta.url)
    .resolve('pdfjs-dist/package.json')
    .replace(/package\.json$/, '');
  return {
    pdfjs,
    documentOptions: {
      standardFontDataUrl: `${root}standard_fonts/`,
      cMapUrl: `${root}cmaps/`,
      iccUrl: `${root}iccs/`,
      wasmUrl: `${root}wasm/`,
    },
    createCanvas(width, height) {
      const canvas = canvasModule.createCanvas(width, height);
      return { context: canvas.getContext('2d') as unknown as CanvasRenderingContext2D, release: () => void (canvas.width = canvas.height = 0) };
    },
  };
}

async function loadBrowser(): Promise<PdfPlatform> {
  const pdfjs = await import('pdfjs-dist');
  const { GlobalWorkerOptions } = pdfjs;
  if (!GlobalWorkerOptions.workerSrc && !GlobalWorkerOptions.workerPort) {
    // pdf.js looks for its worker's message handler here before trying to start a worker.
    const global = globalThis as { pdfjsWorker?: unknown };
    global.pdfjsWorker ??= await import('pdfjs-dist/build/pdf.worker.mjs');
  }
  return {
    pdfjs,
    // pdf.js's default canvas factory creates <canvas> elements, which workers do not have.
    documentOptions: { CanvasFactory: OffscreenCanvasFactory },
    createCanvas(width, height) {
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d', { willReadFrequently: true });
      if (!context) throw new Error('OffscreenCanvas has no 2D context');
      return { context: context as unknown as CanvasRenderingContext2D, release: () => void (canvas.width = canvas.height = 0) };
    },
  };
}

/** pdf.js's canvas factory interface (scratch canvases for masks, patterns and groups), on OffscreenCanvas. */
class OffscreenCanvasFactory {
  create(width: number, height: number) {
    if (width <= 0 || height <= 0) throw new Error('Invalid canvas size');
    const canvas = new OffscreenCanvas(width, height);
    return { canvas, context: canvas.getContext('2d', { willReadFrequently: true }) };
  }

  reset(entry: { canvas: OffscreenCanvas | null }, width: number, height: number) {
    if (!entry.canvas) throw new Error('Canvas is not specified');
    if (width <= 0 || height <= 0) throw new Error('Invalid canvas size');
    entry.canvas.width = width;
    entry.canvas.height = height;
  }

  destroy(entry: { canvas: OffscreenCanvas | null; context: unknown }) {
    if (!entry.canvas) throw new Error('Canvas is not specified');
    entry.canvas.width = entry.canvas.height = 0;
    entry.canvas = null;
    entry.context = null;
  }
}
