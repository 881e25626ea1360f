/**
 * A lyric line read by OCR → syllables → the notes they are sung to.
 *
 * Syllables: the words read, cut where the print leaves a gap between
 * letters wider than a word space (OCR joins syllables it knows as a word:
 * "prin temps" → "printemps") and at hyphens; a hyphen between two
 * syllables makes them one word (begin, middle, end), an underscore run
 * after one is a melisma (extend). A verse number opening the line
 * ("1.", "2") is not sung.
 *
 * Assignment: syllables and notes both run left to right, so they are
 * aligned in order (a dynamic program), each syllable to the note whose
 * head it stands under — centred under it, or starting at it for a
 * syllable held over several notes. Notes without a syllable (melismas,
 * instrumental bars) are skipped freely; a syllable is dropped only when no
 * note is near it.
 */
import type { Lyric } from '../score/model.js';

/** A word as read, in page pixels, with its characters' extents when known. */
export interface LyricWord {
  text: string;
  x0: number;
  x1: number;
  symbols?: readonly { text: string; x0: number; x1: number }[];
}

export interface Syllable {
  text: string;
  x0: number;
  x1: number;
  syllabic: Lyric['syllabic'];
  extend: boolean;
}

/** A notehead's horizontal extent, in page pixels. */
export interface NoteSlot {
  x0: number;
  x1: number;
}

const HYPHENS = /^[-‐‑–—]+$/;
const EXTENDER = /^[_‗]+$/;
const VERSE_NUMBER = /^\d{1,2}[.)]?$/;

interface Piece {
  text: string;
  x0: number;
  x1: number;
}

/**
 * The syllables of a line, left to right. `cuts` are the x of the gaps in
 * the print wide enough to part syllables (see {@link syllableCuts}).
 */
export function splitSyllables(words: readonly LyricWord[], cuts: readonly number[] = []): Syllable[] {
  const pieces: (Piece | 'hyphen' | 'extend')[] = [];
  const sorted = [...words].sort((a, b) => a.x0 - b.x0);
  sorted.forEach((word, index) => {
    if (index === 0 && VERSE_NUMBER.test(word.text)) return;
    // A verse number read together with the first syllable ("1.To").
    if (index === 0) word = { ...word, text: word.text.replace(/^\d{0,2}[.)](?=\p{L})/u, '') };
    for (const piece of cutWord(word, cuts)) {
      // Hyphens and underscores inside a piece part it too: "son-nant", "me__".
      const parts = piece.text.split(/([-‐‑–—]+|[_‗]+)/).filter((p) => p.length);
      const span = piece.x1 - piece.x0;
      let at = 0;
      for (const part of parts) {
        const x0 = piece.x0 + (span * at) / piece.text.length;
        at += part.length;
        const x1 = piece.x0 + (span * at) / piece.text.length;
        if (HYPHENS.test(part)) pieces.push('hyphen');
        else if (EXTENDER.test(part)) pieces.push('extend');
        else pieces.push({ text: part, x0, x1 });
      }
    }
  });
  const syllables: Syllable[] = [];
  let hyphenBefore = false;
  for (const piece of pieces) {
    if (piece === 'hyphen') {
      hyphenBefore = syllables.length > 0;
      const last = syllables[syllables.length - 1];
      if (last) last.syllabic = last.syllabic === 'end' || last.syllabic === 'middle' ? 'middle' : 'begin';
      continue;
    }
    if (piece === 'extend') {
      const last = syllables[syllables.length - 1];
      if (last) last.extend = true;
      continue;
    }
    const last = syllables[syllables.length - 1];
    // Punctuation cut off a syllable (a comma, a full stop set apart) belongs to it.
    if (last && !hyphenBefore && !/[\p{L}\p{N}]/u.test(piece.text)) {
      last.text += piece.text;
      last.x1 = Math.max(last.x1, piece.x1);
      continue;
    }
    syllables.push({ text: piece.text, x0: piece.x0, x1: piece.x1, syllabic: hyphenBefore ? 'end' : 'single', extend: false });
    hyphenBefore = false;
  }
  return syllables;
}

