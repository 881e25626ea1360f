/**
 * The compression schemes of TIFF image data that `tiff.ts` reads itself:
 * PackBits, LZW, Deflate and the CCITT fax codes (Group 3, one- and
 * two-dimensional, and Group 4), which are what scanners and fax software
 * write bilevel pages with.
 *
 * Each decodes one strip or tile into a buffer of exactly the size the
 * strip's rows need, and returns how many bytes it filled; none reads past
 * its input or writes past its output, and each stops once its input or its
 * output is used up, so damaged data costs time in proportion to its size.
 * Damage they can tell is thrown as an Error saying what is wrong, which the
 * caller words for the user.
 */
import { Unzlib } from 'fflate';

// ---------------------------------------------------------------- PackBits

/** PackBits (Apple's byte-oriented run-length code). */
export function unpackBits(src: Uint8Array, out: Uint8Array): number {
  let i = 0;
  let o = 0;
  while (i < src.length && o < out.length) {
    const n = src[i++]!;
    if (n < 128) {
      const literal = src.subarray(i, i + n + 1).subarray(0, out.length - o);
      out.set(literal, o);
      i += n + 1;
      o += literal.length;
    } else if (n > 128) {
      const end = Math.min(o + 257 - n, out.length);
      if (i < src.length) out.fill(src[i++]!, o, end);
      o = end;
    }
    // 128 is a no-op.
  }
  return o;
}

// ---------------------------------------------------------------- LZW

const CLEAR = 256;
const END = 257;

/**
 * TIFF's LZW: codes of 9 to 12 bits, most significant bit first, widening a
 * code early (when the table is one short of the width's limit), as libtiff
 * writes them.
 */
export function inflateLzw(src: Uint8Array, out: Uint8Array): number {
  // Each table entry is a prefix entry plus one byte; strings are written backwards along the prefixes.
  const prefix = new Int16Array(4096);
  const last = new Uint8Array(4096);
  const first = new Uint8Array(4096);
  const length = new Uint16Array(4096);
  for (let i = 0; i < 256; i++) {
    last[i] = first[i] = i;
    length[i] = 1;
  }
  const bits = src.length * 8;
  let at = 0;
  let width = 9;
  let next = 258;
  let previous = -1;
  let o = 0;
  while (at + width <= bits && o < out.length) {
    const byte = at >>> 3;
    const window = (src[byte]! << 16) | ((src[byte + 1] ?? 0) << 8) | (src[byte + 2] ?? 0);
    const code = (window >>> (24 - width - (at & 7))) & ((1 << width) - 1);
    at += width;
    if (code === END) break;
    if (code === CLEAR) {
      width = 9;
      next = 258;
      previous = -1;
      continue;
    }
    if (previous < 0) {
      if (code > 255) throw new Error(`code ${code} follows a clear code`);
    } else {
      if (code > next) throw new Error(`code ${code} is not yet in the table`);
      // A full table stays as it is until the next clear code.
      if (next < 4096) {
        prefix[next] = previous;
        // The code just read is this new entry only when it is the previous string plus its own first byte.
        last[next] = first[code === next ? previous : code]!;
        first[next] = first[previous]!;
        length[next] = length[previous]! + 1;
        next++;
        if (next === (1 << width) - 1 && width < 12) width++;
      }
    }
    const n = length[code]!;
    for (let i = n - 1, c = code; i >= 0; i--, c = prefix[c]!) if (o + i < out.length) out[o + i] = last[c]!;
    o = Math.min(o + n, out.length);
    previous = code;
  }
  return o;
}

// ---------------------------------------------------------------- Deflate

/** Deflate in a zlib wrapper, fed in pieces so that output beyond what the strip holds is never produced. */
export function inflateDeflate(src: Uint8Array, out: Uint8Array): number {
  let o = 0;
  const inflater = new Unzlib((chunk) => {
    const take = Math.min(chunk.length, out.length - o);
    out.set(chunk.subarray(0, take), o);
    o += take;
  });
  const piece = 16 * 1024;
  for (let at = 0; at < src.length && o < out.length; at += piece) inflater.push(src.subarray(at, at + piece), at + piece >= src.length);
  return o;
}

// ---------------------------------------------------------------- CCITT Group 3 and 4

/** How rows are coded: Group 3 one-dimensional, Group 3 with two-dimensional rows allowed, Group 4. */
export type CcittScheme = 'g3' | 'g3-2d' | 'g4';

// The run-length codes of ITU-T T.4: terminating codes for runs of 0–63, make-up codes for 64–1728 in
// steps of 64, and the make-up codes for 1792–2560 that white and black share.
const WHITE_TERMINATING =
  '00110101 000111 0111 1000 1011 1100 1110 1111 10011 10100 00111 01000 001000 000011 110100 110101 101010 101011 0100111 0001100 0001000 0010111 0000011 0000100 0101000 0101011 0010011 0100100 0011000 00000010 00000011 00011010 00011011 00010010 00010011 00010100 00010101 00010110 00010111 00101000 00101001 00101010 00101011 00101100 00101101 00000100 00000101 00001010 00001011 01010010 01010011 01010100 01010101 00100100 00100101 01011000 01011001 01011010 01011011 01001010 01001011 00110010 00110011 00110100';
