/**
 * A dev-set engraver: Verovio's layout drawn with LilyPond's Emmentaler font.
 *
 * Verovio lays the score out with one of its bundled SMuFL fonts and writes each glyph's outline once, in `<defs>`, as
 * `<g id="E0A4-…"><path transform="scale(1,-1)" d="…"/></g>` referenced by
 * `<use>`. The outline of every codepoint that {@link EMMENTALER_GLYPHS}
 * maps is swapped for Emmentaler's, aligned against the box of the outline it
 * replaces (see `emmentaler.ts`); codepoints it does not map (braces,
 * tremolo strokes, tuplet figures…) stay as Verovio drew them. Staff lines,
 * stems, beams, ledger lines, barlines, slurs and text are Verovio's own
 * drawing; text keeps a serif text font, as in the training renders.
 *
 * The layout font is Bravura by default: of Verovio's fonts its glyph sizes
 * are nearest Emmentaler's (sharps 10 % narrower, against Leipzig's 30 %,
 * which packs Emmentaler's sharps into each other in key signatures), and
 * Verovio spaces everything by the layout font's boxes.
 *
 * Pages are A4 (210 × 297 mm) at Verovio's default staff size (1.8 mm staff
 * space, a 7.2 mm staff): two or three systems of a string quartet a page.
 */
import { Resvg } from '@resvg/resvg-js';
import type { Raster } from '../../src/image/raster.js';
import { EMMENTALER_GLYPHS, loadEmmentaler, pathBounds, type EmmentalerFont } from './emmentaler.js';
import { FONT_FILES, verovio } from './render-pages.js';

export interface VerovioEmmentalerOptions {
  /** Raster resolution in dots per inch (default 300). */
  dpi?: number;
  /** Verovio's layout font: its glyph boxes drive spacing (default Bravura). */
  layoutFont?: 'Leipzig' | 'Bravura' | 'Leland' | 'Petaluma' | 'Gootville';
  /** Emmentaler OTF file (default the installed emmentaler-20.otf). */
  emmentalerFile?: string;
}

export interface VerovioEmmentalerPages {
  /** One SVG per page, with Emmentaler outlines. */
  svgs: string[];
  /** The pages as PNG (gray, white paper), rasterised by resvg at the requested dpi. */
  pngs: Uint8Array[];
}

/** Paper and margins in millimetres. */
const PAGE_MM = { width: 210, height: 297, margin: 15 };

/** Engraves MusicXML with Verovio's layout and Emmentaler's glyphs; one SVG and one PNG per page. */
export async function engraveVerovioEmmentaler(musicxml: string, options: VerovioEmmentalerOptions = {}): Promise<VerovioEmmentalerPages> {
  const dpi = options.dpi ?? 300;
  const svgs = await engraveSvgs(musicxml, options);
  return { svgs, pngs: svgs.map((svg) => render(svg, dpi).asPng()) };
}

/**
 * The same pages as 1-channel gray {@link Raster}s at `dpi`, the clean input
 * `degradeScan` and `degradePhoto` take (both accept gray; photos come back RGB).
 */
export async function engraveVerovioEmmentalerRasters(musicxml: string, dpi = 300, options: Omit<VerovioEmmentalerOptions, 'dpi'> = {}): Promise<Raster[]> {
  const svgs = await engraveSvgs(musicxml, options);
  return svgs.map((svg) => {
    const out = render(svg, dpi);
    const { width, height, pixels } = out;
    const data = new Uint8Array(width * height);
    for (let i = 0; i < data.length; i++) data[i] = pixels[i * 4]!; // gray: the three channels are equal
    return { width, height, channels: 1, data };
  });
}

async function engraveSvgs(musicxml: string, options: Omit<VerovioEmmentalerOptions, 'dpi'>): Promise<string[]> {
  const font = loadEmmentaler(options.emmentalerFile);
  const tk = await verovio();
  const margin = PAGE_MM.margin * 10;
  tk.setOptions({
    font: options.layoutFont ?? 'Bravura',
    pageWidth: PAGE_MM.width * 10,
    pageHeight: PAGE_MM.height * 10,
    pageMarginTop: margin,
    pageMarginBottom: margin,
    pageMarginLeft: margin,
    pageMarginRight: margin,
    scale: 100,
    svgViewBox: false,
    svgBoundingBoxes: false,
    breaks: 'auto',
    header: 'auto',
    footer: 'none',
    condense: 'none',
    adjustPageHeight: false,
    // The toolkit is shared with render-pages.ts, whose options persist: restate Verovio's default.
    beamMaxSlope: 10,
  });
  if (!tk.loadData(musicxml)) throw new Error('Verovio could not load the MusicXML');
  const svgs: string[] = [];
  for (let p = 1; p <= tk.getPageCount(); p++) svgs.push(withEmmentaler(tk.renderToSVG(p), font));
  return svgs;
}

/**
 * Swaps the outlines of Verovio's glyph definitions for Emmentaler's where
 * the codepoint is mapped. Exported for tests and for SVGs rendered elsewhere.
 */
export function withEmmentaler(svg: string, font: EmmentalerFont = loadEmmentaler()): string {
  return svg.replace(
    /(<g id="([0-9A-F]{4,5})-[^"]*"[^>]*>\s*<path\b[^>]*?\bd=")([^"]*)(")/g,
    (whole, head: string, hex: string, d: string, tail: string) => {
      const codepoint = parseInt(hex, 16);
      if (!EMMENTALER_GLYPHS.has(codepoint)) return whole;
      const outline = font.path(codepoint, pathBounds(d));
      return outline ? `${head}${outline.d}${tail}` : whole;
    },
  );
}

/** Renders a page SVG at `dpi` on white paper. */
function render(svg: string, dpi: number) {
  const widthPx = Number(/<svg[^>]*\bwidth="([\d.]+)px"/.exec(svg)?.[1] ?? PAGE_MM.width * 10);
  const zoom = ((dpi / 25.4) * PAGE_MM.width) / widthPx;
  return new Resvg(svg, {
    fitTo: { mode: 'zoom', value: zoom },
    shapeRendering: 2,
    textRendering: 1,
    background: 'white',
    font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: 'Nimbus Roman', serifFamily: 'Nimbus Roman' },
  }).render();
}
