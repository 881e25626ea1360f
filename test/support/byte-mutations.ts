/**
 * Damage for fuzz tests of decoders: fast-check arbitraries that truncate,
 * flip bits, overwrite, insert, delete and copy bytes of a valid file.
 * Positions are fractions of the length, so one mutation applies to any seed
 * file; unbiased, since fast-check otherwise favours the edges (the first
 * bytes, which only exercise signature checks).
 */
import fc from 'fast-check';

export type Mutation = (bytes: Uint8Array) => Uint8Array;

const position = fc.noBias(fc.integer({ min: 0, max: 0xffff })).map((n) => n / 0x10000);
const at = (bytes: Uint8Array, f: number) => Math.floor(f * bytes.length);

/** One mutation; `special` are byte values the format's parser treats specially. */
export function byteMutation(special: readonly number[] = [0x00, 0xff, 0x7f, 0x80]): fc.Arbitrary<Mutation> {
  return fc.oneof(
    // Truncation.
    position.map((f) => (b: Uint8Array) => b.subarray(0, at(b, f))),
    // A flipped bit.
    fc.tuple(position, fc.integer({ min: 0, max: 7 })).map(([f, bit]) => (b: Uint8Array) => {
      const out = b.slice();
      if (out.length > 0) out[at(b, f)]! ^= 1 << bit;
      return out;
    }),
    // A byte set to a special value.
    fc.tuple(position, fc.constantFrom(...special)).map(([f, v]) => (b: Uint8Array) => {
      const out = b.slice();
      if (out.length > 0) out[at(b, f)] = v;
      return out;
    }),
    // Inserted bytes.
    fc.tuple(position, fc.uint8Array({ minLength: 1, maxLength: 16 })).map(([f, ins]) => (b: Uint8Array) => concat(b.subarray(0, at(b, f)), ins, b.subarray(at(b, f)))),
    // Deleted bytes.
    fc.tuple(position, fc.integer({ min: 1, max: 64 })).map(([f, n]) => (b: Uint8Array) => concat(b.subarray(0, at(b, f)), b.subarray(at(b, f) + n))),
    // A range copied over another.
    fc.tuple(position, position, fc.integer({ min: 1, max: 64 })).map(([from, to, n]) => (b: Uint8Array) => {
      const out = b.slice();
      out.set(b.subarray(at(b, from), at(b, from) + n).subarray(0, Math.max(0, out.length - at(b, to))), at(b, to));
      return out;
    }),
  );
}

/** One to three mutations in a row. */
export function byteMutations(special?: readonly number[]): fc.Arbitrary<Mutation[]> {
  return fc.array(byteMutation(special), { minLength: 1, maxLength: 3 });
}

export const applyMutations = (seed: Uint8Array, ms: readonly Mutation[]) => ms.reduce((b, m) => m(b), seed);

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let i = 0;
  for (const p of parts) {
    out.set(p, i);
    i += p.length;
  }
  return out;
}
