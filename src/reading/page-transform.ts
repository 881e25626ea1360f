/**
 * Where the prepared page stands in the page the user gave: preparation
 * turns the decoded page straight, undoes a photo's lean and rescales it to
 * the canonical staff space. Every stage after it works in the prepared
 * page's pixels; these map a point back (for the boxes a score reports) and
 * forth.
 */
export interface PageTransform {
  /** Size of the decoded page. */
  sourceWidth: number;
  sourceHeight: number;
  /** Prepared pixels per source pixel. */
  scale: number;
  /** Skew of the source page in degrees (lines descending to the right are positive); undone in the prepared page. */
  skew: number;
  /**
   * Lean of upright strokes once the skew is undone (dx per dy; a photo taken at an angle), undone
   * in the prepared page too; absent for none.
   */
  shear?: number;
  /** Size of the prepared page. */
  width: number;
  height: number;
}

/** Maps a point of the prepared page back to the decoded page. */
export function toSourcePoint(t: PageTransform, x: number, y: number): [number, number] {
  const a = (t.skew * Math.PI) / 180;
  const cy = y - t.height / 2;
  const cx = x - t.width / 2 + (t.shear ?? 0) * cy;
  // The prepared page is the source rotated by −skew, sheared upright and scaled about the centres.
  const sx = (cx * Math.cos(a) - cy * Math.sin(a)) / t.scale;
  const sy = (cx * Math.sin(a) + cy * Math.cos(a)) / t.scale;
  return [sx + t.sourceWidth / 2, sy + t.sourceHeight / 2];
}

/** Maps a point of the decoded page into the prepared page (the inverse of {@link toSourcePoint}). */
export function toPreparedPoint(t: PageTransform, x: number, y: number): [number, number] {
  const a = (t.skew * Math.PI) / 180;
  const cx = (x - t.sourceWidth / 2) * t.scale;
  const cy = (y - t.sourceHeight / 2) * t.scale;
  const u = cx * Math.cos(a) + cy * Math.sin(a);
  const v = -cx * Math.sin(a) + cy * Math.cos(a);
  return [u - (t.shear ?? 0) * v + t.width / 2, v + t.height / 2];
}
