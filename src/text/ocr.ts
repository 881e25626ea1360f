/**
 * Text recognition through tesseract.js: a worker started while a job's
 * first page is prepared, reading cropped line images (page segmentation
 * mode 7, a single line) rather than whole pages, and kept a while after the
 * job ends for the next one.
 *
 * Nothing is downloaded: Node loads tesseract.js-core from node_modules and
 * traineddata from local folders (env.tessdata, else Debian's tesseract-ocr-*
 * folders and the installed @tesseract.js-data/* packages), with tesseract's
 * on-disk cache off; browsers use env.tesseractBase and env.tessdata, and read
 * no text without them. A worker reads from one folder, so a job takes the
 * folder that covers its locales best (see {@link pickFolder}).
 *
 * Text is an extra: a missing folder, a worker that does not start or a line
 * that fails to read leaves the score without that text, never fails a job.
 */
import { env } from '../env.js';
import type { GrayImage } from '../image/gray.js';
import { chooseLanguages, type LanguageChoice } from './locale-languages.js';

/** A recognised word, its box in the pixels of the image read. */
export interface OcrWord {
  text: string;
  /** 0–100, as tesseract gives it. */
  confidence: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Its characters' horizontal extents, in reading order (where syllables part, see lyrics.ts). */
  symbols: { text: string; x0: number; x1: number }[];
}

/**
 * Where the `index`-th of a reading's `letters` letters starts: at its character's box where the OCR gave
 * one box per letter, or else as far along the reading's extent as the letters before it.
 */
export function letterStart(read: Pick<OcrWord, 'symbols' | 'x0' | 'x1'>, index: number, letters: number): number {
  const boxes = read.symbols.filter((c) => /\p{L}/u.test(c.text));
  return boxes.length === letters ? boxes[index]!.x0 : read.x0 + ((read.x1 - read.x0) * index) / letters;
}

export interface OcrReader {
  /** The traineddata codes loaded, in tesseract's order. */
  readonly languages: readonly string[];
  /** Locales read through a stand-in language or script (see locale-languages.ts). */
  readonly fallbacks: readonly string[];
  /** The words of one line of text (ink dark on white). Calls may overlap: a page sends all its lines at once. */
  readLine(image: GrayImage): Promise<OcrWord[]>;
  close(): Promise<void>;
}

/** A folder of traineddata and the codes it holds. */
export interface TessdataFolder {
  /** A folder path (Node) or base URL. */
  base: string;
  languages: string[];
  /** Files are `<code>.traineddata.gz`. */
  gzip: boolean;
}

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

/** Debian's tesseract-ocr-* packages: bookworm installs under 5/, bullseye under 4.00/. */
const DEBIAN_TESSDATA = ['/usr/share/tesseract-ocr/5/tessdata', '/usr/share/tesseract-ocr/4.00/tessdata'];

/**
 * The folder whose languages read the locales best: the most locales in
 * their own language, then the most models, then the earlier folder.
 * Undefined when no folder holds anything.
 */
export function pickFolder(locales: readonly string[], folders: readonly TessdataFolder[]): { folder: TessdataFolder; choice: LanguageChoice } | undefined {
  let best: { folder: TessdataFolder; choice: LanguageChoice; own: number } | undefined;
  for (const folder of folders) {
    if (!folder.languages.length) continue;
    const choice = chooseLanguages(locales, new Set(folder.languages));
    const own = locales.length - choice.fallbacks.length;
    if (!best || own > best.own || (own === best.own && choice.languages.length > best.choice.languages.length)) best = { folder, choice, own };
  }
  return best && { folder: best.folder, choice: best.choice };
}

