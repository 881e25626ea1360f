/**
 * Degradations that make clean rendered pages look like scans and phone
 * photos, for training data and the held-out dev set.
 *
 * Every function here is a pure function of its inputs and seed: the only
 * randomness is the {@link Rng} from `prng.ts`, each effect drawing from its
 * own fork (so switching one effect off or changing its range does not
 * reshuffle the others), and all arithmetic is plain IEEE doubles/floats, so
 * the same seed and page give the same bytes on every engine.
 *
 * ## Design
 *
 * A degradation is split into a *photometric* part (noise, blur, lighting,
 * JPEG…) that only changes pixel values, and a *geometric* part, a
 * {@link Geometry}, that moves pixels (skew, perspective, page curl,
 * rescaling). The geometry is returned with the image so that everything
 * labelled on the clean page can be moved the same way:
 *
 * - points and label boxes: `geometry.forward(x, y)` / `geometry.forwardBox(…)`
 *   (also exposed as `degraded.warp`);
 * - pixel masks: {@link warpMask} (nearest neighbour, class indices are never
 *   blended), or more generally {@link applyGeometry}.
 *
 * Coordinates are continuous: pixel (i, j) covers [i, i+1) × [j, j+1), so its
 * centre is (i + 0.5, j + 0.5) and a box drawn over pixels x0…x1−1 spans
 * [x0, x1]. `forward` maps clean-page coordinates to degraded-image
 * coordinates, `inverse` the other way (resampling uses `inverse`: each output
 * pixel centre is looked up in the source).
 *
 * Output: scans are 1-channel gray at the input size (skew rotates about the
 * centre and keeps the size, corners filled white); photos are 3-channel RGB
 * at the input size, or smaller when low resolution is drawn without the
 * upscale back. Inputs may have 1, 3 or 4 channels; they are converted to gray
 * first (RGBA composited over white).
 *
 * JPEG: the round trip defaults to the `'dct'` codec, an exact re-implementation
 * of JPEG's lossy steps (8×8 DCT, the IJG quality-scaled tables jpeg-js uses,
 * quantisation, inverse DCT; 4:2:0 chroma for colour, as phone cameras write)
 * without the lossless entropy coding, about 5× faster than a jpeg-js
 * encode + decode. `codec: 'jpeg-js'` runs the real jpeg-js round trip instead.
 */
import jpeg from 'jpeg-js';
import { assertRaster, resizeArea, type Raster } from '../../src/image/raster.js';
import { createRng, type Rng } from './prng.js';

// ---------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------

/** Maps a point of the clean page to the degraded image (or back, for an inverse). */
export type Warp = (x: number, y: number) => [number, number];

/** An inclusive numeric range [min, max] an effect's strength is drawn from, uniformly. */
export type Range = readonly [number, number];

/** A quadrilateral as four corners: top-left, top-right, bottom-right, bottom-left. */
export type Quad = readonly (readonly [number, number])[];

/** One effect that was applied, with the parameters drawn for it (for logging and debugging). */
export interface AppliedEffect {
  effect: string;
  [parameter: string]: number | string;
}

/** A degraded page and the geometry that maps the clean page onto it. */
export interface Degraded {
  image: Raster;
  /** Clean page → degraded image; see {@link Geometry}. */
  geometry: Geometry;
  /** `geometry.forward`, as a plain function. */
  warp: Warp;
  /** Size of `image` (same as `geometry.width/height`). */
  width: number;
  height: number;
  /** What was drawn, in the order applied. */
  applied: AppliedEffect[];
}

export interface ScanOptions {
  /** A faint, blurred, mirrored copy of the back of the sheet showing through the paper. */
  bleedThrough: { p: number; strength: Range; sigma: Range; maxShift: number };
  /**
   * The back of the sheet as printed (not mirrored; it is mirrored here), any
   * size and channel count. Without it the page itself is used.
   */
  backside: Raster | undefined;
  /** Rotation about the centre, uniform in ±maxDegrees; maxDegrees is capped at 3. */
  skew: { p: number; maxDegrees: number };
  /** Small gaussian blur, or with probability `box` a 3×3 box blur. */
  blur: { p: number; sigma: Range; box: number };
  /** Paper tone and ink level (white → paper, black → ink) and a gamma on the way. */
  contrast: { p: number; paper: Range; ink: Range; gamma: Range };
  /** Additive gaussian noise with standard deviation in gray levels. */
  noise: { p: number; sigma: Range };
  /** Salt-and-pepper dots (density per pixel, 80% dark) and small dark blobs. */
  speckle: { p: number; density: Range; blobs: Range; blobRadius: Range };
  /**
   * Threshold to pure black/white, at this fraction of the way from ink to paper level. Scanners
   * threshold towards the paper side so thin, blurred staff lines survive, as they do on real scans.
   */
  binarise: { p: number; threshold: Range };
  jpeg: { p: number; quality: Range; codec: JpegCodec };
}

export interface PhotoOptions {
  /**
   * A bent page: vertical displacement growing (quadratically) from `start`
   * (fraction of the width) towards one side, up to `amplitude` × height at
   * that side, plus horizontal compression of the bent part by `compression`.
   */
  curl: { p: number; amplitude: Range; start: Range; compression: Range };
  /**
   * Perspective: every corner moves inwards by an inset drawn from `inset`
   * (one value for the page, fraction of the size), then independently by up
   * to ±maxShift of the width (x) and height (y).
   */
  perspective: { p: number; maxShift: number; inset: Range };
  /** Gray level of the table around the page (before lighting and tint). */
  table: { level: Range };
  /** Smooth multiplicative light: overall level, linear gradient up to ±gradient across the page, vignette. */
  lighting: { p: number; level: Range; gradient: number; vignette: Range };
  /** A soft-edged dark region over one corner (a hand or the phone). */
  shadow: { p: number; darkness: Range; softness: Range; extent: Range };
  /** Defocus: a small gaussian blur. */
  blur: { p: number; sigma: Range };
  /** Downscale by an area filter to `scale` of the size, then with probability `upscale` bilinearly back. */
  lowRes: { p: number; scale: Range; upscale: number };
  /** Colour cast: warm (red up, blue down) or cool, of this relative strength. */
  tint: { p: number; strength: Range };
  /** Sensor noise, independent per channel, standard deviation in levels. */
  noise: { p: number; sigma: Range };
  jpeg: { p: number; quality: Range; codec: JpegCodec };
}

/** `'dct'`: JPEG's lossy steps re-implemented (fast, default); `'jpeg-js'`: the real encoder and decoder. */
export type JpegCodec = 'dct' | 'jpeg-js';

/** Options as accepted: any effect may be given in part, the rest taken from the defaults. */
export type Overrides<T> = { [K in keyof T]?: T[K] extends Raster | undefined ? T[K] : Partial<T[K]> };

export const DEFAULT_SCAN_OPTIONS: Readonly<ScanOptions> = Object.freeze({
  bleedThrough: { p: 0.25, strength: [0.05, 0.2], sigma: [1, 3], maxShift: 6 },
  backside: undefined,
  skew: { p: 0.8, maxDegrees: 3 },
  blur: { p: 0.5, sigma: [0.4, 1.2], box: 0.3 },
  contrast: { p: 0.8, paper: [210, 255], ink: [0, 70], gamma: [0.7, 1.4] },
  noise: { p: 0.6, sigma: [2, 12] },
  speckle: { p: 0.35, density: [2e-5, 4e-4], blobs: [0, 30], blobRadius: [0.8, 3] },
  binarise: { p: 0.15, threshold: [0.55, 0.8] },
  jpeg: { p: 0.6, quality: [40, 90], codec: 'dct' },
} satisfies ScanOptions);

