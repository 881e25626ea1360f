/**
 * Training pages: a score engraved by Verovio, rasterised by resvg, with
 * exact labels — the page image, its pixel-class mask, staff/system/measure
 * geometry, every symbol with its box and meaning, and the page's ground
 * truth as a score.
 *
 * Variation comes from the options: the SMuFL font, the page size measured
 * in staff spaces (how much music a page holds) and the pixel size of a
 * staff space (8 to 30 px).
 */
import { Resvg } from '@resvg/resvg-js';
import { existsSync } from 'node:fs';
import createVerovioModule from 'verovio/wasm';
import { enableLog, LOG_OFF, VerovioToolkit } from 'verovio/esm';
import { writeMusicXml } from '../../src/exports/musicxml.js';
import type { Raster } from '../../src/image/raster.js';
import type { Box, Score } from '../../src/score/model.js';
import { excerpt } from './excerpt.js';
import { labelSvg, union, type SvgLabels } from './svg-labels.js';
import { SYMBOL_CLASSES } from './symbol-classes.js';

export const VEROVIO_FONTS = ['Leipzig', 'Bravura', 'Leland', 'Petaluma', 'Gootville'] as const;
export type VerovioFont = (typeof VEROVIO_FONTS)[number];

export interface RenderOptions {
  font: VerovioFont;
  /** Page size in Verovio units (tenths of a millimetre at a 1.8 mm staff space). */
  pageWidth: number;
  pageHeight: number;
  /** Distance between staff lines in output pixels. */
  staffSpacePx: number;
  /** Hide staves that are empty on a system (orchestral scores). */
  hideEmptyStaves: boolean;
  /** Verovio's steepest beam (0–20; its default is 10). Other engravers slope beams far more. */
  beamMaxSlope?: number;
}

/** A staff on the page, in pixels. */
export interface StaffLabel {
  /** Index into `systems`. */
  system: number;
  /** Global staff number in score order (part by part), 0-based. */
  staff: number;
  part: number;
  /** Staff within its part, 1-based as in the model. */
  staffInPart: number;
  /** y of the five lines, top first, at the staff's left end. */
  lines: number[];
  x0: number;
  x1: number;
  bbox: Box;
}

export interface SymbolLabel {
  kind: string;
  bbox: Box;
  /** Index into `staves` when the symbol belongs to one. */
  staff?: number;
  /** Musical meaning from Verovio's MEI attributes (pname, oct, dur, dots, accid, shape, line, sig, count, unit …). */
  attrs?: Record<string, string>;
}

export interface PageLabels {
  width: number;
  height: number;
  staffSpace: number;
  font: VerovioFont;
  /** Mask value i is class `classes[i]`. */
  classes: readonly string[];
  systems: { bbox: Box; staves: number[]; measures: [number, number] }[];
  staves: StaffLabel[];
  measures: { bbox: Box; system: number; index: number }[];
  symbols: SymbolLabel[];
}

export interface RenderedPage {
  image: Raster;
  mask: Raster;
  labels: PageLabels;
  /** The measures of this page as a score (clef, key and time in force restated). */
  truth: Score;
}

/** Largest page image drawn, in pixels (an A4 page at 30 px per staff space is about 12 million). */
const MAX_PAGE_PIXELS = 16_000_000;

const MEANINGFUL = new Set(['note', 'rest', 'mRest', 'multiRest', 'clef', 'keySig', 'meterSig', 'accid', 'dots', 'barLine', 'beam', 'artic', 'fermata', 'trill', 'mordent', 'turn']);

let toolkit: Promise<VerovioToolkit> | undefined;

export function verovio(): Promise<VerovioToolkit> {
  toolkit ??= createVerovioModule().then((module) => {
    enableLog(LOG_OFF, module);
    return new VerovioToolkit(module);
  });
  return toolkit;
}

/** Serif text fonts for titles, names, lyrics and words, where installed. */
export const FONT_FILES = [
  '/usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf',
  '/usr/share/fonts/opentype/urw-base35/NimbusRoman-Italic.otf',
  '/usr/share/fonts/opentype/urw-base35/NimbusRoman-Bold.otf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf',
].filter((f) => existsSync(f));

/** Engraves a score and returns every page with its labels. */
export async function renderPages(score: Score, options: RenderOptions): Promise<RenderedPage[]> {
  const pages = await renderWith(score, options, false);
  // A system taller than the page (a large orchestra on a small page) runs off its bottom; such a
  // page is engraved again on paper as tall as the music needs, as orchestral scores are printed.
  return pages.some((p) => p.labels.staves.some((s) => s.bbox.y + s.bbox.height > p.labels.height)) ? renderWith(score, options, true) : pages;
}

async function renderWith(score: Score, options: RenderOptions, adjustPageHeight: boolean): Promise<RenderedPage[]> {
  const tk = await verovio();
  tk.setOptions({
    font: options.font,
    pageWidth: options.pageWidth,
    pageHeight: options.pageHeight,
    pageMarginTop: 100,
    pageMarginBottom: 100,
    pageMarginLeft: 100,
    pageMarginRight: 100,
    scale: 100,
    svgBoundingBoxes: true,
    svgViewBox: false,
    breaks: 'auto',
    header: 'auto',
    footer: 'none',
    condense: options.hideEmptyStaves ? 'auto' : 'none',
    adjustPageHeight,
    ...(options.beamMaxSlope !== undefined && { beamMaxSlope: options.beamMaxSlope }),
  });
  if (!tk.loadData(writeMusicXml(score, { encodingDate: '2026-01-01' }))) throw new Error('Verovio could not load the score');
  const staffOf = staffIndex(score);
  const pages: RenderedPage[] = [];
  let firstMeasure = 0;
  for (let p = 1; p <= tk.getPageCount(); p++) {
    const svg = tk.renderToSVG(p);
    const labelled = labelSvg(svg);
    const measureCount = labelled.elements.filter((e) => e.kind === 'measure').length;
    const page = toPixels(labelled, options, (id) => tk.getElementAttr(id) as Record<string, string>, staffOf, firstMeasure);
    const image = rasterise(labelled.imageSvg, page.zoom, false);
    const mask = rasterise(labelled.maskSvg, page.zoom, true);
    const truth = excerpt(score, { measures: [firstMeasure, Math.min(firstMeasure + measureCount, score.parts[0]!.measures.length)] });
    pages.push({ image, mask, labels: page.labels, truth });
    firstMeasure += measureCount;
  }
  return pages;
}

