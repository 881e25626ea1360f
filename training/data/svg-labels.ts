/**
 * Labels from Verovio's SVG. Rendered with `svgBoundingBoxes`, every element
 * carries its id, class and bounding box, so the labels are exact:
 * - staves with their five line positions, systems, measures and barlines;
 * - every symbol with its bounding box, class and Verovio id (the id gives
 *   the musical meaning through the toolkit's `getElementAttr`);
 * - a recoloured copy of the SVG in which every drawn shape has the colour of
 *   its pixel class, rendered without anti-aliasing into the class mask.
 */
import { parseXml, type XmlElement } from '../../src/import/xml-tree.js';
import type { Box } from '../../src/score/model.js';
import { CLASS_INDEX, glyphClass, shapeClass, type SymbolClass } from './symbol-classes.js';

/** Coordinates here are SVG definition units (Verovio: 10 per 0.1 mm); render.ts converts to pixels. */
export interface SvgStaff {
  id: string;
  measureId: string;
  systemIndex: number;
  bbox: Box;
  /** y of the five lines, top first. */
  lines: number[];
  x0: number;
  x1: number;
}

export interface SvgElement {
  id: string;
  /** Verovio class: `note`, `rest`, `clef`, `keySig`, `meterSig`, `barLine`, `beam`, `measure`, `system` … */
  kind: string;
  bbox: Box;
  systemIndex: number;
  measureId?: string;
  staffId?: string;
}

export interface SvgLabels {
  /** Outer size in CSS pixels and the definition-scale view box, for the unit → pixel factor. */
  outerWidth: number;
  outerHeight: number;
  viewBox: { x: number; y: number; width: number; height: number };
  /** Offset of the page-margin group, added to every coordinate below. */
  margin: { x: number; y: number };
  staves: SvgStaff[];
  elements: SvgElement[];
  /** The SVG recoloured for the class mask. */
  maskSvg: string;
  /** The SVG as engraved, for the page image. */
  imageSvg: string;
}

/** Element kinds whose boxes are kept as symbols. */
const KINDS = new Set([
  'system', 'measure', 'staff', 'barLine', 'note', 'chord', 'rest', 'mRest', 'multiRest', 'clef', 'keySig', 'meterSig',
  'beam', 'stem', 'flag', 'dots', 'accid', 'tie', 'slur', 'tuplet', 'verse', 'syl', 'dynam', 'dir', 'tempo', 'artic',
  'fermata', 'ending', 'grpSym', 'label', 'labelAbbr', 'pgHead', 'mNum', 'ledgerLines', 'hairpin', 'keyAccid', 'fing',
  'trill', 'mordent', 'turn', 'pedal',
]);

const DRAWN = new Set(['use', 'path', 'polygon', 'polyline', 'rect', 'ellipse', 'circle', 'line', 'text', 'tspan']);

