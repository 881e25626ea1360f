/**
 * LilyPond's Emmentaler music font as a stand-in for a SMuFL font.
 *
 * The training pages are engraved by Verovio with its five bundled SMuFL
 * fonts. A dev-set engraving that keeps Verovio's layout but draws every
 * symbol that matters for reading music with a font the training data never
 * saw is made by swapping glyph outlines: this module maps SMuFL codepoints
 * to Emmentaler glyphs (by name: Emmentaler is not SMuFL-encoded) and turns
 * each into an SVG path `d` in SMuFL units, positioned by SMuFL's origin
 * conventions, so that it can replace the outline of Verovio's glyph.
 *
 * Units. A SMuFL font has 1 em = 4 staff spaces, and Verovio's glyph
 * outlines use 1000 units per em: 250 units per staff space. Emmentaler's
 * OTF fonts also have 1000 units per em with the em equal to the staff height
 * of their design size (emmentaler-20 is for a 20 pt staff): 250 units per
 * staff space again, for every design size (11 to 26 pt). Measured against
 * Verovio's Leipzig outlines in the same SVG: the black notehead is 272
 * units tall (Leipzig's 266), the G clef 1830 (Leipzig's 1738, Bravura's
 * 1760), the breve rest exactly 250, time-signature digits 500 (Leipzig's
 * 500). So the scale is 1.
 *
 * Origins. Emmentaler and SMuFL agree for noteheads (left edge, vertical
 * centre on the staff position), clefs (on the line the clef names),
 * accidentals (on the note's line), rests (the whole rest hangs from its
 * line, the half rest sits on its line, the others are centred on the middle
 * line), flags (at the stem end), augmentation dots and dynamics letters (on
 * a baseline). They differ for time-signature digits (Emmentaler's sit on a
 * baseline, SMuFL's are centred on the middle line) and for articulations,
 * fermatas and ornaments (Emmentaler centres them on x = 0, SMuFL puts the
 * left edge there). Verovio positions glyphs from its own font's boxes, so
 * every glyph can also be aligned against the box of the glyph it replaces
 * (see {@link EmmentalerFont.path}): stemmed noteheads take its left edge
 * and width (so that stems still meet them), whole notes and breves its
 * centre, flags its stem end (SMuFL fonts differ in how far a flag reaches
 * past its origin), accidentals its right edge, the others its centre or the
 * edge nearest the note. Verovio draws augmentation dots as ellipses and
 * stems, beams, ledger lines, barlines, brackets' bars, slurs and ties as
 * paths: those keep Verovio's drawing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error -- opentype.js 2 ships no type declarations; the little used here is typed below.
import * as opentypeModule from 'opentype.js';

interface OtPathCommand {
  type: 'M' | 'L' | 'Q' | 'C' | 'Z';
  x: number;
  y: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}
interface OtGlyph {
  name: string | null;
  advanceWidth?: number;
  path: { commands: OtPathCommand[] };
  getBoundingBox(): { x1: number; y1: number; x2: number; y2: number };
}
interface OtFont {
  numGlyphs: number;
  glyphs: { get(index: number): OtGlyph };
}
// The ES module build exports `parse`; Node loads the UMD build, whose exports arrive as the default.
const otModule = opentypeModule as { parse?: (buffer: ArrayBuffer) => OtFont; default?: { parse: (buffer: ArrayBuffer) => OtFont } };
const parseFont = (otModule.parse ?? otModule.default!.parse) as (buffer: ArrayBuffer) => OtFont;

/** A box in font units, y up. */
export interface GlyphBox {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * How a glyph is placed against the box of the glyph it replaces (the
 * reference). Horizontal: `origin` keeps Emmentaler's x; `left`, `centre`,
 * `right` align that edge or centre; `fit` takes the reference's left edge
 * and width (a horizontal stretch, for noteheads); `period` scales the
 * advance width to the reference's width, origin at its left edge (segments
 * that Verovio repeats end to end, such as the arpeggio wiggle). Vertical: `origin` keeps
 * Emmentaler's y (its origin convention matches SMuFL's); `centre`, `bottom`,
 * `top` align that edge or centre. Without a reference, the glyph's left
 * edge goes to x = 0 (except `origin`) and vertical alignments other than
 * `origin` centre it on y = 0.
 */
