/**
 * Builds the committed dev set (bench/dev-set/) from the documents listed in
 * dev-split.ts:
 *
 *   npm run data:dev-set            # all documents
 *   npm run data:dev-set -- <id>…   # some of them
 *
 * For each document: cut the excerpt, write its ground truth as MusicXML,
 * engrave it with MuseScore 3 or LilyPond (never Verovio, which makes the
 * training pages) into the PDF users would upload, then rasterise the PDF and
 * degrade each page into a scan and a phone photo, seeded by the document id.
 *
 * Needs Debian's musescore3, lilypond and poppler-utils (pdftoppm).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import jpeg from 'jpeg-js';
import { writeMusicXml } from '../../src/exports/musicxml.js';
import { encodePng } from '../../src/image/png-encode.js';
import type { Raster } from '../../src/image/raster.js';
import type { Score } from '../../src/score/model.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { degradePhoto, degradeScan } from './degrade.js';
import { DEV_DOCUMENTS, type DevDocument } from './dev-split.js';
import { excerpt } from './excerpt.js';
import { parseNetpbm } from './netpbm.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CORPUS = resolve(ROOT, '../shared/corpus');
export const DEV_SET_DIR = join(ROOT, 'bench/dev-set');

/** Scans and photos from 150 dpi renderings: what office scanners and phones commonly deliver, and small enough to commit. */
const SCAN_DPI = 150;
const PHOTO_DPI = 150;
const PHOTO_JPEG_QUALITY = 72;
const SCAN_JPEG_QUALITY = 75;

export interface DevManifestEntry {
  id: string;
  category: DevDocument['category'];
  engraver: DevDocument['engraver'];
  source: string;
  parts?: DevDocument['parts'];
  measures: DevDocument['measures'];
  locales?: DevDocument['locales'];
  licence: string;
  pages: number;
  files: { pdf: string; truth: string; scan: string[]; photo: string[] };
}

export interface DevManifest {
  description: string;
  documents: DevManifestEntry[];
}

const LICENCES: Record<string, string> = {
  lieder: 'CC0 1.0 (OpenScore Lieder)',
  orchestral: 'CC0 1.0 scores (Hauptstimme orchestral corpus, repository MIT)',
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

function engrave(doc: Pick<DevDocument, 'engraver'>, musicxml: string, work: string): Buffer {
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
  return readFileSync(join(work, 'score.pdf'));
}

function rasterise(work: string, dpi: number, prefix: string, gray: boolean): Raster[] {
  run('pdftoppm', ['-r', String(dpi), ...(gray ? ['-gray'] : []), 'score.pdf', prefix], work);
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
  const { pages, files } = engraveDocument(doc, excerpt(source, doc), DEV_SET_DIR);
  const folder = doc.source.split('/')[0]!;
  return {
    id: doc.id,
    category: doc.category,
    engraver: doc.engraver,
    source: doc.source,
    ...(doc.parts && { parts: doc.parts }),
    measures: doc.measures,
    ...(doc.locales && { locales: doc.locales }),
    licence: LICENCES[folder] ?? 'see the corpus folder',
    pages,
    files,
  };
}

/**
 * Writes a document's truth, engraves it and degrades its pages into
 * `<dir>/<id>/`: score.pdf, truth.musicxml, scan-N and photo-N.
 */
export function engraveDocument(doc: Pick<DevDocument, 'id' | 'engraver'>, truth: Score, dir: string): Pick<DevManifestEntry, 'pages' | 'files'> {
  // MuseScore 3 sets a subtitle by its own style, over the title whatever the credit's position says,
  // and neither can then be read: its pages print no subtitle, and their truth claims none.
  if (doc.engraver === 'musescore' && truth.credits.subtitle !== undefined) {
    const { subtitle: _subtitle, ...credits } = truth.credits;
    truth = { ...truth, credits };
  }
  const xml = writeMusicXml(truth, { encodingDate: '2026-11-21' });
  const work = mkdtempSync(join(tmpdir(), `devset-${doc.id}-`));
  const out = join(dir, doc.id);
  try {
    const pdf = engrave(doc, xml, work);
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'score.pdf'), pdf);
    writeFileSync(join(out, 'truth.musicxml'), xml);
    const seed = seedOf(doc.id);
    const scans = rasterise(work, SCAN_DPI, 'scan', true).map((page, i) => {
      // Binarised scans compress best as PNG, noisy gray ones as JPEG: keep whichever is smaller, as scanners do.
      const image = degradeScan(page, seed + i).image;
      const png = encodePng(image);
      const jpg = encodeJpeg(image, SCAN_JPEG_QUALITY);
      const name = png.length <= jpg.length ? `scan-${i + 1}.png` : `scan-${i + 1}.jpg`;
      writeFileSync(join(out, name), png.length <= jpg.length ? png : jpg);
      return name;
    });
    const photos = rasterise(work, PHOTO_DPI, 'photo', false).map((page, i) => {
      const name = `photo-${i + 1}.jpg`;
      writeFileSync(join(out, name), encodeJpeg(degradePhoto(page, seed + 1000 + i).image, PHOTO_JPEG_QUALITY));
      return name;
    });
    return {
      pages: scans.length,
      files: { pdf: `${doc.id}/score.pdf`, truth: `${doc.id}/truth.musicxml`, scan: scans.map((s) => `${doc.id}/${s}`), photo: photos.map((p) => `${doc.id}/${p}`) },
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function readManifest(): DevManifest {
  return JSON.parse(readFileSync(join(DEV_SET_DIR, 'manifest.json'), 'utf8')) as DevManifest;
}

async function main(ids: string[]): Promise<void> {
  const docs = ids.length ? DEV_DOCUMENTS.filter((d) => ids.includes(d.id)) : DEV_DOCUMENTS;
  if (ids.length && docs.length !== ids.length) throw new Error(`unknown document id among ${ids.join(', ')}`);
  mkdirSync(DEV_SET_DIR, { recursive: true });
  let previous: DevManifestEntry[] = [];
  try {
    previous = readManifest().documents;
  } catch {
    // First build.
  }
  const byId = new Map(previous.map((e) => [e.id, e]));
  const started = performance.now();
  let pages = 0;
  for (const doc of docs) {
    const t0 = performance.now();
    const entry = buildDocument(doc);
    byId.set(doc.id, entry);
    pages += entry.pages;
    console.log(`${doc.id}: ${entry.pages} page(s), ${doc.engraver}, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const manifest: DevManifest = {
    description: 'ScoreSight dev set: excerpts of corpus pieces excluded from training (training/data/dev-split.ts), engraved by MuseScore 3 and LilyPond, each as PDF, scan-degraded PNG and photo-degraded JPEG pages, with MusicXML ground truth.',
    documents: DEV_DOCUMENTS.map((d) => byId.get(d.id)).filter((e) => e !== undefined),
  };
  writeFileSync(join(DEV_SET_DIR, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const seconds = (performance.now() - started) / 1000;
  console.log(`${docs.length} documents, ${pages} pages in ${seconds.toFixed(1)} s (${(pages / seconds).toFixed(2)} pages/s)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main(process.argv.slice(2));
}
