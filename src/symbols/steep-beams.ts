/**
 * Steep beams the model took for slurs.
 *
 * The symbol model learnt beams from engravings whose beams are nearly
 * level; a beam that climbs steeply across a wide interval (LilyPond draws
 * them where notes a tenth apart are close together) comes out painted as a
 * slur, or a tuplet mark, and its notes lose their beams. Such a band is easy
 * to tell from a real slur: it is straight, and as thick as a beam from end to
 * end, where a slur is curved, thin, and tapers to points. It also touches a
 * stem. Bands like that are repainted as beam before the symbols are read.
 */
import { CLASS_INDEX } from './symbol-classes.js';
import { classComponents, MAP_SCALE, type Component } from './components.js';
import type { ClassMap } from './segment.js';

/**
 * Classes a steep beam has been seen painted as: mostly slur or tuplet, its
 * ends often dynamics, on a blurred page a patchwork of glyph classes. Not the
 * ones a band may cross or touch (lines, stems, black heads) and not text,
 * whose words are bands too. (A dynamic mark is short, and a hairpin thin and
 * nearly level: neither passes for a beam.)
 */
const NEVER = new Set<number>(['background', 'staffLine', 'ledgerLine', 'barline', 'stem', 'noteheadBlack', 'text', 'braceBracket'].map((n) => CLASS_INDEX[n as keyof typeof CLASS_INDEX]));
const BAND = Object.values(CLASS_INDEX).filter((c) => !NEVER.has(c));

/** A band covers at least this many square spaces. */
const BAND_MIN_AREA = 1;

/**
 * Repaints, in place, straight beam-thick bands of slur or tuplet pixels as beam (the whole band,
 * where the model painted only part of it as beam), and the specks of black head the model left
 * inside such a band: between its straight edges, and a class-map pixel beyond them, where a speck
 * on the edge would lengthen the head beside it. A head beside the band keeps all but that sliver.
 */
export function repaintSteepBeams(map: ClassMap, space: number): void {
  const s = space / MAP_SCALE; // staff space in class-map pixels
  for (const c of classComponents(map, BAND, Math.round(s * s * BAND_MIN_AREA))) {
    if (c.counts.get(CLASS_INDEX.beam) === c.area) continue;
    const band = beamBand(c, map.width, s);
    if (!band || !touchesStem(c, map)) continue;
    for (const i of c.pixels) map.data[i] = CLASS_INDEX.beam;
    for (let x = 0; x < band.columns; x++) {
      const col = band.x0 + x;
      for (let y = Math.ceil(band.top.at(x)) - 1; y < Math.floor(band.bottom.at(x)) + 1; y++) {
        if (y >= 0 && y < map.height && map.data[y * map.width + col] === CLASS_INDEX.noteheadBlack) map.data[y * map.width + col] = CLASS_INDEX.beam;
      }
    }
  }
}

/** A steep beam's band: its first class-map column, its width, and its straight top and bottom edges over those columns. */
interface Band {
  x0: number;
  columns: number;
  top: Line;
  bottom: Line;
}

/** A band is at least this many spaces long … */
const BAND_MIN_LENGTH = 3;
/** … has pixels in at least this share of its columns … */
const BAND_MIN_FILLED_COLUMNS = 0.8;
/** … its pixels fill at least this share of its columns' spans … */
const BAND_MIN_FILL = 0.75;
/** … its centre line fits a straight line within this many spaces (RMS) … */
const BAND_MAX_MID_RESIDUAL = 0.2;
/** … and so does one of its edges, within this many spaces … */
const BAND_MAX_EDGE_RESIDUAL = 0.15;
/** … fitted again through this share of its columns, those nearest a first fit … */
const EDGE_FIT_KEEP = 0.8;
/** … it climbs or falls at least this many rows per column … */
const BAND_MIN_SLOPE = 0.2;
/** … and its inner columns (from this share of them to {@link BAND_INNER_TO}) … */
const BAND_INNER_FROM = 0.15;
const BAND_INNER_TO = 0.85;
/** … are at least this many spaces thick (one beam) … */
const BAND_MIN_THICKNESS = 0.35;
/** … and at most this many deep (three stacked beams), both crossed at the band's slope. */
const BAND_MAX_DEPTH = 2.2;

/**
 * Straight, steep, and beam-thick all along: per column, the band's extent from its
 * top pixel to its bottom one; its centre line fits a straight line within a
 * fifth of a space, and no inner column is thinner than one beam or deeper
 * than three, crossed at the band's slope.
 */
