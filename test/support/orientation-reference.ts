/**
 * Exif orientation for tests, written independently of the library: Exif
 * blocks built byte by byte, and the upright image computed by composing a
 * quarter turn and mirrors the way the Exif specification describes each
 * orientation, rather than by the library's coordinate table.
 */
import type { Raster } from '../../src/image/raster.js';

/** A TIFF-structured Exif block whose first directory holds a Make tag and the orientation. */
export function exifTiff(orientation: number, options: { littleEndian?: boolean; type?: 3 | 4 } = {}): Uint8Array {
  const little = options.littleEndian ?? true;
  const type = options.type ?? 3;
  const out = new Uint8Array(8 + 2 + 2 * 12 + 4 + 4);
  const view = new DataView(out.buffer);
  out.set(little ? [0x49, 0x49] : [0x4d, 0x4d], 0);
  view.setUint16(2, 42, little);
  view.setUint32(4, 8, little);
  view.setUint16(8, 2, little);
  // Make (0x010F), ASCII, 4 bytes "Foo\0" stored in the entry.
  view.setUint16(10, 0x010f, little);
  view.setUint16(12, 2, little);
  view.setUint32(14, 4, little);
  out.set([0x46, 0x6f, 0x6f, 0], 18);
  // Orientation (0x0112), SHORT or LONG, 1 value.
  view.setUint16(22, 0x0112, little);
  view.setUint16(24, type, little);
  view.setUint32(26, 1, little);
  if (type === 3) view.setUint16(30, orientation, little);
  else view.setUint32(30, orientation, little);
  view.setUint32(34, 0, little); // no next directory
  return out;
}

/** The same block as JPEG's APP1 segment carries it, with its "Exif\0\0" header. */
export function exifApp1Payload(orientation: number, options?: { littleEndian?: boolean; type?: 3 | 4 }): Uint8Array {
  const tiff = exifTiff(orientation, options);
  const out = new Uint8Array(6 + tiff.length);
  out.set([0x45, 0x78, 0x69, 0x66, 0, 0]);
  out.set(tiff, 6);
  return out;
}

/** Inserts an APP1 Exif segment right after a JPEG's start-of-image marker. */
export function withExif(jpeg: Uint8Array, payload: Uint8Array): Uint8Array {
  const segment = new Uint8Array(4 + payload.length);
  segment.set([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  segment.set(payload, 4);
  const out = new Uint8Array(jpeg.length + segment.length);
  out.set(jpeg.subarray(0, 2));
  out.set(segment, 2);
  out.set(jpeg.subarray(2), 2 + segment.length);
  return out;
}

function pixelAt(r: Raster, x: number, y: number): Uint8Array {
  return r.data.subarray((y * r.width + x) * r.channels, (y * r.width + x + 1) * r.channels);
}

function build(width: number, height: number, channels: Raster['channels'], source: (x: number, y: number) => Uint8Array): Raster {
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(source(x, y), (y * width + x) * channels);
  return { width, height, channels, data };
}

export const mirror = (r: Raster): Raster => build(r.width, r.height, r.channels, (x, y) => pixelAt(r, r.width - 1 - x, y));
export const flip = (r: Raster): Raster => build(r.width, r.height, r.channels, (x, y) => pixelAt(r, x, r.height - 1 - y));
/** A quarter turn clockwise: the left column becomes the top row. */
export const turnClockwise = (r: Raster): Raster => build(r.height, r.width, r.channels, (x, y) => pixelAt(r, y, r.height - 1 - x));

/** What a viewer shows for a stored image with this Exif orientation (CIPA DC-008, tag 0x0112). */
export function viewerImage(stored: Raster, orientation: number): Raster {
  switch (orientation) {
    case 2:
      return mirror(stored);
    case 3:
      return turnClockwise(turnClockwise(stored));
    case 4:
      return flip(stored);
    case 5:
      return mirror(turnClockwise(stored));
    case 6:
      return turnClockwise(stored);
    case 7:
      return flip(turnClockwise(stored));
    case 8:
      return turnClockwise(turnClockwise(turnClockwise(stored)));
    default:
      return stored;
  }
}
