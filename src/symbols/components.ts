/**
 * Connected components of the class map: the pixels of one group of classes
 * (all notehead kinds, all rests …) that touch, each with its box in
 * prepared-page pixels and how many of its pixels each class claims.
 *
 * Grouping related classes before labelling matters: the model may paint one
 * notehead half "black" and half "half"; as one component it is one head, and
 * its majority class decides which.
 */
import { componentsOfRuns, memberRuns } from '../image/connected-components.js';
import type { ClassMap } from './segment.js';

export interface Component {
  /** Majority class of the component's pixels. */
  cls: number;
  /** Box in prepared-page pixels: [x0, x1) × [y0, y1). */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Pixels at class-map resolution. */
  area: number;
  /** Mean model confidence over the component, 0–1. */
  confidence: number;
  /** Pixel count per class index. */
  counts: Map<number, number>;
  /** Class-map pixel indices, for shape measurements. */
  pixels: Int32Array;
}

/** The class map's scale: one class-map pixel is this many prepared-page pixels wide. */
export const MAP_SCALE = 2;

/**
 * Labels 8-connected components of the pixels whose class is in `classes`.
 * Components smaller than `minArea` class-map pixels are noise and dropped.
 */
export function classComponents(map: ClassMap, classes: readonly number[], minArea = 2): Component[] {
  const member = new Uint8Array(256);
  for (const c of classes) member[c] = 1;
  const { data } = map;
  const { boxes, pixelsOf } = componentsOfRuns(map.width, map.height, memberRuns(map.width, map.height, data, member));
  const found: Component[] = [];
  // Pixels per class counted in a table, then kept in a map in the order the classes first appear.
  const tally = new Int32Array(256);
  boxes.forEach((box, k) => {
    const pixels = pixelsOf(k + 1);
    if (pixels.length < minArea) return;
    let confidence = 0;
    const seen: number[] = [];
    for (const i of pixels) {
      confidence += map.confidence[i]!;
      if (tally[data[i]!]!++ === 0) seen.push(data[i]!);
    }
    const counts = new Map<number, number>();
    for (const c of seen) {
      counts.set(c, tally[c]!);
      tally[c] = 0;
    }
    let cls = -1;
    let most = 0;
    for (const [c, n] of counts) {
      if (n > most) {
        most = n;
        cls = c;
      }
    }
    found.push({
      cls,
      x0: box.x0 * MAP_SCALE,
      y0: box.y0 * MAP_SCALE,
      x1: box.x1 * MAP_SCALE,
      y1: box.y1 * MAP_SCALE,
      area: pixels.length,
      confidence: confidence / pixels.length / 255,
      counts,
      pixels,
    });
  });
  return found;
}

/**
 * Joins pieces (components `isPiece` says are one) of one class whose boxes stand within `gap` prepared
 * pixels of each other (and those joined to them), as one: the model paints some symbols in pieces with
 * another class between them (the slanted bars of a sharp as beam), each too small to be read alone.
 * Pieces of different classes stay apart (a flat's edge the model called a natural is no part of a wider
 * flat), and so do whole symbols (two accidentals of a chord side by side).
 */
export function joinNear(components: readonly Component[], gap: number, isPiece: (c: Component) => boolean): Component[] {
  const parent = components.map((_, k) => k);
  const root = (k: number): number => (parent[k] === k ? k : (parent[k] = root(parent[k]!)));
  const pieces = components.flatMap((c, k) => (isPiece(c) ? [k] : []));
  const near = (a: Component, b: Component) => a.cls === b.cls && Math.max(a.x0 - b.x1, b.x0 - a.x1, a.y0 - b.y1, b.y0 - a.y1) <= gap;
  pieces.forEach((k, i) => {
    for (const j of pieces.slice(i + 1)) if (near(components[k]!, components[j]!)) parent[root(j)] = root(k);
  });
  const groups = new Map<number, Component[]>();
  components.forEach((c, k) => {
    const group = groups.get(root(k));
    if (group) group.push(c);
    else groups.set(root(k), [c]);
  });
  return [...groups.values()].map((group) => (group.length === 1 ? group[0]! : joined(group)));
}

function joined(group: readonly Component[]): Component {
  const counts = new Map<number, number>();
  for (const c of group) for (const [cls, n] of c.counts) counts.set(cls, (counts.get(cls) ?? 0) + n);
  const cls = [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
  const area = group.reduce((s, c) => s + c.area, 0);
  const pixels = new Int32Array(area);
  let at = 0;
  for (const c of group) {
    pixels.set(c.pixels, at);
    at += c.area;
  }
  return {
    cls,
    x0: Math.min(...group.map((c) => c.x0)),
    y0: Math.min(...group.map((c) => c.y0)),
    x1: Math.max(...group.map((c) => c.x1)),
    y1: Math.max(...group.map((c) => c.y1)),
    area,
    confidence: group.reduce((s, c) => s + c.confidence * c.area, 0) / area,
    counts,
    pixels,
  };
}

/** Centre of a component's box. */
export function centre(c: Pick<Component, 'x0' | 'x1' | 'y0' | 'y1'>): [number, number] {
  return [(c.x0 + c.x1) / 2, (c.y0 + c.y1) / 2];
}