function beamBand(c: Component, width: number, s: number): Band | undefined {
  const x0 = c.x0 / MAP_SCALE;
  const columns = (c.x1 - c.x0) / MAP_SCALE;
  // Three spaces long at the least: shorter bands are a tilted head with its dot, a flag.
  if (columns < BAND_MIN_LENGTH * s) return undefined;
  const top = new Float64Array(columns).fill(Infinity);
  const bottom = new Float64Array(columns).fill(-Infinity);
  for (const i of c.pixels) {
    const x = (i % width) - x0;
    const y = (i - (i % width)) / width;
    top[x] = Math.min(top[x]!, y);
    bottom[x] = Math.max(bottom[x]!, y + 1);
  }
  const xs: number[] = [];
  const mids: number[] = [];
  const spans: number[] = [];
  for (let x = 0; x < columns; x++) {
    if (!Number.isFinite(top[x]!)) continue;
    xs.push(x);
    mids.push((top[x]! + bottom[x]!) / 2);
    spans.push(bottom[x]! - top[x]!);
  }
  const n = xs.length;
  if (n < columns * BAND_MIN_FILLED_COLUMNS) return undefined;
  // Solid: a beam fills its columns but for the gap between stacked beams; letters have holes.
  if (c.area < BAND_MIN_FILL * spans.reduce((a, b) => a + b, 0)) return undefined;
  const mid = fitLine(xs, mids);
  if (mid.residual > s * BAND_MAX_MID_RESIDUAL) return undefined;
  // One edge straight too (the other steps where a second beam starts or stops), but for the
  // columns where a head or a stem crossing the band took pixels from its edge: the line is fitted
  // again through the four fifths of the columns nearest the first fit.
  const [topEdge, bottomEdge] = [top, bottom].map((edge) => trimmedFit(xs, xs.map((x) => edge[x]!), EDGE_FIT_KEEP)) as [Line, Line];
  if (Math.min(topEdge.residual, bottomEdge.residual) > s * BAND_MAX_EDGE_RESIDUAL) return undefined;
  // Level beams the model reads well; a level band it calls something else is something else (a
  // tuplet bracket's span, a line of lettering).
  const slope = mid.slope;
  if (Math.abs(slope) < BAND_MIN_SLOPE) return undefined;
  // A beam is half a space thick (a little less once pixelated), three stacked are two spaces deep;
  // crossed at a slope, columns are longer by the secant.
  const secant = Math.hypot(1, slope);
  const inner = spans.slice(Math.floor(n * BAND_INNER_FROM), Math.ceil(n * BAND_INNER_TO));
  const thick = inner.length > 0 && Math.min(...inner) >= BAND_MIN_THICKNESS * s * secant && Math.max(...inner) <= BAND_MAX_DEPTH * s * secant;
  return thick ? { x0, columns, top: topEdge, bottom: bottomEdge } : undefined;
}

/** {@link fitLine} through the fraction `keep` of the points nearest a first fit through all of them. */
function trimmedFit(xs: readonly number[], ys: readonly number[], keep: number): Line {
  const first = fitLine(xs, ys);
  const off = xs.map((x, k) => Math.abs(ys[k]! - first.at(x)));
  const nearest = [...off.keys()].sort((a, b) => off[a]! - off[b]!).slice(0, Math.max(2, Math.ceil(xs.length * keep)));
  return fitLine(nearest.map((k) => xs[k]!), nearest.map((k) => ys[k]!));
}

interface Line {
  slope: number;
  /** RMS distance of the fitted points from the line. */
  residual: number;
  /** The line's y at x. */
  at(x: number): number;
}

/** Least-squares line through the points (xs[k], ys[k]). */
function fitLine(xs: readonly number[], ys: readonly number[]): Line {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let k = 0; k < n; k++) {
    sxy += (xs[k]! - mx) * (ys[k]! - my);
    sxx += (xs[k]! - mx) ** 2;
  }
  const slope = sxx ? sxy / sxx : 0;
  const at = (x: number) => my + slope * (x - mx);
  const residual = Math.sqrt(ys.reduce((sum, y, k) => sum + (y - at(xs[k]!)) ** 2, 0) / n);
  return { slope, residual, at };
}

/** Whether a stem pixel touches the band (a beam always hangs on stems; a slur does not). */
function touchesStem(c: Component, map: ClassMap): boolean {
  const { width, height, data } = map;
  for (const i of c.pixels) {
    const x = i % width;
    const y = (i - x) / width;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx >= 0 && xx < width && yy >= 0 && yy < height && data[yy * width + xx] === CLASS_INDEX.stem) return true;
      }
    }
  }
  return false;
}
