import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/image/raster.js';
import {
  DEFAULT_SCAN_OPTIONS,
  Geometry,
  applyGeometry,
  degradePhoto,
  degradeScan,
  jpegRoundTrip,
  warpMask,
  type Degraded,
} from '../../training/data/degrade.js';
import { staffLikePage } from '../../training/data/staff-like-page.js';

const W = 300;
const H = 400;

/** A white page with staff-like lines and note-like blobs, deterministic. */
const musicPage = (w = W, h = H): Raster => staffLikePage(w, h);

/** A white page with one black square covering pixels [x0, x0+size) × [y0, y0+size). */
function squarePage(x0: number, y0: number, size: number, w = W, h = H): Raster {
  const data = new Uint8Array(w * h).fill(255);
  for (let y = y0; y < y0 + size; y++) for (let x = x0; x < x0 + size; x++) data[y * w + x] = 0;
  return { width: w, height: h, channels: 1, data };
}

function toChannels(page: Raster, channels: 3 | 4): Raster {
  const n = page.width * page.height;
  const data = new Uint8Array(n * channels);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) data[i * channels + c] = page.data[i]!;
    if (channels === 4) data[i * 4 + 3] = 255;
  }
  return { ...page, channels, data };
}

/** Mean over channels at pixel i. */
function gray(r: Raster, i: number): number {
  let s = 0;
  for (let c = 0; c < r.channels; c++) s += r.data[i * r.channels + c]!;
  return s / r.channels;
}

function mean(r: Raster): number {
  let s = 0;
  for (const v of r.data) s += v;
  return s / r.data.length;
}

/** Centroid (pixel-centre coordinates) of where `withMark` is darker than `blank` by at least half the largest difference. */
function darkeningCentroid(blank: Raster, withMark: Raster): [number, number] {
  const n = blank.width * blank.height;
  const diff = new Float64Array(n);
  let max = 0;
  for (let i = 0; i < n; i++) {
    diff[i] = gray(blank, i) - gray(withMark, i);
    max = Math.max(max, diff[i]!);
  }
  expect(max).toBeGreaterThan(40);
  let sx = 0;
  let sy = 0;
  let sw = 0;
  for (let i = 0; i < n; i++) {
    if (diff[i]! < max / 2) continue;
    const wgt = diff[i]!;
    sx += wgt * ((i % blank.width) + 0.5);
    sy += wgt * (Math.floor(i / blank.width) + 0.5);
    sw += wgt;
  }
  return [sx / sw, sy / sw];
}

/** Centre (pixel-centre coordinates) of the darkest `k × k` window. */
function darkestWindow(r: Raster, k: number): [number, number] {
  let best = Infinity;
  let bx = 0;
  let by = 0;
  for (let y = 0; y + k <= r.height; y++) {
    for (let x = 0; x + k <= r.width; x++) {
      let s = 0;
      for (let j = 0; j < k; j++) for (let i = 0; i < k; i++) s += gray(r, (y + j) * r.width + x + i);
      if (s < best) {
        best = s;
        bx = x;
        by = y;
      }
    }
  }
  return [bx + k / 2, by + k / 2];
}

function maskCentroid(mask: Raster, value: number): [number, number] {
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let i = 0; i < mask.data.length; i++) {
    if (mask.data[i] !== value) continue;
    sx += (i % mask.width) + 0.5;
    sy += Math.floor(i / mask.width) + 0.5;
    n++;
  }
  expect(n).toBeGreaterThan(0);
  return [sx / n, sy / n];
}

function distance(a: readonly [number, number], b: readonly [number, number]): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

function sameBytes(a: Degraded, b: Degraded): boolean {
  return a.image.data.length === b.image.data.length && a.image.data.every((v, i) => v === b.image.data[i]);
}

