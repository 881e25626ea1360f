/**
 * Humdrum (`**kern`) → score model: Verovio converts Humdrum to MEI, and the
 * MEI reader (src/import/mei/read-mei.ts) turns that into the model.
 *
 * Verovio's default build (`verovio/wasm`, used to engrave training pages)
 * has no Humdrum importer: `loadData` on a `.krn` file fails. The separate
 * `verovio/wasm-hum` build reads it, so this module keeps a second toolkit
 * of its own on that build. It loads without laying out pages
 * (`breaks: none`), which makes a conversion about five times faster; the
 * MEI does not depend on the layout.
 *
 * The Polish Music Heritage corpus (`../shared/corpus/polish`) is CC BY 4.0:
 * anything trained on it must credit it (see training/data/README.md).
 */
import { enableLog, LOG_OFF, VerovioToolkit } from 'verovio/esm';
import { readMei } from '../../src/import/mei/read-mei.js';
import type { Score } from '../../src/score/model.js';

/** The toolkit calls this module needs; verovio's declarations (training/verovio.d.ts) do not list `getMEI`. */
interface HumdrumToolkit {
  setOptions(options: Record<string, unknown>): void;
  loadData(data: string): boolean;
  getMEI(options?: Record<string, unknown>): string;
}

/** Not a literal in `import()`, so that TypeScript asks for no declaration of the Humdrum build. */
const HUMDRUM_MODULE: string = 'verovio/wasm-hum';

let toolkit: Promise<HumdrumToolkit> | undefined;

/** One toolkit on Verovio's Humdrum build, created on first use. */
export function humdrumToolkit(): Promise<HumdrumToolkit> {
  toolkit ??= (async () => {
    const { default: createModule } = (await import(HUMDRUM_MODULE)) as { default: () => Promise<unknown> };
    // The Humdrum build prints its parser's debugging lines ("I:19 = 0") through the `console.log` and
    // `console.error` it binds when the module is created (it ignores `print` options): bound to
    // no-ops, they go nowhere; the console itself is restored at once.
    const { log, error } = console;
    console.log = console.error = () => {};
    let module: unknown;
    try {
      module = await createModule();
    } finally {
      console.log = log;
      console.error = error;
    }
    enableLog(LOG_OFF, module);
    const tk = new VerovioToolkit(module) as unknown as HumdrumToolkit;
    tk.setOptions({ breaks: 'none' });
    return tk;
  })();
  return toolkit;
}

/** Converts Humdrum text to MEI; throws when Verovio cannot read it. */
export async function humdrumToMei(humdrum: string): Promise<string> {
  const tk = await humdrumToolkit();
  if (!tk.loadData(humdrum)) throw new Error('Verovio could not read the Humdrum data');
  return tk.getMEI();
}

/** Reads Humdrum text into a score (Verovio → MEI → {@link readMei}). */
export async function readHumdrum(humdrum: string): Promise<Score> {
  return readMei(await humdrumToMei(humdrum));
}