/** Global staff number (0-based, score order) → part and staff within it. */
function staffIndex(score: Score): { part: number; staffInPart: number }[] {
  return score.parts.flatMap((part, p) => Array.from({ length: part.staves }, (_, s) => ({ part: p, staffInPart: s + 1 })));
}

function toPixels(
  svg: SvgLabels,
  options: RenderOptions,
  attrsOf: (id: string) => Record<string, string>,
  staffOf: { part: number; staffInPart: number }[],
  firstMeasure: number,
): { labels: PageLabels; zoom: number } {
  const unitsPerPx = svg.viewBox.width / svg.outerWidth;
  const spaceUnits = median(svg.staves.map((s) => (s.lines[4]! - s.lines[0]!) / 4)) || 180;
  // Large ensembles on tall paper at a big staff size would make pages of hundreds of megapixels;
  // such pages are drawn at the largest staff size that stays within MAX_PAGE_PIXELS.
  const wanted = (options.staffSpacePx * unitsPerPx) / spaceUnits;
  const zoom = Math.min(wanted, Math.sqrt(MAX_PAGE_PIXELS / (svg.outerWidth * svg.outerHeight)));
  const k = zoom / unitsPerPx;
  const px = (x: number, y: number) => [(x + svg.margin.x) * k, (y + svg.margin.y) * k] as const;
  const box = (b: Box): Box => {
    const [x, y] = px(b.x, b.y);
    return { x, y, width: b.width * k, height: b.height * k };
  };

  // Verovio draws each staff once per measure; a page staff is one system's run of them.
  const staves: StaffLabel[] = [];
  const staffByVerovioId = new Map<string, number>();
  const byKey = new Map<string, number>();
  for (const s of svg.staves) {
    const n = Number(attrsOf(s.id).n) - 1;
    const key = `${s.systemIndex}:${n}`;
    let index = byKey.get(key);
    if (index === undefined) {
      index = staves.length;
      byKey.set(key, index);
      const [x0] = px(s.x0, 0);
      const where = staffOf[n] ?? { part: -1, staffInPart: 0 };
      staves.push({ system: s.systemIndex, staff: n, ...where, lines: s.lines.map((y) => px(0, y)[1]), x0, x1: x0, bbox: box(s.bbox) });
    }
    const staff = staves[index]!;
    staff.x1 = Math.max(staff.x1, px(s.x1, 0)[0]);
    staff.bbox = union(staff.bbox, box(s.bbox));
    staffByVerovioId.set(s.id, index);
  }

  const systems: PageLabels['systems'] = [];
  const measures: PageLabels['measures'] = [];
  const symbols: SymbolLabel[] = [];
  let measureIndex = firstMeasure;
  for (const e of svg.elements) {
    if (e.kind === 'system') {
      systems.push({ bbox: box(e.bbox), staves: [], measures: [measureIndex, measureIndex] });
      continue;
    }
    if (e.kind === 'measure') {
      measures.push({ bbox: box(e.bbox), system: e.systemIndex, index: measureIndex });
      const system = systems[e.systemIndex];
      if (system) system.measures[1] = measureIndex + 1;
      measureIndex++;
      continue;
    }
    const symbol: SymbolLabel = { kind: e.kind, bbox: box(e.bbox) };
    const staff = e.staffId === undefined ? undefined : staffByVerovioId.get(e.staffId);
    if (staff !== undefined) symbol.staff = staff;
    if (MEANINGFUL.has(e.kind)) symbol.attrs = attrsOf(e.id);
    symbols.push(symbol);
  }
  staves.forEach((s, i) => systems[s.system]?.staves.push(i));
  const labels: PageLabels = {
    width: Math.round(svg.outerWidth * zoom),
    height: Math.round(svg.outerHeight * zoom),
    staffSpace: (spaceUnits / unitsPerPx) * zoom,
    font: options.font,
    classes: SYMBOL_CLASSES,
    systems,
    staves,
    measures,
    symbols,
  };
  return { labels, zoom };
}

function rasterise(svg: string, zoom: number, mask: boolean): Raster {
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: zoom },
    // The mask must hold exact class values: no anti-aliasing, transparent background.
    shapeRendering: mask ? 0 : 2,
    textRendering: mask ? 0 : 1,
    ...(mask ? {} : { background: 'white' }),
    font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: 'Nimbus Roman', serifFamily: 'Nimbus Roman' },
  });
  const out = resvg.render();
  const { width, height } = out;
  const rgba = out.pixels;
  const data = new Uint8Array(width * height);
  for (let i = 0; i < width * height; i++) {
    if (mask) {
      // Class k was drawn in gray k; a pixel is labelled when it is mostly covered.
      data[i] = rgba[i * 4 + 3]! >= 128 ? rgba[i * 4]! : 0;
    } else {
      data[i] = rgba[i * 4]!; // gray: the three channels are equal
    }
  }
  return { width, height, channels: 1, data };
}

function median(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
}
