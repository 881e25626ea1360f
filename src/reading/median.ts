/**
 * The median of measurements taken on a page (ink runs, glyph heights, x positions), shared by the
 * vision and the music reader: the middle value, the upper of the two for an even count; undefined
 * for none.
 */
export function median(values: readonly number[]): number | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}