export function labelSvg(svg: string): SvgLabels {
  const root = parseXml(svg, { maxBytes: 64 * 1024 * 1024, maxDepth: 128 }, 'INVALID_ARGUMENT');
  const inner = root.children.find((c) => c.name === 'svg');
  if (!inner) throw new Error('not a Verovio SVG page (no definition-scale svg)');
  const [vx, vy, vw, vh] = (inner.attrs.viewBox ?? '0 0 0 0').split(/\s+/).map(Number) as [number, number, number, number];
  const margin = { x: 0, y: 0 };
  const marginGroup = inner.children.find((c) => c.attrs.class === 'page-margin');
  const t = /translate\(\s*(-?[\d.]+)[ ,]+(-?[\d.]+)\s*\)/.exec(marginGroup?.attrs.transform ?? '');
  if (t) {
    margin.x = Number(t[1]);
    margin.y = Number(t[2]);
  }
  // Verovio puts its bounding-box groups even inside <tspan>, which is not valid SVG and makes
  // renderers drop the text; the page image is rendered from a copy without them.
  const clean = structuredClone(root);
  stripBoundingBoxes(clean, false);
  const staves: SvgStaff[] = [];
  const elements: SvgElement[] = [];
  let systemIndex = -1;

  const walk = (el: XmlElement, classes: string[], ctx: { measureId?: string; staffId?: string }) => {
    const cls = el.attrs.class?.split(/\s+/) ?? [];
    if (cls.includes('bounding-box')) return;
    const kind = cls[0];
    let next = ctx;
    if (el.name === 'g' && kind) {
      if (kind === 'system') systemIndex++;
      const box = boundingBox(el);
      if (kind === 'measure' && el.attrs.id) next = { measureId: el.attrs.id };
      if (kind === 'staff' && el.attrs.id) {
        next = { ...ctx, staffId: el.attrs.id };
        const lines = el.children
          .filter((c) => c.name === 'path')
          .map((c) => /^M\s*(-?[\d.]+)[ ,]+(-?[\d.]+)\s*L\s*(-?[\d.]+)[ ,]+(-?[\d.]+)/.exec(c.attrs.d ?? ''))
          .filter((m) => m !== null && m[2] === m[4])
          .map((m) => ({ x0: Number(m![1]), x1: Number(m![3]), y: Number(m![2]) }));
        if (box && lines.length >= 5) {
          staves.push({
            id: el.attrs.id,
            measureId: ctx.measureId ?? '',
            systemIndex,
            bbox: box,
            lines: lines.slice(0, 5).map((l) => l.y),
            x0: Math.min(...lines.map((l) => l.x0)),
            x1: Math.max(...lines.map((l) => l.x1)),
          });
        }
      }
      // Systems and measures have empty boxes of their own; they get their staves' union below.
      const structural = kind === 'system' || kind === 'measure';
      if ((box || structural) && el.attrs.id && KINDS.has(kind) && kind !== 'staff') {
        const bbox = box ?? { x: 0, y: 0, width: 0, height: 0 };
        elements.push({ id: el.attrs.id, kind, bbox, systemIndex, ...(ctx.measureId && { measureId: ctx.measureId }), ...(ctx.staffId && { staffId: ctx.staffId }) });
      }
    }
    const nextClasses = kind ? [...classes, ...cls] : classes;
    if (DRAWN.has(el.name)) colour(el, nextClasses);
    for (const c of el.children) walk(c, nextClasses, next);
  };
  walk(inner, [], {});
  for (const e of elements) {
    if (e.kind !== 'system' && e.bbox.width > 0) continue;
    const parts = e.kind === 'measure' ? staves.filter((s) => s.measureId === e.id) : e.kind === 'system' ? staves.filter((s) => s.systemIndex === e.systemIndex) : [];
    if (parts.length) e.bbox = parts.map((s) => s.bbox).reduce(union);
  }
  // The mask shows shapes only: drop the invisible bounding boxes and the stylesheet's currentColor rule.
  stripBoundingBoxes(root, true);
  return {
    outerWidth: parseFloat(root.attrs.width ?? '0'),
    outerHeight: parseFloat(root.attrs.height ?? '0'),
    viewBox: { x: vx, y: vy, width: vw, height: vh },
    margin,
    staves,
    elements,
    maskSvg: serialise(root),
    imageSvg: serialise(clean),
  };
}

/** The smallest box holding both. */
export function union(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

/** Box of a Verovio group from its `bounding-box` child, if it has a non-empty one. */
function boundingBox(el: XmlElement): Box | undefined {
  const bb = el.children.find((c) => c.name === 'g' && c.attrs.class?.includes('bounding-box'));
  const rect = bb?.children.find((c) => c.name === 'rect');
  if (!rect) return undefined;
  const box = { x: Number(rect.attrs.x), y: Number(rect.attrs.y), width: Number(rect.attrs.width), height: Number(rect.attrs.height) };
  return [box.x, box.y, box.width, box.height].every(Number.isFinite) && box.width >= 0 && box.height >= 0 ? box : undefined;
}

/** Paints a drawn element in the colour of its class (gray level = class index), or hides it. */
function colour(el: XmlElement, classes: string[]): void {
  let cls: SymbolClass | undefined;
  if (el.name === 'use') {
    const href = el.attrs['xlink:href'] ?? el.attrs.href ?? '';
    const cp = /#([0-9A-Fa-f]{4,5})-/.exec(href)?.[1];
    cls = cp ? glyphClass(cp) : undefined;
    if (cls && (cls === 'sharp' || cls === 'flat') && classes.includes('tuplet')) cls = 'tuplet';
  } else if (el.name === 'text' || el.name === 'tspan') {
    cls = classes.includes('dynam') ? 'dynamics' : classes.includes('tupletNum') ? 'tuplet' : 'text';
  } else if ((el.name === 'ellipse' || el.name === 'circle') && classes.includes('barLine')) {
    cls = 'repeatDot';
  } else {
    cls = shapeClass(classes);
    // A rest's drawn bar (whole-measure rests of several measures) and the staff's own lines.
    if (!cls && classes.includes('mRest')) cls = 'restWhole';
  }
  const k = cls ? CLASS_INDEX[cls] : 0;
  const c = `rgb(${k},${k},${k})`;
  el.attrs.style = k ? `fill:${c};stroke:${c};color:${c}` : 'fill:none;stroke:none';
  if (el.attrs.fill === 'transparent') el.attrs.style = 'fill:none;stroke:none';
}

function stripBoundingBoxes(el: XmlElement, andStyle: boolean): void {
  el.children = el.children.filter((c) => !(c.attrs.class ?? '').includes('bounding-box') && !(andStyle && c.name === 'style'));
  for (const c of el.children) stripBoundingBoxes(c, andStyle);
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function serialise(el: XmlElement): string {
  const attrs = Object.entries(el.attrs)
    .map(([k, v]) => ` ${k}="${escape(v)}"`)
    .join('');
  const body = escape(el.text.trim() ? el.text : '') + el.children.map(serialise).join('');
  return `<${el.name}${attrs}>${body}</${el.name}>`;
}
