/**
 * The median of measurements taken on a page (ink runs, glyph heights, x positions), shared by the
 * vision and the music reader: the middle value, the upper of the two for an even count; undefined
 * for none.
 */
export function median(values: readonly number[]): number | undefined {
  return quantile(values, 0.5);
}

/** The value a share `q` of the measurements lie under (the median at 0.5, as above); undefined for none. */
export function quantile(values: readonly number[], q: number): number | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}
