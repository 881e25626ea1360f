/**
 * Exact rational numbers for musical time.
 *
 * Durations and offsets in the score model are fractions of a quarter note.
 * Tuplets (3:2, 5:4, 7:8 …) and dotted 64ths make any fixed tick resolution
 * either lossy or huge, so time is kept exact and MusicXML `<divisions>` are
 * derived only when a file is written.
 */
export interface Fraction {
  /** Numerator; carries the sign. */
  readonly n: number;
  /** Denominator, always a positive integer; the fraction is always reduced. */
  readonly d: number;
}

export function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

export function lcm(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : Math.abs((a / gcd(a, b)) * b);
}

/** Builds a reduced fraction; throws on a zero or non-integer denominator. */
export function frac(n: number, d = 1): Fraction {
  if (!Number.isSafeInteger(n) || !Number.isSafeInteger(d) || d === 0) {
    throw new RangeError(`invalid fraction ${n}/${d}`);
  }
  const g = gcd(n, d) || 1;
  const sign = d < 0 ? -1 : 1;
  // `+ 0` turns -0 into 0 so that equal fractions are also deep-equal.
  return { n: (sign * n) / g + 0, d: (sign * d) / g };
}

export const ZERO: Fraction = frac(0);

export function add(a: Fraction, b: Fraction): Fraction {
  return frac(a.n * b.d + b.n * a.d, a.d * b.d);
}

export function sub(a: Fraction, b: Fraction): Fraction {
  return frac(a.n * b.d - b.n * a.d, a.d * b.d);
}

export function mul(a: Fraction, b: Fraction): Fraction {
  return frac(a.n * b.n, a.d * b.d);
}

export function div(a: Fraction, b: Fraction): Fraction {
  return frac(a.n * b.d, a.d * b.n);
}

export function compare(a: Fraction, b: Fraction): number {
  return a.n * b.d - b.n * a.d;
}

export function equals(a: Fraction, b: Fraction): boolean {
  return a.n === b.n && a.d === b.d;
}

export function max(a: Fraction, b: Fraction): Fraction {
  return compare(a, b) >= 0 ? a : b;
}

export function toNumber(a: Fraction): number {
  return a.n / a.d;
}

export function toString(a: Fraction): string {
  return a.d === 1 ? `${a.n}` : `${a.n}/${a.d}`;
}