export const DEFAULT_PHOTO_OPTIONS: Readonly<PhotoOptions> = Object.freeze({
  curl: { p: 0.5, amplitude: [0.004, 0.025], start: [0.3, 0.75], compression: [0, 0.05] },
  perspective: { p: 0.9, maxShift: 0.08, inset: [0, 0.05] },
  table: { level: [40, 140] },
  lighting: { p: 0.9, level: [0.7, 1.05], gradient: 0.35, vignette: [0, 0.35] },
  shadow: { p: 0.35, darkness: [0.15, 0.5], softness: [0.02, 0.12], extent: [0.15, 0.5] },
  blur: { p: 0.3, sigma: [0.4, 1.2] },
  lowRes: { p: 0.5, scale: [0.5, 0.8], upscale: 0.5 },
  tint: { p: 0.9, strength: [0.02, 0.12] },
  noise: { p: 0.9, sigma: [2, 8] },
  jpeg: { p: 0.85, quality: [40, 90], codec: 'dct' },
} satisfies PhotoOptions);

/** Largest skew a scan gets, whatever the options say. */
export const MAX_SKEW_DEGREES = 3;

// ---------------------------------------------------------------------------
// Geometry
// ---------------------------------------------------------------------------

/** One step of a geometry: transforms arrays of points in place, no allocation. */
interface Stage {
  forward(xs: Float64Array, ys: Float64Array, n: number): void;
  inverse(xs: Float64Array, ys: Float64Array, n: number): void;
}

/**
 * A geometric warp from a source image (`srcWidth × srcHeight`, the clean
 * page) to a destination image (`width × height`, the degraded one), as a
 * chain of exactly invertible steps. Immutable; compose with {@link then}.
 * Points that fall outside the domain of a step (behind a perspective's
 * horizon, past a curl's fold) map to NaN.
 */
export class Geometry {
  readonly #stages: readonly Stage[];

  private constructor(
    readonly srcWidth: number,
    readonly srcHeight: number,
    readonly width: number,
    readonly height: number,
    stages: readonly Stage[],
  ) {
    this.#stages = stages;
  }

  /** The identity on a `width × height` image. */
  static identity(width: number, height: number): Geometry {
    return new Geometry(width, height, width, height, []);
  }

  /** x' = a·x + b·y + c, y' = d·x + e·y + f. */
  static affine(
    srcWidth: number,
    srcHeight: number,
    width: number,
    height: number,
    m: readonly [number, number, number, number, number, number],
  ): Geometry {
    return new Geometry(srcWidth, srcHeight, width, height, [new AffineStage(m)]);
  }

  /** Rotation about the image centre by `degrees` (positive: clockwise on screen), same size. */
  static rotation(width: number, height: number, degrees: number): Geometry {
    const t = (degrees * Math.PI) / 180;
    const c = Math.cos(t);
    const s = Math.sin(t);
    const cx = width / 2;
    const cy = height / 2;
    return Geometry.affine(width, height, width, height, [c, -s, cx - c * cx + s * cy, s, c, cy - s * cx - c * cy]);
  }

  /** Stretches the whole `srcWidth × srcHeight` image onto `width × height` (the map an area resize does). */
  static scale(srcWidth: number, srcHeight: number, width: number, height: number): Geometry {
    return Geometry.affine(srcWidth, srcHeight, width, height, [width / srcWidth, 0, 0, 0, height / srcHeight, 0]);
  }

  /** The projective map taking the four points `from` exactly onto `to`. */
  static homography(srcWidth: number, srcHeight: number, width: number, height: number, from: Quad, to: Quad): Geometry {
    return new Geometry(srcWidth, srcHeight, width, height, [new HomographyStage(solveHomography(from, to))]);
  }

  /**
   * A page bent towards one side (same size). With t the fraction of the way
   * from `start` (fraction of the width) to that side, clamped at 0: points
   * move vertically by amplitude·t²·(fan0 + fan1·(2y/H − 1)) and the bent part
   * is compressed towards the flat part so the side moves in by
   * compression × its width.
   */
  static curl(width: number, height: number, params: CurlParams): Geometry {
    return new Geometry(width, height, width, height, [new CurlStage(width, height, params)]);
  }

