/**
 * The drop-in demo in real Chromium (Debian's, driven by playwright-core):
 * the self-contained bundle recognises the fixture PDF with the ONNX models
 * in a Web Worker, the details step round trip, downloads, jobs kept in
 * IndexedDB across reloads, retention on a controlled clock, a corrupt file,
 * and threads in a cross-origin isolated page; job rows named by their files
 * and titles, cancelling from a row, the main language remembered, a 390 px
 * phone viewport; and the serving script's command line.
 *
 * Screenshots of every stage go to test-results/browser/.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Download, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, ensureBuilt, type DemoServer } from '../../scripts/serve-demo.mjs';
import { extractMxlScore } from '../../src/import/mxl-container.js';
import { readMidi } from '../../src/import/midi/read-midi.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { recognizeScore } from '../../src/recognize/recognize-score.js';
import type { Note, Score, Step } from '../../src/score/model.js';
import { keyAlter } from '../../src/score/pitch.js';
import { noteContent } from '../support/note-content.js';

const CHROMIUM = process.env.SCORESIGHT_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = 'test-results/browser';
const PDF_PATH = 'test/fixtures/recognition/melody.pdf';
const pdf = readFileSync(PDF_PATH);
const DAY = 86_400_000;

let server: DemoServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: run \`bash scripts/install-system-deps.sh\` (npm test does), or set SCORESIGHT_CHROMIUM.`);
  }
  ensureBuilt();
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startDemoServer({ port: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * A fresh browser profile (its own IndexedDB) on the demo, recording every request (workers' too)
 * and every problem: page errors, failed requests, and any request to another origin (no CDN).
 */
async function openDemo(base: string) {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  context.on('request', (request) => {
    const url = request.url();
    requests.push(url);
    if (!url.startsWith(base) && !url.startsWith('blob:') && !url.startsWith('data:')) problems.push(`request off the page's origin: ${url}`);
  });
  context.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
  await load(page, base);
  return { context, page, problems, requests };
}

/** onnxruntime's loader is imported once per recognition worker, and once more by each extra inference thread. */
const ortLoads = (requests: readonly string[]) => requests.filter((url) => url.endsWith('/scoresight/wasm/ort-wasm-simd-threaded.mjs')).length;

async function load(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage: true });

async function download(page: Page, format: string): Promise<{ download: Download; data: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`#downloads button[data-format="${format}"]`)]);
  const path = await file.path();
  return { download: file, data: readFileSync(path) };
}

/** Chooses files, starts the job and waits for it to settle: the details form, the result, or an error. */
async function recognise(page: Page, files: Parameters<Page['setInputFiles']>[1], options: { review?: boolean; name?: string } = {}) {
  await page.setInputFiles('#file-input', files);
  await page.setChecked('#review', options.review ?? true);
  if (options.name) await shot(page, `${options.name}-chosen`);
  const started = Date.now();
  await page.click('#start');
  await page.waitForSelector('#details:not([hidden]), #result[data-ready="true"], #error:not([hidden])', { timeout: 180_000 });
  return { wallMs: Date.now() - started, jobId: (await page.textContent('#job-id'))!.trim() };
}

/**
 * What sticks out sideways: the document's scroll width against its client width, and the elements
 * whose right edge passes the viewport (named for the failure message).
 */