export type XAlign = 'origin' | 'left' | 'centre' | 'right' | 'fit' | 'period';
export type YAlign = 'origin' | 'centre' | 'bottom' | 'top';

export interface EmmentalerGlyph {
  /** Emmentaler glyph names, set one after another by their advance widths (dynamics such as `mf`). */
  names: readonly string[];
  x: XAlign;
  y: YAlign;
  /** A small octave figure set below (−8) or above (+8) the glyph: clefs such as gClef8vb. */
  octave?: -8 | 8;
}

/** Staff space in font units, for both SMuFL (Verovio's outlines) and Emmentaler. */
export const STAFF_SPACE_UNITS = 250;
/** Emmentaler units to SMuFL units, measured (see the module comment). */
export const EMMENTALER_SCALE = 1;

const g = (names: string | readonly string[], x: XAlign, y: YAlign, octave?: -8 | 8): EmmentalerGlyph => ({
  names: typeof names === 'string' ? [names] : names,
  x,
  y,
  ...(octave && { octave }),
});

const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
/** SMuFL's combined dynamics, E527–E53D, as letters. */
const DYNAMICS: Record<number, string> = {
  0xe527: 'pppppp', 0xe528: 'ppppp', 0xe529: 'pppp', 0xe52a: 'ppp', 0xe52b: 'pp', 0xe52c: 'mp', 0xe52d: 'mf', 0xe52e: 'pf',
  0xe52f: 'ff', 0xe530: 'fff', 0xe531: 'ffff', 0xe532: 'fffff', 0xe533: 'ffffff', 0xe534: 'fp', 0xe535: 'fz', 0xe536: 'sf',
  0xe537: 'sfp', 0xe538: 'sfpp', 0xe539: 'sfz', 0xe53a: 'sfzp', 0xe53b: 'sffz', 0xe53c: 'rf', 0xe53d: 'rfz',
};