  /** This geometry followed by `next` (whose source must be this one's destination). */
  then(next: Geometry): Geometry {
    if (next.srcWidth !== this.width || next.srcHeight !== this.height) {
      throw new Error(`geometry size mismatch: ${this.width}×${this.height} then ${next.srcWidth}×${next.srcHeight}`);
    }
    return new Geometry(this.srcWidth, this.srcHeight, next.width, next.height, [...this.#stages, ...next.#stages]);
  }

  /** True when no step moves anything and the size is unchanged. */
  get isIdentity(): boolean {
    return this.#stages.length === 0 && this.srcWidth === this.width && this.srcHeight === this.height;
  }

  /** Source → destination, for `n` points (default all) in place. */
  forwardPoints(xs: Float64Array, ys: Float64Array, n = xs.length): void {
    for (const stage of this.#stages) stage.forward(xs, ys, n);
  }

  /** Destination → source, for `n` points (default all) in place. */
  inversePoints(xs: Float64Array, ys: Float64Array, n = xs.length): void {
    for (let i = this.#stages.length - 1; i >= 0; i--) this.#stages[i]!.inverse(xs, ys, n);
  }

  /** A clean-page point in the degraded image. */
  forward(x: number, y: number): [number, number] {
    const xs = Float64Array.of(x);
    const ys = Float64Array.of(y);
    this.forwardPoints(xs, ys, 1);
    return [xs[0]!, ys[0]!];
  }

  /** A degraded-image point on the clean page. */
  inverse(x: number, y: number): [number, number] {
    const xs = Float64Array.of(x);
    const ys = Float64Array.of(y);
    this.inversePoints(xs, ys, 1);
    return [xs[0]!, ys[0]!];
  }

  /**
   * The axis-aligned bounding box, in the degraded image, of the clean-page
   * box [x0, x1] × [y0, y1] (sampled along its edges, so curved edges count).
   * Not clipped to the image; NaN when no point of the box maps.
   */
  forwardBox(x0: number, y0: number, x1: number, y1: number, samplesPerEdge = 16): [number, number, number, number] {
    const k = Math.max(1, Math.floor(samplesPerEdge));
    const xs = new Float64Array(4 * (k + 1));
    const ys = new Float64Array(4 * (k + 1));
    let n = 0;
    for (let i = 0; i <= k; i++) {
      const t = i / k;
      const x = x0 + (x1 - x0) * t;
      const y = y0 + (y1 - y0) * t;
      xs[n] = x; ys[n++] = y0;
      xs[n] = x; ys[n++] = y1;
      xs[n] = x0; ys[n++] = y;
      xs[n] = x1; ys[n++] = y;
    }
    this.forwardPoints(xs, ys, n);
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      const x = xs[i]!;
      const y = ys[i]!;
      if (Number.isNaN(x) || Number.isNaN(y)) continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    return minX <= maxX ? [minX, minY, maxX, maxY] : [NaN, NaN, NaN, NaN];
  }
}

/** Parameters of {@link Geometry.curl}. */
export interface CurlParams {
  /** The side that bends. */
  side: 'left' | 'right';
  /** Where the bend starts, as a fraction of the width from the other side (0…1). */
  start: number;
  /** Vertical displacement at the bent side, in pixels (either sign). */
  amplitude: number;
  /** Uniform part of the vertical displacement, −1…1 (default 1). */
  fan0?: number;
  /** Part that grows away from the middle row with opposite signs above and below, −1…1 (default 0). */
  fan1?: number;
  /** Horizontal compression of the bent part, 0…0.4 of its width. */
  compression: number;
}

class AffineStage implements Stage {
  readonly #m: Float64Array;
  readonly #inv: Float64Array;

  constructor(m: readonly [number, number, number, number, number, number]) {
    const [a, b, c, d, e, f] = m;
    const det = a * e - b * d;
    if (!(Math.abs(det) > 1e-12)) throw new Error('affine map is not invertible');
    this.#m = Float64Array.from(m);
    this.#inv = Float64Array.of(e / det, -b / det, (b * f - c * e) / det, -d / det, a / det, (c * d - a * f) / det);
  }

  forward(xs: Float64Array, ys: Float64Array, n: number): void {
    apply6(this.#m, xs, ys, n);
  }

  inverse(xs: Float64Array, ys: Float64Array, n: number): void {
    apply6(this.#inv, xs, ys, n);
  }
}

function apply6(m: Float64Array, xs: Float64Array, ys: Float64Array, n: number): void {
  const a = m[0]!, b = m[1]!, c = m[2]!, d = m[3]!, e = m[4]!, f = m[5]!;
  for (let i = 0; i < n; i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    xs[i] = a * x + b * y + c;
    ys[i] = d * x + e * y + f;
  }
}

class HomographyStage implements Stage {
  readonly #h: Float64Array;
  readonly #inv: Float64Array;

  constructor(h: Float64Array) {
    this.#h = h;
    this.#inv = invert3(h);
  }

  forward(xs: Float64Array, ys: Float64Array, n: number): void {
    apply9(this.#h, xs, ys, n);
  }

  inverse(xs: Float64Array, ys: Float64Array, n: number): void {
    apply9(this.#inv, xs, ys, n);
  }
}

function apply9(h: Float64Array, xs: Float64Array, ys: Float64Array, n: number): void {
  const h0 = h[0]!, h1 = h[1]!, h2 = h[2]!, h3 = h[3]!, h4 = h[4]!, h5 = h[5]!, h6 = h[6]!, h7 = h[7]!, h8 = h[8]!;
  for (let i = 0; i < n; i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    const w = h6 * x + h7 * y + h8;
    if (w > 1e-9) {
      xs[i] = (h0 * x + h1 * y + h2) / w;
      ys[i] = (h3 * x + h4 * y + h5) / w;
    } else {
      xs[i] = NaN;
      ys[i] = NaN;
    }
  }
}

/**
 * Solves the homography taking `from[k]` to `to[k]` for k = 0…3 exactly
 * (8×8 linear system, partial pivoting, coordinates normalised for
 * conditioning). Returns the 3×3 matrix row-major with h[8] = 1.
 */
export function solveHomography(from: Quad, to: Quad): Float64Array {
  if (from.length !== 4 || to.length !== 4) throw new Error('a homography needs exactly 4 point pairs');
  let s1 = 0;
  let s2 = 0;
  for (let k = 0; k < 4; k++) {
    s1 = Math.max(s1, Math.abs(from[k]![0]), Math.abs(from[k]![1]));
    s2 = Math.max(s2, Math.abs(to[k]![0]), Math.abs(to[k]![1]));
  }
  s1 = s1 || 1;
  s2 = s2 || 1;
  const a = new Float64Array(8 * 9); // augmented rows
  for (let k = 0; k < 4; k++) {
    const x = from[k]![0] / s1;
    const y = from[k]![1] / s1;
    const u = to[k]![0] / s2;
    const v = to[k]![1] / s2;
    a.set([x, y, 1, 0, 0, 0, -x * u, -y * u, u], 18 * k);
    a.set([0, 0, 0, x, y, 1, -x * v, -y * v, v], 18 * k + 9);
  }
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let r = col + 1; r < 8; r++) if (Math.abs(a[r * 9 + col]!) > Math.abs(a[pivot * 9 + col]!)) pivot = r;
    if (!(Math.abs(a[pivot * 9 + col]!) > 1e-12)) throw new Error('degenerate point pairs: no homography');
    if (pivot !== col) {
      for (let c = 0; c < 9; c++) {
        const t = a[col * 9 + c]!;
        a[col * 9 + c] = a[pivot * 9 + c]!;
        a[pivot * 9 + c] = t;
      }
    }
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const f = a[r * 9 + col]! / a[col * 9 + col]!;
      if (f === 0) continue;
      for (let c = col; c < 9; c++) a[r * 9 + c]! -= f * a[col * 9 + c]!;
    }
  }
  const hn = new Float64Array(9);
  for (let r = 0; r < 8; r++) hn[r] = a[r * 9 + 8]! / a[r * 9 + r]!;
  hn[8] = 1;
  // Undo the normalisation: H = diag(s2, s2, 1) · Hn · diag(1/s1, 1/s1, 1).
  const h = Float64Array.of(
    hn[0]! * (s2 / s1), hn[1]! * (s2 / s1), hn[2]! * s2,
    hn[3]! * (s2 / s1), hn[4]! * (s2 / s1), hn[5]! * s2,
    hn[6]! / s1, hn[7]! / s1, 1,
  );
  return h;
}

function invert3(m: Float64Array): Float64Array {
  const a = m[0]!, b = m[1]!, c = m[2]!, d = m[3]!, e = m[4]!, f = m[5]!, g = m[6]!, h = m[7]!, i = m[8]!;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (!(Math.abs(det) > 1e-15)) throw new Error('homography is not invertible');
  // The true inverse (adjugate / det), so that w stays positive wherever the forward map's did.
  const inv = Float64Array.of(
    A, -(b * i - c * h), b * f - c * e,
    B, a * i - c * g, -(a * f - c * d),
    C, -(a * h - b * g), a * e - b * d,
  );
  for (let k = 0; k < 9; k++) inv[k]! /= det;
  return inv;
}

class CurlStage implements Stage {
  readonly #w: number;
  readonly #mirror: boolean;
  readonly #x0: number;
  readonly #span: number;
  readonly #k: number;
  readonly #amp: number;
  readonly #fan0: number;
  readonly #fan1: number;
  /** fan1 / (H/2): the y-proportional part of the displacement per unit of a. */
  readonly #fan1PerY: number;

  constructor(width: number, height: number, p: CurlParams) {
    const start = Math.min(Math.max(p.start, 0), 0.99);
    const compression = Math.min(Math.max(p.compression, 0), 0.4);
    const fan1 = Math.min(Math.max(p.fan1 ?? 0, -1), 1);
    if (Math.abs(p.amplitude * fan1) >= height / 4) throw new Error('curl amplitude too large for its fan');
    this.#w = width;
    this.#mirror = p.side === 'left';
    this.#x0 = start * width;
    this.#span = width - this.#x0;
    // xm' = xm − k·d², d = xm − x0 ≥ 0: the side (d = span) moves in by compression·span.
    this.#k = compression / this.#span;
    this.#amp = p.amplitude;
    this.#fan0 = Math.min(Math.max(p.fan0 ?? 1, -1), 1);
    this.#fan1 = fan1;
    this.#fan1PerY = fan1 / (height / 2);
  }

  forward(xs: Float64Array, ys: Float64Array, n: number): void {
    const w = this.#w, mirror = this.#mirror, x0 = this.#x0, span = this.#span, k = this.#k;
    const amp = this.#amp, fan0 = this.#fan0, fan1 = this.#fan1, perY = this.#fan1PerY;
    for (let i = 0; i < n; i++) {
      const xm = mirror ? w - xs[i]! : xs[i]!;
      const d = xm - x0;
      if (d <= 0) continue;
      const t = d / span;
      const a = amp * t * t;
      const y = ys[i]!;
      // y' = y + a·(fan0 + fan1·(2y/H − 1)) = y + a·(fan0 − fan1) + a·fan1·y/(H/2)
      ys[i] = y + a * (fan0 - fan1) + a * perY * y;
      const xm2 = xm - k * d * d;
      xs[i] = mirror ? w - xm2 : xm2;
    }
  }

  inverse(xs: Float64Array, ys: Float64Array, n: number): void {
    const w = this.#w, mirror = this.#mirror, x0 = this.#x0, span = this.#span, k = this.#k;
    const amp = this.#amp, fan0 = this.#fan0, fan1 = this.#fan1, perY = this.#fan1PerY;
    for (let i = 0; i < n; i++) {
      const xm2 = mirror ? w - xs[i]! : xs[i]!;
      const c = xm2 - x0;
      if (c <= 0) continue;
      // Solve k·d² − d + c = 0 for the root near c (stable form, no division by k).
      const disc = 1 - 4 * k * c;
      if (disc < 0) {
        xs[i] = NaN;
        ys[i] = NaN;
        continue;
      }
      const d = (2 * c) / (1 + Math.sqrt(disc));
      const t = d / span;
      const a = amp * t * t;
      ys[i] = (ys[i]! - a * (fan0 - fan1)) / (1 + a * perY);
      const xm = x0 + d;
      xs[i] = mirror ? w - xm : xm;
    }
  }
}

// ---------------------------------------------------------------------------
// Applying a geometry
// ---------------------------------------------------------------------------

export type Interpolation = 'bilinear' | 'nearest';

/**
 * Resamples `raster` (which must be `geometry.srcWidth × srcHeight`) through
 * `geometry`, giving a `geometry.width × height` raster with the same
 * channels. Destination pixels whose source lies outside the raster get
 * `fill` (one value for every channel, or one per channel). `'nearest'` copies
 * source pixels unchanged (for masks and label images); `'bilinear'` blends
 * the four nearest, treating pixels outside as `fill` so the page edge is
 * smooth.
 */
export function applyGeometry(
  raster: Raster,
  geometry: Geometry,
  interpolation: Interpolation,
  fill: number | readonly number[] = 255,
): Raster {
  assertRaster(raster);
  checkSource(raster, geometry);
  const { channels } = raster;
  const fills = Array.from({ length: channels }, (_, c) => (typeof fill === 'number' ? fill : (fill[c] ?? fill[0] ?? 0)));
  if (interpolation === 'nearest') {
    const data = resampleNearest(raster.data, raster.width, raster.height, channels, geometry, fills);
    return { width: geometry.width, height: geometry.height, channels, data };
  }
  const src = new Float32Array(raster.data);
  const out = resampleBilinear(src, raster.width, raster.height, channels, geometry, fills);
  return { width: geometry.width, height: geometry.height, channels, data: toBytes(out) };
}

/**
 * Moves a 1-channel class-index mask of the clean page exactly as the
 * degradation moved the image (nearest neighbour: every output value is a
 * value of the input or `fill`). Pass the {@link Degraded} result or its
 * geometry.
 */
export function warpMask(mask: Raster, target: Geometry | { geometry: Geometry }, fill = 0): Raster {
  assertRaster(mask);
  if (mask.channels !== 1) throw new Error(`warpMask needs a 1-channel mask, got ${mask.channels} channels`);
  const geometry = target instanceof Geometry ? target : target.geometry;
  return applyGeometry(mask, geometry, 'nearest', fill);
}

function checkSource(raster: { width: number; height: number }, geometry: Geometry): void {
  if (raster.width !== geometry.srcWidth || raster.height !== geometry.srcHeight) {
    throw new Error(
      `raster is ${raster.width}×${raster.height} but the geometry maps from ${geometry.srcWidth}×${geometry.srcHeight}`,
    );
  }
}

function resampleNearest(
  src: Uint8Array,
  sw: number,
  sh: number,
  ch: number,
  geometry: Geometry,
  fills: readonly number[],
): Uint8Array {
  const w = geometry.width;
  const h = geometry.height;
  const out = new Uint8Array(w * h * ch);
  const xs = new Float64Array(w);
  const ys = new Float64Array(w);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      xs[x] = x + 0.5;
      ys[x] = y + 0.5;
    }
    geometry.inversePoints(xs, ys, w);
    let o = y * w * ch;
    for (let x = 0; x < w; x++, o += ch) {
      const u = xs[x]!;
      const v = ys[x]!;
      if (u >= 0 && u < sw && v >= 0 && v < sh) {
        const s = ((v | 0) * sw + (u | 0)) * ch;
        for (let c = 0; c < ch; c++) out[o + c] = src[s + c]!;
      } else {
        for (let c = 0; c < ch; c++) out[o + c] = fills[c]!;
      }
    }
  }
  return out;
}

function resampleBilinear(
  src: Float32Array,
  sw: number,
  sh: number,
  ch: number,
  geometry: Geometry,
  fills: readonly number[],
): Float32Array {
  const w = geometry.width;
  const h = geometry.height;
  const out = new Float32Array(w * h * ch);
  const xs = new Float64Array(w);
  const ys = new Float64Array(w);
  const fill0 = fills[0]!;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      xs[x] = x + 0.5;
      ys[x] = y + 0.5;
    }
    geometry.inversePoints(xs, ys, w);
    let o = y * w * ch;
    for (let x = 0; x < w; x++, o += ch) {
      // Sample position in pixel-index space (pixel centres at integers).
      const u = xs[x]! - 0.5;
      const v = ys[x]! - 0.5;
      if (!(u > -1 && u < sw && v > -1 && v < sh)) {
        for (let c = 0; c < ch; c++) out[o + c] = fills[c]!;
        continue;
      }
      const x0 = Math.floor(u);
      const y0 = Math.floor(v);
      const fx = u - x0;
      const fy = v - y0;
      const w00 = (1 - fx) * (1 - fy);
      const w10 = fx * (1 - fy);
      const w01 = (1 - fx) * fy;
      const w11 = fx * fy;
      if (x0 >= 0 && y0 >= 0 && x0 + 1 < sw && y0 + 1 < sh) {
        const s = (y0 * sw + x0) * ch;
        const s2 = s + sw * ch;
        if (ch === 1) {
          out[o] = src[s]! * w00 + src[s + 1]! * w10 + src[s2]! * w01 + src[s2 + 1]! * w11;
        } else {
          for (let c = 0; c < ch; c++) {
            out[o + c] = src[s + c]! * w00 + src[s + ch + c]! * w10 + src[s2 + c]! * w01 + src[s2 + ch + c]! * w11;
          }
        }
        continue;
      }
      // At the border: neighbours outside the source count as fill.
      const in0x = x0 >= 0;
      const in1x = x0 + 1 < sw;
      const in0y = y0 >= 0;
      const in1y = y0 + 1 < sh;
      for (let c = 0; c < ch; c++) {
        const f = ch === 1 ? fill0 : fills[c]!;
        const p00 = in0x && in0y ? src[(y0 * sw + x0) * ch + c]! : f;
        const p10 = in1x && in0y ? src[(y0 * sw + x0 + 1) * ch + c]! : f;
        const p01 = in0x && in1y ? src[((y0 + 1) * sw + x0) * ch + c]! : f;
        const p11 = in1x && in1y ? src[((y0 + 1) * sw + x0 + 1) * ch + c]! : f;
        out[o + c] = p00 * w00 + p10 * w10 + p01 * w01 + p11 * w11;
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Scan
// ---------------------------------------------------------------------------

/**
 * Makes a clean page look scanned: a random, plausible combination of
 * bleed-through, skew (≤ ±3°), blur, paper tone/contrast/gamma, noise,
 * speckle, binarisation and a JPEG round trip, each with the probability and
 * strength range of {@link ScanOptions} ({@link DEFAULT_SCAN_OPTIONS} for what
 * is not given). Output: 1-channel gray, the input's size.
 */
export function degradeScan(page: Raster, seed: number, options: Overrides<ScanOptions> = {}): Degraded {
  assertRaster(page);
  const o = merge(DEFAULT_SCAN_OPTIONS, options);
  const root = createRng(seed);
  const rng = {
    bleed: root.fork(),
    skew: root.fork(),
    blur: root.fork(),
    contrast: root.fork(),
    noise: root.fork(),
    speckle: root.fork(),
    binarise: root.fork(),
    jpeg: root.fork(),
  };
  const { width: w, height: h } = page;
  const applied: AppliedEffect[] = [];
  let plane = toGray(page);

  if (rng.bleed.chance(o.bleedThrough.p)) {
    const r = rng.bleed;
    const strength = draw(r, o.bleedThrough.strength);
    const sigma = draw(r, o.bleedThrough.sigma);
    const maxShift = Math.max(0, Math.floor(o.bleedThrough.maxShift));
    const dx = r.int(-maxShift, maxShift);
    const dy = r.int(-maxShift, maxShift);
    const back = o.backside ? toGray(fitTo(o.backside, w, h)) : plane;
    const mirrored = mirrorShift(back, w, h, dx, dy);
    const blurred = gaussianBlur(mirrored, w, h, sigma);
    const k = strength / 255;
    for (let i = 0; i < plane.length; i++) plane[i]! *= 1 - strength + k * blurred[i]!;
    applied.push({ effect: 'bleedThrough', strength, sigma, dx, dy, source: o.backside ? 'backside' : 'page' });
  }

  let geometry = Geometry.identity(w, h);
  if (rng.skew.chance(o.skew.p)) {
    const max = Math.min(MAX_SKEW_DEGREES, Math.abs(o.skew.maxDegrees));
    const degrees = rng.skew.range(-max, max);
    geometry = Geometry.rotation(w, h, degrees);
    plane = resampleBilinear(plane, w, h, 1, geometry, [255]);
    applied.push({ effect: 'skew', degrees });
  }

  if (rng.blur.chance(o.blur.p)) {
    if (rng.blur.chance(o.blur.box)) {
      plane = boxBlur(plane, w, h, 1);
      applied.push({ effect: 'blur', kind: 'box', radius: 1 });
    } else {
      const sigma = draw(rng.blur, o.blur.sigma);
      plane = gaussianBlur(plane, w, h, sigma);
      applied.push({ effect: 'blur', kind: 'gaussian', sigma });
    }
  }

  let paper = 255;
  let ink = 0;
  if (rng.contrast.chance(o.contrast.p)) {
    paper = draw(rng.contrast, o.contrast.paper);
    ink = Math.min(draw(rng.contrast, o.contrast.ink), paper - 1);
    const gamma = draw(rng.contrast, o.contrast.gamma);
    const lut = new Float32Array(257);
    for (let i = 0; i <= 256; i++) lut[i] = ink + (paper - ink) * Math.pow(Math.min(i, 255) / 255, gamma);
    applyLut(plane, lut);
    applied.push({ effect: 'contrast', paper, ink, gamma });
  }

  if (rng.noise.chance(o.noise.p)) {
    const sigma = draw(rng.noise, o.noise.sigma);
    addNoise(plane, 0, 1, plane.length, sigma, rng.noise);
    applied.push({ effect: 'noise', sigma });
  }

  if (rng.binarise.chance(o.binarise.p)) {
    const fraction = draw(rng.binarise, o.binarise.threshold);
    const threshold = ink + fraction * (paper - ink);
    for (let i = 0; i < plane.length; i++) plane[i] = plane[i]! < threshold ? 0 : 255;
    applied.push({ effect: 'binarise', threshold });
  }

  if (rng.speckle.chance(o.speckle.p)) {
    const r = rng.speckle;
    const density = draw(r, o.speckle.density);
    const dots = Math.round(density * w * h);
    for (let i = 0; i < dots; i++) {
      const x = r.int(0, w - 1);
      const y = r.int(0, h - 1);
      plane[y * w + x] = r.chance(0.8) ? r.range(0, 60) : 255;
    }
    const blobs = r.int(Math.round(o.speckle.blobs[0]), Math.round(o.speckle.blobs[1]));
    for (let i = 0; i < blobs; i++) {
      const cx = r.range(0, w);
      const cy = r.range(0, h);
      const rx = draw(r, o.speckle.blobRadius);
      const ry = rx * r.range(0.6, 1.4);
      const level = r.range(0, 90);
      fillEllipse(plane, w, h, cx, cy, rx, ry, level);
    }
    applied.push({ effect: 'speckle', density, dots, blobs });
  }

  let data = toBytes(plane);
  if (rng.jpeg.chance(o.jpeg.p)) {
    const quality = Math.round(draw(rng.jpeg, o.jpeg.quality));
    data = jpegRoundTrip({ width: w, height: h, channels: 1, data }, quality, o.jpeg.codec).data;
    applied.push({ effect: 'jpeg', quality, codec: o.jpeg.codec });
  }

  return finish({ width: w, height: h, channels: 1, data }, geometry, applied);
}

// ---------------------------------------------------------------------------
// Photo
// ---------------------------------------------------------------------------

/**
 * Makes a clean page look photographed with a phone: page curl, perspective
 * (the page on a darker table), uneven lighting, a shadow, defocus, low
 * resolution, a colour cast, sensor noise and a JPEG round trip, each with
 * the probability and range of {@link PhotoOptions}
 * ({@link DEFAULT_PHOTO_OPTIONS} for what is not given). Output: 3-channel
 * RGB at the input size, or smaller after low resolution without the upscale.
 */
export function degradePhoto(page: Raster, seed: number, options: Overrides<PhotoOptions> = {}): Degraded {
  assertRaster(page);
  const o = merge(DEFAULT_PHOTO_OPTIONS, options);
  const root = createRng(seed);
  const rng = {
    table: root.fork(),
    curl: root.fork(),
    perspective: root.fork(),
    lighting: root.fork(),
    shadow: root.fork(),
    blur: root.fork(),
    lowRes: root.fork(),
    tint: root.fork(),
    noise: root.fork(),
    jpeg: root.fork(),
  };
  let w = page.width;
  let h = page.height;
  const applied: AppliedEffect[] = [];
  let plane = toGray(page);
  const table = draw(rng.table, o.table.level);

  let geometry = Geometry.identity(w, h);
  if (rng.curl.chance(o.curl.p)) {
    const r = rng.curl;
    const params: CurlParams = {
      side: r.chance(0.5) ? 'left' : 'right',
      start: draw(r, o.curl.start),
      amplitude: draw(r, o.curl.amplitude) * h * (r.chance(0.5) ? 1 : -1),
      fan0: r.range(-1, 1),
      fan1: r.range(-1, 1),
      compression: draw(r, o.curl.compression),
    };
    geometry = geometry.then(Geometry.curl(w, h, params));
    applied.push({ effect: 'curl', ...params } as AppliedEffect);
  }
  if (rng.perspective.chance(o.perspective.p)) {
    const r = rng.perspective;
    const inset = draw(r, o.perspective.inset);
    const m = Math.abs(o.perspective.maxShift);
    const from: [number, number][] = [[0, 0], [w, 0], [w, h], [0, h]];
    const inward: [number, number][] = [[1, 1], [-1, 1], [-1, -1], [1, -1]];
    const to = from.map(([x, y], k): [number, number] => [
      x + inward[k]![0] * inset * w + r.range(-m, m) * w,
      y + inward[k]![1] * inset * h + r.range(-m, m) * h,
    ]);
    geometry = geometry.then(Geometry.homography(w, h, w, h, from, to));
    applied.push({ effect: 'perspective', inset, corners: to.map((p) => p.map((v) => v.toFixed(1)).join(',')).join(' ') });
  }
  if (!geometry.isIdentity) plane = resampleBilinear(plane, w, h, 1, geometry, [table]);

  const lit = rng.lighting.chance(o.lighting.p);
  const shaded = rng.shadow.chance(o.shadow.p);
  if (lit || shaded) {
    const light = { level: 1, gx: 0, gy: 0, vignette: 0, cx: 0.5, cy: 0.5 };
    if (lit) {
      const r = rng.lighting;
      light.level = draw(r, o.lighting.level);
      light.gx = r.range(-o.lighting.gradient, o.lighting.gradient);
      light.gy = r.range(-o.lighting.gradient, o.lighting.gradient);
      light.vignette = draw(r, o.lighting.vignette);
      light.cx = r.range(0.3, 0.7);
      light.cy = r.range(0.3, 0.7);
      applied.push({ effect: 'lighting', ...light });
    }
    let shadow: Shadow | undefined;
    if (shaded) {
      shadow = drawShadow(rng.shadow, o.shadow, w, h);
      applied.push({ effect: 'shadow', darkness: shadow.darkness, softness: shadow.soft, corner: shadow.corner });
    }
    applyLighting(plane, w, h, light, shadow);
  }

  if (rng.blur.chance(o.blur.p)) {
    const sigma = draw(rng.blur, o.blur.sigma);
    plane = gaussianBlur(plane, w, h, sigma);
    applied.push({ effect: 'blur', sigma });
  }

  if (rng.lowRes.chance(o.lowRes.p)) {
    const r = rng.lowRes;
    const scale = draw(r, o.lowRes.scale);
    const w2 = Math.max(1, Math.round(w * scale));
    const h2 = Math.max(1, Math.round(h * scale));
    const small = resizeArea({ width: w, height: h, channels: 1, data: toBytes(plane) }, w2, h2);
    geometry = geometry.then(Geometry.scale(w, h, w2, h2));
    const up = r.chance(o.lowRes.upscale);
    if (up) {
      const back = Geometry.scale(w2, h2, w, h);
      plane = resampleBilinear(new Float32Array(small.data), w2, h2, 1, back, [table]);
      geometry = geometry.then(back);
    } else {
      plane = new Float32Array(small.data);
      w = w2;
      h = h2;
    }
    applied.push({ effect: 'lowRes', scale, upscale: up ? 'yes' : 'no' });
  }

  // Colour: gray × per-channel tint.
  let tint = [1, 1, 1];
  if (rng.tint.chance(o.tint.p)) {
    const strength = draw(rng.tint, o.tint.strength);
    const warm = rng.tint.chance(0.5) ? 1 : -1;
    const s = strength * warm;
    tint = [1 + s, 1 + 0.25 * s, 1 - 1.2 * s];
    applied.push({ effect: 'tint', strength, kind: warm > 0 ? 'warm' : 'cool' });
  }
  const n = w * h;
  const rgb = new Float32Array(n * 3);
  const t0 = tint[0]!, t1 = tint[1]!, t2 = tint[2]!;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const v = plane[i]!;
    rgb[j] = v * t0;
    rgb[j + 1] = v * t1;
    rgb[j + 2] = v * t2;
  }

  if (rng.noise.chance(o.noise.p)) {
    const sigma = draw(rng.noise, o.noise.sigma);
    addNoise(rgb, 0, 1, rgb.length, sigma, rng.noise);
    applied.push({ effect: 'noise', sigma });
  }

  let data = toBytes(rgb);
  if (rng.jpeg.chance(o.jpeg.p)) {
    const quality = Math.round(draw(rng.jpeg, o.jpeg.quality));
    data = jpegRoundTrip({ width: w, height: h, channels: 3, data }, quality, o.jpeg.codec).data;
    applied.push({ effect: 'jpeg', quality, codec: o.jpeg.codec });
  }

  return finish({ width: w, height: h, channels: 3, data }, geometry, applied);
}

interface Shadow {
  /** Unit normal pointing into the shadow, and the offset: s = nx·x + ny·y − off. */
  nx: number;
  ny: number;
  off: number;
  soft: number;
  darkness: number;
  corner: string;
}

function drawShadow(r: Rng, o: PhotoOptions['shadow'], w: number, h: number): Shadow {
  const corner = r.int(0, 3);
  const cx = corner === 1 || corner === 2 ? w : 0;
  const cy = corner >= 2 ? h : 0;
  const extent = draw(r, o.extent);
  // A point on the diagonal from the corner, and an edge roughly across it.
  const px = cx + (w / 2 - cx) * 2 * extent;
  const py = cy + (h / 2 - cy) * 2 * extent;
  const base = Math.atan2(cy - h / 2, cx - w / 2) + r.range(-0.5, 0.5);
  const nx = Math.cos(base);
  const ny = Math.sin(base);
  return {
    nx,
    ny,
    off: nx * px + ny * py,
    soft: Math.max(1, draw(r, o.softness) * Math.min(w, h)),
    darkness: draw(r, o.darkness),
    corner: ['top-left', 'top-right', 'bottom-right', 'bottom-left'][corner]!,
  };
}

function applyLighting(
  plane: Float32Array,
  w: number,
  h: number,
  light: { level: number; gx: number; gy: number; vignette: number; cx: number; cy: number },
  shadow: Shadow | undefined,
): void {
  const ax = light.gx / w;
  const vx = 1 / w;
  const vy = 1 / h;
  const vig = 2 * light.vignette;
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) * vy;
    const rowGrad = 1 - 0.5 * light.gx + light.gy * (v - 0.5);
    const dy = v - light.cy;
    const dy2 = dy * dy;
    let o = y * w;
    for (let x = 0; x < w; x++, o++) {
      const xc = x + 0.5;
      const dx = xc * vx - light.cx;
      let f = light.level * (rowGrad + ax * xc) * (1 - vig * (dx * dx + dy2));
      if (shadow) {
        const s = (shadow.nx * xc + shadow.ny * (y + 0.5) - shadow.off) / shadow.soft + 0.5;
        if (s > 0) {
          const t = s >= 1 ? 1 : s * s * (3 - 2 * s);
          f *= 1 - shadow.darkness * t;
        }
      }
      plane[o]! *= f > 0.05 ? f : 0.05;
    }
  }
}

// ---------------------------------------------------------------------------
// JPEG
// ---------------------------------------------------------------------------

/**
 * Encodes and decodes `raster` as a baseline JPEG of `quality` (1–100). Gray
 * stays gray, RGB stays RGB, RGBA's alpha is kept as it was. See the module
 * notes for the two codecs.
 */
export function jpegRoundTrip(raster: Raster, quality: number, codec: JpegCodec = 'dct'): Raster {
  assertRaster(raster);
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const { width: w, height: h, channels, data } = raster;
  if (codec === 'jpeg-js') {
    const rgba = new Uint8Array(w * h * 4);
    for (let i = 0; i < w * h; i++) {
      const s = i * channels;
      const r = data[s]!;
      rgba[4 * i] = r;
      rgba[4 * i + 1] = channels === 1 ? r : data[s + 1]!;
      rgba[4 * i + 2] = channels === 1 ? r : data[s + 2]!;
      rgba[4 * i + 3] = 255;
    }
    const encoded = jpeg.encode({ width: w, height: h, data: rgba }, q);
    const decoded = jpeg.decode(encoded.data, { useTArray: true, formatAsRGBA: true });
    const out = new Uint8Array(data.length);
    for (let i = 0; i < w * h; i++) {
      const d = i * channels;
      if (channels === 1) {
        // jpeg-js decodes gray through YCbCr; average the (near-identical) channels back.
        out[d] = Math.round((decoded.data[4 * i]! + decoded.data[4 * i + 1]! + decoded.data[4 * i + 2]!) / 3);
      } else {
        out[d] = decoded.data[4 * i]!;
        out[d + 1] = decoded.data[4 * i + 1]!;
        out[d + 2] = decoded.data[4 * i + 2]!;
        if (channels === 4) out[d + 3] = data[d + 3]!;
      }
    }
    return { width: w, height: h, channels, data: out };
  }

  const lumaQ = quantTable(LUMA_QT, q);
  if (channels === 1) {
    const plane = new Float32Array(data);
    jpegPlane(plane, w, h, lumaQ);
    return { width: w, height: h, channels, data: toBytes(plane) };
  }
  const chromaQ = quantTable(CHROMA_QT, q);
  const n = w * h;
  const Y = new Float32Array(n);
  const cw = (w + 1) >> 1;
  const chh = (h + 1) >> 1;
  const Cb = new Float32Array(cw * chh);
  const Cr = new Float32Array(cw * chh);
  // Colour conversion (JFIF); chroma averaged over 2×2 (4:2:0).
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const s = (y * w + x) * channels;
      const r = data[s]!, g = data[s + 1]!, b = data[s + 2]!;
      Y[y * w + x] = 0.299 * r + 0.587 * g + 0.114 * b;
      const c = (y >> 1) * cw + (x >> 1);
      Cb[c]! += -0.168736 * r - 0.331264 * g + 0.5 * b;
      Cr[c]! += 0.5 * r - 0.418688 * g - 0.081312 * b;
    }
  }
  for (let cy = 0; cy < chh; cy++) {
    const rows = Math.min(2, h - 2 * cy);
    for (let cx = 0; cx < cw; cx++) {
      const cols = Math.min(2, w - 2 * cx);
      const c = cy * cw + cx;
      Cb[c] = Cb[c]! / (rows * cols) + 128;
      Cr[c] = Cr[c]! / (rows * cols) + 128;
    }
  }
  jpegPlane(Y, w, h, lumaQ);
  jpegPlane(Cb, cw, chh, chromaQ);
  jpegPlane(Cr, cw, chh, chromaQ);
  const out = new Uint8ClampedArray(data.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const d = (y * w + x) * channels;
      const c = (y >> 1) * cw + (x >> 1);
      const yy = Y[y * w + x]!;
      const cb = Cb[c]! - 128;
      const cr = Cr[c]! - 128;
      out[d] = yy + 1.402 * cr;
      out[d + 1] = yy - 0.344136 * cb - 0.714136 * cr;
      out[d + 2] = yy + 1.772 * cb;
      if (channels === 4) out[d + 3] = data[d + 3]!;
    }
  }
  return { width: w, height: h, channels, data: new Uint8Array(out.buffer) };
}