/** The folders this host offers, best source first. */
export async function tessdataFolders(): Promise<TessdataFolder[]> {
  const configured = env.tessdata;
  if (!isNode) return configured?.languages ? [{ base: configured.base, languages: configured.languages, gzip: configured.gzip ?? false }] : [];
  // Reached synchronously: a job's pages are decoded and prepared without a turn of the event loop, and
  // each dynamic import would wait for one, holding the worker's start back by a page's preparation.
  const { readdirSync } = process.getBuiltinModule('fs');
  const { fileURLToPath } = process.getBuiltinModule('url');
  const { createRequire } = process.getBuiltinModule('module');
  const { dirname, join } = process.getBuiltinModule('path');
  const list = (folder: string, gzip?: boolean): TessdataFolder | undefined => {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return undefined;
    }
    const zipped = gzip ?? (names.some((n) => n.endsWith('.traineddata.gz')) && !names.some((n) => n.endsWith('.traineddata')));
    const suffix = zipped ? '.traineddata.gz' : '.traineddata';
    return { base: folder, languages: names.filter((n) => n.endsWith(suffix)).map((n) => n.slice(0, -suffix.length)).sort(), gzip: zipped };
  };
  if (configured) {
    const base = configured.base.startsWith('file:') ? fileURLToPath(configured.base) : configured.base;
    if (configured.languages) return [{ base, languages: configured.languages, gzip: configured.gzip ?? false }];
    const folder = list(base, configured.gzip);
    return folder ? [folder] : [];
  }
  const folders = DEBIAN_TESSDATA.map((f) => list(f));
  // Each @tesseract.js-data package holds one language; the integer "best" models are the small, accurate ones.
  try {
    const scope = dirname(dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')));
    for (const name of readdirSync(scope).sort()) folders.push(list(join(scope, name, '4.0.0_best_int'), true));
  } catch {
    // No package installed: Debian's folders only.
  }
  return folders.filter((f): f is TessdataFolder => f !== undefined);
}

/** Every crop is one line of text. */
const PARAMETERS = {
  tessedit_pageseg_mode: '7',
  // Crops carry no resolution; saying one silences tesseract's guess (and its message on stderr).
  user_defined_dpi: '300',
  debug_file: '/dev/null',
  // Print is dark on light: the second pass tesseract spends on a line in case it is inverted never pays.
  tessedit_do_invert: '0',
};

/**
 * An idle worker is kept this long for the next job (a server's next request, a script's next file):
 * starting one costs a quarter of a second and more of a processor. In Node it never holds the process
 * open: its thread counts only while it reads.
 */
export const KEEP_IDLE_MS = 20_000;

/** A started worker, shared by the jobs that read with the same languages from the same folder. */
interface Shared {
  key: string;
  started: Promise<Started | undefined>;
  /** Jobs holding it. */
  users: number;
  /** Closes it once idle for {@link KEEP_IDLE_MS}. */
  timer?: ReturnType<typeof setTimeout>;
}

interface Started {
  worker: Awaited<ReturnType<Tesseract['createWorker']>>;
  /** Its thread, in Node a worker_threads Worker: held only while lines are being read. */
  thread?: { ref?: () => void; unref?: () => void };
  reading: number;
}

/** The worker kept between jobs; one, for the languages asked last (a worker that failed is kept no more). */
let kept: Shared | undefined;

/**
 * A worker for a job's locales, the one kept from an earlier job where it
 * reads the same languages, or undefined when this host has no traineddata
 * or the worker cannot start. `close` hands it back; it is closed once no
 * job has held it for {@link KEEP_IDLE_MS}.
 */