/** SMuFL codepoint → Emmentaler glyph(s) and placement. */
export const EMMENTALER_GLYPHS: ReadonlyMap<number, EmmentalerGlyph> = new Map<number, EmmentalerGlyph>([
  // Noteheads: breve, whole, half, black, and the cross, diamond and triangle shapes.
  [0xe0a0, g('noteheads.sM1', 'centre', 'origin')],
  [0xe0a1, g('noteheads.sM1', 'centre', 'origin')],
  [0xe0a2, g('noteheads.s0', 'centre', 'origin')],
  [0xe0a3, g('noteheads.s1', 'fit', 'origin')],
  [0xe0a4, g('noteheads.s2', 'fit', 'origin')],
  [0xe0a7, g('noteheads.s0cross', 'centre', 'origin')],
  [0xe0a8, g('noteheads.s1cross', 'fit', 'origin')],
  [0xe0a9, g('noteheads.s2cross', 'fit', 'origin')],
  [0xe0d8, g('noteheads.s0diamond', 'centre', 'origin')],
  [0xe0d9, g('noteheads.s1diamond', 'fit', 'origin')],
  [0xe0db, g('noteheads.s2diamond', 'fit', 'origin')],
  [0xe0bc, g('noteheads.s0triangle', 'centre', 'origin')],
  [0xe0bd, g('noteheads.s1triangle', 'fit', 'origin')],
  [0xe0be, g('noteheads.s2triangle', 'fit', 'origin')],
  // Clefs, their smaller change forms, octave clefs and percussion clefs.
  [0xe050, g('clefs.G', 'left', 'origin')],
  [0xe052, g('clefs.G', 'left', 'origin', -8)],
  [0xe053, g('clefs.G', 'left', 'origin', 8)],
  [0xe07a, g('clefs.G_change', 'left', 'origin')],
  [0xe05c, g('clefs.C', 'left', 'origin')],
  [0xe05d, g('clefs.C', 'left', 'origin', -8)],
  [0xe07b, g('clefs.C_change', 'left', 'origin')],
  [0xe062, g('clefs.F', 'left', 'origin')],
  [0xe064, g('clefs.F', 'left', 'origin', -8)],
  [0xe065, g('clefs.F', 'left', 'origin', 8)],
  [0xe07c, g('clefs.F_change', 'left', 'origin')],
  [0xe069, g('clefs.percussion', 'centre', 'origin')],
  [0xe06a, g('clefs.varpercussion', 'centre', 'origin')],
  // Accidentals.
  [0xe260, g('accidentals.flat', 'right', 'origin')],
  [0xe261, g('accidentals.natural', 'right', 'origin')],
  [0xe262, g('accidentals.sharp', 'right', 'origin')],
  [0xe263, g('accidentals.doublesharp', 'right', 'origin')],
  [0xe264, g('accidentals.flatflat', 'right', 'origin')],
  [0xe26a, g('accidentals.leftparen', 'right', 'centre')],
  [0xe26b, g('accidentals.rightparen', 'left', 'centre')],
  // Rests, longa to 512th, and the whole and half rests with their ledger line.
  [0xe4e1, g('rests.M2', 'centre', 'origin')],
  [0xe4e2, g('rests.M1', 'centre', 'origin')],
  [0xe4e3, g('rests.0', 'centre', 'origin')],
  [0xe4e4, g('rests.1', 'centre', 'origin')],
  [0xe4e5, g('rests.2', 'centre', 'origin')],
  [0xe4e6, g('rests.3', 'centre', 'origin')],
  [0xe4e7, g('rests.4', 'centre', 'origin')],
  [0xe4e8, g('rests.5', 'centre', 'origin')],
  [0xe4e9, g('rests.6', 'centre', 'origin')],
  [0xe4ea, g('rests.7', 'centre', 'origin')],
  [0xe4eb, g('rests.8', 'centre', 'origin')],
  [0xe4ec, g('rests.9', 'centre', 'origin')],
  [0xe4f4, g('rests.0o', 'centre', 'origin')],
  [0xe4f5, g('rests.1o', 'centre', 'origin')],
  // Flags, 8th to 1024th, up then down.
  ...[3, 4, 5, 6, 7, 8, 9, 10].flatMap((n, i): [number, EmmentalerGlyph][] => [
    [0xe240 + 2 * i, g(`flags.u${n}`, 'left', 'top')],
    [0xe241 + 2 * i, g(`flags.d${n}`, 'left', 'bottom')],
  ]),
  // Augmentation dot and repeat dot.
  [0xe1e7, g('dots.dot', 'left', 'origin')],
  [0xe044, g('dots.dot', 'centre', 'centre')],
  // Time signatures: digits, common and cut time.
  ...DIGITS.map((name, i): [number, EmmentalerGlyph] => [0xe080 + i, g(name, 'centre', 'centre')]),
  [0xe08a, g('timesig.C44', 'centre', 'centre')],
  [0xe08b, g('timesig.C22', 'centre', 'centre')],
  [0xe08c, g('plus', 'centre', 'centre')],
  // Articulations, above then below.
  [0xe4a0, g('scripts.sforzato', 'centre', 'bottom')],
  [0xe4a1, g('scripts.sforzato', 'centre', 'top')],
  [0xe4a2, g('scripts.staccato', 'centre', 'bottom')],
  [0xe4a3, g('scripts.staccato', 'centre', 'top')],
  [0xe4a4, g('scripts.tenuto', 'centre', 'bottom')],
  [0xe4a5, g('scripts.tenuto', 'centre', 'top')],
  [0xe4a6, g('scripts.ustaccatissimo', 'centre', 'bottom')],
  [0xe4a7, g('scripts.dstaccatissimo', 'centre', 'top')],
  [0xe4a8, g('scripts.ustaccatissimo', 'centre', 'bottom')],
  [0xe4a9, g('scripts.dstaccatissimo', 'centre', 'top')],
  [0xe4aa, g('scripts.ustaccatissimo', 'centre', 'bottom')],
  [0xe4ab, g('scripts.dstaccatissimo', 'centre', 'top')],
  [0xe4ac, g('scripts.umarcato', 'centre', 'bottom')],
  [0xe4ad, g('scripts.dmarcato', 'centre', 'top')],
  [0xe4b2, g('scripts.uportato', 'centre', 'bottom')],
  [0xe4b3, g('scripts.dportato', 'centre', 'top')],
  // Fermatas: normal, very short, short, long, very long; above then below.
  [0xe4c0, g('scripts.ufermata', 'centre', 'bottom')],
  [0xe4c1, g('scripts.dfermata', 'centre', 'top')],
  [0xe4c2, g('scripts.uveryshortfermata', 'centre', 'bottom')],
  [0xe4c3, g('scripts.dveryshortfermata', 'centre', 'top')],
  [0xe4c4, g('scripts.ushortfermata', 'centre', 'bottom')],
  [0xe4c5, g('scripts.dshortfermata', 'centre', 'top')],
  [0xe4c6, g('scripts.ulongfermata', 'centre', 'bottom')],
  [0xe4c7, g('scripts.dlongfermata', 'centre', 'top')],
  [0xe4c8, g('scripts.uverylongfermata', 'centre', 'bottom')],
  [0xe4c9, g('scripts.dverylongfermata', 'centre', 'top')],
  // Breath mark and caesura.
  [0xe4ce, g('scripts.rcomma', 'centre', 'bottom')],
  [0xe4d1, g('scripts.caesura.straight', 'centre', 'bottom')],
  // Ornaments.
  [0xe566, g('scripts.trill', 'centre', 'bottom')],
  [0xe567, g('scripts.turn', 'centre', 'centre')],
  [0xe568, g('scripts.reverseturn', 'centre', 'centre')],
  [0xe569, g('scripts.slashturn', 'centre', 'centre')],
  [0xe56c, g('scripts.prall', 'centre', 'centre')],
  [0xe56d, g('scripts.mordent', 'centre', 'centre')],
  [0xe56e, g('scripts.prallprall', 'centre', 'centre')],
  // Dynamics: the letters and SMuFL's combinations of them.
  [0xe520, g('p', 'centre', 'origin')],
  [0xe521, g('m', 'centre', 'origin')],
  [0xe522, g('f', 'centre', 'origin')],
  [0xe523, g('r', 'centre', 'origin')],
  [0xe524, g('s', 'centre', 'origin')],
  [0xe525, g('z', 'centre', 'origin')],
  [0xe526, g('n', 'centre', 'origin')],
  ...Object.entries(DYNAMICS).map(([cp, letters]): [number, EmmentalerGlyph] => [Number(cp), g([...letters], 'centre', 'origin')]),
  // Segno and coda.
  [0xe047, g('scripts.segno', 'centre', 'bottom')],
  [0xe048, g('scripts.coda', 'centre', 'bottom')],
  [0xe049, g('scripts.varcoda', 'centre', 'bottom')],
  // String, brass and keyboard technique.
  [0xe610, g('scripts.downbow', 'centre', 'bottom')],
  [0xe612, g('scripts.upbow', 'centre', 'bottom')],
  [0xe614, g('scripts.flageolet', 'centre', 'centre')],
  [0xe624, g('scripts.thumb', 'centre', 'bottom')],
  [0xe631, g('scripts.snappizzicato', 'centre', 'bottom')],
  [0xe5e5, g('scripts.stopped', 'centre', 'centre')],
  [0xe5e7, g('scripts.open', 'centre', 'centre')],
  [0xe650, g('pedal.Ped', 'centre', 'origin')],
  [0xe655, g('pedal.*', 'centre', 'origin')],
  // Tips of the bracket that groups staves (Verovio draws its bar).
  [0xe003, g('brackettips.up', 'left', 'origin')],
  [0xe004, g('brackettips.down', 'left', 'origin')],
  // Arpeggio: Verovio repeats this wiggle segment along a rotated line.
  [0xeaa9, g('scripts.trill_element', 'period', 'centre')],
]);