const LUMA_QT = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51,
  87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101,
  72, 92, 95, 98, 112, 100, 103, 99,
];
const CHROMA_QT = [
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99,
];

/** The IJG quality scaling, as jpeg-js and libjpeg do it; natural (row-major) order. */
function quantTable(base: readonly number[], quality: number): Float64Array {
  const sf = quality < 50 ? Math.floor(5000 / quality) : Math.floor(200 - quality * 2);
  const t = new Float64Array(64);
  for (let i = 0; i < 64; i++) t[i] = Math.min(255, Math.max(1, Math.floor((base[i]! * sf + 50) / 100)));
  return t;
}

/** DCT basis: DCT[u·8 + i] = c(u)·cos((2i + 1)uπ/16), orthonormal (so 2-D is JPEG's scaling). */
const DCT = (() => {
  const m = new Float64Array(64);
  for (let u = 0; u < 8; u++) {
    const c = u === 0 ? Math.sqrt(1 / 8) : Math.sqrt(2 / 8);
    for (let i = 0; i < 8; i++) m[u * 8 + i] = c * Math.cos(((2 * i + 1) * u * Math.PI) / 16);
  }
  return m;
})();

/**
 * JPEG's lossy part on one plane in place: values rounded to 8 bits, level
 * shifted, 8×8 forward DCT (edge blocks padded by repeating the last row and
 * column, as encoders do), quantised with `qt`, dequantised, inverse DCT.
 */