const ALWAYS = { p: 1 };
const NEVER = { p: 0 };
/** Every photometric scan effect off: only the skew moves pixels. */
const SCAN_GEOMETRY_ONLY = {
  bleedThrough: NEVER,
  blur: NEVER,
  contrast: NEVER,
  noise: NEVER,
  speckle: NEVER,
  binarise: NEVER,
  jpeg: NEVER,
  skew: ALWAYS,
};
/** Photo geometry always on, light and colour effects off, a light table so the square is the darkest thing. */
const PHOTO_GEOMETRY_ONLY = {
  curl: ALWAYS,
  perspective: ALWAYS,
  table: { level: [230, 230] as const },
  lighting: NEVER,
  shadow: NEVER,
  blur: NEVER,
  lowRes: NEVER,
  tint: NEVER,
  noise: NEVER,
  jpeg: NEVER,
};

describe('determinism', () => {
  const page = musicPage();

  it('the same seed gives identical bytes, for scans and photos', () => {
    for (const seed of [0, 1, 12345, 0xffffffff]) {
      expect(sameBytes(degradeScan(page, seed), degradeScan(page, seed))).toBe(true);
      expect(sameBytes(degradePhoto(page, seed), degradePhoto(page, seed))).toBe(true);
      expect(degradePhoto(page, seed).applied).toEqual(degradePhoto(page, seed).applied);
    }
  });

  it('different seeds give different images', () => {
    const scans = [1, 2, 3, 4, 5].map((seed) => degradeScan(page, seed));
    const photos = [1, 2, 3, 4, 5].map((seed) => degradePhoto(page, seed));
    for (let i = 0; i < 5; i++) {
      for (let j = i + 1; j < 5; j++) {
        expect(sameBytes(scans[i]!, scans[j]!)).toBe(false);
        expect(sameBytes(photos[i]!, photos[j]!)).toBe(false);
      }
    }
  });

  it('does not read Math.random or the clock', () => {
    const source = readFileSync(new URL('../../training/data/degrade.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/Math\.random|Date\.now|new Date|performance\.now/);
  });

  it('does not modify its input', () => {
    const a = musicPage();
    const before = a.data.slice();
    degradeScan(a, 7, { bleedThrough: ALWAYS, speckle: ALWAYS });
    degradePhoto(a, 7);
    expect(a.data).toEqual(before);
  });
});

describe('output sizes and channels', () => {
  const page = musicPage();

  it('scans are 1-channel gray at the input size, whatever the input channels', () => {
    for (const input of [page, toChannels(page, 3), toChannels(page, 4)]) {
      for (const seed of [1, 2, 3]) {
        const d = degradeScan(input, seed);
        expect(d.image.channels).toBe(1);
        expect([d.image.width, d.image.height, d.width, d.height]).toEqual([W, H, W, H]);
        expect(d.image.data.length).toBe(W * H);
        expect([d.geometry.width, d.geometry.height]).toEqual([W, H]);
      }
    }
  });

  it('gray, RGB and opaque RGBA inputs of the same page degrade alike', () => {
    const a = degradeScan(page, 9).image.data;
    const b = degradeScan(toChannels(page, 3), 9).image.data;
    const c = degradeScan(toChannels(page, 4), 9).image.data;
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff = Math.max(diff, Math.abs(a[i]! - b[i]!), Math.abs(a[i]! - c[i]!));
    expect(diff).toBeLessThanOrEqual(2);
  });

  it('photos are 3-channel RGB at the input size', () => {
    for (const input of [page, toChannels(page, 3), toChannels(page, 4)]) {
      for (const seed of [1, 2, 3]) {
        const d = degradePhoto(input, seed, { lowRes: { upscale: 1 } });
        expect(d.image.channels).toBe(3);
        expect([d.image.width, d.image.height, d.width, d.height]).toEqual([W, H, W, H]);
        expect(d.image.data.length).toBe(W * H * 3);
      }
    }
  });

  it('a photo downscaled without the upscale back is smaller, and its geometry says so', () => {
    const d = degradePhoto(page, 4, { ...PHOTO_GEOMETRY_ONLY, curl: NEVER, perspective: NEVER, lowRes: { p: 1, scale: [0.5, 0.5], upscale: 0 } });
    expect([d.width, d.height]).toEqual([W / 2, H / 2]);
    expect([d.image.width, d.image.height, d.image.channels]).toEqual([W / 2, H / 2, 3]);
    expect([d.geometry.srcWidth, d.geometry.srcHeight, d.geometry.width, d.geometry.height]).toEqual([W, H, W / 2, H / 2]);
    expect(d.warp(W, H)).toEqual([W / 2, H / 2]);
    expect(d.warp(100, 60)).toEqual([50, 30]);
  });

  it('photos have a warm or cool cast when tinted', () => {
    const d = degradePhoto(squarePage(0, 0, 1), 3, { ...PHOTO_GEOMETRY_ONLY, curl: NEVER, perspective: NEVER, tint: { p: 1, strength: [0.1, 0.1] } });
    const [r, , b] = [0, 1, 2].map((c) => d.image.data[(200 * W + 150) * 3 + c]!);
    expect(Math.abs(r! - b!)).toBeGreaterThan(15);
  });
  it('tiny and odd-sized pages work with every effect on', () => {
    const scanAll = { bleedThrough: ALWAYS, skew: ALWAYS, blur: ALWAYS, contrast: ALWAYS, noise: ALWAYS, speckle: ALWAYS, binarise: ALWAYS, jpeg: ALWAYS };
    const photoAll = { curl: ALWAYS, perspective: ALWAYS, lighting: ALWAYS, shadow: ALWAYS, blur: ALWAYS, lowRes: { p: 1, upscale: 0 }, tint: ALWAYS, noise: ALWAYS, jpeg: ALWAYS };
    for (const [w, h] of [[1, 1], [2, 3], [7, 5], [33, 17]] as const) {
      const page = toChannels(squarePage(0, 0, 1, w, h), 3);
      const scan = degradeScan(page, 5, scanAll);
      expect([scan.image.width, scan.image.height, scan.image.channels]).toEqual([w, h, 1]);
      const photo = degradePhoto(page, 5, photoAll);
      expect(photo.image.channels).toBe(3);
      expect(photo.image.data.length).toBe(photo.width * photo.height * 3);
      expect(photo.width).toBeLessThanOrEqual(w);
    }
  });
});

describe('skew', () => {
  const page = musicPage();

  function angleDegrees(d: Degraded): number {
    const [ax, ay] = d.warp(0, 0);
    const [bx, by] = d.warp(W, 0);
    const [cx, cy] = d.warp(0, H);
    const top = (Math.atan2(by - ay, bx - ax) * 180) / Math.PI;
    const left = (Math.atan2(-(cx - ax), cy - ay) * 180) / Math.PI;
    expect(top).toBeCloseTo(left, 9); // a rotation: both edges turn alike
    return top;
  }

  it('stays within ±3°, even when the options ask for more, and uses the range', () => {
    const angles: number[] = [];
    for (let seed = 0; seed < 40; seed++) {
      angles.push(angleDegrees(degradeScan(page, seed, { ...SCAN_GEOMETRY_ONLY, skew: { p: 1, maxDegrees: 20 } })));
      angles.push(angleDegrees(degradeScan(page, seed)));
    }
    for (const a of angles) expect(Math.abs(a)).toBeLessThanOrEqual(3 + 1e-9);
    expect(Math.max(...angles)).toBeGreaterThan(2);
    expect(Math.min(...angles)).toBeLessThan(-2);
  });

  it('rotates about the centre and keeps the page corners at their distance from it', () => {
    const d = degradeScan(page, 5, SCAN_GEOMETRY_ONLY);
    const [cx, cy] = d.warp(W / 2, H / 2);
    expect(cx).toBeCloseTo(W / 2, 9);
    expect(cy).toBeCloseTo(H / 2, 9);
    const [x, y] = d.warp(0, 0);
    expect(Math.hypot(x - W / 2, y - H / 2)).toBeCloseTo(Math.hypot(W / 2, H / 2), 9);
    expect(Math.abs(angleDegrees(d))).toBeGreaterThan(0);
  });

  it('is skipped when its probability is 0 (identity geometry)', () => {
    const d = degradeScan(page, 5, { skew: NEVER });
    expect(d.geometry.isIdentity).toBe(true);
    expect(d.warp(17.5, 33.25)).toEqual([17.5, 33.25]);
  });

  it('fills the uncovered corners white', () => {
    const black: Raster = { width: W, height: H, channels: 1, data: new Uint8Array(W * H) };
    const d = degradeScan(black, 2, { ...SCAN_GEOMETRY_ONLY, skew: { p: 1, maxDegrees: 3 } });
    expect(Math.abs(angleDegrees(d))).toBeGreaterThan(0.5);
    const corners = [0, W - 1, (H - 1) * W, H * W - 1].map((i) => d.image.data[i]);
    expect(corners).toEqual([255, 255, 255, 255]);
    expect(d.image.data[(H / 2) * W + W / 2]).toBe(0);
  });
});

describe('geometry', () => {
  it('a homography takes the four corners exactly where asked', () => {
    const from = [[0, 0], [W, 0], [W, H], [0, H]] as const;
    const to = [[12.5, -7], [W - 20, 15], [W + 9, H - 3], [-4, H + 11]] as const;
    const g = Geometry.homography(W, H, W, H, from, to);
    for (let k = 0; k < 4; k++) {
      const [x, y] = g.forward(from[k]![0], from[k]![1]);
      expect(x).toBeCloseTo(to[k]![0], 6);
      expect(y).toBeCloseTo(to[k]![1], 6);
      const [u, v] = g.inverse(to[k]![0], to[k]![1]);
      expect(u).toBeCloseTo(from[k]![0], 6);
      expect(v).toBeCloseTo(from[k]![1], 6);
    }
  });

  it('inverse undoes forward through curl, perspective and rescaling', () => {
    for (let seed = 0; seed < 10; seed++) {
      const d = degradePhoto(musicPage(), seed, { curl: ALWAYS, perspective: ALWAYS, lowRes: { p: 1, upscale: 0.5 } });
      for (const [x, y] of [[0, 0], [W, H], [150.5, 200.25], [290, 10], [5, 390], [W * 0.9, H / 2]] as const) {
        const [u, v] = d.geometry.forward(x, y);
        const [bx, by] = d.geometry.inverse(u, v);
        expect(bx).toBeCloseTo(x, 6);
        expect(by).toBeCloseTo(y, 6);
      }
    }
  });

  it('a page curl bends lines on one side only and keeps the other side fixed', () => {
    const g = Geometry.curl(W, H, { side: 'right', start: 0.5, amplitude: 10, compression: 0.05 });
    expect(g.forward(10, 100)).toEqual([10, 100]);
    expect(g.forward(W / 2, 100)).toEqual([W / 2, 100]);
    const [x, y] = g.forward(W, 100);
    expect(y).toBeCloseTo(110, 9);
    expect(x).toBeCloseTo(W - 0.05 * (W / 2), 9);
    const left = Geometry.curl(W, H, { side: 'left', start: 0.5, amplitude: 10, compression: 0 });
    expect(left.forward(0, 100)[1]).toBeCloseTo(110, 9);
    expect(left.forward(W, 100)).toEqual([W, 100]);
  });

  it('forwardBox bounds the warped box', () => {
    const d = degradePhoto(musicPage(), 3, { curl: ALWAYS, perspective: ALWAYS });
    const [x0, y0, x1, y1] = d.geometry.forwardBox(100, 120, 180, 160);
    for (const [x, y] of [[100, 120], [180, 160], [140, 140], [100, 160]] as const) {
      const [u, v] = d.warp(x, y);
      expect(u).toBeGreaterThanOrEqual(x0 - 1e-9);
      expect(u).toBeLessThanOrEqual(x1 + 1e-9);
      expect(v).toBeGreaterThanOrEqual(y0 - 1e-9);
      expect(v).toBeLessThanOrEqual(y1 + 1e-9);
    }
  });

  it('rejects composing geometries of different sizes and rasters of the wrong size', () => {
    expect(() => Geometry.identity(10, 10).then(Geometry.identity(11, 10))).toThrow();
    expect(() => applyGeometry(musicPage(), Geometry.identity(10, 10), 'nearest')).toThrow();
  });
});

describe('the image moves where the geometry says', () => {
  const x0 = 170;
  const y0 = 90;
  const size = 12;
  const centre = [x0 + size / 2, y0 + size / 2] as const;
  const withSquare = squarePage(x0, y0, size);
  const blank = squarePage(0, 0, 0);

  it('scans, with all their effects: the square darkens the output around warp(centre)', () => {
    for (let seed = 0; seed < 12; seed++) {
      const options = { skew: ALWAYS };
      const a = degradeScan(withSquare, seed, options);
      const b = degradeScan(blank, seed, options);
      expect(distance(darkeningCentroid(b.image, a.image), a.warp(...centre))).toBeLessThan(0.6);
    }
  });

  it('scans, geometry only: the darkest region is at warp(centre)', () => {
    for (let seed = 0; seed < 6; seed++) {
      const d = degradeScan(withSquare, seed, SCAN_GEOMETRY_ONLY);
      expect(distance(darkestWindow(d.image, size), d.warp(...centre))).toBeLessThanOrEqual(2);
    }
  });

  it('photos, with all their effects: the square darkens the output around warp(centre)', () => {
    for (let seed = 0; seed < 12; seed++) {
      const options = { curl: ALWAYS, perspective: { p: 1, maxShift: 0.08 } };
      const a = degradePhoto(withSquare, seed, options);
      const b = degradePhoto(blank, seed, options);
      expect(distance(darkeningCentroid(b.image, a.image), a.warp(...centre))).toBeLessThan(0.6);
    }
  });

  it('photos, geometry only: the darkest region is at warp(centre), and the square really moved', () => {
    let moved = 0;
    for (let seed = 0; seed < 6; seed++) {
      const d = degradePhoto(withSquare, seed, PHOTO_GEOMETRY_ONLY);
      const target = d.warp(...centre);
      moved = Math.max(moved, distance(target, centre));
      expect(distance(darkestWindow(d.image, size), target)).toBeLessThanOrEqual(2);
    }
    expect(moved).toBeGreaterThan(5);
  });

  it('photos show a darker table outside the page', () => {
    const d = degradePhoto(blank, 1, { ...PHOTO_GEOMETRY_ONLY, curl: NEVER, perspective: { p: 1, inset: [0.1, 0.1], maxShift: 0 }, table: { level: [80, 80] } });
    expect(gray(d.image, 2 * W + 2)).toBe(80);
    expect(gray(d.image, (H / 2) * W + W / 2)).toBe(255);
  });
});

describe('warpMask', () => {
  const x0 = 140;
  const y0 = 250;
  const size = 14;
  const centre = [x0 + size / 2, y0 + size / 2] as const;

  function labelledMask(): Raster {
    const data = new Uint8Array(W * H);
    for (let y = 60; y < 64; y++) for (let x = 20; x < W - 20; x++) data[y * W + x] = 3;
    for (let y = y0; y < y0 + size; y++) for (let x = x0; x < x0 + size; x++) data[y * W + x] = 7;
    return { width: W, height: H, channels: 1, data };
  }

  it('keeps only class values of the input (nearest neighbour) and moves the square with the image', () => {
    const mask = labelledMask();
    const page = squarePage(x0, y0, size);
    const blank = squarePage(0, 0, 0);
    for (let seed = 0; seed < 10; seed++) {
      const options = { curl: ALWAYS, perspective: ALWAYS, lowRes: { p: 0.5, upscale: 0.5 } };
      const d = degradePhoto(page, seed, options);
      const warped = warpMask(mask, d);
      expect([warped.width, warped.height, warped.channels]).toEqual([d.width, d.height, 1]);
      expect(new Set(warped.data)).toEqual(new Set([0, 3, 7]));
      const labelled = maskCentroid(warped, 7);
      expect(distance(labelled, d.warp(...centre))).toBeLessThan(0.75);
      const imaged = darkeningCentroid(degradePhoto(blank, seed, options).image, d.image);
      expect(distance(labelled, imaged)).toBeLessThan(1);
    }
  });

  it('works for scans, and a bilinear warp of the same mask would have blended classes', () => {
    const mask = labelledMask();
    const d = degradeScan(squarePage(x0, y0, size), 3, { skew: { p: 1, maxDegrees: 3 } });
    const warped = warpMask(mask, d.geometry);
    expect(new Set(warped.data)).toEqual(new Set([0, 3, 7]));
    expect(distance(maskCentroid(warped, 7), d.warp(...centre))).toBeLessThan(0.75);
    const blended = applyGeometry(mask, d.geometry, 'bilinear', 0);
    expect(new Set(blended.data).size).toBeGreaterThan(3);
  });

  it('fills outside the page with the fill class and rejects multi-channel masks', () => {
    const d = degradePhoto(musicPage(), 1, { ...PHOTO_GEOMETRY_ONLY, curl: NEVER, perspective: { p: 1, inset: [0.1, 0.1], maxShift: 0 } });
    const warped = warpMask(labelledMask(), d, 9);
    expect(warped.data[0]).toBe(9);
    expect(new Set(warped.data)).toEqual(new Set([0, 3, 7, 9]));
    expect(() => warpMask(toChannels(labelledMask(), 3), d)).toThrow();
  });
});

describe('JPEG round trip', () => {
  const page = musicPage();

  it('changes bytes but keeps the mean intensity, and loses more at lower quality', () => {
    const errors: number[] = [];
    for (const quality of [40, 65, 90]) {
      const out = jpegRoundTrip(page, quality);
      expect([out.width, out.height, out.channels]).toEqual([W, H, 1]);
      expect(out.data).not.toEqual(page.data);
      expect(Math.abs(mean(out) - mean(page))).toBeLessThan(1.5);
      let err = 0;
      for (let i = 0; i < out.data.length; i++) err += Math.abs(out.data[i]! - page.data[i]!);
      errors.push(err / out.data.length);
    }
    expect(errors[0]).toBeGreaterThan(errors[2]!);
  });

  it('the fast DCT codec agrees with a real jpeg-js encode and decode', () => {
    for (const quality of [40, 75]) {
      const fast = jpegRoundTrip(page, quality, 'dct');
      const real = jpegRoundTrip(page, quality, 'jpeg-js');
      expect(real.data).not.toEqual(page.data);
      let diff = 0;
      for (let i = 0; i < fast.data.length; i++) diff += Math.abs(fast.data[i]! - real.data[i]!);
      expect(diff / fast.data.length).toBeLessThan(0.5);
    }
  });

  it('colour pages keep their channels and mean', () => {
    const rgb = degradePhoto(page, 2, { jpeg: NEVER, noise: NEVER }).image;
    for (const codec of ['dct', 'jpeg-js'] as const) {
      const out = jpegRoundTrip(rgb, 50, codec);
      expect(out.channels).toBe(3);
      expect(out.data).not.toEqual(rgb.data);
      expect(Math.abs(mean(out) - mean(rgb))).toBeLessThan(1.5);
    }
  });

  it('is what the scan pipeline applies when JPEG is its only effect', () => {
    const off = Object.fromEntries(Object.keys(DEFAULT_SCAN_OPTIONS).filter((k) => k !== 'backside').map((k) => [k, NEVER]));
    const d = degradeScan(page, 11, { ...off, jpeg: { p: 1, quality: [55, 55] } });
    expect(d.applied).toEqual([{ effect: 'jpeg', quality: 55, codec: 'dct' }]);
    expect(d.image.data).toEqual(jpegRoundTrip(page, 55).data);
  });
});

describe('scan effects', () => {
  it('bleed-through uses the backside when given', () => {
    const page = squarePage(0, 0, 0);
    const backside = squarePage(20, 30, 40);
    const only = { ...SCAN_GEOMETRY_ONLY, skew: NEVER, bleedThrough: { p: 1, strength: [0.2, 0.2] as const, maxShift: 0 } };
    const d = degradeScan(page, 1, { ...only, backside });
    // Mirrored: the square's columns 20…59 show at columns W-60…W-21.
    expect(d.image.data[50 * W + (W - 40)]!).toBeLessThan(235);
    expect(d.image.data[50 * W + 40]).toBe(255);
    expect(degradeScan(page, 1, only).image.data.every((v) => v === 255)).toBe(true);
  });

  it('binarisation leaves only black and white', () => {
    const d = degradeScan(musicPage(), 4, { binarise: ALWAYS, jpeg: NEVER, speckle: NEVER });
    expect(new Set(d.image.data)).toEqual(new Set([0, 255]));
  });
});
