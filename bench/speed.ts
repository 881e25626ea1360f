/**
 * `npm run bench:speed` — seconds per page of the whole recognition (decoding,
 * preparation, staves, segmentation, symbols, assembly, text, score) in Node
 * with one WebAssembly thread, page by page over the dev set:
 *
 *   npm run bench:speed [-- --condition scan|photo|clean] [--without-text]
 *
 * Text is read in each document's locales with one OCR worker per document,
 * as a job does; its start counts in the first page's time.
 *
 * `clean` renders each PDF page at the recognition resolution (200 dpi). Prints the median, the slowest
 * page and the process's peak resident memory (the model sessions included), and where a page's time
 * goes: the median seconds of each stage (decoding; preparation with the staves and the page turned
 * upright; segmentation and symbols; reading the music; the text the page still waits for; the score).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { OmrError } from '../src/errors.js';
import { decodePages } from '../src/input/decode-pages.js';
import { recognizePage, type PageTextSink } from '../src/recognize/recognize-page.js';
import { RECOGNITION_PDF_DPI } from '../src/recognize/recognize-score.js';
import { buildScore } from '../src/assembly/build-score.js';
import { applyText } from '../src/text/apply-text.js';
import { openOcr } from '../src/text/ocr.js';
import type { PageText } from '../src/text/page-text.js';

const DEV_SET = resolve(import.meta.dirname, 'dev-set');

/** What each stage a page reports covers, as the profile names it. */
const STAGE_NAMES = { prepared: 'prepare + staves', staves: 'systems', symbols: 'segment + symbols', assembled: 'read music' } as const;

interface Entry {
  id: string;
  locales?: string[];
  files: { pdf: string; scan: string[]; photo: string[] };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { condition: { type: 'string', default: 'scan' }, 'without-text': { type: 'boolean', default: false } } });
  const condition = values.condition as 'scan' | 'photo' | 'clean';
  const manifest = JSON.parse(readFileSync(join(DEV_SET, 'manifest.json'), 'utf8')) as { documents: Entry[] };
  const seconds: number[] = [];
  const failures: string[] = [];
  /** Seconds of each stage, page by page (pages that fail count in the stages they reached). */
  const stages = new Map<string, number[]>();
  const lap = (stage: string, from: number) => {
    const now = performance.now();
    stages.set(stage, [...(stages.get(stage) ?? []), (now - from) / 1000]);
    return now;
  };
  for (const doc of manifest.documents) {
    const paths = condition === 'clean' ? [doc.files.pdf] : doc.files[condition];
    const files = paths.map((p) => ({ filename: p, data: new Uint8Array(readFileSync(join(DEV_SET, p))) }));
    let started = performance.now();
    let page = 0;
    const text: PageTextSink | undefined = values['without-text'] ? undefined : { ocr: openOcr(doc.locales ?? ['en']), pages: [] as PageText[] };
    // Each page is timed from the moment the previous one finished: its decoding counts.
    for await (const { raster } of decodePages(files, { dpi: RECOGNITION_PDF_DPI })) {
      let mark = lap('decode', started);
      try {
        const reading = await recognizePage(raster, page, (stage) => void (mark = lap(STAGE_NAMES[stage], mark)), text);
        await text?.pending;
        mark = lap('text (waited for)', mark);
        const score = buildScore(reading.systems);
        if (text) applyText(score, text.pages.splice(0));
        lap('score', mark);
      } catch (err) {
        if (!(err instanceof OmrError)) throw err;
        failures.push(`${doc.id} page ${page + 1}: ${err.code}`);
      }
      seconds.push((performance.now() - started) / 1000);
      started = performance.now();
      page++;
    }
    await (await text?.ocr)?.close();
  }
  if (failures.length) console.log(`failed pages:\n  ${failures.join('\n  ')}`);
  const sorted = [...seconds].sort((a, b) => a - b);
  const peak = process.resourceUsage().maxRSS * 1024;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  for (const [stage, times] of stages) console.log(`  ${stage.padEnd(20)} median ${median(times).toFixed(2)} s, total ${times.reduce((a, b) => a + b, 0).toFixed(1)} s over ${times.length} pages`);
  console.log(`${seconds.length} ${condition} pages${values['without-text'] ? ' (text not read)' : ''}: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} s/page, slowest ${sorted[sorted.length - 1]!.toFixed(2)} s, peak RSS ${(peak / 2 ** 20).toFixed(0)} MB`);
}

await main();