function jpegPlane(plane: Float32Array, w: number, h: number, qt: Float64Array): void {
  const block = new Float64Array(64);
  const tmp = new Float64Array(64);
  const inv = new Float64Array(64);
  for (let k = 0; k < 64; k++) inv[k] = 1 / qt[k]!;
  const q0 = qt[0]!;
  for (let by = 0; by < h; by += 8) {
    for (let bx = 0; bx < w; bx += 8) {
      const interior = bx + 8 <= w && by + 8 <= h;
      const first = byte(plane[by * w + bx]!);
      let flat = true;
      for (let j = 0; j < 8; j++) {
        const row = (interior ? by + j : Math.min(by + j, h - 1)) * w;
        for (let i = 0; i < 8; i++) {
          const v = byte(plane[row + (interior ? bx + i : Math.min(bx + i, w - 1))]!);
          if (v !== first) flat = false;
          block[j * 8 + i] = v - 128;
        }
      }
      let value = NaN;
      if (flat) {
        // Only the DC coefficient (8 × the level): quantise it directly.
        value = (Math.round((8 * (first - 128)) / q0) * q0) / 8 + 128;
      } else {
        dct2(block, tmp);
        block[0] = Math.round(block[0]! * inv[0]!) * q0;
        let ac = 0;
        for (let k = 1; k < 64; k++) {
          // Branch-free: the coefficients of a noisy block are zero or not at random.
          // Round half up through an integer conversion (|x| ≤ 1024 here), much cheaper than Math.round.
          const c = ((block[k]! * inv[k]! + 2048.5) | 0) - 2048;
          ac |= c;
          block[k] = c * qt[k]!;
        }
        if (ac === 0) value = block[0]! / 8 + 128;
        else idct2(block, tmp);
      }
      const ymax = Math.min(8, h - by);
      const xmax = Math.min(8, w - bx);
      if (Number.isNaN(value)) {
        for (let j = 0; j < ymax; j++) {
          const row = (by + j) * w + bx;
          for (let i = 0; i < xmax; i++) plane[row + i] = byte(block[j * 8 + i]! + 128);
        }
      } else {
        const v = byte(value);
        for (let j = 0; j < ymax; j++) {
          const row = (by + j) * w + bx;
          for (let i = 0; i < xmax; i++) plane[row + i] = v;
        }
      }
    }
  }
}