function sidewaysOverflow(page: Page): Promise<{ scrollWidth: number; clientWidth: number; offenders: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`;
    const offenders = [...document.body.querySelectorAll('*')]
      .filter((el) => el.getClientRects().length > 0 && el.getBoundingClientRect().right > root.clientWidth + 0.5)
      .filter((el) => !el.closest('#notation')) // the engraving scrolls inside its own pane
      .map(name);
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, offenders };
  });
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth, offenders } = await sidewaysOverflow(page);
  expect(offenders).toEqual([]);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

/** A job's row in the list of jobs kept in this browser. */
const jobRowOf = (page: Page, jobId: string) => page.locator(`#jobs tr[data-job-id="${jobId}"]`);

/** Moves the highlight slider, as a user dragging it would. */
async function setThreshold(page: Page, percent: number): Promise<void> {
  await page.$eval(
    '#threshold',
    (input, value) => {
      (input as HTMLInputElement).value = String(value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    percent,
  );
}

/** The measure confidences of a job's stored score, as the page reads them. */
function confidences(page: Page, jobId: string): Promise<number[]> {
  return page.evaluate(async (id) => {
    const demo = (window as unknown as { scoresightDemo: { client: { getJobResult(id: string): Promise<{ score: Score }> } } }).scoresightDemo;
    const result = await demo.client.getJobResult(id);
    return result.score.parts.flatMap((part) => part.measures.map((m) => m.evidence?.confidence ?? 1));
  }, jobId);
}

describe('the demo page in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let requests: string[];
  let jobId: string;
  let nodeScore: Score;

  afterAll(async () => {
    await context?.close();
  });

  it('recognises the fixture PDF in the browser, with the details step, into the same notes as Node', { timeout: 300_000 }, async () => {
    ({ context, page, problems, requests } = await openDemo(server.url));
    expect(await page.textContent('#environment')).toContain('one inference thread');
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    await shot(page, '01-empty');

    const { wallMs, jobId: id } = await recognise(page, PDF_PATH, { name: '02' });
    jobId = id;
    expect(jobId).toMatch(/^job_[0-9a-f]+$/);
    // One page: the job pauses for review, as in Node (no instrument name was printed).
    expect(await page.isVisible('#details')).toBe(true);
    expect(await page.getAttribute('#status', 'data-status')).toBe('awaitingInput');
    const firstPageMs = Number(await page.getAttribute('#timing', 'data-ms'));
    expect(firstPageMs).toBeGreaterThan(0);
    console.log(`Chromium: first page recognised in ${(firstPageMs / 1000).toFixed(2)} s (worker start and model loading included); job start to details step ${(wallMs / 1000).toFixed(2)} s`);
    await shot(page, '03-details');

    // The details step: one part, detected with low confidence; the user names the score and picks the flute.
    const rows = page.locator('#details-instruments tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('low confidence');
    expect(await page.locator('select[name="instrument-0"] option').count()).toBeGreaterThan(100);
    expect(await page.locator('#details-language option').count()).toBe(65);
    await page.fill('#details-title', 'Melody');
    await page.selectOption('select[name="instrument-0"]', 'wind.flute');
    await page.fill('input[name="part-name-0"]', 'Flauto');
    await page.selectOption('#details-language', 'de');
    await page.click('#details-submit');
    await page.waitForSelector('#result[data-ready="true"]', { timeout: 120_000 });
    expect(await page.getAttribute('#status', 'data-status')).toBe('done');
    expect(await page.locator('#notation svg').count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => (document.querySelector('#source-image') as HTMLImageElement).naturalWidth)).toBeGreaterThan(1000);
    await shot(page, '04-result');

    // The job's row names it by its file and, now that it has one, its title.
    await page.waitForFunction((id) => document.querySelector(`#jobs tr[data-job-id="${id}"] .job-title`)?.textContent === 'Melody', jobId);
    expect(await jobRowOf(page, jobId).locator('.job-files').textContent()).toBe('melody.pdf');

    // Every format downloads; the MusicXML carries the review's answers and the notes Node reads.
    const xml = await download(page, 'musicxml');
    expect(xml.download.suggestedFilename()).toBe('Melody.musicxml');
    const browserScore = readMusicXml(xml.data);
    expect(browserScore.credits.title).toBe('Melody');
    expect(browserScore.parts[0]!.instrumentId).toBe('wind.flute');
    expect(browserScore.parts[0]!.name).toBe('Flauto');
    nodeScore = await recognizeScore([{ filename: 'melody.pdf', data: new Uint8Array(pdf) }]);
    expect(noteContent(browserScore).length).toBeGreaterThan(20);
    expect(noteContent(browserScore)).toEqual(noteContent(nodeScore));
    const mxl = await download(page, 'mxl');
    expect(mxl.download.suggestedFilename()).toBe('Melody.mxl');
    expect(noteContent(readMusicXml(extractMxlScore(new Uint8Array(mxl.data))))).toEqual(noteContent(nodeScore));
    const midi = await download(page, 'midi');
    expect(midi.download.suggestedFilename()).toBe('Melody.mid');
    expect(midi.data.subarray(0, 4).toString('latin1')).toBe('MThd');
    const thumbnail = await download(page, 'thumbnail.png');
    expect(thumbnail.data.subarray(1, 4).toString('latin1')).toBe('PNG');

    // The assets came from the bundle's own folders, onnxruntime's WebAssembly on one thread.
    for (const asset of ['models/symbols.onnx', 'models/digits.onnx', 'wasm/ort-wasm-simd-threaded.wasm', 'recognition-worker.js']) {
      expect(requests).toContain(`${server.url}scoresight/${asset}`);
    }
    expect(ortLoads(requests)).toBe(1);
    expect(problems).toEqual([]);
  });

  it('highlights the measures read with less confidence than the threshold, on the page and in the notation', { timeout: 60_000 }, async () => {
    const measures = await confidences(page, jobId);
    expect(measures.length).toBeGreaterThan(4);
    // A threshold between the least and the most sure measure marks some and not others. The slider
    // moves in steps of 5 %, so the threshold is the step nearest the median that splits the measures.
    const sorted = [...measures].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]! * 100;
    const marked = (percent: number) => measures.filter((c) => c < percent / 100).length;
    const splits = Array.from({ length: 21 }, (_, i) => i * 5).filter((t) => marked(t) > 0 && marked(t) < measures.length);
    expect(splits.length).toBeGreaterThan(0);
    const threshold = splits.reduce((best, t) => (Math.abs(t - median) < Math.abs(best - median) ? t : best));
    const expected = marked(threshold);
    await setThreshold(page, threshold);
    expect(await page.locator('#source-marks .uncertain-mark').count()).toBe(expected);
    expect(await page.locator('#notation rect.uncertain-mark').count()).toBe(expected);
    await shot(page, '05-uncertain-measures');
    await setThreshold(page, 0);
    expect(await page.locator('#source-marks .uncertain-mark').count()).toBe(0);
    expect(await page.locator('#notation rect.uncertain-mark').count()).toBe(0);
  });

  it('corrects a note of an uncertain measure in place: the page crop beside its notes, and the downloads carry the correction', { timeout: 120_000 }, async () => {
    // A measure read with less than full confidence that has notes; at 100 % every such measure is highlighted.
    const measures = await confidences(page, jobId);
    const pitched = (score: Score, m: number): Note[] =>
      score.parts[0]!.measures[m]!.voices.flatMap((v) => v.events.flatMap((e) => (e.kind === 'note' ? e.notes.filter((n) => !n.unpitched) : [])));
    const m = measures.findIndex((confidence, i) => confidence < 1 && pitched(nodeScore, i).length > 0);
    expect(m).toBeGreaterThanOrEqual(0);
    await setThreshold(page, 100);
    await page.click(`#source-marks .uncertain-mark[data-part="0"][data-measure="${m}"]`);
    await page.waitForSelector('#correction[data-ready="true"]', { timeout: 30_000 });

    // The crop is the measure on the page: white paper and black ink, as wide as the box or the pane allows.
    const crop = await page.$eval('#correction-crop', (canvas) => {
      const c = canvas as HTMLCanvasElement;
      const pixels = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let ink = 0;
      let paper = 0;
      for (let i = 0; i < pixels.length; i += 4) {
        if (pixels[i]! < 100) ink++;
        else if (pixels[i]! > 200) paper++;
      }
      return { width: c.width, height: c.height, ink, paper };
    });
    expect(crop.width).toBeGreaterThan(20);
    expect(crop.height).toBeGreaterThan(20);
    expect(crop.ink).toBeGreaterThan(0);
    expect(crop.paper).toBeGreaterThan(crop.ink);
    expect(await page.locator('#correction-notes li').count()).toBe(pitched(nodeScore, m).length);

    // The first note a step up: the list, the notation and every download follow.
    const before = await page.textContent('#correction-notes li[data-index="0"] .pitch');
    await page.click('#correction-notes li[data-index="0"] .note-up');
    await page.waitForFunction(() => document.querySelector('#corrections-made')?.textContent?.startsWith('1 correction'));
    expect(await page.textContent('#correction-notes li[data-index="0"] .pitch')).not.toBe(before);
    await page.waitForSelector('#notation[data-rendered="true"] svg');
    await shot(page, '05b-correction');

    const expected = structuredClone(nodeScore);
    const note = pitched(expected, m)[0]!;
    const steps: Step[] = ['C', 'D', 'E', 'F', 'G', 'A', 'B'];
    const index = note.pitch.octave * 7 + steps.indexOf(note.pitch.step) + 1;
    const fifths = expected.parts[0]!.measures.slice(0, m + 1).reverse().find((measure) => measure.key)?.key?.fifths ?? 0;
    const semitones = (p: Note['pitch']) => p.octave * 12 + [0, 2, 4, 5, 7, 9, 11][steps.indexOf(p.step)]! + p.alter;
    const moved = semitones({ step: steps[index % 7]!, octave: Math.floor(index / 7), alter: keyAlter(fifths, steps[index % 7]!) }) - semitones(note.pitch);
    note.pitch = { step: steps[index % 7]!, octave: Math.floor(index / 7), alter: keyAlter(fifths, steps[index % 7]!) };
    expect(noteContent(expected)).not.toEqual(noteContent(nodeScore));
    const xml = await download(page, 'musicxml');
    expect(xml.download.suggestedFilename()).toBe('Melody.musicxml');
    expect(readMusicXml(xml.data).credits.title).toBe('Melody');
    expect(noteContent(readMusicXml(xml.data))).toEqual(noteContent(expected));
    const mxl = await download(page, 'mxl');
    expect(noteContent(readMusicXml(extractMxlScore(new Uint8Array(mxl.data))))).toEqual(noteContent(expected));
    const midiPitches = (data: Buffer) => readMidi(new Uint8Array(data)).parts.flatMap((p) => p.measures.flatMap((ms) => ms.voices.flatMap((v) => v.events.flatMap((e) => (e.kind === 'note' ? e.notes.map((n) => semitones(n.pitch)) : [])))));
    const midi = midiPitches((await download(page, 'midi')).data);

    // Undo brings back the score as recognised.
    await page.click('#correction-revert');
    expect(await page.textContent('#corrections-made')).toBe('');
    expect(noteContent(readMusicXml((await download(page, 'musicxml')).data))).toEqual(noteContent(nodeScore));
    const midiBefore = midiPitches((await download(page, 'midi')).data);
    expect(midi.length).toBe(midiBefore.length);
    expect(midi.reduce((a, b) => a + b, 0) - midiBefore.reduce((a, b) => a + b, 0)).toBe(moved);
    await page.click('#correction-close');
    await setThreshold(page, 70);
    expect(problems).toEqual([]);
  });

  it('plays the result and stops', { timeout: 30_000 }, async () => {
    await page.click('#play');
    expect(await page.textContent('#play')).toContain('Stop');
    await page.waitForTimeout(300);
    await page.click('#play');
    expect(await page.textContent('#play')).toContain('Play');
    expect(problems).toEqual([]);
  });

  it('keeps the job across a reload (IndexedDB): listed, reopened and downloadable', { timeout: 120_000 }, async () => {
    await load(page, `${server.url}#job=${jobId}`);
    await page.waitForSelector('#result[data-ready="true"]', { timeout: 60_000 });
    const row = page.locator(`#jobs tr[data-job-id="${jobId}"]`);
    expect(await row.getAttribute('data-status')).toBe('done');
    expect(await row.locator('.job-name').textContent()).toBe('Melodymelody.pdf');
    const xml = await download(page, 'musicxml');
    expect(noteContent(readMusicXml(xml.data))).toEqual(noteContent(nodeScore));
    await shot(page, '06-after-reload');

    // A second tab of the same browser profile sees it too.
    const other = await context.newPage();
    await load(other, server.url);
    expect(await other.locator(`#jobs tr[data-job-id="${jobId}"]`).count()).toBe(1);
    await other.close();
  });

  it('erases the job once its retention date has passed, on a controlled clock', { timeout: 120_000 }, async () => {
    const job = await page.evaluate((id) => (window as unknown as { scoresightDemo: { client: { getJob(id: string): Promise<{ creationDate: string; retention: { expiryDate: string } }> } } }).scoresightDemo.client.getJob(id), jobId);
    const created = Date.parse(job.creationDate);
    expect(Date.parse(job.retention.expiryDate) - created).toBe(30 * DAY);

    // Day 29 (?now= sets the clock as the page opens, and the client sweeps on opening): still kept.
    await load(page, `${server.url}?now=${new Date(created + 29 * DAY).toISOString()}`);
    const row = page.locator(`#jobs tr[data-job-id="${jobId}"]`);
    expect(await row.locator('.retention').textContent()).not.toContain('erased');
    expect(await page.textContent('#environment')).toContain('clock set to');

    // Day 31, through the page-level hook: the sweep erases it.
    const erased = await page.evaluate(async (at) => {
      const demo = (window as unknown as { scoresightDemo: { setClock(d: string): void; sweepRetention(): Promise<number> } }).scoresightDemo;
      demo.setClock(at);
      return demo.sweepRetention();
    }, new Date(created + 31 * DAY).toISOString());
    expect(erased).toBe(1);
    expect(await row.locator('.retention').textContent()).toContain('erased');
    expect(await row.locator('button.delete').isDisabled()).toBe(true);
    await shot(page, '07-retention-erased');

    // Erased for good: after a reload, opening it says so.
    await load(page, `${server.url}?now=${new Date(created + 31 * DAY).toISOString()}`);
    await page.locator(`#jobs tr[data-job-id="${jobId}"] button.open`).click();
    await page.waitForSelector('#error:not([hidden])', { timeout: 30_000 });
    expect(await page.getAttribute('#error', 'data-code')).toBe('OMR_JOB_EXPIRED');
    await shot(page, '08-expired-job-opened');
    expect(problems).toEqual([]);
  });
});

describe('other inputs', () => {
  it('a phone photo (HEIC) is decoded and recognised in the browser', { timeout: 180_000 }, async () => {
    const { context, page, problems } = await openDemo(server.url);
    try {
      await recognise(page, 'test/fixtures/input/photo.heic', { review: false });
      await page.waitForSelector('#result[data-ready="true"]', { timeout: 60_000 });
      expect(await page.getAttribute('#status', 'data-status')).toBe('done');
      // The source page is the HEIC decoded in the worker (getJobFile renders it as PNG).
      expect(await page.evaluate(() => (document.querySelector('#source-image') as HTMLImageElement).naturalWidth)).toBeGreaterThan(100);
      await shot(page, '09-heic-photo');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a song: its title, part name and lyrics are read by OCR in the browser, from the bundled English data', { timeout: 300_000 }, async () => {
    const { context, page, problems, requests } = await openDemo(server.url);
    try {
      await recognise(page, 'bench/text-set/text-abendlied/score.pdf');
      // The voice's printed name resolves its instrument with high confidence: no review is asked for.
      await page.waitForSelector('#result[data-ready="true"], #error:not([hidden])', { timeout: 120_000 });
      expect(await page.getAttribute('#status', 'data-status')).toBe('done');
      await shot(page, '10-song-result');
      // No review: the row's title is the one recognition read.
      const jobId = (await page.textContent('#job-id'))!.trim();
      await page.waitForFunction((id) => document.querySelector(`#jobs tr[data-job-id="${id}"] .job-title`)?.textContent === 'Abendlied', jobId);
      expect(await jobRowOf(page, jobId).locator('.job-files').textContent()).toBe('score.pdf');
      const xml = await download(page, 'musicxml');
      expect(xml.download.suggestedFilename()).toBe('Abendlied.musicxml');
      const score = readMusicXml(xml.data);
      const lyrics = score.parts[0]!.measures.flatMap((m) => m.voices.flatMap((v) => v.events.flatMap((e) => (e.kind === 'note' ? e.lyrics : []))));
      expect(lyrics.length).toBeGreaterThan(10);
      expect(score.parts[0]!.instrumentId).toMatch(/^voice\./);
      // Tesseract's worker, core and data came from the bundle, like everything else.
      expect(requests.some((url) => url.includes('/scoresight/tessdata/eng.traineddata.gz'))).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a corrupt PDF: refused as it is sent, before any job is made or charged; the user sees CORRUPTED_FILE', { timeout: 180_000 }, async () => {
    const { context, page, problems } = await openDemo(server.url);
    try {
      const jobsBefore = await page.locator('#jobs tr[data-job-id]').count();
      await recognise(page, { name: 'broken.pdf', mimeType: 'application/pdf', buffer: pdf.subarray(0, 600) });
      await page.waitForSelector('#error:not([hidden])', { timeout: 60_000 });
      expect(await page.getAttribute('#error', 'data-code')).toBe('CORRUPTED_FILE');
      expect(await page.textContent('#error')).toContain('CORRUPTED_FILE');
      expect(await page.getAttribute('#status', 'data-status')).toBe('refused');
      expect((await page.textContent('#job-id'))!.trim()).toBe('');
      expect(await page.locator('#jobs tr[data-job-id]').count()).toBe(jobsBefore);
      await shot(page, '10-corrupt-file');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('a cross-origin isolated page', () => {
  let isolated: DemoServer;

  beforeAll(async () => {
    isolated = await startDemoServer({ port: 0, isolated: true });
  });

  afterAll(async () => {
    await isolated?.close();
  });

  it('runs inference on several WebAssembly threads, with the same notes', { timeout: 300_000 }, async () => {
    const { context, page, problems, requests } = await openDemo(isolated.url);
    try {
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      expect(await page.textContent('#environment')).toMatch(/cross-origin isolated, [2-4] inference threads/);
      await recognise(page, PDF_PATH, { review: false });
      await page.waitForSelector('#result[data-ready="true"]', { timeout: 120_000 });
      const firstPageMs = Number(await page.getAttribute('#timing', 'data-ms'));
      console.log(`Chromium, cross-origin isolated: first page recognised in ${(firstPageMs / 1000).toFixed(2)} s`);
      // The recognition worker imported onnxruntime's loader, and each further inference thread did too.
      expect(ortLoads(requests)).toBeGreaterThan(1);
      const xml = await download(page, 'musicxml');
      expect(noteContent(readMusicXml(xml.data))).toEqual(noteContent(await recognizeScore([{ filename: 'melody.pdf', data: new Uint8Array(pdf) }])));
      await shot(page, '12-isolated-result');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('a returning user, on a 390 × 844 phone', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let waitingJob: string;

  beforeAll(async () => {
    ({ context, page, problems } = await openDemo(server.url));
    await page.setViewportSize({ width: 390, height: 844 });
  });

  afterAll(async () => {
    await context?.close();
  });

  it('keeps the main language chosen in the details step: on reopening the job and for later jobs; nothing scrolls sideways', { timeout: 300_000 }, async () => {
    await expectNoSidewaysScroll(page);
    await shot(page, '13-phone-empty');
    const { jobId } = await recognise(page, PDF_PATH, { review: true });
    expect(await page.isVisible('#details')).toBe(true);
    await expectNoSidewaysScroll(page);
    // A fresh profile: the browser's language (not German), until the user picks one.
    expect(await page.inputValue('#details-language')).not.toBe('de');
    await page.selectOption('#details-language', 'de');

    // The step shown again (a reload reopens the job): German stays chosen.
    await load(page, `${server.url}#job=${jobId}`);
    await page.waitForSelector('#details:not([hidden])', { timeout: 60_000 });
    expect(await page.inputValue('#details-language')).toBe('de');
    await shot(page, '14-phone-details');
    await page.click('#details-submit');
    await page.waitForSelector('#result[data-ready="true"]', { timeout: 120_000 });
    await expectNoSidewaysScroll(page);
    await shot(page, '15-phone-result');
    // Correcting a measure on the phone: its crop and notes fit too.
    await setThreshold(page, 100);
    await page.locator('#source-marks .uncertain-mark').first().click();
    await page.waitForSelector('#correction[data-ready="true"]', { timeout: 30_000 });
    await expectNoSidewaysScroll(page);
    await shot(page, '15b-phone-correction');

    // A later job on the page, after a reload: German again, without choosing it.
    await load(page, server.url);
    ({ jobId: waitingJob } = await recognise(page, PDF_PATH, { review: true }));
    expect(await page.isVisible('#details')).toBe(true);
    expect(await page.inputValue('#details-language')).toBe('de');
    await expectNoSidewaysScroll(page);
    expect(problems).toEqual([]);
  });

  it('cancels a job that waits for its details from its row', { timeout: 60_000 }, async () => {
    const row = jobRowOf(page, waitingJob);
    expect(await row.getAttribute('data-status')).toBe('awaitingInput');
    await row.locator('button.cancel').click();
    await page.waitForSelector(`#jobs tr[data-job-id="${waitingJob}"][data-status="canceled"]`, { timeout: 30_000 });
    // The job shown above says so too, and the canceled row has no Cancel button left.
    await page.waitForSelector('#error[data-code="CANCELED"]:not([hidden])', { timeout: 30_000 });
    expect(await page.isVisible('#details')).toBe(false);
    expect(await row.locator('button.cancel').count()).toBe(0);
    expect(await row.locator('button.delete').isDisabled()).toBe(false);
    // Delete erases the canceled job's files and says so in its row.
    await row.locator('button.delete').click();
    await page.waitForFunction((id) => document.querySelector(`#jobs tr[data-job-id="${id}"] .retention`)?.textContent?.includes('erased'), waitingJob);
    expect(problems).toEqual([]);
  });

  it('cancels a running job from its row: the job stops, named by its files', { timeout: 180_000 }, async () => {
    const names = ['Sonate 1 – Allegro con brio, erster Satz.pdf', 'Sonate 1 – Adagio.pdf', 'Sonate 1 – Rondo.pdf'];
    await page.setInputFiles('#file-input', names.map((name) => ({ name, mimeType: 'application/pdf', buffer: pdf })));
    await expectNoSidewaysScroll(page);
    await page.setChecked('#review', false);
    await page.click('#start');
    await page.waitForFunction(() => /^job_/.test(document.querySelector('#job-id')?.textContent ?? ''));
    const jobId = (await page.textContent('#job-id'))!.trim();
    const row = jobRowOf(page, jobId);
    await page.waitForSelector(`#jobs tr[data-job-id="${jobId}"][data-status="processing"] button.cancel`, { timeout: 30_000 });
    expect(await row.locator('.job-files').textContent()).toBe(names.join(', '));
    await expectNoSidewaysScroll(page);
    await shot(page, '16-phone-running-job');
    await row.locator('button.cancel').click();
    // Asked while a page is read, the job stops at once: the worker reading it is ended.
    await page.waitForSelector(`#jobs tr[data-job-id="${jobId}"][data-status="canceled"]`, { timeout: 120_000 });
    const job = await page.evaluate((id) => (window as unknown as { scoresightDemo: { client: { getJob(id: string): Promise<{ status: string }> } } }).scoresightDemo.client.getJob(id), jobId);
    expect(job.status).toBe('canceled');
    await page.waitForSelector('#error[data-code="CANCELED"]:not([hidden])', { timeout: 30_000 });
    expect(await row.locator('td').nth(2).textContent()).toBe('canceled');
    await expectNoSidewaysScroll(page);
    await shot(page, '17-phone-job-canceled');
    expect(problems).toEqual([]);
  });

  it("answers a cancel while a page is read with the canceled job, by ending the page's Web Worker; the next job runs on a fresh one", { timeout: 180_000 }, async () => {
    const outcome = await page.evaluate(async (bytes) => {
      type Job = { id: string; status: string; progress?: { key: string } };
      const { client } = (window as unknown as { scoresightDemo: { client: { createJob(body: object): Promise<Job>; getJob(id: string, o?: object): Promise<Job>; cancelJob(id: string): Promise<Job> } } }).scoresightDemo;
      const files = [{ file: new Uint8Array(bytes), filename: 'read.pdf' }];
      const job = await client.createJob({ output: 'musicxml', files, autoStart: true });
      let seen = await client.getJob(job.id);
      while (seen.status === 'processing' && !['OMR_DETECTING_STAVES', 'OMR_READING_NOTES'].includes(seen.progress?.key ?? '')) seen = await client.getJob(job.id, { wait: 1 });
      const canceled = await client.cancelJob(job.id).then(
        (j) => j.status,
        (err: { code?: string }) => err.code,
      );
      let next = await client.createJob({ output: 'musicxml', files, autoStart: true });
      while (next.status === 'processing') next = await client.getJob(next.id, { wait: 5 });
      return { keyAtCancel: seen.progress?.key, canceled, next: next.status };
    }, [...pdf]);
    expect(outcome).toEqual({ keyAtCancel: expect.stringMatching(/^OMR_(DETECTING_STAVES|READING_NOTES)$/), canceled: 'canceled', next: 'done' });
    // What the ended worker was still loading is aborted with it: no problem of the page's.
    expect(problems.filter((problem) => !/^request failed: .* \(net::ERR_ABORTED\)$/.test(problem))).toEqual([]);
  });
});

describe('npm run demo (scripts/serve-demo.mjs)', () => {
  const serveDemo = (...args: string[]) => spawnSync(process.execPath, ['scripts/serve-demo.mjs', ...args], { encoding: 'utf8', timeout: 30_000 });

  it('--help prints a short usage text and exits 0', () => {
    const { status, stdout, stderr } = serveDemo('--help');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^Usage: /);
    for (const option of ['--port', '--host', '--isolated', '--export', '--help']) expect(stdout).toContain(option);
    expect(stdout.split('\n').length).toBeLessThan(20);
    expect(stderr).toBe('');
  });

  it('a busy port is one line that names the port and how to pick another, exit code 1', () => {
    const { status, stdout, stderr } = serveDemo('--port', String(server.port));
    expect(status).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Port ${server.port}`);
    expect(lines[0]).toContain('--port');
    expect(stderr).not.toMatch(/\bat .*:\d+:\d+/); // no stack trace
  });

  it('an unknown argument is named, with the usage, and no stack trace', () => {
    const { status, stderr } = serveDemo('--prot', '8081');
    expect(status).toBe(2);
    expect(stderr.split('\n')[0]).toBe('serve-demo: unknown argument --prot');
    expect(stderr).toContain('Usage: ');
    expect(stderr).not.toMatch(/\bat .*:\d+:\d+/);
  });
});
