/**
 * A report of an accuracy run for people to read: an index of documents,
 * worst first, and a page per document with its source pages, our output and
 * the truth engraved by Verovio, and the notation errors measure by measure.
 *
 * Everything is written into one folder and needs nothing else to view: no
 * scripts, fonts or styles from the network. Source pages are image files
 * beside the document's page (PDF pages rasterised by ScoreSight's own input
 * decoder); engravings are inline SVG. One Verovio toolkit serves every
 * engraving, and a score it cannot engrave (or that makes it abort) shows
 * Verovio's error where the engraving would be.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { toGray } from '../../src/image/gray.js';
import { encodePng } from '../../src/image/png-encode.js';
import { resizeArea, type Raster } from '../../src/image/raster.js';
import { parseXml } from '../../src/import/xml-tree.js';
import { decodePages } from '../../src/input/decode-pages.js';

export interface MeasureErrors {
  /** 0-based part index in the truth. */
  part: number;
  /** 0-based measure index in the truth (or in the prediction when the measure exists only there). */
  measure: number;
  /** Printed measure number, for people. */
  number: string;
  /** One line per edit, already worded, e.g. "staff 1: expected E5 eighth (beam begin, slur start), read E5 quarter". */
  edits: string[];
}

export interface ReportDocument {
  id: string;
  condition: 'clean' | 'scan' | 'photo';
  /** 'tuned' (engravers rules were fitted on) or 'heldout'. */
  set: string;
  category: string;
  engraver: string;
  /** Absolute paths of the document's input pages: one PDF (clean) or one image per page (scan/photo: .png/.jpg). */
  sources: string[];
  /** Our output and the truth, as MusicXML text. */
  predictedXml: string;
  truthXml: string;
  /** Notation error rate 0..1 and tie-merged note F1. */
  errorRate: number;
  noteF1: number;
  errors: MeasureErrors[];
}

/** Widest source image written; wider pages are scaled down (images up to {@link COPY_MAX_WIDTH} are copied as they are). */
const MAX_IMAGE_WIDTH = 1200;
/** Scan and photo files up to this width are copied unchanged: smaller than any PNG of them, and free. */
const COPY_MAX_WIDTH = 1600;
/** PDF pages are rendered at this resolution: a Letter page 1199 px wide, an A4 page 1166 px; larger paper is scaled to {@link MAX_IMAGE_WIDTH}. */
const PDF_DPI = 141;

/** The same engraving options for our output and the truth, so that the two compare at a glance. */
const VEROVIO_OPTIONS = {
  inputFrom: 'musicxml',
  scale: 35,
  pageWidth: 2100,
  pageHeight: 2970,
  pageMarginTop: 50,
  pageMarginBottom: 50,
  pageMarginLeft: 50,
  pageMarginRight: 50,
  adjustPageHeight: true,
  breaks: 'auto',
  header: 'none',
  footer: 'none',
  // Every measure numbered, so the errors' printed numbers can be found on the page.
  mnumInterval: 1,
  svgViewBox: true,
  svgFormatRaw: true,
  removeIds: true,
};

/** Writes index.html and one page per document into outDir; returns the index path. */
export async function writeHtmlReport(documents: readonly ReportDocument[], summary: string, outDir: string): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const sorted = [...documents].sort(worstFirst);
  const folders = uniqueFolders(sorted);
  const engraver = new Engraver();
  // A truth is engraved once however many conditions of its document there are.
  const truths = new Map<string, Engraving>();
  for (let i = 0; i < sorted.length; i++) {
    const doc = sorted[i]!;
    const folder = folders[i]!;
    const dir = join(outDir, folder);
    await mkdir(dir, { recursive: true });
    const images = await writeSourceImages(doc, dir);
    const predicted = await engraver.engrave(doc.predictedXml);
    let truth = truths.get(doc.truthXml);
    if (!truth) {
      truth = await engraver.engrave(doc.truthXml);
      truths.set(doc.truthXml, truth);
    }
    const nav = { previous: i > 0 ? folders[i - 1] : undefined, next: i + 1 < sorted.length ? folders[i + 1] : undefined, rank: i + 1, total: sorted.length };
    await writeFile(join(dir, 'index.html'), documentPage(doc, images, predicted, truth, nav));
  }
  const index = join(outDir, 'index.html');
  await writeFile(index, indexPage(sorted, folders, summary));
  return index;
}

