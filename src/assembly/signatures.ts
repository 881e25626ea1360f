/**
 * Clefs, key signatures and time-signature glyphs of one staff, in the order
 * they appear along it.
 *
 * A key signature is the run of sharps or flats that follows a clef (or a
 * barline) without a notehead to belong to; the accidentals it takes are
 * reported so that they are not read again as the accidentals of notes.
 */
import type { PageSight, SymbolsSeen } from '../reading/page-reading.js';
import type { Clef } from '../score/model.js';
import type { Staff } from '../staves/detect-staves.js';
import { accidentalPosition, BOTTOM_LINE, staffPosition } from '../staves/staff-geometry.js';
import { diatonicAt } from './clef-pitch.js';
import type { AccidentalSymbol, ClefSymbol, Head, TimeGlyph } from '../symbols/read-symbols.js';

export interface Placed<T> {
  x: number;
  value: T;
}

export interface StaffSignatures {
  clefs: Placed<Clef>[];
  keys: Placed<number>[];
  /** Time-signature glyph groups (one per signature), read by time-signature.ts. */
  times: Placed<TimeGlyph[]>[];
  /** Accidentals that belong to key signatures. */
  keyAccidentals: Set<AccidentalSymbol>;
  /** Between the opening clef and an opening time signature, where nothing but a key signature stands (key-area.ts). */
  keyArea?: { x0: number; x1: number };
}

