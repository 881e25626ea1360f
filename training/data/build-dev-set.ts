/**
 * Builds the dev set:
 *
 *   npm run data:dev-set                    # everything
 *   npm run data:dev-set -- <id>…           # some of the engraved documents
 *   npm run data:dev-set -- --quartets-only # only the quartet pages
 *   npm run data:dev-set -- --generated-only # only the generated engraved documents (dev-extended.ts)
 *
 * Two kinds of documents:
 *
 * - Engraved (`split: 'tuned'`), listed in dev-split.ts, committed in
 *   bench/dev-set/: for each, cut the excerpt, write its ground truth as
 *   MusicXML, engrave it with MuseScore 3 or LilyPond (never Verovio, which
 *   makes the training pages) into the PDF users would upload.
 * - Quartet pages (`split: 'heldout'`): pages of the real MuseScore 4 PDFs of
 *   the held-out OpenScore string quartets (quartet-split.ts), cut out of
 *   the PDF as they are, with the truth of exactly their measures
 *   (quartet-pages.ts). About 180 pages, spread over the works, as documents
 *   of one to three pages.
 *
 * Either way the PDF is then rasterised and each page degraded into a scan
 * and a phone photo, seeded by the document id.
 *
 * The full set, both kinds, goes to .data/dev-set/ (not committed). The
 * committed bench/dev-set/ keeps the engraved documents and three one-page
 * quartet documents (CI_QUARTET_DOCUMENTS), for the CI accuracy guard.
 *
 * Needs Debian's musescore3, lilypond and poppler-utils (pdftoppm,
 * pdfseparate, pdfunite).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import jpeg from 'jpeg-js';
import { writeMusicXml } from '../../src/exports/musicxml.js';
import { encodePng } from '../../src/image/png-encode.js';
import type { Raster } from '../../src/image/raster.js';
import type { Score } from '../../src/score/model.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { degradePhoto, degradeScan } from './degrade.js';
import { EXTENDED_DEV_DOCUMENTS, type ExtendedDevDocument } from './dev-extended.js';
import { DEV_DOCUMENTS, type DevDocument } from './dev-split.js';
import { excerpt } from './excerpt.js';
import { parseNetpbm } from './netpbm.js';
import { createRng } from './prng.js';
import { cutPages, quartetFiles, readQuartet, type QuartetFile, type QuartetMovement } from './quartet-pages.js';
import { QUARTET_SPLIT } from './quartet-split.js';
import { prependTitlePage } from './title-page.js';
import { engraveVerovioEmmentaler, engraveVerovioEmmentalerRasters } from './verovio-engraver.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CORPUS = resolve(ROOT, '../shared/corpus');
export const DEV_SET_DIR = join(ROOT, 'bench/dev-set');
/** The full dev set, engraved documents and quartet pages: built here, never committed. */
export const FULL_DEV_SET_DIR = join(ROOT, '.data/dev-set');

/** Scans and photos from 150 dpi renderings: what office scanners and phones commonly deliver, and small enough to commit. */
const SCAN_DPI = 150;
const PHOTO_DPI = 150;
const PHOTO_JPEG_QUALITY = 72;
const SCAN_JPEG_QUALITY = 75;

export interface DevManifestEntry {
  id: string;
  category: DevDocument['category'];
  /** What made the clean PDF: MuseScore 3 or LilyPond from the truth, or MuseScore 4 (the corpus's own quartet PDFs). */
  engraver: DevDocument['engraver'] | ExtendedDevDocument['engraver'] | 'musescore4';
  /** `tuned`: engraved documents the project has measured and tuned against; `heldout`: quartet pages kept for measuring only. */
  split: 'tuned' | 'heldout';
  /** Corpus file of the truth, relative to ../shared/corpus. */
  source: string;
  /** Pages of the source PDF (1-based, first and last) the document is, for quartet pages. */
  sourcePages?: readonly [number, number];
  parts?: DevDocument['parts'];
  /** Measure indices [from, to) of the source's truth. */
  measures: DevDocument['measures'];
  locales?: DevDocument['locales'];
  licence: string;
  /** The music starts on page 2, after a title page. */
  titlePage?: boolean;
  pages: number;
  /** `pdf` is the clean input: the PDF, or for Verovio (which makes no PDF) its pages as PNG. */
  files: { pdf: string | string[]; truth: string; scan: string[]; photo: string[] };
}

