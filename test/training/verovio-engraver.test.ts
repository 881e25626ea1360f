/** The Verovio + Emmentaler dev-set engraver: Verovio's layout, LilyPond's glyphs. */
import { describe, expect, it } from 'vitest';
import { EMMENTALER_GLYPHS, findEmmentaler, loadEmmentaler, pathBounds } from '../../training/data/emmentaler.js';
import { verovio } from '../../training/data/render-pages.js';
import { engraveVerovioEmmentaler, engraveVerovioEmmentalerRasters } from '../../training/data/verovio-engraver.js';

/** `pitch` as step, optional alter and octave: `C5`, `F#4`, `Eb3`. */
const note = (pitch: string, type: string, duration: number, extra = '') => {
  const [, step, accidental, octave] = /^([A-G])([#b]?)(\d)$/.exec(pitch)!;
  const alter = accidental === '#' ? '<alter>1</alter>' : accidental === 'b' ? '<alter>-1</alter>' : '';
  return `<note><pitch><step>${step}</step>${alter}<octave>${octave}</octave></pitch><duration>${duration}</duration><type>${type}</type>${extra}</note>`;
};
const rest = (type: string, duration: number) => `<note><rest/><duration>${duration}</duration><type>${type}</type></note>`;

/** Two staves, two measures: clefs, key, time, noteheads, accidentals, rests, flags, a dot, articulations, a fermata, dynamics and a triplet. */
const MUSICXML = `<?xml version="1.0" encoding="UTF-8"?>
<score-partwise version="4.0"><work><work-title>Emmentaler test</work-title></work>
<part-list><score-part id="P1"><part-name>Violin</part-name></score-part><score-part id="P2"><part-name>Cello</part-name></score-part></part-list>
<part id="P1">
<measure number="1"><attributes><divisions>12</divisions><key><fifths>-1</fifths></key><time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes>
<direction placement="below"><direction-type><dynamics><mf/></dynamics></direction-type></direction>
${note('C5', 'quarter', 12, '<notations><articulations><staccato/></articulations></notations>')}
${note('F#4', 'eighth', 6, '<accidental>sharp</accidental><stem>up</stem><notations><articulations><accent/></articulations></notations>')}
${rest('eighth', 6)}
${note('E5', 'half', 24, '<notations><fermata type="upright"/></notations>')}
</measure>
<measure number="2">
${note('A4', 'eighth', 4, '<time-modification><actual-notes>3</actual-notes><normal-notes>2</normal-notes></time-modification><notations><tuplet type="start"/></notations>')}
${note('B4', 'eighth', 4, '<accidental>natural</accidental><time-modification><actual-notes>3</actual-notes><normal-notes>2</normal-notes></time-modification>')}
${note('C5', 'eighth', 4, '<time-modification><actual-notes>3</actual-notes><normal-notes>2</normal-notes></time-modification><notations><tuplet type="stop"/></notations>')}
${note('D5', '16th', 3, '<stem>down</stem>')}${rest('16th', 3)}${note('G4', 'quarter', 18, '<dot/>')}${rest('eighth', 6)}
</measure>
</part>
<part id="P2">
<measure number="1"><attributes><divisions>12</divisions><key><fifths>-1</fifths></key><time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>F</sign><line>4</line></clef></attributes>
${note('C3', 'whole', 48)}
</measure>
<measure number="2">${rest('half', 24)}${note('Eb3', 'quarter', 12, '<accidental>flat</accidental>')}${rest('quarter', 12)}</measure>
</part>
</score-partwise>`;

/** `<g id="E0A4-…"><path … d="…"/>` glyph definitions: codepoint → outline. */
function glyphDefs(svg: string): Map<number, string> {
  return new Map([...svg.matchAll(/<g id="([0-9A-F]{4,5})-[^"]*"[^>]*>\s*<path\b[^>]*?\bd="([^"]*)"/g)].map((m) => [parseInt(m[1]!, 16), m[2]!]));
}

function pngSize(png: Uint8Array): [number, number] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return [view.getUint32(16), view.getUint32(20)];
}

describe.skipIf(!findEmmentaler())('engraveVerovioEmmentaler', () => {
  it('draws every mapped glyph with Emmentaler and keeps Verovio’s own for the rest', async () => {
    const { svgs, pngs } = await engraveVerovioEmmentaler(MUSICXML, { dpi: 72 });
    expect(svgs.length).toBeGreaterThanOrEqual(1);
    expect(pngs).toHaveLength(svgs.length);
    // Verovio still holds the score and options: its own page has the layout font's outlines.
    const original = glyphDefs((await verovio()).renderToSVG(1));
    const emmentaler = glyphDefs(svgs[0]!);
    const font = loadEmmentaler();

    const mapped = [...emmentaler.keys()].filter((cp) => EMMENTALER_GLYPHS.has(cp));
    // Noteheads black, half and whole; G and F clefs; flat, natural, sharp; rests; flags; a digit; staccato; accent; fermata; mf.
    // (Verovio draws augmentation dots as ellipses, not glyphs.)
    for (const cp of [0xe0a4, 0xe0a3, 0xe0a2, 0xe050, 0xe062, 0xe260, 0xe261, 0xe262, 0xe4e6, 0xe4e7, 0xe4e5, 0xe4e4, 0xe240, 0xe243, 0xe084, 0xe4a2, 0xe4a1, 0xe4c0, 0xe52d]) {
      expect(mapped, cp.toString(16)).toContain(cp);
    }
    for (const cp of mapped) {
      const d = emmentaler.get(cp)!;
      expect(d, cp.toString(16)).not.toBe(original.get(cp));
      expect(d, cp.toString(16)).toBe(font.path(cp, pathBounds(original.get(cp)!))!.d);
    }
    // The triplet's figure (a SMuFL tuplet digit) has no Emmentaler glyph: Verovio's outline stays.
    const unmapped = [...emmentaler.keys()].filter((cp) => !EMMENTALER_GLYPHS.has(cp));
    expect(unmapped).toContain(0xe883);
    for (const cp of unmapped) expect(emmentaler.get(cp)).toBe(original.get(cp));

    // PNG pages: signature, A4 at 72 dpi.
    for (const png of pngs) {
      expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
      const [w, h] = pngSize(png);
      expect(w).toBeCloseTo((210 / 25.4) * 72, -1);
      expect(h).toBeCloseTo((297 / 25.4) * 72, -1);
    }
  });

  it('draws the black notehead one staff space tall', async () => {
    const { svgs } = await engraveVerovioEmmentaler(MUSICXML, { dpi: 36 });
    const svg = svgs[0]!;
    // Staff lines: five horizontal paths in each staff group, one staff space apart.
    const staff = /<g[^>]*class="staff"[^>]*>\s*((?:<path d="M\d+ \d+ L\d+ \d+"[^>]*\/>\s*){5})/.exec(svg)![1]!;
    const ys = [...staff.matchAll(/d="M\d+ (\d+) L/g)].map((m) => Number(m[1]));
    const space = (ys[4]! - ys[0]!) / 4;
    const use = /<use xlink:href="#E0A4-[^"]*" transform="translate\([^)]*\) scale\(([\d.]+), ([\d.]+)\)"/.exec(svg)!;
    const box = pathBounds(glyphDefs(svg).get(0xe0a4)!);
    const height = (box.y2 - box.y1) * Number(use[2]);
    expect(Math.abs(height / space - 1)).toBeLessThan(0.15);
  });

  it('gives gray rasters for degradeScan and degradePhoto', async () => {
    const rasters = await engraveVerovioEmmentalerRasters(MUSICXML, 50);
    expect(rasters.length).toBeGreaterThanOrEqual(1);
    const page = rasters[0]!;
    expect(page.channels).toBe(1);
    expect(page.data).toHaveLength(page.width * page.height);
    expect(page.width).toBeCloseTo((210 / 25.4) * 50, -1);
    const ink = page.data.filter((v) => v < 128).length / page.data.length;
    expect(ink).toBeGreaterThan(0.002);
    expect(ink).toBeLessThan(0.2);
  });

  it('maps every codepoint to a glyph the installed font has', () => {
    const font = loadEmmentaler();
    expect(font.codepoints).toHaveLength(EMMENTALER_GLYPHS.size);
    for (const cp of EMMENTALER_GLYPHS.keys()) {
      const outline = font.path(cp)!;
      expect(outline.d.length, cp.toString(16)).toBeGreaterThan(10);
      expect(outline.box.x2 - outline.box.x1, cp.toString(16)).toBeGreaterThan(0);
    }
  });
});