/** `sight`, the page's, lets a clef change the model labelled only in part be measured whole. */
export function staffSignatures(staffIndex: number, staff: Staff, symbols: SymbolsSeen, barlineXs: readonly number[], space: number, sight?: PageSight): StaffSignatures {
  const mine = <T extends { staff: number; x0: number }>(list: readonly T[]) => list.filter((s) => s.staff === staffIndex).sort((a, b) => a.x0 - b.x0);
  // The model sometimes calls a stretch of a brace, or a bracket's hook, a C clef: one left of where the
  // staff begins, within a brace, is that; so is one within a space of the start with the staff's own
  // clef right after it (a clef's middle stands two spaces in).
  const misread = (c: ClefSymbol, i: number, all: readonly ClefSymbol[]) => {
    const x = (c.x0 + c.x1) / 2;
    const y = (c.y0 + c.y1) / 2;
    if (x < staff.x0 && symbols.braces.some((b) => x > b.x0 && x < b.x1 && y > b.y0 && y < b.y1)) return true;
    const next = all[i + 1];
    return i === 0 && !!next && x < staff.x0 + space && next.x0 - c.x1 < space * CLEF_PAIR_GAP;
  };
  const clefSymbols = mine(symbols.clefs)
    .filter((c, i, all) => !misread(c, i, all))
    .map((c, i) => (i === 0 ? c : asClefChange(sight ? wholeClef(c, sight, space) : c, staff, space)))
    .filter((c, i) => i === 0 || plausibleClef(c, staff, space));
  const clefs = clefSymbols.map((c) => ({ x: (c.x0 + c.x1) / 2, value: readClef(c, staff) }));
  const heads = mine(symbols.heads);
  // A time change must be clearly seen: amid the music, the model calls pieces of steep beams and
  // of crossing slurs time glyphs now and then, less sure of them than of a real signature.
  const times = groupTime(mine(symbols.time), space).filter(
    (t) => plausibleTime(t.value, staff) && (!heads.some((h) => h.x < t.x) || meanConfidence(t.value) >= TIME_CHANGE_CONFIDENCE),
  );
  const accidentals = mine(symbols.accidentals);
  const keyAccidentals = new Set<AccidentalSymbol>();
  const keys: Placed<number>[] = [];
  // Key signatures start after the opening clef, after a clef change, or just after a barline.
  const starts = [...clefSymbols.map((c) => c.x1), ...barlineXs.map((x) => x + space * KEY_AFTER_BARLINE)].sort((a, b) => a - b);
  if (!clefSymbols.length) starts.unshift(staff.x0 + space * KEY_WITHOUT_CLEF);
  const clefAt = (x: number): Clef => clefs.filter((c) => c.x < x).pop()?.value ?? clefs[0]?.value ?? { sign: 'G', line: 2 };
  const opening = clefSymbols[0]?.x1 ?? starts[0];
  for (const from of starts) {
    // The opening key is what follows the first clef; elsewhere a run must look like a key signature
    // (a chord's accidentals after a barline also stand in a row).
    const read = keyRun(accidentals, heads, from, times, space);
    const candidate = from === opening ? misreadNaturals(read, clefAt(from), staff, space) : read;
    // A reread accidental is still the symbol read: that one must not count again as a note's.
    if (candidate !== read) read.slice(0, candidate.length).forEach((a) => keyAccidentals.add(a));
    // The opening key is trusted as read, except for one trailing accidental out of order: a cautionary
    // accidental before the first note, standing where the next sharp or flat of the key would.
    const ordered = inKeyOrder(candidate, clefAt(from));
    let run = from !== opening ? ordered : ordered.length === candidate.length - 1 && ordered.length >= 2 ? ordered : candidate;
    // One accidental after a barline is far likelier a note's than a change to a one-sharp key; naturals
    // cancelling a key start where its first sharp or flat stood (a note's cautionary natural, in
    // parentheses, stands anywhere).
    if (!run.length || (from !== opening && run.length < 2 && run[0]!.kind !== 'natural')) continue;
    if (from !== opening && run[0]!.kind === 'natural' && !startsCancel(run[0]!, clefAt(from))) continue;
    run.forEach((a) => keyAccidentals.add(a));
    const x = run[0]!.x0;
    // Naturals cancel the old key; the new key's sharps or flats may follow them.
    if (run[0]!.kind === 'natural') {
      const after = inKeyOrder(keyRun(accidentals, heads, run[run.length - 1]!.x1, times, space), clefAt(from));
      after.forEach((a) => keyAccidentals.add(a));
      run = after;
    }
    keys.push({ x, value: !run.length ? 0 : run[0]!.kind === 'sharp' ? run.length : -run.length });
  }
  const clefX1 = clefSymbols[0]?.x1;
  const openingTime = clefX1 === undefined ? undefined : times.find((t) => t.x > clefX1);
  const timeX0 = openingTime && Math.min(...openingTime.value.map((g) => g.x0));
  const keyArea = clefX1 !== undefined && timeX0 !== undefined && !heads.some((h) => h.x > clefX1 && h.x < timeX0) ? { x0: clefX1, x1: timeX0 } : undefined;
  return { clefs, keys, times, keyAccidentals, ...(keyArea ? { keyArea } : {}) };
}

/** Least height, in spaces, of a clef (a change is drawn smaller than the opening clef, not tiny). */
const CLEF_MIN_HEIGHT: Record<ClefSymbol['kind'], number> = { G: 4.2, F: 2.2, C: 2.8, other: 1.8 };

/** A small G clef is at least this many spaces tall … */
const SMALL_G_HEIGHT = 4.5;
/** … its top above this staff position (within the top space: the model may leave out its tip), its foot past the bottom line. */
const SMALL_G_TOP = 1.5;
/** A small F clef's top stands within this many staff positions of the top line … */
const SMALL_F_TOP = 1;
/** … its foot between these staff positions (it covers the staff's upper three quarters) … */
const SMALL_F_BOTTOM: readonly [number, number] = [4.5, 7];
/** … and its ink's centre of gravity above this share of its height down (the curl makes it top-heavy). */
const SMALL_F_BALANCE = 0.5;

/**
 * Clef changes are engraved smaller, and the model often calls them "other"
 * (it learnt the clef-change glyphs under that class). Their shape tells:
 * a G clef reaches from above the staff to below it; an F clef hangs from
 * the top line over the upper three quarters, its curl making it top-heavy.
 */