/** LilyPond's Emmentaler OTF of a design size (11–26 pt; 20 is LilyPond's default staff), if installed. */
export function findEmmentaler(designSize = 20): string | undefined {
  const root = '/usr/share/lilypond';
  if (!existsSync(root)) return undefined;
  for (const version of readdirSync(root).sort().reverse()) {
    const file = join(root, version, 'fonts', 'otf', `emmentaler-${designSize}.otf`);
    if (existsSync(file)) return file;
  }
  return undefined;
}

interface Outline {
  /** Path commands in Emmentaler units, y up. */
  commands: OtPathCommand[];
  box: GlyphBox;
  advance: number;
}

/** An outline in SMuFL units, y up (Verovio flips it with `scale(1,-1)`). */
export interface SmuflOutline {
  d: string;
  box: GlyphBox;
}

/** The Emmentaler font, ready to give SMuFL-placed outlines. */
export class EmmentalerFont {
  /** Glyph name → index. */
  private readonly names = new Map<string, number>();
  private readonly outlines = new Map<string, Outline>();
  private readonly cache = new Map<string, SmuflOutline>();

  constructor(private readonly font: OtFont) {
    for (let i = 0; i < font.numGlyphs; i++) {
      const name = font.glyphs.get(i).name;
      if (name) this.names.set(name, i);
    }
  }

