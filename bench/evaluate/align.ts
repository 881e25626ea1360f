/**
 * Weighted sequence alignment: the longest common subsequence generalised to
 * pairs of different worth (Needleman–Wunsch with zero gap cost).
 *
 * The evaluator aligns a recognised staff with the true one. Gaps are free
 * because a missing or extra note (or a whole missing measure) is already
 * paid for by precision and recall; penalising it again would only make the
 * alignment prefer wrong pairs over honest gaps.
 *
 * Staves of a long movement hold thousands of notes, so the full table is
 * never kept: Hirschberg's divide and conquer finds the split point of the
 * optimal path from two linear-space passes and recurses, and only blocks
 * small enough are solved directly with a byte-per-cell traceback. Time is
 * O(n·m) (about twice one pass), memory O(n + m + DIRECT_CELLS).
 */

/**
 * Worth of pairing `a` with `b`: 0 (or less) forbids the pair, and a larger
 * value is a better pair. Integer scores keep the sums exact.
 */
export type PairScore<A, B> = (a: A, b: B) => number;

/** Matched index pairs `[i, j]` (a[i] with b[j]), increasing in both indices. */
export type Alignment = Array<[number, number]>;

/** Largest block (cells) solved with a full traceback table: 4 MiB of moves. */
const DIRECT_CELLS = 1 << 22;

const SKIP_A = 0;
const SKIP_B = 1;
const PAIR = 2;

/**
 * The alignment of `a` and `b` whose pairs have the greatest total score,
 * every pair scoring above 0. Among equally good alignments one is chosen
 * deterministically.
 */
export function align<A, B>(a: readonly A[], b: readonly B[], score: PairScore<A, B>): Alignment {
  const pairs: Alignment = [];
  solve({ a, b, score }, 0, a.length, 0, b.length, pairs);
  return pairs;
}

interface Problem<A, B> {
  a: readonly A[];
  b: readonly B[];
  score: PairScore<A, B>;
}

/** Appends the optimal pairs of a[a0, a1) × b[b0, b1) to `out`, in order. */
function solve<A, B>(p: Problem<A, B>, a0: number, a1: number, b0: number, b1: number, out: Alignment): void {
  const n = a1 - a0;
  const m = b1 - b0;
  if (n === 0 || m === 0) return;
  if (n === 1 || n * m <= DIRECT_CELLS) {
    solveDirect(p, a0, a1, b0, b1, out);
    return;
  }
  // The optimal path crosses row `mid` at the column where the best prefix
  // score (top half) plus the best suffix score (bottom half) is greatest.
  const mid = a0 + (n >> 1);
  const prefix = prefixRow(p, a0, mid, b0, b1);
  const suffix = suffixRow(p, mid, a1, b0, b1);
  let split = 0;
  for (let k = 1; k <= m; k++) {
    if (prefix[k]! + suffix[k]! > prefix[split]! + suffix[split]!) split = k;
  }
  solve(p, a0, mid, b0, b0 + split, out);
  solve(p, mid, a1, b0 + split, b1, out);
}

/** row[k] = best score of a[a0, a1) against b[b0, b0 + k). */
function prefixRow<A, B>({ a, b, score }: Problem<A, B>, a0: number, a1: number, b0: number, b1: number): Float64Array {
  const m = b1 - b0;
  const row = new Float64Array(m + 1);
  for (let i = a0; i < a1; i++) {
    const x = a[i]!;
    let diagonal = 0; // the previous row's value at k - 1
    for (let k = 1; k <= m; k++) {
      const above = row[k]!;
      let best = above > row[k - 1]! ? above : row[k - 1]!;
      const s = score(x, b[b0 + k - 1]!);
      if (s > 0 && diagonal + s > best) best = diagonal + s;
      diagonal = above;
      row[k] = best;
    }
  }
  return row;
}

/** row[k] = best score of a[a0, a1) against b[b0 + k, b1): prefixRow run backwards. */
function suffixRow<A, B>({ a, b, score }: Problem<A, B>, a0: number, a1: number, b0: number, b1: number): Float64Array {
  const m = b1 - b0;
  const row = new Float64Array(m + 1);
  for (let i = a1 - 1; i >= a0; i--) {
    const x = a[i]!;
    let diagonal = 0; // the previous row's value at k + 1
    for (let k = m - 1; k >= 0; k--) {
      const below = row[k]!;
      let best = below > row[k + 1]! ? below : row[k + 1]!;
      const s = score(x, b[b0 + k]!);
      if (s > 0 && diagonal + s > best) best = diagonal + s;
      diagonal = below;
      row[k] = best;
    }
  }
  return row;
}

/** Plain dynamic programming with a traceback table, for small blocks. */
function solveDirect<A, B>({ a, b, score }: Problem<A, B>, a0: number, a1: number, b0: number, b1: number, out: Alignment): void {
  const n = a1 - a0;
  const m = b1 - b0;
  const moves = new Uint8Array(n * m);
  let previous = new Float64Array(m + 1);
  let current = new Float64Array(m + 1);
  for (let i = 0; i < n; i++) {
    const x = a[a0 + i]!;
    for (let k = 1; k <= m; k++) {
      const above = previous[k]!;
      const left = current[k - 1]!;
      let best = above >= left ? above : left;
      let move = above >= left ? SKIP_A : SKIP_B;
      const s = score(x, b[b0 + k - 1]!);
      if (s > 0 && previous[k - 1]! + s > best) {
        best = previous[k - 1]! + s;
        move = PAIR;
      }
      current[k] = best;
      moves[i * m + k - 1] = move;
    }
    [previous, current] = [current, previous];
  }
  const found: Alignment = [];
  for (let i = n, k = m; i > 0 && k > 0; ) {
    const move = moves[(i - 1) * m + k - 1];
    if (move === PAIR) found.push([a0 + i - 1, b0 + k - 1]);
    if (move !== SKIP_B) i--;
    if (move !== SKIP_A) k--;
  }
  for (let f = found.length - 1; f >= 0; f--) out.push(found[f]!);
}