/** Highest error rate first; then lowest note F1; a figure that is not a number counts as worst. */
function worstFirst(a: ReportDocument, b: ReportDocument): number {
  const rate = (d: ReportDocument) => (Number.isFinite(d.errorRate) ? d.errorRate : Infinity);
  const f1 = (d: ReportDocument) => (Number.isFinite(d.noteF1) ? d.noteF1 : -Infinity);
  return rate(b) - rate(a) || f1(a) - f1(b) || compare(a.id, b.id) || compare(a.condition, b.condition) || compare(a.set, b.set);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A folder name per document: its id and condition, safe in a path and a URL, made unique with the set or a counter. */
function uniqueFolders(documents: readonly ReportDocument[]): string[] {
  const used = new Set<string>();
  return documents.map((doc) => {
    const base = slug(`${doc.id}-${doc.condition}`);
    let name = used.has(base) ? slug(`${doc.id}-${doc.condition}-${doc.set}`) : base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    return name;
  });
}

function slug(text: string): string {
  const safe = text.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[.]+/, '_');
  return safe || '_';
}

// ---------------------------------------------------------------------------
// Source pages

type SourceImage = { file: string; width: number; height: number } | { error: string; source: string };

/**
 * The document's pages as image files in `dir`: a PDF's pages rasterised to
 * PNG; scan and photo files copied when narrow enough, else scaled down to
 * PNG. A file that cannot be read shows its error instead of failing the report.
 */
async function writeSourceImages(doc: ReportDocument, dir: string): Promise<SourceImage[]> {
  const images: SourceImage[] = [];
  for (const [s, source] of doc.sources.entries()) {
    const prefix = doc.sources.length > 1 ? `source-${s + 1}` : 'source';
    let data: Uint8Array;
    try {
      const buffer = await readFile(source);
      // pdf.js refuses a Buffer; the same bytes as a plain Uint8Array.
      data = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    } catch (err) {
      images.push({ error: messageOf(err), source });
      continue;
    }
    const ext = extname(source).toLowerCase();
    const size = ext === '.pdf' ? undefined : imageSize(data);
    if (size && size.width <= COPY_MAX_WIDTH) {
      const file = `${prefix}${ext === '.jpeg' ? '.jpg' : ext}`;
      await copyFile(source, join(dir, file));
      images.push({ file, ...size });
      continue;
    }
    try {
      let page = 0;
      for await (const decoded of decodePages([{ filename: basename(source), data }], { dpi: PDF_DPI })) {
        const raster = shrink(decoded.raster);
        const file = `${prefix}${ext === '.pdf' ? `-p${++page}` : ''}.png`;
        await writeFile(join(dir, file), encodePng(raster));
        images.push({ file, width: raster.width, height: raster.height });
      }
    } catch (err) {
      images.push({ error: messageOf(err), source });
    }
  }
  return images;
}

/** Gray (pages are ink on paper, and a gray PNG is a third the size) and at most {@link MAX_IMAGE_WIDTH} wide. */
function shrink(raster: Raster): Raster {
  const gray = toGray(raster);
  const page: Raster = { width: gray.width, height: gray.height, channels: 1, data: gray.data };
  if (page.width <= MAX_IMAGE_WIDTH) return page;
  return resizeArea(page, MAX_IMAGE_WIDTH, Math.max(1, Math.round((page.height * MAX_IMAGE_WIDTH) / page.width)));
}