  /** Codepoints this font can draw (all of {@link EMMENTALER_GLYPHS} whose glyphs exist). */
  get codepoints(): number[] {
    return [...EMMENTALER_GLYPHS.keys()].filter((cp) => this.has(cp));
  }

  has(codepoint: number): boolean {
    const spec = EMMENTALER_GLYPHS.get(codepoint);
    return spec !== undefined && spec.names.every((n) => this.names.has(n)) && (!spec.octave || this.names.has('eight'));
  }

  /**
   * The outline of a SMuFL codepoint in SMuFL units (y up), or undefined
   * when it is not mapped. With `reference`, the box of the glyph being
   * replaced, the outline is aligned to it as {@link EMMENTALER_GLYPHS} says.
   */
  path(codepoint: number, reference?: GlyphBox): SmuflOutline | undefined {
    const spec = EMMENTALER_GLYPHS.get(codepoint);
    if (!spec || !this.has(codepoint)) return undefined;
    const key = `${codepoint}:${reference ? [reference.x1, reference.y1, reference.x2, reference.y2].map((v) => v.toFixed(1)).join(',') : ''}`;
    const cached = this.cache.get(key);
    if (cached) return cached;

    // Compose the glyphs (letters side by side by advance; an octave figure under or over a clef).
    const parts: { outline: Outline; sx: number; dx: number; dy: number }[] = [];
    let pen = 0;
    for (const name of spec.names) {
      const outline = this.outline(name);
      parts.push({ outline, sx: 1, dx: pen, dy: 0 });
      pen += outline.advance;
    }
    if (spec.octave) {
      const main = boxOf(parts.map((p) => place(p.outline.box, p.sx, p.dx, p.dy)));
      const eight = this.outline('eight');
      const s = OCTAVE_FIGURE_SCALE;
      const cx = main.x1 + (main.x2 - main.x1) * (spec.names[0] === 'clefs.G' ? 0.47 : 0.5);
      const dx = cx - ((eight.box.x1 + eight.box.x2) / 2) * s;
      const gap = 0.1 * STAFF_SPACE_UNITS;
      const dy = spec.octave < 0 ? main.y1 - gap - eight.box.y2 * s : main.y2 + gap - eight.box.y1 * s;
      parts.push({ outline: eight, sx: s, dx, dy });
    }
    const raw = boxOf(parts.map((p) => place(p.outline.box, p.sx, p.dx, p.dy)));

    // Scale to SMuFL units and align.
    const k = EMMENTALER_SCALE;
    let sx = k;
    let tx = 0;
    let ty = 0;
    if (reference) {
      const r = reference;
      switch (spec.x) {
        case 'origin': break;
        case 'left': tx = r.x1 - raw.x1 * k; break;
        case 'right': tx = r.x2 - raw.x2 * k; break;
        case 'centre': tx = (r.x1 + r.x2) / 2 - ((raw.x1 + raw.x2) / 2) * k; break;
        case 'fit':
          sx = (r.x2 - r.x1) / (raw.x2 - raw.x1);
          tx = r.x1 - raw.x1 * sx;
          break;
        case 'period':
          sx = (r.x2 - r.x1) / pen;
          tx = r.x1;
          break;
      }
      switch (spec.y) {
        case 'origin': break;
        case 'centre': ty = (r.y1 + r.y2) / 2 - ((raw.y1 + raw.y2) / 2) * k; break;
        case 'bottom': ty = r.y1 - raw.y1 * k; break;
        case 'top': ty = r.y2 - raw.y2 * k; break;
      }
    } else {
      if (spec.x !== 'origin') tx = -raw.x1 * k;
      if (spec.y !== 'origin') ty = -((raw.y1 + raw.y2) / 2) * k;
    }
    const out: string[] = [];
    for (const p of parts) {
      for (const c of p.outline.commands) out.push(command(c, (x) => (x * p.sx + p.dx) * sx + tx, (y) => (y * p.sx + p.dy) * k + ty));
    }
    const box: GlyphBox = { x1: raw.x1 * sx + tx, x2: raw.x2 * sx + tx, y1: raw.y1 * k + ty, y2: raw.y2 * k + ty };
    const result = { d: out.join(''), box };
    this.cache.set(key, result);
    return result;
  }