const BLACK_TERMINATING =
  '0000110111 010 11 10 011 0011 0010 00011 000101 000100 0000100 0000101 0000111 00000100 00000111 000011000 0000010111 0000011000 0000001000 00001100111 00001101000 00001101100 00000110111 00000101000 00000010111 00000011000 000011001010 000011001011 000011001100 000011001101 000001101000 000001101001 000001101010 000001101011 000011010010 000011010011 000011010100 000011010101 000011010110 000011010111 000001101100 000001101101 000011011010 000011011011 000001010100 000001010101 000001010110 000001010111 000001100100 000001100101 000001010010 000001010011 000000100100 000000110111 000000111000 000000100111 000000101000 000001011000 000001011001 000000101011 000000101100 000001011010 000001100110 000001100111';
const WHITE_MAKEUP =
  '11011 10010 010111 0110111 00110110 00110111 01100100 01100101 01101000 01100111 011001100 011001101 011010010 011010011 011010100 011010101 011010110 011010111 011011000 011011001 011011010 011011011 010011000 010011001 010011010 011000 010011011';
const BLACK_MAKEUP =
  '0000001111 000011001000 000011001001 000001011011 000000110011 000000110100 000000110101 0000001101100 0000001101101 0000001001010 0000001001011 0000001001100 0000001001101 0000001110010 0000001110011 0000001110100 0000001110101 0000001110110 0000001110111 0000001010010 0000001010011 0000001010100 0000001010101 0000001011010 0000001011011 0000001100100 0000001100101';
const SHARED_MAKEUP = '00000001000 00000001100 00000001101 000000010010 000000010011 000000010100 000000010101 000000010110 000000010111 000000011100 000000011101 000000011110 000000011111';

/** Longest code, in bits: the tables are indexed by the next this many bits. */
const PEEK = 13;

/**
 * A lookup of the next 13 bits: the run and the code's length (run × 16 +
 * length), or 0 where no code starts those bits.
 */
function runTable(terminating: string, makeup: string): Int32Array {
  const table = new Int32Array(1 << PEEK);
  const add = (codes: string, run0: number, step: number) =>
    codes.split(' ').forEach((code, i) => {
      const start = parseInt(code, 2) << (PEEK - code.length);
      table.fill(((run0 + i * step) << 4) | code.length, start, start + (1 << (PEEK - code.length)));
    });
  add(terminating, 0, 1);
  add(makeup, 64, 64);
  add(SHARED_MAKEUP, 1792, 64);
  return table;
}

const WHITE_RUNS = runTable(WHITE_TERMINATING, WHITE_MAKEUP);
const BLACK_RUNS = runTable(BLACK_TERMINATING, BLACK_MAKEUP);

const PASS = 8;
const HORIZONTAL = 9;
/** Two-dimensional mode codes, by the next 7 bits: the mode (a vertical offset −3…3, or PASS or HORIZONTAL) × 16 + length, or 0. */
const MODES = (() => {
  const table = new Int32Array(128);
  const codes: [string, number][] = [['1', 0], ['011', 1], ['010', -1], ['000011', 2], ['000010', -2], ['0000011', 3], ['0000010', -3], ['0001', PASS], ['001', HORIZONTAL]];
  for (const [code, mode] of codes) {
    const start = parseInt(code, 2) << (7 - code.length);
    // Vertical offsets are stored shifted by 3, to keep every entry non-zero.
    table.fill(((mode + 3) << 4) | code.length, start, start + (1 << (7 - code.length)));
  }
  return table;
})();

class BitReader {
  at = 0;
  readonly end: number;

  constructor(private readonly data: Uint8Array) {
    this.end = data.length * 8;
  }

  /** The next `n` (at most 16) bits, zeros past the end. */
  peek(n: number): number {
    const byte = this.at >>> 3;
    const window = ((this.data[byte] ?? 0) << 16) | ((this.data[byte + 1] ?? 0) << 8) | (this.data[byte + 2] ?? 0);
    return (window >>> (24 - n - (this.at & 7))) & ((1 << n) - 1);
  }

  skip(n: number): void {
    this.at += n;
    if (this.at > this.end) throw new Error('the data ends in the middle of a row');
  }
}

/**
 * Decodes `rows` rows of `width` pixels into `out`, packed eight pixels a
 * byte, most significant bit first, each row starting on a byte, and 1 for
 * black: the samples a TIFF with PhotometricInterpretation WhiteIsZero
 * holds. (A BlackIsZero file's encoder coded its 0 bits as the white runs,
 * so this gives its samples too.) Returns the bytes filled.
 */