/**
 * Where a line's print parts: the middle of every gap between its glyphs
 * (`spans`, the x-extents of its ink, left to right) at least `gap` wide.
 */
export function syllableCuts(spans: readonly (readonly [number, number])[], gap: number): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < spans.length; i++) {
    const left = spans[i - 1]![1];
    const right = spans[i]![0];
    if (right - left >= gap) cuts.push((left + right) / 2);
  }
  return cuts;
}

/**
 * A word cut at the gaps inside it, each cut falling between the two
 * characters whose boxes straddle it (OCR character boxes are rough; the
 * gaps come from the ink). Without character boxes, the whole word.
 */
function cutWord(word: LyricWord, cuts: readonly number[]): Piece[] {
  const symbols = word.symbols?.filter((s) => s.text.length) ?? [];
  const inside = cuts.filter((x) => x > word.x0 && x < word.x1);
  if (!inside.length || symbols.length < 2 || symbols.map((s) => s.text).join('') !== word.text) return [{ text: word.text, x0: word.x0, x1: word.x1 }];
  const boundary = (k: number) => (symbols[k - 1]!.x1 + symbols[k]!.x0) / 2;
  const splits = new Set<number>(); // a split before symbol k
  for (const x of inside) {
    let best = 1;
    for (let k = 2; k < symbols.length; k++) if (Math.abs(boundary(k) - x) < Math.abs(boundary(best) - x)) best = k;
    splits.add(best);
  }
  const pieces: Piece[] = [];
  let start = 0;
  for (let k = 1; k <= symbols.length; k++) {
    if (k < symbols.length && !splits.has(k)) continue;
    const run = symbols.slice(start, k);
    pieces.push({ text: run.map((s) => s.text).join(''), x0: run[0]!.x0, x1: Math.max(...run.map((s) => s.x1)) });
    start = k;
  }
  return pieces;
}

/**
 * Which note each syllable belongs to: `result[i]` is the index into
 * `notes` (sorted left to right) of syllable i's note, or -1. `reach` is
 * how far a syllable's anchor may stand from its notehead (a few staff
 * spaces).
 */
export function assignSyllables(syllables: readonly Syllable[], notes: readonly NoteSlot[], reach: number): number[] {
  const s = syllables.length;
  const n = notes.length;
  const distance = (i: number, j: number) => {
    const syllable = syllables[i]!;
    const note = notes[j]!;
    const centred = Math.abs((syllable.x0 + syllable.x1) / 2 - (note.x0 + note.x1) / 2);
    // A held syllable (a melisma follows) is set flush with its first note.
    return syllable.extend ? Math.min(centred, Math.abs(syllable.x0 - note.x0)) : centred;
  };
  // cost[i][j]: least cost of placing the first i syllables among the first j notes.
  const skip = reach;
  const cost = Array.from({ length: s + 1 }, () => new Float64Array(n + 1));
  const move = Array.from({ length: s + 1 }, () => new Uint8Array(n + 1)); // 0 skip note, 1 skip syllable, 2 match
  for (let i = 1; i <= s; i++) {
    cost[i]![0] = i * skip;
    move[i]![0] = 1;
  }
  for (let i = 1; i <= s; i++) {
    for (let j = 1; j <= n; j++) {
      let best = cost[i]![j - 1]!;
      let how = 0;
      if (cost[i - 1]![j]! + skip < best) {
        best = cost[i - 1]![j]! + skip;
        how = 1;
      }
      const d = distance(i - 1, j - 1);
      if (d <= reach && cost[i - 1]![j - 1]! + d < best) {
        best = cost[i - 1]![j - 1]! + d;
        how = 2;
      }
      cost[i]![j] = best;
      move[i]![j] = how;
    }
  }
  const result = new Array<number>(s).fill(-1);
  for (let i = s, j = n; i > 0; ) {
    const how = move[i]![j]!;
    if (how === 2) result[--i] = --j;
    else if (how === 1) i--;
    else j--;
  }
  return result;
}