  private outline(name: string): Outline {
    let outline = this.outlines.get(name);
    if (outline) return outline;
    const index = this.names.get(name);
    if (index === undefined) throw new Error(`Emmentaler has no glyph ${name}`);
    const glyph = this.font.glyphs.get(index);
    const commands = glyph.path.commands;
    const b = glyph.getBoundingBox();
    outline = { commands, box: { x1: b.x1, y1: b.y1, x2: b.x2, y2: b.y2 }, advance: glyph.advanceWidth ?? b.x2 };
    this.outlines.set(name, outline);
    return outline;
  }
}

/** Size of the octave figure of an octave clef, relative to a time-signature digit. */
const OCTAVE_FIGURE_SCALE = 0.55;

function place(b: GlyphBox, s: number, dx: number, dy: number): GlyphBox {
  return { x1: b.x1 * s + dx, x2: b.x2 * s + dx, y1: b.y1 * s + dy, y2: b.y2 * s + dy };
}

function boxOf(boxes: GlyphBox[]): GlyphBox {
  return {
    x1: Math.min(...boxes.map((b) => b.x1)),
    y1: Math.min(...boxes.map((b) => b.y1)),
    x2: Math.max(...boxes.map((b) => b.x2)),
    y2: Math.max(...boxes.map((b) => b.y2)),
  };
}

const num = (v: number) => String(Math.round(v * 10) / 10);

function command(c: OtPathCommand, fx: (x: number) => number, fy: (y: number) => number): string {
  switch (c.type) {
    case 'M': return `M${num(fx(c.x))} ${num(fy(c.y))}`;
    case 'L': return `L${num(fx(c.x))} ${num(fy(c.y))}`;
    case 'Q': return `Q${num(fx(c.x1))} ${num(fy(c.y1))} ${num(fx(c.x))} ${num(fy(c.y))}`;
    case 'C': return `C${num(fx(c.x1))} ${num(fy(c.y1))} ${num(fx(c.x2))} ${num(fy(c.y2))} ${num(fx(c.x))} ${num(fy(c.y))}`;
    case 'Z': return 'Z';
  }
}

let loaded: EmmentalerFont | undefined;