export function inflateCcitt(src: Uint8Array, out: Uint8Array, width: number, rows: number, scheme: CcittScheme): number {
  const bits = new BitReader(src);
  const rowBytes = Math.ceil(width / 8);
  // Changing elements of the row above and of this row: where runs of black start and end; three
  // sentinels at the right edge end every search. The first row is coded against an all-white one.
  let above = new Int32Array(width + 8).fill(width);
  let current = new Int32Array(width + 8);
  for (let row = 0; row < rows; row++) {
    let count: number;
    if (scheme === 'g4') {
      count = twoDimensionalRow(bits, above, current, width);
    } else {
      const eol = skipEndOfLine(bits);
      // After an end-of-line code, two-dimensional Group 3 says which coding the row uses in one bit.
      const twoDimensional = scheme === 'g3-2d' && eol && bits.peek(1) === 0;
      if (scheme === 'g3-2d' && eol) bits.skip(1);
      count = twoDimensional ? twoDimensionalRow(bits, above, current, width) : oneDimensionalRow(bits, current, width);
    }
    current.fill(width, count, count + 3);
    const start = row * rowBytes;
    for (let i = 0; i < count; i += 2) blacken(out, start, current[i]!, current[i + 1]!);
    [above, current] = [current, above];
  }
  return rows * rowBytes;
}

/** One row as alternating white and black runs (Modified Huffman), starting white; returns the changing elements. */
function oneDimensionalRow(bits: BitReader, changes: Int32Array, width: number): number {
  let a = 0;
  let black = false;
  let count = 0;
  do {
    a += run(bits, black, width);
    if (a > width) throw new Error('a row is longer than the image');
    if (a < width) {
      if (count === width + 4) throw new Error('a row has more runs than pixels');
      changes[count++] = a;
    }
    black = !black;
  } while (a < width);
  return count;
}

/** One row coded against the row above (T.4 two-dimensional, T.6); returns the changing elements. */
function twoDimensionalRow(bits: BitReader, above: Int32Array, changes: Int32Array, width: number): number {
  // a0 starts on an imaginary white pixel left of the row.
  let a0 = -1;
  let black = 0;
  let k = 0;
  let count = 0;
  while (a0 < width) {
    // b1: the first changing element above, right of a0, that starts the colour a0 is not; b2 the next.
    while (above[k]! <= a0) k++;
    const b1 = (k & 1) === black ? k : k + 1;
    const entry = MODES[bits.peek(7)]!;
    if (entry === 0) throw new Error(bits.peek(12) === 1 ? 'a row ends early' : 'a mode code is invalid');
    bits.skip(entry & 15);
    const mode = (entry >> 4) - 3;
    if (count + 2 > width + 4) throw new Error('a row has more runs than pixels');
    if (mode === PASS) {
      a0 = above[b1 + 1]!;
    } else if (mode === HORIZONTAL) {
      const a1 = Math.max(a0, 0) + run(bits, black === 1, width);
      const a2 = a1 + run(bits, black === 0, width);
      if (a2 > width) throw new Error('a row is longer than the image');
      changes[count++] = a1;
      changes[count++] = a2;
      a0 = a2;
    } else {
      const a1 = above[b1]! + mode;
      if (a1 < Math.max(a0, 0) || a1 > width) throw new Error('a vertical code points outside the row');
      changes[count++] = a1;
      black ^= 1;
      a0 = a1;
    }
  }
  return count;
}

/** A run length: make-up codes, then a terminating code. */
function run(bits: BitReader, black: boolean, width: number): number {
  const table = black ? BLACK_RUNS : WHITE_RUNS;
  let total = 0;
  for (;;) {
    const entry = table[bits.peek(PEEK)]!;
    if (entry === 0) throw new Error(`a ${black ? 'black' : 'white'} run code is invalid`);
    bits.skip(entry & 15);
    total += entry >> 4;
    if (entry >> 4 < 64) return total;
    if (total > width) throw new Error('a row is longer than the image');
  }
}

/** Skips an end-of-line code (eleven or more 0 bits, as fill may add, then a 1) if one comes next; says whether one did. */
function skipEndOfLine(bits: BitReader): boolean {
  const start = bits.at;
  while (bits.at < bits.end && bits.peek(1) === 0) bits.at++;
  if (bits.at - start >= 11 && bits.at < bits.end) {
    bits.at++;
    return true;
  }
  bits.at = start;
  return false;
}

/** Sets pixels [from, to) of the row at `start` to 1. */
function blacken(out: Uint8Array, start: number, from: number, to: number): void {
  let x = from;
  for (; x < to && (x & 7) !== 0; x++) out[start + (x >> 3)]! |= 0x80 >> (x & 7);
  const whole = (to - x) >> 3;
  if (whole > 0) {
    out.fill(0xff, start + (x >> 3), start + (x >> 3) + whole);
    x += whole * 8;
  }
  for (; x < to; x++) out[start + (x >> 3)]! |= 0x80 >> (x & 7);
}