function asClefChange(c: ClefSymbol, staff: Staff, space: number): ClefSymbol {
  if (c.kind !== 'other') return c;
  const x = (c.x0 + c.x1) / 2;
  const top = staffPosition(staff, x, c.y0);
  const bottom = staffPosition(staff, x, c.y1);
  // (The model may leave out the tip of a small G clef: it need only reach within the top space.)
  if (c.y1 - c.y0 >= SMALL_G_HEIGHT * space && top < SMALL_G_TOP && bottom > BOTTOM_LINE) return { ...c, kind: 'G' };
  if (Math.abs(top) < SMALL_F_TOP && bottom > SMALL_F_BOTTOM[0] && bottom < SMALL_F_BOTTOM[1] && c.balance < SMALL_F_BALANCE) return { ...c, kind: 'F' };
  return c;
}

/**
 * The model often labels only the middle of a small G clef (a change to
 * treble in a piano's left hand) as one: the clef's own ink gives its real
 * height.
 */
function wholeClef(c: ClefSymbol, sight: PageSight, space: number): ClefSymbol {
  if (c.kind !== 'G' || c.y1 - c.y0 >= CLEF_MIN_HEIGHT.G * space) return c;
  const ink = sight.clefInk(c);
  return ink ? { ...c, y0: Math.min(c.y0, ink.y0), y1: Math.max(c.y1, ink.y1) } : c;
}

/**
 * A clef after the opening one is a change, and the model sometimes sees one
 * in a dynamic or a word; a real one is big enough, sits across the staff's
 * middle and the model is sure of it.
 */
function plausibleClef(c: ClefSymbol, staff: Staff, space: number): boolean {
  // Nobody changes to a percussion clef in mid-staff; such a shape is something else.
  if (c.kind === 'other') return false;
  const x = (c.x0 + c.x1) / 2;
  const middle = staffPosition(staff, x, (c.y0 + c.y1) / 2);
  return c.y1 - c.y0 >= CLEF_MIN_HEIGHT[c.kind] * space && middle > 1 && middle < 7 && c.confidence >= 0.7;
}

/** Least mean model confidence of the glyphs of a time signature that changes the time amid a staff. */
const TIME_CHANGE_CONFIDENCE = 0.8;

function meanConfidence(glyphs: readonly TimeGlyph[]): number {
  return glyphs.reduce((sum, g) => sum + g.confidence, 0) / glyphs.length;
}

/** Time-signature glyphs stand on the staff, centred on its middle line, two spaces tall or more. */
function plausibleTime(glyphs: readonly TimeGlyph[], staff: Staff): boolean {
  const x0 = Math.min(...glyphs.map((g) => g.x0));
  const x1 = Math.max(...glyphs.map((g) => g.x1));
  const top = staffPosition(staff, (x0 + x1) / 2, Math.min(...glyphs.map((g) => g.y0)));
  const bottom = staffPosition(staff, (x0 + x1) / 2, Math.max(...glyphs.map((g) => g.y1)));
  return top < 2.5 && bottom > 5.5 && Math.abs((top + bottom) / 2 - 4) < 1.5;
}

/**
 * An opening key signature holds no naturals (a change's naturals stand at
 * the end of the system before): a natural right after the first clef is a
 * small flat or sharp misread, on a poor scan of tiny staves. It becomes
 * whichever of the two puts the run in key-signature order. Likewise a run
 * of sharps out of key order that is in order as flats is flats, and the
 * reverse.
 */