export interface DevManifest {
  description: string;
  documents: DevManifestEntry[];
}

const LICENCES: Record<string, string> = {
  lieder: 'CC0 1.0 (OpenScore Lieder)',
  orchestral: 'CC0 1.0 scores (Hauptstimme orchestral corpus, repository MIT)',
  quartets: 'CC0 1.0 (OpenScore String Quartets)',
};

/** A stable 32-bit seed from a document id (FNV-1a). */
export function seedOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

function run(cmd: string, args: string[], cwd: string): void {
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' }, timeout: 120_000 });
}

function engrave(doc: Pick<DevDocument, 'engraver'> & { titlePage?: boolean }, musicxml: string, work: string, credits: Score['credits'] = {}): Buffer {
  writeFileSync(join(work, 'truth.musicxml'), musicxml);
  if (doc.engraver === 'musescore') {
    // MuseScore keeps the file's staff size and does not shrink a system to fit the page: a system
    // of 20 or more staves runs off the bottom, and the truth would hold staves no page shows.
    // Such scores are engraved at about 1 mm per staff space, as printed study scores are.
    const parts = (musicxml.match(/<score-part\b/g) ?? []).length;
    if (parts >= 20) writeFileSync(join(work, 'truth.musicxml'), musicxml.replace(/<millimeters>[^<]*<\/millimeters>/, '<millimeters>3.9</millimeters>'));
    run('mscore3', ['-o', 'score.pdf', 'truth.musicxml'], work);
  } else {
    run('musicxml2ly', ['--no-beaming', '-o', 'score.ly', 'truth.musicxml'], work);
    run('lilypond', ['-dno-point-and-click', '-o', 'score', 'score.ly'], work);
  }
  return readFileSync(doc.titlePage ? prependTitlePage(credits, work, 'score.pdf') : join(work, 'score.pdf'));
}

function rasterise(work: string, pdf: string, dpi: number, prefix: string, gray: boolean): Raster[] {
  run('pdftoppm', ['-r', String(dpi), ...(gray ? ['-gray'] : []), pdf, prefix], work);
  return readdirSync(work)
    .filter((f) => f.startsWith(`${prefix}-`))
    .sort((a, b) => Number(/-(\d+)\./.exec(a)![1]) - Number(/-(\d+)\./.exec(b)![1]))
    .map((f) => parseNetpbm(readFileSync(join(work, f))));
}

function encodeJpeg(image: Raster, quality: number): Uint8Array {
  const rgba = new Uint8Array(image.width * image.height * 4);
  for (let i = 0, j = 0; i < image.width * image.height; i++, j += image.channels) {
    const r = image.data[j]!;
    rgba[i * 4] = r;
    rgba[i * 4 + 1] = image.channels >= 3 ? image.data[j + 1]! : r;
    rgba[i * 4 + 2] = image.channels >= 3 ? image.data[j + 2]! : r;
    rgba[i * 4 + 3] = 255;
  }
  return jpeg.encode({ data: rgba, width: image.width, height: image.height }, quality).data;
}

export function buildDocument(doc: DevDocument): DevManifestEntry {
  const source = readMusicXml(new Uint8Array(readFileSync(join(CORPUS, doc.source))));
  return engravedEntry(doc, engraveDocument(doc, excerpt(source, doc), DEV_SET_DIR));
}

/** The manifest entry of a document engraved from an excerpt of a corpus piece. */
function engravedEntry(doc: DevDocument | ExtendedDevDocument, built: Pick<DevManifestEntry, 'pages' | 'files'>): DevManifestEntry {
  return {
    id: doc.id,
    category: doc.category,
    engraver: doc.engraver,
    split: 'tuned',
    source: doc.source,
    ...(doc.parts && { parts: doc.parts }),
    measures: doc.measures,
    ...(doc.locales && { locales: doc.locales }),
    licence: LICENCES[doc.source.split('/')[0]!] ?? 'see the corpus folder',
    ...('titlePage' in doc && doc.titlePage && { titlePage: true }),
    ...built,
  };
}