/** Width and height from a PNG's or JPEG's header; undefined for anything else. */
function imageSize(data: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.length >= 24 && data[0] === 0x89 && data[1] === 0x50 && data[2] === 0x4e && data[3] === 0x47) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  // JPEG: walk the segments to the first start-of-frame.
  let at = 2;
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = view.getUint16(at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    at += 2 + length;
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Engraving

type Engraving = { pages: string[] } | { error: string };

interface Toolkit {
  setOptions(options: Record<string, unknown>): void;
  loadData(data: string): boolean;
  getPageCount(): number;
  renderToSVG(page?: number): string;
  getLog(): string;
}

/**
 * One Verovio toolkit for every engraving. Verovio's errors are logged to a
 * buffer and read back when a score fails; after an exception (a WebAssembly
 * abort leaves the module unusable) the next score gets a fresh toolkit.
 */
class Engraver {
  private toolkit: Promise<Toolkit> | undefined;

  async engrave(xml: string): Promise<Engraving> {
    let tk: Toolkit;
    try {
      tk = await (this.toolkit ??= createToolkit());
    } catch (err) {
      this.toolkit = undefined;
      return { error: `Verovio could not start: ${messageOf(err)}` };
    }
    try {
      const loaded = tk.loadData(xml);
      const log = tk.getLog().trim();
      if (!loaded) return { error: `Verovio could not load the MusicXML${log ? `:\n${log}` : '.'}` };
      const count = tk.getPageCount();
      if (count < 1) return { error: `Verovio engraved no page${log ? `:\n${log}` : '.'}` };
      const pages: string[] = [];
      for (let p = 1; p <= count; p++) pages.push(inlineSvg(tk.renderToSVG(p)));
      // Verovio reads anything, even text that is not XML, as an empty score, and says nothing.
      if (!pages.some((svg) => svg.includes('class="measure'))) return { error: `Verovio engraved no measure: ${whyNoMeasure(xml)}` };
      return { pages };
    } catch (err) {
      this.toolkit = undefined;
      return { error: `Verovio failed: ${messageOf(err)}` };
    }
  }
}

async function createToolkit(): Promise<Toolkit> {
  const { default: createVerovioModule } = await import('verovio/wasm');
  // verovio ships no types; training/verovio.d.ts declares the part the data generator uses.
  const esm = (await import('verovio/esm')) as unknown as typeof import('verovio/esm') & {
    LOG_ERROR: number;
    enableLogToBuffer(value: number, module: unknown): void;
  };
  const module = await createVerovioModule();
  esm.enableLog(esm.LOG_ERROR, module);
  esm.enableLogToBuffer(1, module);
  const tk = new esm.VerovioToolkit(module);
  tk.setOptions(VEROVIO_OPTIONS);
  return tk;
}

/** Why a MusicXML text gave no measure: not well-formed, not a score, or a score without music. */
function whyNoMeasure(xml: string): string {
  if (!xml.trim()) return 'the MusicXML is empty.';
  try {
    const root = parseXml(xml);
    if (root.name !== 'score-partwise' && root.name !== 'score-timewise') return `the root element is <${root.name}>, not <score-partwise> or <score-timewise>.`;
  } catch (err) {
    return messageOf(err);
  }
  return 'the score has no measure Verovio could read.';
}

/** Verovio's SVG made fit to sit in HTML: no XML declaration, scaling with its column. */
function inlineSvg(svg: string): string {
  return svg.replace(/^\s*<\?xml[^>]*\?>\s*/, '').replace(/^<svg\b/, '<svg class="engraving"');
}

// ---------------------------------------------------------------------------
// HTML

const STYLE = `
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fafafa;margin:0;padding:16px 20px}
h1{font-size:20px;margin:0 0 8px}
h2{font-size:16px;margin:16px 0 8px}
a{color:#0645ad}
pre{background:#fff;border:1px solid #ddd;padding:10px;overflow:auto;font-size:12px}
table{border-collapse:collapse;background:#fff}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f0f0f0;position:sticky;top:0}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tr:hover td{background:#f5f8ff}
.meta{color:#555;margin-bottom:8px}
nav{margin-bottom:8px}
nav a{margin-right:14px}
.errors{max-height:45vh;overflow:auto;border:1px solid #ddd}
.errors table{width:100%;border:0}
.errors ul{margin:0;padding-left:18px}
.columns{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:14px;align-items:start}
@media (max-width:1100px){.columns{grid-template-columns:minmax(0,1fr)}}
.column h2{position:sticky;top:0;background:#fafafa;padding:4px 0;margin:8px 0 4px}
.page{background:#fff;border:1px solid #ccc;margin-bottom:10px}
.page img,.page svg.engraving{display:block;width:100%;height:auto}
.error{white-space:pre-wrap;color:#b00020;background:#fff5f5;border:1px solid #f0c0c0;padding:8px;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
`;

function htmlPage(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
${body}
</body></html>
`;
}

function indexPage(sorted: readonly ReportDocument[], folders: readonly string[], summary: string): string {
  const rows = sorted.map((doc, i) => {
    const href = `${encodeURIComponent(folders[i]!)}/index.html`;
    return (
      `<tr><td class="num">${i + 1}</td><td><a href="${escapeHtml(href)}">${escapeHtml(doc.id)}</a></td>` +
      `<td>${escapeHtml(doc.condition)}</td><td>${escapeHtml(doc.set)}</td><td>${escapeHtml(doc.category)}</td><td>${escapeHtml(doc.engraver)}</td>` +
      `<td class="num">${percent(doc.errorRate)}</td><td class="num">${fixed(doc.noteF1)}</td><td class="num">${measureCount(doc)}</td></tr>`
    );
  });
  return htmlPage(
    'Accuracy report',
    `<h1>Accuracy report</h1>
<pre>${escapeHtml(summary)}</pre>
<h2>Documents, worst first (${sorted.length})</h2>
<table>
<thead><tr><th>#</th><th>document</th><th>condition</th><th>set</th><th>category</th><th>engraver</th><th>error rate</th><th>note F1</th><th>measures with errors</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`,
  );
}