function misreadNaturals(run: AccidentalSymbol[], clef: Clef, staff: Staff, space: number): AccidentalSymbol[] {
  const as = (kind: 'flat' | 'sharp') => run.map((a) => ({ ...a, kind, position: accidentalPosition(staff, a, kind, space) }));
  const first = run[0]?.kind;
  if (first === 'sharp' || first === 'flat') {
    // A blurred flat the model called a sharp (or the reverse) stands where no key puts its kind
    // but exactly where a key of the other kind would.
    if (inKeyOrder(run, clef).length === run.length) return run;
    const other = as(first === 'sharp' ? 'flat' : 'sharp');
    return inKeyOrder(other, clef).length === run.length ? other : run;
  }
  if (first !== 'natural') return run;
  const flats = inKeyOrder(as('flat'), clef);
  const sharps = inKeyOrder(as('sharp'), clef);
  const best = flats.length >= sharps.length ? flats : sharps;
  return best.length ? best : run;
}

/** Order in which a key signature adds sharps (flats: the reverse), as steps C = 0 … B = 6. */
const SHARP_STEPS = [3, 0, 4, 1, 5, 2, 6];
const FLAT_STEPS = [...SHARP_STEPS].reverse();

/**
 * The longest start of a run whose accidentals stand on the steps a key
 * signature uses, in its order (F C G … for sharps, B E A … for flats).
 * Accidentals of the first chord after a barline sit in a row too, but not
 * on those steps.
 */
function inKeyOrder(run: AccidentalSymbol[], clef: Clef): AccidentalSymbol[] {
  if (!run.length) return run;
  const steps = run.map((a) => (((diatonicAt(clef, a.position) % 7) + 7) % 7));
  const orders = run[0]!.kind === 'sharp' ? [SHARP_STEPS] : run[0]!.kind === 'flat' ? [FLAT_STEPS] : [SHARP_STEPS, FLAT_STEPS];
  // A position may be read one step off (accidentals of a key signature touch and are cut apart).
  const near = (a: number, b: number) => Math.min((a - b + 7) % 7, (b - a + 7) % 7) <= 1;
  let best = 0;
  for (const order of orders) {
    let n = 0;
    while (n < steps.length && near(steps[n]!, order[n]!)) n++;
    best = Math.max(best, n);
  }
  return run.slice(0, best);
}

/** Whether a natural stands on the step of a key's first sharp (F) or first flat (B), as the first natural of a cancelled key does. */
function startsCancel(natural: AccidentalSymbol, clef: Clef): boolean {
  const step = ((diatonicAt(clef, natural.position) % 7) + 7) % 7;
  return step === SHARP_STEPS[0] || step === FLAT_STEPS[0];
}

function readClef(c: ClefSymbol, staff: Staff): Clef {
  const x = (c.x0 + c.x1) / 2;
  const top = staffPosition(staff, x, c.y0);
  const bottom = staffPosition(staff, x, c.y1);
  switch (c.kind) {
    case 'G':
      // A plain G clef reaches about one and a half spaces below the staff; with an 8 under it, a space more.
      if (bottom > 12.6) return { sign: 'G', line: 2, octaveChange: -1 };
      if (top < -4.6) return { sign: 'G', line: 2, octaveChange: 1 };
      return { sign: 'G', line: 2 };
    case 'F':
      // A plain F clef ends above the staff's second space from the bottom; an 8 under it (the
      // contrabassoon's, the double bass's) reaches past the staff, not far (a box reaching further
      // is the clef run together with something else).
      if (bottom > 7.5 && bottom < 10) return { sign: 'F', line: 4, octaveChange: -1 };
      return { sign: 'F', line: 4 };
    case 'C': {
      const centreLine = Math.round((top + bottom) / 4); // staff line index from the top, 0–4
      return { sign: 'C', line: Math.min(5, Math.max(1, 5 - centreLine)) };
    }
    default:
      return { sign: 'percussion', line: 3 };
  }
}

/** Time glyphs one above the other (numerator, denominator) or side by side (12) are one signature. */
function groupTime(glyphs: readonly TimeGlyph[], space: number): Placed<TimeGlyph[]>[] {
  const groups: TimeGlyph[][] = [];
  for (const g of glyphs) {
    const last = groups[groups.length - 1];
    if (last && g.x0 - Math.max(...last.map((l) => l.x1)) < space * TIME_GLYPH_GAP) last.push(g);
    else groups.push([g]);
  }
  return groups.map((g) => ({ x: Math.min(...g.map((l) => l.x0)), value: g }));
}