/** Loads Emmentaler (default: the installed emmentaler-20.otf); throws when there is none. */
export function loadEmmentaler(file?: string): EmmentalerFont {
  if (!file && loaded) return loaded;
  const path = file ?? findEmmentaler();
  if (!path) throw new Error('Emmentaler not found: install LilyPond (Debian package lilypond) or pass the OTF file');
  const bytes = readFileSync(path);
  const font = new EmmentalerFont(parseFont(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
  if (!file) loaded = font;
  return font;
}

// ---------------------------------------------------------------------------
// SVG path boxes
// ---------------------------------------------------------------------------

/**
 * The exact bounding box of an SVG path's outline (curve extrema, not
 * control points), in the path's own coordinates. Supports M L H V C S Q T Z
 * in absolute and relative forms — what Verovio's glyph outlines use.
 */
export function pathBounds(d: string): GlyphBox {
  const tokens = d.match(/[MmLlHhVvCcSsQqTtZzAa]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g) ?? [];
  let i = 0;
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  let lastC: [number, number] | undefined;
  let lastQ: [number, number] | undefined;
  let cmd = '';
  const box: GlyphBox = { x1: Infinity, y1: Infinity, x2: -Infinity, y2: -Infinity };
  const add = (px: number, py: number) => {
    box.x1 = Math.min(box.x1, px);
    box.x2 = Math.max(box.x2, px);
    box.y1 = Math.min(box.y1, py);
    box.y2 = Math.max(box.y2, py);
  };
  const n = () => Number(tokens[i++]);
  while (i < tokens.length) {
    if (/[A-Za-z]/.test(tokens[i]!)) cmd = tokens[i++]!;
    const rel = cmd === cmd.toLowerCase();
    const ox = rel ? x : 0;
    const oy = rel ? y : 0;
    switch (cmd.toUpperCase()) {
      case 'M':
        x = ox + n();
        y = oy + n();
        startX = x;
        startY = y;
        add(x, y);
        cmd = rel ? 'l' : 'L';
        lastC = lastQ = undefined;
        break;
      case 'L':
        x = ox + n();
        y = oy + n();
        add(x, y);
        lastC = lastQ = undefined;
        break;
      case 'H':
        x = ox + n();
        add(x, y);
        lastC = lastQ = undefined;
        break;
      case 'V':
        y = oy + n();
        add(x, y);
        lastC = lastQ = undefined;
        break;
      case 'C':
      case 'S': {
        let c1: [number, number];
        if (cmd.toUpperCase() === 'C') c1 = [ox + n(), oy + n()];
        else c1 = lastC ? [2 * x - lastC[0], 2 * y - lastC[1]] : [x, y];
        const c2: [number, number] = [ox + n(), oy + n()];
        const end: [number, number] = [ox + n(), oy + n()];
        cubicBounds([x, y], c1, c2, end, add);
        [x, y] = end;
        lastC = c2;
        lastQ = undefined;
        break;
      }
      case 'Q':
      case 'T': {
        let c: [number, number];
        if (cmd.toUpperCase() === 'Q') c = [ox + n(), oy + n()];
        else c = lastQ ? [2 * x - lastQ[0], 2 * y - lastQ[1]] : [x, y];
        const end: [number, number] = [ox + n(), oy + n()];
        // A quadratic is the cubic with control points two thirds of the way to its control point.
        cubicBounds([x, y], [x + (2 / 3) * (c[0] - x), y + (2 / 3) * (c[1] - y)], [end[0] + (2 / 3) * (c[0] - end[0]), end[1] + (2 / 3) * (c[1] - end[1])], end, add);
        [x, y] = end;
        lastQ = c;
        lastC = undefined;
        break;
      }
      case 'A': {
        // Arcs do not occur in glyph outlines; count the end point.
        i += 5;
        x = ox + n();
        y = oy + n();
        add(x, y);
        lastC = lastQ = undefined;
        break;
      }
      case 'Z':
        x = startX;
        y = startY;
        lastC = lastQ = undefined;
        break;
      default:
        i++;
    }
  }
  return box;
}

function cubicBounds(p0: [number, number], p1: [number, number], p2: [number, number], p3: [number, number], add: (x: number, y: number) => void): void {
  add(p0[0], p0[1]);
  add(p3[0], p3[1]);
  const at = (t: number, k: 0 | 1) => {
    const u = 1 - t;
    return u * u * u * p0[k] + 3 * u * u * t * p1[k] + 3 * u * t * t * p2[k] + t * t * t * p3[k];
  };
  for (const k of [0, 1] as const) {
    // Roots of the derivative: a t² + b t + c = 0.
    const a = -p0[k] + 3 * p1[k] - 3 * p2[k] + p3[k];
    const b = 2 * (p0[k] - 2 * p1[k] + p2[k]);
    const c = p1[k] - p0[k];
    const roots: number[] = [];
    if (Math.abs(a) < 1e-12) {
      if (Math.abs(b) > 1e-12) roots.push(-c / b);
    } else {
      const disc = b * b - 4 * a * c;
      if (disc >= 0) {
        const s = Math.sqrt(disc);
        roots.push((-b + s) / (2 * a), (-b - s) / (2 * a));
      }
    }
    for (const t of roots) if (t > 0 && t < 1) add(at(t, 0), at(t, 1));
  }
}