/**
 * Writes a document's truth, engraves it and degrades its pages into
 * `<dir>/<id>/`: score.pdf, truth.musicxml, scan-N and photo-N.
 */
export function engraveDocument(doc: Pick<DevDocument, 'id' | 'engraver'> & { titlePage?: boolean }, truth: Score, dir: string): Pick<DevManifestEntry, 'pages' | 'files'> {
  // MuseScore 3 sets a subtitle by its own style, over the title whatever the credit's position says,
  // and neither can then be read: its pages print no subtitle, and their truth claims none.
  if (doc.engraver === 'musescore' && truth.credits.subtitle !== undefined) {
    const { subtitle: _subtitle, ...credits } = truth.credits;
    truth = { ...truth, credits };
  }
  const xml = writeMusicXml(truth, { encodingDate: '2026-11-21' });
  return withWorkDir(doc.id, (work) => writeDocument(doc.id, engrave(doc, xml, work, truth.credits), xml, dir, work));
}

/**
 * Pages `first`…`last` (1-based) of a PDF as they are, with their truth,
 * degraded like every dev document into `<dir>/<id>/`.
 */
export function pdfPagesDocument(id: string, pdfPath: string, first: number, last: number, truth: Score, dir: string): Pick<DevManifestEntry, 'pages' | 'files'> {
  const xml = writeMusicXml(truth, { encodingDate: '2026-11-21' });
  return withWorkDir(id, (work) => writeDocument(id, cutPdf(pdfPath, first, last, work), xml, dir, work));
}