/** Distances from each accidental of a run to the next. */
function strides(run: readonly AccidentalSymbol[]): number[] {
  return run.slice(1).map((a, i) => a.x0 - run[i]!.x0);
}

/** A key signature's first accidental stands within this many spaces of where keys start … */
const KEY_FIRST_REACH = 2.2;
/** … each next one within this many spaces of the last one's right edge. */
const KEY_NEXT_REACH = 1.4;
/** A key accidental starts no more than this many spaces before where keys start. */
const KEY_START_SLACK = 0.3;
/** Sharps and flats of a key are at least this many spaces tall (a sliver cut off one is not another). */
const KEY_ACCIDENTAL_HEIGHT = 1.5;
/** An accidental with a head this close after it (from this far inside its right edge), at its pitch, is that note's. */
const NOTE_ACCIDENTAL_GAP = 0.8;
const NOTE_ACCIDENTAL_OVERLAP = 0.2;
/** A key's accidentals stand evenly: one further than this many times the widest stride so far (plus {@link KEY_STRIDE_SLACK} spaces) is not the key's. */
const KEY_STRIDE_SPREAD = 1.6;
const KEY_STRIDE_SLACK = 0.2;
/** Keys start this many spaces after a barline, and this far into a staff without a clef. */
const KEY_AFTER_BARLINE = 0.3;
const KEY_WITHOUT_CLEF = 3;
/** Time glyphs closer than this many spaces side by side are one signature (12 over 8). */
const TIME_GLYPH_GAP = 0.6;
/** An opening clef read where the staff begins, with another clef within this many spaces after it, is a misreading. */
const CLEF_PAIR_GAP = 2;

/**
 * Sharps or flats (or naturals cancelling a key) in a row from `from`, each
 * close to the previous one, before the first notehead, time signature or
 * anything else. An accidental right before a head at its pitch is that
 * note's, not the key's.
 */
function keyRun(accidentals: readonly AccidentalSymbol[], heads: readonly Head[], from: number, times: readonly Placed<TimeGlyph[]>[], space: number): AccidentalSymbol[] {
  const stopAt = Math.min(
    ...heads.filter((h) => h.x0 > from).map((h) => h.x0),
    ...times.filter((t) => t.x > from).map((t) => t.x),
  );
  const run: AccidentalSymbol[] = [];
  let reach = from + space * KEY_FIRST_REACH;
  for (const a of accidentals) {
    // A sliver the class map cut off a sharp or flat is not one more of them.
    if (a.x0 < from - space * KEY_START_SLACK || a.y1 - a.y0 < space * KEY_ACCIDENTAL_HEIGHT) continue;
    if (a.x0 > reach || a.x1 > stopAt) break;
    const kind = run[0]?.kind ?? a.kind;
    if (a.kind !== kind || a.kind === 'double-sharp' || a.kind === 'flat-flat') break;
    const ownsHead = heads.some((h) => h.x0 > a.x1 - space * NOTE_ACCIDENTAL_OVERLAP && h.x0 - a.x1 < space * NOTE_ACCIDENTAL_GAP && Math.abs(h.position - a.position) <= 1);
    if (ownsHead) break;
    // A key signature's accidentals stand evenly spaced; one further off (a cautionary accidental in
    // parentheses before the first note) is not part of it.
    const previous = run[run.length - 1];
    if (previous && run.length >= 2 && a.x0 - previous.x0 > Math.max(...strides(run)) * KEY_STRIDE_SPREAD + space * KEY_STRIDE_SLACK) break;
    run.push(a);
    reach = a.x1 + space * KEY_NEXT_REACH;
    if (run.length === 7) break;
  }
  return run;
}
