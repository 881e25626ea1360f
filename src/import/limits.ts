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

/**
 * Largest MusicXML or MEI document read, in bytes, whether uploaded or
 * inflated from an .mxl. The largest orchestral scores in the corpora are a
 * few megabytes; a whole opera in one file stays below 64 MiB.
 */
export const MAX_XML_BYTES = 64 * 1024 * 1024;

/** Most an .mxl archive's score file may inflate to; inflating stops as soon as it is exceeded. */
export const MAX_MXL_SCORE_BYTES = MAX_XML_BYTES;

/**
 * Most XML elements in one document. MusicXML spends some 30 bytes an
 * element, so a 24 MB score holds about 800,000; each costs the parsed tree
 * some 150 bytes, so this bounds the tree at about 300 MB however small the
 * elements are.
 */
export const MAX_XML_ELEMENTS = 2_000_000;

/** Most parts in one score; the largest orchestral and choral scores have about a hundred staves. */
export const MAX_SCORE_PARTS = 1_000;

/**
 * Most measures over all parts (parts × measures): a 1,000-measure symphony
 * in 40 parts has 40,000, a whole opera in one file a few times that.
 */
export const MAX_SCORE_MEASURES = 250_000;

/** Most notes, rests and chord notes over the whole score; a symphony has about 100,000. */
export const MAX_SCORE_NOTES = 1_000_000;