interface Navigation {
  previous: string | undefined;
  next: string | undefined;
  rank: number;
  total: number;
}

function documentPage(doc: ReportDocument, images: readonly SourceImage[], predicted: Engraving, truth: Engraving, nav: Navigation): string {
  const link = (folder: string | undefined, label: string) => (folder ? `<a href="../${escapeHtml(encodeURIComponent(folder))}/index.html">${label}</a>` : '');
  const title = `${doc.id} (${doc.condition})`;
  return htmlPage(
    title,
    `<nav><a href="../index.html">index</a>${link(nav.previous, '&larr; worse')}${link(nav.next, 'better &rarr;')}<span class="meta">${nav.rank} of ${nav.total}, worst first</span></nav>
<h1>${escapeHtml(title)}</h1>
<div class="meta">set ${escapeHtml(doc.set)} &middot; category ${escapeHtml(doc.category)} &middot; engraver ${escapeHtml(doc.engraver)} &middot;
error rate <b>${percent(doc.errorRate)}</b> &middot; note F1 <b>${fixed(doc.noteF1)}</b> &middot; ${doc.sources.length} source file(s)</div>
<h2>Errors by measure (${measureCount(doc)})</h2>
${errorsSection(doc.errors)}
<div class="columns">
<section class="column"><h2>Source</h2>
${images.map(imageHtml).join('\n') || '<div class="meta">No source pages.</div>'}
</section>
<section class="column"><h2>Our output</h2>
${engravingHtml(predicted)}
</section>
<section class="column"><h2>Truth</h2>
${engravingHtml(truth)}
</section>
</div>`,
  );
}

function errorsSection(errors: readonly MeasureErrors[]): string {
  if (errors.length === 0) return '<div class="meta">No errors.</div>';
  const sorted = [...errors].sort((a, b) => a.part - b.part || a.measure - b.measure);
  const rows = sorted.map(
    (e) =>
      `<tr><td class="num">${e.part + 1}</td><td class="num">${escapeHtml(e.number)}</td><td class="num">${e.measure + 1}</td>` +
      `<td><ul>${e.edits.map((edit) => `<li>${escapeHtml(edit)}</li>`).join('')}</ul></td></tr>`,
  );
  return `<div class="errors"><table>
<thead><tr><th>part</th><th>measure no.</th><th title="position in the part, from 1">position</th><th>edits</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table></div>`;
}

function imageHtml(image: SourceImage): string {
  if ('error' in image) return `<div class="error">${escapeHtml(`${image.source}: ${image.error}`)}</div>`;
  const src = escapeHtml(encodeURIComponent(image.file));
  return `<div class="page"><a href="${src}"><img src="${src}" width="${image.width}" height="${image.height}" loading="lazy" alt="${escapeHtml(image.file)}"></a></div>`;
}

function engravingHtml(engraving: Engraving): string {
  if ('error' in engraving) return `<div class="error">${escapeHtml(engraving.error)}</div>`;
  return engraving.pages.map((svg) => `<div class="page">${svg}</div>`).join('\n');
}

function measureCount(doc: ReportDocument): number {
  return doc.errors.length;
}

function percent(value: number): string {
  return Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : '&ndash;';
}

function fixed(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : '&ndash;';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
