/**
 * Bounds every score reader applies to what it accepts, so hostile or broken
 * files cannot make a reader slow or its numbers overflow. Real music stays
 * far inside them.
 */

/** Most dots on one note; engravers stop at four, and each dot doubles the denominator. */
export const MAX_DOTS = 8;
/**
 * Most notes in one chord; the corpora reach nine. Chord notes are inserted in
 * pitch order, in time quadratic in their number.
 */
export const MAX_CHORD_NOTES = 64;
/** Highest verse number kept; lyrics beyond it are dropped. */
export const MAX_VERSES = 100;
/** Longest multi-measure rest accepted. */
export const MAX_MULTI_REST = 10_000;
