/**
 * The decoders that hand back RGBA (the WebAssembly ones, for every image)
 * keep the alpha channel only where it says something, since a page with a
 * constant alpha channel is just a third bigger.
 */
import type { Raster } from '../image/raster.js';

/** An RGBA image as a raster: RGB when every pixel is opaque, RGBA otherwise. */
export function rasterFromRgba(width: number, height: number, rgba: Uint8Array | Uint8ClampedArray): Raster {
  let opaque = true;
  for (let i = 3; i < rgba.length && opaque; i += 4) opaque = rgba[i] === 255;
  if (!opaque) return { width, height, channels: 4, data: new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.length) };
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, o = 0; i < rgba.length; i += 4, o += 3) {
    rgb[o] = rgba[i]!;
    rgb[o + 1] = rgba[i + 1]!;
    rgb[o + 2] = rgba[i + 2]!;
  }
  return { width, height, channels: 3, data: rgb };
}