/** Rounded (half up) and clamped to 0…255. */
function byte(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : (v + 0.5) | 0;
}

/** 2-D forward DCT of an 8×8 block in place (rows, then columns; even/odd split). */
function dct2(b: Float64Array, tmp: Float64Array): void {
  for (let pass = 0; pass < 2; pass++) {
    const src = pass === 0 ? b : tmp;
    const dst = pass === 0 ? tmp : b;
    for (let r = 0; r < 8; r++) {
      // pass 0: rows of b → columns of tmp (transposed); pass 1 likewise, back to b in natural order.
      const o = r * 8;
      const s0 = src[o]! + src[o + 7]!, d0 = src[o]! - src[o + 7]!;
      const s1 = src[o + 1]! + src[o + 6]!, d1 = src[o + 1]! - src[o + 6]!;
      const s2 = src[o + 2]! + src[o + 5]!, d2 = src[o + 2]! - src[o + 5]!;
      const s3 = src[o + 3]! + src[o + 4]!, d3 = src[o + 3]! - src[o + 4]!;
      for (let u = 0; u < 8; u += 2) {
        const m = u * 8;
        dst[u * 8 + r] = DCT[m]! * s0 + DCT[m + 1]! * s1 + DCT[m + 2]! * s2 + DCT[m + 3]! * s3;
        const m1 = m + 8;
        dst[(u + 1) * 8 + r] = DCT[m1]! * d0 + DCT[m1 + 1]! * d1 + DCT[m1 + 2]! * d2 + DCT[m1 + 3]! * d3;
      }
    }
  }
}