export async function openOcr(locales: readonly string[]): Promise<OcrReader | undefined> {
  if (!isNode && !env.tesseractBase) return undefined;
  let picked: ReturnType<typeof pickFolder>;
  try {
    picked = pickFolder(locales, await tessdataFolders());
  } catch {
    return undefined;
  }
  if (!picked || !picked.choice.languages.length) return undefined;
  const { folder, choice } = picked;
  const key = `${folder.base}\n${folder.gzip}\n${choice.languages.join('+')}`;
  let shared = kept?.key === key ? kept : undefined;
  if (!shared) {
    // A kept worker for other languages goes once no job holds it; one in use stays with its jobs.
    if (kept && !kept.users) void release(kept);
    shared = { key, started: startWorker(folder, choice.languages, () => fail(shared!)), users: 0 };
    kept = shared;
  }
  const mine = shared;
  mine.users++;
  clearTimeout(mine.timer);
  const started = await mine.started;
  if (!started) {
    mine.users--;
    fail(mine);
    return undefined;
  }
  let closed = false;
  return {
    languages: choice.languages,
    fallbacks: choice.fallbacks,
    async readLine(image) {
      // The thread holds the process open while it reads, and only then.
      if (started.reading++ === 0) started.thread?.ref?.();
      try {
        return await recognizeLine(started.worker, image);
      } finally {
        if (--started.reading === 0) started.thread?.unref?.();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (--mine.users > 0) return;
      if (kept !== mine) return release(mine);
      const timer = setTimeout(() => void release(mine), KEEP_IDLE_MS);
      // A timer that holds the process open would keep a finished script waiting.
      (timer as { unref?: () => void }).unref?.();
      mine.timer = timer;
    },
  };
}

/** No job takes this worker any more; it is closed once none holds it. */
function fail(shared: Shared): void {
  if (kept === shared) kept = undefined;
  if (!shared.users) void release(shared);
}

/** Closes a worker (its thread ends); a failed start leaves nothing to close. */
async function release(shared: Shared): Promise<void> {
  clearTimeout(shared.timer);
  if (kept === shared) kept = undefined;
  const started = await shared.started;
  await started?.worker.terminate().catch(() => {});
}

/** Starts a worker reading `languages` from `folder`, or resolves undefined where it cannot start. */
async function startWorker(folder: TessdataFolder, languages: readonly string[], onError: () => void): Promise<Started | undefined> {
  let failed: (err: Error) => void = () => {};
  const failure = new Promise<never>((_, reject) => (failed = reject));
  failure.catch(() => {});
  try {
    const base = env.tesseractBase?.endsWith('/') ? env.tesseractBase : `${env.tesseractBase ?? ''}/`;
    const { createWorker, OEM } = await loadTesseract(base);
    const worker = await Promise.race([
      createWorker(languages.join('+'), OEM.LSTM_ONLY, {
        langPath: folder.base,
        gzip: folder.gzip,
        // 'none': never write traineddata into the working directory (Node) or IndexedDB (browsers).
        cacheMethod: 'none',
        ...(isNode ? {} : { workerPath: `${base}worker.min.js`, corePath: base, workerBlobURL: false }),
        // Without a handler tesseract.js throws a worker's error on the main thread, where nothing can catch it.
        errorHandler: (err: unknown) => {
          failed(new Error(String(err)));
          onError();
        },
      }),
      failure,
    ]);
    await worker.setParameters(PARAMETERS as Record<string, string>);
    const thread = (worker as unknown as { worker?: Started['thread'] }).worker;
    thread?.unref?.();
    return { worker, thread, reading: 0 };
  } catch {
    return undefined;
  }
}

/** One line's words, as tesseract reads them. */
async function recognizeLine(worker: Started['worker'], image: GrayImage): Promise<OcrWord[]> {
  // Lines may be sent all at once: the worker reads them in the order sent, each to its own reply.
  // Both of tesseract.js's image loaders pass a Uint8Array through as the file's bytes (its types say Buffer).
  const result = await worker.recognize(encodePgm(image) as unknown as Buffer, {}, { text: false, blocks: true });
  const words: OcrWord[] = [];
  for (const block of result.data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const word of line.words) {
          if (!word.text.trim()) continue;
          const symbols = word.symbols.map((c) => ({ text: c.text, x0: c.bbox.x0, x1: c.bbox.x1 }));
          words.push({ text: word.text.trim(), confidence: word.confidence, ...word.bbox, symbols });
        }
      }
    }
  }
  return words;
}

type Tesseract = typeof import('tesseract.js');

/**
 * tesseract.js itself: the package in Node; in browsers its ES module build
 * (`tesseract.esm.min.js`) from env.tesseractBase, beside `worker.min.js`
 * and tesseract.js-core's `*.wasm.js` files. The specifiers are computed so
 * that bundlers leave tesseract.js out of the library's bundles: it is
 * loaded only when text is read.
 */
async function loadTesseract(base: string): Promise<Tesseract> {
  const specifier = isNode ? TESSERACT_PACKAGE : `${base}tesseract.esm.min.js`;
  const module = (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as Tesseract & { default?: Tesseract };
  return module.default ?? module;
}

const TESSERACT_PACKAGE = 'tesseract.js';

/** A gray image as binary PGM, which tesseract's Leptonica reads without a codec. */
export function encodePgm(image: GrayImage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const out = new Uint8Array(header.length + image.data.length);
  out.set(header);
  out.set(image.data, header.length);
  return out;
}
