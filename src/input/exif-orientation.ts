/**
 * The Exif orientation tag: phones store photos as the sensor saw them and
 * record how the phone was held in this tag, leaving the turning to the
 * viewer. A score photographed in portrait arrives sideways without it.
 *
 * Only the first image directory (IFD0) is read, where the tag lives; the
 * parse is bounds-checked throughout and falls back to "upright" on anything
 * unexpected, because a damaged Exif block should not lose the photo.
 */

/** Exif orientations: 1 upright; 2–4 mirrored or upside down; 5–8 turned by a quarter, some mirrored. */
export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

const ORIENTATION_TAG = 0x0112;
const EXIF_HEADER = [0x45, 0x78, 0x69, 0x66, 0, 0]; // "Exif\0\0"

/**
 * The orientation in an Exif block: a TIFF structure, optionally prefixed by
 * the "Exif\0\0" header that JPEG's APP1 segment carries (and that some PNG
 * writers copy into eXIf chunks).
 */
export function exifOrientation(block: Uint8Array): Orientation {
  const tiff = EXIF_HEADER.every((b, i) => block[i] === b) ? block.subarray(EXIF_HEADER.length) : block;
  if (tiff.length < 8) return 1;
  let little: boolean;
  if (tiff[0] === 0x49 && tiff[1] === 0x49) little = true;
  else if (tiff[0] === 0x4d && tiff[1] === 0x4d) little = false;
  else return 1;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const u16 = (at: number) => view.getUint16(at, little);
  const u32 = (at: number) => view.getUint32(at, little);
  if (u16(2) !== 42) return 1;
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return 1;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + 12 * i;
    if (entry + 12 > tiff.length) break;
    if (u16(entry) !== ORIENTATION_TAG) continue;
    // The tag is a SHORT; a few writers use LONG. Either way the value sits in the entry itself.
    const type = u16(entry + 2);
    const value = type === 3 ? u16(entry + 8) : type === 4 ? u32(entry + 8) : 0;
    return value >= 1 && value <= 8 ? (value as Orientation) : 1;
  }
  return 1;
}