function withWorkDir<T>(id: string, body: (work: string) => T): T {
  const work = mkdtempSync(join(tmpdir(), `devset-${id}-`));
  try {
    return body(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Pages `first`…`last` of a PDF, as one PDF (poppler's pdfseparate and pdfunite: the pages' content untouched). */
function cutPdf(pdfPath: string, first: number, last: number, work: string): Buffer {
  run('pdfseparate', ['-f', String(first), '-l', String(last), resolve(pdfPath), 'page-%d.pdf'], work);
  const pages = Array.from({ length: last - first + 1 }, (_, i) => `page-${first + i}.pdf`);
  if (pages.length === 1) return readFileSync(join(work, pages[0]!));
  run('pdfunite', [...pages, 'cut.pdf'], work);
  return readFileSync(join(work, 'cut.pdf'));
}

/** Writes a document's PDF and truth into `<dir>/<id>/`, then rasterises the PDF and degrades each page into a scan and a photo. */
function writeDocument(id: string, pdf: Buffer, xml: string, dir: string, work: string): Pick<DevManifestEntry, 'pages' | 'files'> {
  const out = freshFolder(dir, id);
  writeFileSync(join(out, 'score.pdf'), pdf);
  writeFileSync(join(work, 'pages.pdf'), pdf);
  writeFileSync(join(out, 'truth.musicxml'), xml);
  const degraded = writeDegraded(id, out, rasterise(work, 'pages.pdf', SCAN_DPI, 'scan', true), rasterise(work, 'pages.pdf', PHOTO_DPI, 'photo', false));
  return { pages: degraded.scan.length, files: { pdf: `${id}/score.pdf`, truth: `${id}/truth.musicxml`, ...degraded } };
}

/** Clean pages as Verovio engraves them (a page image each, Verovio makes no PDF) at this resolution. */
const VEROVIO_CLEAN_DPI = 200;

/**
 * Engraves a truth with Verovio's layout and the Emmentaler music font
 * (verovio-engraver.ts) into `<dir>/<id>/`: clean pages as PNG, then each
 * page degraded into a scan and a photo like every other document.
 */
async function verovioDocument(id: string, truth: Score, dir: string): Promise<Pick<DevManifestEntry, 'pages' | 'files'>> {
  const xml = writeMusicXml(truth, { encodingDate: '2026-11-21' });
  const { pngs } = await engraveVerovioEmmentaler(xml, { dpi: VEROVIO_CLEAN_DPI });
  const pages = await engraveVerovioEmmentalerRasters(xml, SCAN_DPI);
  const out = freshFolder(dir, id);
  writeFileSync(join(out, 'truth.musicxml'), xml);
  const clean = pngs.map((png, i) => {
    writeFileSync(join(out, `clean-${i + 1}.png`), png);
    return `${id}/clean-${i + 1}.png`;
  });
  const degraded = writeDegraded(id, out, pages, pages);
  return { pages: clean.length, files: { pdf: clean, truth: `${id}/truth.musicxml`, ...degraded } };
}

function freshFolder(dir: string, id: string): string {
  const out = join(dir, id);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  return out;
}

/** Each page degraded into a scan and a phone photo, seeded by the document id; the paths relative to the set. */
function writeDegraded(id: string, out: string, scanPages: readonly Raster[], photoPages: readonly Raster[]): { scan: string[]; photo: string[] } {
  const seed = seedOf(id);
  const scans = scanPages.map((page, i) => {
    // Binarised scans compress best as PNG, noisy gray ones as JPEG: keep whichever is smaller, as scanners do.
    const image = degradeScan(page, seed + i).image;
    const png = encodePng(image);
    const jpg = encodeJpeg(image, SCAN_JPEG_QUALITY);
    const name = png.length <= jpg.length ? `scan-${i + 1}.png` : `scan-${i + 1}.jpg`;
    writeFileSync(join(out, name), png.length <= jpg.length ? png : jpg);
    return `${id}/${name}`;
  });
  const photos = photoPages.map((page, i) => {
    const name = `photo-${i + 1}.jpg`;
    writeFileSync(join(out, name), encodeJpeg(degradePhoto(page, seed + 1000 + i).image, PHOTO_JPEG_QUALITY));
    return `${id}/${name}`;
  });
  return { scan: scans, photo: photos };
}

export function readManifest(dir = DEV_SET_DIR): DevManifest {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as DevManifest;
}

function previousEntries(dir: string): Map<string, DevManifestEntry> {
  try {
    return new Map(readManifest(dir).documents.map((e) => [e.id, e]));
  } catch {
    return new Map(); // First build.
  }
}

/** An entry with its fields in a fixed order; documents built before the split existed were all tuned. */
function normalEntry(e: DevManifestEntry): DevManifestEntry {
  const { id, category, engraver, split, source, sourcePages, ...rest } = e;
  return { id, category, engraver, split: split ?? 'tuned', source, ...(sourcePages && { sourcePages }), ...rest };
}

function writeManifest(dir: string, description: string, documents: DevManifestEntry[]): void {
  const manifest: DevManifest = { description, documents: documents.map(normalEntry) };
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

const BENCH_DESCRIPTION =
  'ScoreSight dev set: excerpts of corpus pieces excluded from training (training/data/dev-split.ts), engraved by MuseScore 3 and LilyPond (split "tuned"), and three pages of held-out OpenScore string quartets as MuseScore 4 printed them (split "heldout", training/data/quartet-split.ts), each as PDF, scan-degraded and photo-degraded pages, with MusicXML ground truth.';
const FULL_DESCRIPTION =
  'ScoreSight full dev set: the engraved documents of bench/dev-set and longer ones of the same pieces engraved by MuseScore 3, LilyPond and Verovio with the Emmentaler font (training/data/dev-extended.ts; split "tuned"), and about 180 pages of the held-out OpenScore string quartets as MuseScore 4 printed them (split "heldout"), each as PDF, scan-degraded and photo-degraded pages, with MusicXML ground truth of exactly their measures.';

/** The committed manifest: the engraved documents, then the CI quartet pages. */
function writeBenchManifest(byId: Map<string, DevManifestEntry>): void {
  const ids = [...DEV_DOCUMENTS.map((d) => d.id), ...CI_QUARTET_DOCUMENTS];
  writeManifest(DEV_SET_DIR, BENCH_DESCRIPTION, ids.map((id) => byId.get(id)).filter((e) => e !== undefined));
}

function buildEngraved(ids: string[]): void {
  const docs = ids.length ? DEV_DOCUMENTS.filter((d) => ids.includes(d.id)) : DEV_DOCUMENTS;
  if (ids.length && docs.length !== ids.length) throw new Error(`unknown document id among ${ids.join(', ')}`);
  mkdirSync(DEV_SET_DIR, { recursive: true });
  const byId = previousEntries(DEV_SET_DIR);
  const started = performance.now();
  let pages = 0;
  for (const doc of docs) {
    const t0 = performance.now();
    const entry = buildDocument(doc);
    byId.set(doc.id, entry);
    pages += entry.pages;
    console.log(`${doc.id}: ${entry.pages} page(s), ${doc.engraver}, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  writeBenchManifest(byId);
  const seconds = (performance.now() - started) / 1000;
  console.log(`${docs.length} documents, ${pages} pages in ${seconds.toFixed(1)} s (${(pages / seconds).toFixed(2)} pages/s)`);
}

// ---------------------------------------------------------------------------
// The generated engraved documents (dev-extended.ts).

async function buildExtended(ids: string[]): Promise<void> {
  const docs = ids.length ? EXTENDED_DEV_DOCUMENTS.filter((d) => ids.includes(d.id)) : EXTENDED_DEV_DOCUMENTS;
  mkdirSync(FULL_DEV_SET_DIR, { recursive: true });
  const started = performance.now();
  const entries: DevManifestEntry[] = [];
  for (const doc of docs) {
    const t0 = performance.now();
    const truth = excerpt(readMusicXml(new Uint8Array(readFileSync(join(CORPUS, doc.source)))), doc);
    const built =
      doc.engraver === 'verovio-emmentaler'
        ? await verovioDocument(doc.id, truth, FULL_DEV_SET_DIR)
        : engraveDocument({ id: doc.id, engraver: doc.engraver, titlePage: doc.titlePage ?? false }, truth, FULL_DEV_SET_DIR);
    entries.push(engravedEntry(doc, built));
    console.log(`${doc.id}: ${built.pages} page(s), ${doc.engraver}${doc.titlePage ? ', title page first' : ''}, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  mergeFullManifest(entries);
  const pages = entries.reduce((n, e) => n + e.pages, 0);
  console.log(`generated documents: ${entries.length}, ${pages} pages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Writes the full set's manifest: the committed engraved documents (copied
 * in), the generated ones, then the quartet pages. Entries built now replace
 * those of earlier builds; the rest are kept.
 */
function mergeFullManifest(built: readonly DevManifestEntry[]): void {
  const byId = previousEntries(FULL_DEV_SET_DIR);
  const committed = [...previousEntries(DEV_SET_DIR).values()].filter((e) => (e.split ?? 'tuned') === 'tuned');
  for (const e of committed) {
    rmSync(join(FULL_DEV_SET_DIR, e.id), { recursive: true, force: true });
    cpSync(join(DEV_SET_DIR, e.id), join(FULL_DEV_SET_DIR, e.id), { recursive: true });
    byId.set(e.id, e);
  }
  for (const e of built) byId.set(e.id, e);
  const order = [...DEV_DOCUMENTS.map((d) => d.id), ...EXTENDED_DEV_DOCUMENTS.map((d) => d.id)];
  const known = new Set(order);
  const quartets = [...byId.keys()].filter((id) => !known.has(id));
  writeManifest(FULL_DEV_SET_DIR, FULL_DESCRIPTION, [...order, ...quartets].map((id) => byId.get(id)).filter((e) => e !== undefined));
}

// ---------------------------------------------------------------------------
// Quartet pages.

/** About this many pages of held-out quartets in the full dev set. */
const QUARTET_PAGE_BUDGET = 180;
/** Document lengths in pages, taken in turn: mostly single pages, some runs of two or three. */
const QUARTET_LENGTHS = [1, 1, 2, 1, 3] as const;

/**
 * The quartet documents also committed in bench/dev-set/, for the CI
 * accuracy guard: three single pages of three works, chosen once from
 * {@link selectQuartetDocuments}'s selection, far apart in style: a first
 * page with title and part names (Schumann), a classical page (Mozart), a
 * dense modern one (Debussy).
 */
export const CI_QUARTET_DOCUMENTS: readonly string[] = ['sq-schumann-sq9529900-p1', 'sq-mozart-sq9199617-p5', 'sq-debussy-sq8661306-p7'];

export interface QuartetDocument {
  id: string;
  file: QuartetFile;
  /** Pages of the file's PDF, 1-based, first and last. */
  first: number;
  last: number;
}

/** A quartet document's id: `sq-<composer>-<file>-p<first>[-<last>]`. */
function quartetDocumentId(file: QuartetFile, first: number, last: number): string {
  const composer = file.work
    .split(',')[0]!
    .normalize('NFD')
    .replace(/[^A-Za-z-]/g, '')
    .toLowerCase();
  return `sq-${composer}-${file.id}-p${first}${last > first ? `-${last}` : ''}`;
}

/**
 * Picks the quartet documents: round after round over the held-out works in
 * order, one document from each, until about {@link QUARTET_PAGE_BUDGET}
 * pages; lengths in turn from {@link QUARTET_LENGTHS}; where in the work, by a
 * generator seeded with the work and the round, never reusing a page. It
 * needs only each file's page count, so it is the same whatever the pages
 * hold; pages that turn out to hold no music are dropped when built.
 */
export function selectQuartetDocuments(files: readonly { file: QuartetFile; pageCount: number }[]): QuartetDocument[] {
  const works = [...new Set(files.map((f) => f.file.work))].filter((w) => QUARTET_SPLIT[w] === 'heldout').sort();
  const used = new Set<string>();
  const docs: QuartetDocument[] = [];
  let pages = 0;
  for (let round = 0; pages < QUARTET_PAGE_BUDGET; round++) {
    let added = false;
    for (const work of works) {
      if (pages >= QUARTET_PAGE_BUDGET) break;
      const want = QUARTET_LENGTHS[docs.length % QUARTET_LENGTHS.length]!;
      const runs = (length: number) =>
        files
          .filter((f) => f.file.work === work)
          .flatMap(({ file, pageCount }) =>
            Array.from({ length: Math.max(0, pageCount - length + 1) }, (_, i) => i + 1)
              .filter((first) => Array.from({ length }, (_, j) => `${file.mxl}#${first + j}`).every((k) => !used.has(k)))
              .map((first) => ({ file, first, last: first + length - 1 })),
          );
      const candidates = runs(want).length ? runs(want) : runs(1);
      if (!candidates.length) continue;
      const pick = createRng(seedOf(`${work}#${round}`)).pick(candidates);
      for (let p = pick.first; p <= pick.last; p++) used.add(`${pick.file.mxl}#${p}`);
      docs.push({ id: quartetDocumentId(pick.file, pick.first, pick.last), ...pick });
      pages += pick.last - pick.first + 1;
      added = true;
    }
    if (!added) break;
  }
  return docs;
}

function pdfPageCount(path: string): number {
  const info = execFileSync('pdfinfo', [path], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
}

async function buildQuartets(): Promise<void> {
  const started = performance.now();
  const files = quartetFiles(CORPUS).filter((f) => QUARTET_SPLIT[f.work] === 'heldout');
  const docs = selectQuartetDocuments(files.map((file) => ({ file, pageCount: pdfPageCount(join(CORPUS, file.pdf)) })));
  const missingCi = CI_QUARTET_DOCUMENTS.filter((id) => !docs.some((d) => d.id === id));
  if (missingCi.length) throw new Error(`CI quartet documents no longer selected: ${missingCi.join(', ')}`);
  mkdirSync(FULL_DEV_SET_DIR, { recursive: true });
  const entries = new Map<string, DevManifestEntry>();
  const skipped: string[] = [];
  // One file at a time: its truth and layout read once, for all its documents.
  for (const file of files) {
    const mine = docs.filter((d) => d.file === file);
    if (!mine.length) continue;
    const t0 = performance.now();
    let movement: QuartetMovement;
    try {
      movement = await readQuartet(join(CORPUS, file.pdf), join(CORPUS, file.mxl));
    } catch (err) {
      const why = `${file.mxl}: skipped, ${err instanceof Error ? err.message : String(err)} (${mine.length} document(s) lost)`;
      console.log(why);
      skipped.push(why);
      continue;
    }
    for (const doc of mine) {
      let cut: ReturnType<typeof cutPages>;
      try {
        cut = cutPages(movement, doc.first, doc.last);
      } catch (err) {
        const why = `${doc.id}: skipped, ${err instanceof Error ? err.message : String(err)}`;
        console.log(why);
        skipped.push(why);
        continue;
      }
      const built = pdfPagesDocument(doc.id, join(CORPUS, file.pdf), doc.first, doc.last, cut.truth, FULL_DEV_SET_DIR);
      entries.set(doc.id, {
        id: doc.id,
        category: 'chamber',
        engraver: 'musescore4',
        split: 'heldout',
        source: file.mxl,
        sourcePages: [doc.first, doc.last],
        measures: cut.measures,
        licence: LICENCES.quartets!,
        ...built,
      });
    }
    console.log(`${file.mxl}: ${mine.map((d) => d.id).join(', ')} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  const quartetEntries = docs.map((d) => entries.get(d.id)).filter((e) => e !== undefined);

  // The full set: quartet pages no longer selected go; the rest is merged with the engraved documents.
  const keep = new Set(quartetEntries.map((e) => e.id));
  for (const name of readdirSync(FULL_DEV_SET_DIR)) {
    if (name.startsWith('sq-') && !keep.has(name)) rmSync(join(FULL_DEV_SET_DIR, name), { recursive: true, force: true });
  }
  const full = previousEntries(FULL_DEV_SET_DIR);
  for (const id of [...full.keys()]) if (id.startsWith('sq-')) full.delete(id);
  writeManifest(FULL_DEV_SET_DIR, FULL_DESCRIPTION, [...full.values()]);
  mergeFullManifest(quartetEntries);

  // The committed few.
  const bench = previousEntries(DEV_SET_DIR);
  for (const name of readdirSync(DEV_SET_DIR)) {
    if (name.startsWith('sq-') && !CI_QUARTET_DOCUMENTS.includes(name)) rmSync(join(DEV_SET_DIR, name), { recursive: true, force: true });
  }
  for (const [id] of bench) if (id.startsWith('sq-')) bench.delete(id);
  for (const id of CI_QUARTET_DOCUMENTS) {
    const entry = entries.get(id);
    if (!entry) throw new Error(`CI quartet document ${id} was not built`);
    rmSync(join(DEV_SET_DIR, id), { recursive: true, force: true });
    cpSync(join(FULL_DEV_SET_DIR, id), join(DEV_SET_DIR, id), { recursive: true });
    bench.set(id, entry);
  }
  writeBenchManifest(bench);

  const pages = quartetEntries.reduce((n, e) => n + e.pages, 0);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `quartets: ${quartetEntries.length} documents (${quartetEntries.filter((e) => e.pages === 1).length} of one page), ${pages} pages, from ${new Set(quartetEntries.map((e) => e.source.split('/').slice(0, 3).join('/'))).size} works, in ${seconds.toFixed(1)} s${skipped.length ? `; ${skipped.length} skipped` : ''}`,
  );
}

async function main(args: string[]): Promise<void> {
  const flags = args.filter((a) => a.startsWith('--'));
  const ids = args.filter((a) => !a.startsWith('--'));
  const unknown = flags.filter((f) => f !== '--quartets-only' && f !== '--generated-only');
  if (unknown.length) throw new Error(`unknown option ${unknown.join(', ')}; known: --quartets-only, --generated-only`);
  const quartetsOnly = flags.includes('--quartets-only');
  const generatedOnly = flags.includes('--generated-only');
  if (quartetsOnly && ids.length) throw new Error('--quartets-only builds every quartet document; give no ids with it');
  const committedIds = ids.filter((id) => DEV_DOCUMENTS.some((d) => d.id === id));
  const generatedIds = ids.filter((id) => EXTENDED_DEV_DOCUMENTS.some((d) => d.id === id));
  if (committedIds.length + generatedIds.length !== ids.length) throw new Error(`unknown document id among ${ids.join(', ')}`);
  if (!quartetsOnly && !generatedOnly && (!ids.length || committedIds.length)) buildEngraved(committedIds);
  if (!quartetsOnly && (!ids.length || generatedIds.length)) await buildExtended(generatedIds);
  if (!ids.length && !generatedOnly) await buildQuartets();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main(process.argv.slice(2));
}