/** 2-D inverse DCT of an 8×8 block in place. */
function idct2(b: Float64Array, tmp: Float64Array): void {
  for (let pass = 0; pass < 2; pass++) {
    const src = pass === 0 ? b : tmp;
    const dst = pass === 0 ? tmp : b;
    for (let r = 0; r < 8; r++) {
      const o = r * 8;
      const c0 = src[o]!, c1 = src[o + 1]!, c2 = src[o + 2]!, c3 = src[o + 3]!;
      const c4 = src[o + 4]!, c5 = src[o + 5]!, c6 = src[o + 6]!, c7 = src[o + 7]!;
      if (c1 === 0 && c2 === 0 && c3 === 0 && c4 === 0 && c5 === 0 && c6 === 0 && c7 === 0) {
        // Only the DC term of this row (common after quantisation): constant.
        const v = DCT[0]! * c0;
        for (let i = 0; i < 8; i++) dst[i * 8 + r] = v;
        continue;
      }
      for (let i = 0; i < 4; i++) {
        const e = DCT[i]! * c0 + DCT[16 + i]! * c2 + DCT[32 + i]! * c4 + DCT[48 + i]! * c6;
        const d = DCT[8 + i]! * c1 + DCT[24 + i]! * c3 + DCT[40 + i]! * c5 + DCT[56 + i]! * c7;
        dst[i * 8 + r] = e + d;
        dst[(7 - i) * 8 + r] = e - d;
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Pixel helpers (Float32 planes, values in gray levels)
// ---------------------------------------------------------------------------

function toGray(raster: Raster): Float32Array {
  const { width, height, channels, data } = raster;
  if (channels === 1) return new Float32Array(data);
  const n = width * height;
  const out = new Float32Array(n);
  for (let i = 0, s = 0; i < n; i++, s += channels) {
    const g = 0.299 * data[s]! + 0.587 * data[s + 1]! + 0.114 * data[s + 2]!;
    if (channels === 4) {
      const a = data[s + 3]! / 255;
      out[i] = g * a + 255 * (1 - a);
    } else {
      out[i] = g;
    }
  }
  return out;
}

function fitTo(raster: Raster, w: number, h: number): Raster {
  assertRaster(raster);
  return raster.width === w && raster.height === h ? raster : resizeArea(raster, w, h);
}

/** Rounds (half up) and clamps to bytes. */
function toBytes(plane: Float32Array): Uint8Array {
  const out = new Uint8Array(plane.length);
  for (let i = 0; i < plane.length; i++) {
    const v = plane[i]!;
    out[i] = v <= 0 ? 0 : v >= 255 ? 255 : (v + 0.5) | 0;
  }
  return out;
}

function finish(image: Raster, geometry: Geometry, applied: AppliedEffect[]): Degraded {
  return {
    image,
    geometry,
    warp: (x, y) => geometry.forward(x, y),
    width: image.width,
    height: image.height,
    applied,
  };
}

/** Mirrored left-right, then shifted by (dx, dy) with edges repeated. */
function mirrorShift(src: Float32Array, w: number, h: number, dx: number, dy: number): Float32Array {
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(h - 1, Math.max(0, y - dy));
    const row = sy * w;
    for (let x = 0; x < w; x++) {
      const sx = Math.min(w - 1, Math.max(0, w - 1 - x + dx));
      out[y * w + x] = src[row + sx]!;
    }
  }
  return out;
}

function applyLut(plane: Float32Array, lut: Float32Array): void {
  for (let i = 0; i < plane.length; i++) {
    let v = plane[i]!;
    v = v < 0 ? 0 : v > 255 ? 255 : v;
    const k = v | 0;
    const f = v - k;
    plane[i] = lut[k]! + (lut[k + 1]! - lut[k]!) * f;
  }
}

/** A table of standard normal samples, indexed by an inline xorshift: no per-pixel transcendental calls. */
const NOISE_BITS = 16;

function addNoise(plane: Float32Array, start: number, step: number, end: number, sigma: number, r: Rng): void {
  const size = 1 << NOISE_BITS;
  const table = new Float32Array(size);
  for (let i = 0; i < size; i++) table[i] = r.gaussian() * sigma;
  let s = r.int(1, 0x7fffffff) | 0;
  const mask = size - 1;
  for (let i = start; i < end; i += step) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    plane[i]! += table[s & mask]!;
  }
}

function fillEllipse(
  plane: Float32Array,
  w: number,
  h: number,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  level: number,
): void {
  const x0 = Math.max(0, Math.floor(cx - rx));
  const x1 = Math.min(w - 1, Math.ceil(cx + rx));
  const y0 = Math.max(0, Math.floor(cy - ry));
  const y1 = Math.min(h - 1, Math.ceil(cy + ry));
  for (let y = y0; y <= y1; y++) {
    const dy = (y + 0.5 - cy) / ry;
    for (let x = x0; x <= x1; x++) {
      const dx = (x + 0.5 - cx) / rx;
      if (dx * dx + dy * dy <= 1) {
        const o = y * w + x;
        if (plane[o]! > level) plane[o] = level;
      }
    }
  }
}

/** Gaussian blur, separable: exact kernel (±2.5σ) up to σ = 1.5, three box passes beyond. */
function gaussianBlur(plane: Float32Array, w: number, h: number, sigma: number): Float32Array {
  if (!(sigma > 0.05)) return plane;
  if (sigma > 1.5) {
    // Three box passes of width b have variance 3(b² − 1)/12 = σ².
    const r = Math.max(1, Math.round((Math.sqrt(4 * sigma * sigma + 1) - 1) / 2));
    return boxBlur(boxBlur(boxBlur(plane, w, h, r), w, h, r), w, h, r);
  }
  const r = Math.max(1, Math.ceil(2.5 * sigma));
  const kernel = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let k = -r; k <= r; k++) sum += kernel[k + r] = Math.exp(-(k * k) / (2 * sigma * sigma));
  for (let k = 0; k < kernel.length; k++) kernel[k]! /= sum;
  const tmp = new Float32Array(w * h);
  const padded = new Float32Array(w + 2 * r);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    padRow(plane, row, w, r, padded);
    for (let x = 0; x < w; x++) {
      let acc = 0;
      for (let k = 0; k < kernel.length; k++) acc += padded[x + k]! * kernel[k]!;
      tmp[row + x] = acc;
    }
  }
  const out = new Float32Array(w * h);
  const rows = new Int32Array(kernel.length);
  for (let y = 0; y < h; y++) {
    for (let k = -r; k <= r; k++) rows[k + r] = Math.min(h - 1, Math.max(0, y + k)) * w;
    const row = y * w;
    for (let x = 0; x < w; x++) {
      let acc = 0;
      for (let k = 0; k < rows.length; k++) acc += tmp[rows[k]! + x]! * kernel[k]!;
      out[row + x] = acc;
    }
  }
  return out;
}

/** Box blur of radius r (width 2r + 1), separable running sums, edges repeated. */
function boxBlur(plane: Float32Array, w: number, h: number, r: number): Float32Array {
  const size = 2 * r + 1;
  const inv = 1 / size;
  const tmp = new Float32Array(w * h);
  const padded = new Float32Array(w + 2 * r);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    padRow(plane, row, w, r, padded);
    let acc = 0;
    for (let k = 0; k < size; k++) acc += padded[k]!;
    for (let x = 0; x < w; x++) {
      tmp[row + x] = acc * inv;
      acc += padded[x + size]! - padded[x]!;
    }
  }
  const out = new Float32Array(w * h);
  const sums = new Float64Array(w);
  for (let k = -r; k <= r; k++) {
    const src = Math.min(h - 1, Math.max(0, k)) * w;
    for (let x = 0; x < w; x++) sums[x]! += tmp[src + x]!;
  }
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) out[row + x] = sums[x]! * inv;
    const add = Math.min(h - 1, y + r + 1) * w;
    const sub = Math.max(0, y - r) * w;
    for (let x = 0; x < w; x++) sums[x]! += tmp[add + x]! - tmp[sub + x]!;
  }
  return out;
}

function padRow(plane: Float32Array, row: number, w: number, r: number, padded: Float32Array): void {
  padded.set(plane.subarray(row, row + w), r);
  const first = plane[row]!;
  const last = plane[row + w - 1]!;
  for (let k = 0; k < r; k++) {
    padded[k] = first;
    padded[r + w + k] = last;
  }
}

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

function draw(r: Rng, range: Range): number {
  const [a, b] = range;
  return a === b ? a : r.range(Math.min(a, b), Math.max(a, b));
}

function merge<T extends object>(defaults: Readonly<T>, overrides: Overrides<T>): T {
  const out = { ...defaults } as Record<string, unknown>;
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const base = (defaults as Record<string, unknown>)[key];
    const isPlain = (v: unknown) => typeof v === 'object' && v !== null && !('data' in v) && !Array.isArray(v);
    out[key] = isPlain(base) && isPlain(value) ? { ...(base as object), ...(value as object) } : value;
  }
  return out as T;
}
