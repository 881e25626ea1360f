/**
 * Everything read off one page, system by system, before it joins the
 * score: each system's staves and measures, and per staff its clefs, key and
 * time signatures and its strokes and rests with the accidentals in front of
 * their heads. Pitches and durations are settled later (build-score.ts),
 * when the clef, key and time in force from earlier pages are known.
 */
import type { TimeSignature } from '../score/model.js';
import type { Staff } from '../staves/detect-staves.js';
import type { StaffSystem } from '../staves/systems.js';
import type { AccidentalKind, AccidentalSymbol, Head, Mark, RestSymbol } from '../symbols/read-symbols.js';
import type { PageReading, PageSight, SymbolsSeen } from '../reading/page-reading.js';
import type { PageTransform } from '../reading/page-transform.js';
import type { MarkKind } from '../reading/mark-kinds.js';
import { systemMeasures, type SystemMeasures } from './measures.js';
import { systemEndings, type SystemEnding } from './voltas.js';
import { keysFromKeyArea } from './key-area.js';
import { staffSignatures, type Placed, type StaffSignatures } from './signatures.js';
import { buildStrokes, type StaffItem, type Stroke } from './strokes.js';
import { linkCurves, type CurveLink } from './curves.js';
import { attachArticulations } from './marks.js';
import type { Hairpin } from '../symbols/marks.js';
import type { OctaveLineSymbol } from '../symbols/octave-lines.js';
import { timeSignatureFrom } from './time-signature.js';

export interface StaffReading {
  staff: Staff;
  signatures: StaffSignatures;
  /** Time signatures read from the glyph groups (undefined where unreadable). */
  times: Placed<TimeSignature | undefined>[];
  /** Strokes and rests, left to right. */
  items: StaffItem[];
  /** x of the tuplet numbers and brackets over or under this staff. */
  tuplets: number[];
  /** Measures each multi-measure rest stands for, read from the number over it (absent: unreadable). */
  multiRests: Map<RestSymbol, number>;
  /** The accidental printed before a head. */
  accidentals: Map<Head, AccidentalKind>;
  /** Articulations, fermatas, ornaments and bowing on a stroke, as MusicXML names. */
  articulations: Map<Stroke, MarkKind[]>;
  /** Hairpins under or over this staff. */
  hairpins: Hairpin[];
  /** 8va and 8vb lines over or under this staff. */
  octaveLines: OctaveLineSymbol[];
}

export interface SystemReading {
  page: number;
  transform: PageTransform;
  staves: StaffReading[];
  /** Ranges [first, last] of staves (indices into `staves`) joined by a brace: one instrument. */
  braces: [number, number][];
  measures: SystemMeasures;
  /** Ties and slurs with the strokes they join. */
  curves: CurveLink[];
  /** First and second endings, by measure of the system. */
  endings: SystemEnding[];
  space: number;
}

/*
 * Distances the page reader uses, in staff spaces.
 */
/** An accidental belongs to a head from this far inside the head's left edge … */
const ACCIDENTAL_OVERLAP = 0.4;
/** … to this far left of it (a chord's accidentals stand in columns). */
const ACCIDENTAL_REACH = 4;
/** An accidental's staff position off its head's costs as much as this many spaces of distance. */
const ACCIDENTAL_POSITION_COST = 2;
/** A brace stands at most this far left of a staff's start, and no further right than one space into it. */
const BRACE_REACH = 4;
/** A tuplet number is the model's with at least this confidence … */
const TUPLET_CONFIDENCE = 0.75;
/** … at least this tall … */
const TUPLET_MIN_HEIGHT = 1.15;
/** … and, with its bracket, at most this wide. */
const TUPLET_MAX_WIDTH = 10;
/** A tuplet's bracket halves and number within this many spaces of each other are one mark. */
const TUPLET_PARTS = 2.5;
/** Time signatures on other staves of the system stand within this of a common-time C taken for whole notes. */
const TIME_ACROSS_STAVES = 1.5;
/** Time signatures on other staves stand within this of one that splits a measure. */
const TIME_SPLIT_ACROSS = 2;
/** A time signature further than this from its measure's start means a missed barline before it … */
const TIME_SPLIT_INSIDE = 4;
/** … unless it is the opening one, within this of the staff's start with nothing before it. */
const OPENING_SIGNATURES = 12;
/** The measure is split this far before the time signature. */
const TIME_SPLIT_BEFORE = 0.8;

export async function readPage({ page, transform, space, staves, systems, symbols, sight }: PageReading): Promise<SystemReading[]> {
  const items = buildStrokes(symbols, sight, space);
  // Marks go to the page's strokes all at once: one standing off its note may stand nearer the staff over its
  // own, that of the system above included.
  const chords = items.filter((i): i is Stroke => i.kind === 'chord' && i.x > staves[i.staff]!.x0 - space);
  const marks = attachArticulations(symbols.articulations, chords, space);
  return Promise.all(systems.map(async (system) => {
    const measures = systemMeasures(system.staves, staves, symbols.barlines, symbols.repeatDots, space, sight, symbols.heads);
    const inner = measures.bounds.slice(1, -1);
    const readings = await Promise.all(system.staves.map(async (index): Promise<StaffReading> => {
      const staff = staves[index]!;
      const signatures = staffSignatures(index, staff, symbols, inner, space, sight);
      const mine = items.filter((item) => item.staff === index && item.x > staff.x0 - space).sort((a, b) => a.x - b.x);
      return {
        staff,
        signatures,
        times: await Promise.all(signatures.times.map(async (t) => ({ x: t.x, value: timeSignatureFrom(await sight.printedTime(t.value, index)) }))),
        items: mine,
        multiRests: await multiRestCounts(symbols.rests.filter((r) => r.staff === index && (r.kind === 'multi' || r.kind === 'whole')), staff, index, sight),
        tuplets: mergeMarks(symbols.tuplets.filter((t) => t.staff === index && plausibleTuplet(t, space)).map((t) => t.x), space),
        articulations: new Map([...marks].filter(([stroke]) => stroke.staff === index)),
        hairpins: symbols.hairpins.filter((h) => h.staff === index),
        octaveLines: symbols.octaveLines.filter((o) => o.staff === index),
        accidentals: noteAccidentals(symbols.heads.filter((h) => h.staff === index), symbols.accidentals.filter((a) => a.staff === index && !signatures.keyAccidentals.has(a)), inner, space),
      };
    }));
    keysFromKeyArea(readings.map((r) => r.signatures), system.staves, sight, space);
    dropTimeGlyphHeads(readings, space);
    splitAtTimeSignatures(measures, readings, space);
    dropEmptyOpening(measures, readings);
    // A volta bracket ends at the system's last barline, before any courtesy signature: it is placed first.
    const placed = systemEndings(measures.bounds, symbols.voltas.filter((v) => system.staves.includes(v.staff)), space);
    dropCourtesyClosing(measures, readings);
    const lastMeasure = measures.bounds.length - 2;
    const endings = placed.filter((e) => e.first <= lastMeasure).map((e) => ({ ...e, last: Math.min(e.last, lastMeasure) }));
    const strokes = readings.flatMap((r) => r.items.filter((i): i is Stroke => i.kind === 'chord'));
    const curves = linkCurves(symbols.curves.filter((c) => system.staves.includes(c.staff)), strokes, space);
    return { page, transform, staves: readings, braces: braceRanges(system.staves, staves, symbols, space), measures, curves, endings, space };
  }));
}

/**
 * Each accidental goes to the nearest head to its right at its staff
 * position, in its own measure (`barlines`: their xs). In a chord,
 * accidentals stand in columns further left, so the reach is a few spaces; a
 * head takes at most one accidental.
 */
export function noteAccidentals(heads: readonly Head[], accidentals: readonly AccidentalSymbol[], barlines: readonly number[], space: number): Map<Head, AccidentalKind> {
  const result = new Map<Head, AccidentalKind>();
  const taken = new Set<Head>();
  const sorted = [...accidentals].sort((a, b) => b.x1 - a.x1);
  for (const accidental of sorted) {
    let best: Head | undefined;
    let bestScore = Infinity;
    for (const head of heads) {
      if (taken.has(head)) continue;
      const gap = head.x0 - accidental.x1;
      if (gap < -space * ACCIDENTAL_OVERLAP || gap > space * ACCIDENTAL_REACH) continue;
      if (barlines.some((x) => x > accidental.x1 && x < head.x0)) continue;
      const dp = Math.abs(head.position - accidental.position);
      if (dp > 1) continue;
      const score = gap + dp * space * ACCIDENTAL_POSITION_COST;
      if (score < bestScore) {
        bestScore = score;
        best = head;
      }
    }
    if (best) {
      taken.add(best);
      result.set(best, accidental.kind);
    }
  }
  return result;
}

/** Staves of a system a brace joins, as index ranges within the system. */
export function braceRanges(system: readonly number[], staves: readonly Staff[], symbols: SymbolsSeen, space: number): [number, number][] {
  const ranges: [number, number][] = [];
  for (const brace of symbols.braces) {
    // The staves it reaches over most of the height of.
    const covered = system.filter((index) => {
      const s = staves[index]!;
      const top = s.lines[0]![0]!;
      const bottom = s.lines[4]![0]!;
      return Math.min(bottom, brace.y1) - Math.max(top, brace.y0) > (bottom - top) * 0.6;
    });
    // A brace holds one instrument's staves: two (piano, harp) or three (organ). A longer one is a bracket
    // (where a scan's staff lines fade at their start, some of its staves seem to start further right).
    if (covered.length < 2 || covered.length > 3) continue;
    // It stands at their start.
    if (covered.some((index) => brace.x1 < staves[index]!.x0 - space * BRACE_REACH || brace.x0 > staves[index]!.x0 + space)) continue;
    ranges.push([system.indexOf(covered[0]!), system.indexOf(covered[covered.length - 1]!)]);
  }
  return ranges;
}

/**
 * A tuplet number stands over or under its group, at least a space tall,
 * and the model is sure of it; so is a bracket with its number joined on,
 * which spans a few notes. Scans are full of specks, and lyrics and hairpins
 * nearby, that the model calls tuplet marks with less certainty or that
 * are the wrong size; believed, they turn ordinary notes into triplets.
 */
function plausibleTuplet(mark: Mark, space: number): boolean {
  return mark.confidence >= TUPLET_CONFIDENCE && mark.y1 - mark.y0 >= space * TUPLET_MIN_HEIGHT && mark.x1 - mark.x0 <= space * TUPLET_MAX_WIDTH;
}

/** A tuplet's bracket halves and number are separate marks; within a few spaces they are one. */
function mergeMarks(xs: readonly number[], space: number): number[] {
  const groups: number[][] = [];
  for (const x of [...xs].sort((a, b) => a - b)) {
    const last = groups[groups.length - 1];
    if (last && x - last[last.length - 1]! < space * TUPLET_PARTS) last.push(x);
    else groups.push([x]);
  }
  return groups.map((g) => (g[0]! + g[g.length - 1]!) / 2);
}

/**
 * Measures each multi-measure rest stands for: the number printed over an
 * H-bar rest (read with the time-signature digit reader), or, for the
 * church-style rests LilyPond prints for short runs, the glyph's height — a
 * narrow block filling one space is a breve rest (two measures), two spaces a longa
 * (four). A plain whole rest is half a space tall and not counted.
 */
async function multiRestCounts(rests: readonly RestSymbol[], staff: Staff, staffIndex: number, sight: PageSight): Promise<Map<RestSymbol, number>> {
  const counts = new Map<RestSymbol, number>();
  for (const rest of rests) {
    if (rest.kind === 'whole') {
      const tall = (rest.y1 - rest.y0) / staff.space;
      // Church rests are narrow blocks; a whole rest is wider than it is tall.
      if ((rest.x1 - rest.x0) / staff.space > 0.9) continue;
      if (tall >= 1.6 && tall < 2.6) counts.set(rest, 4);
      else if (tall >= 0.85 && tall < 1.6) counts.set(rest, 2);
      continue;
    }
    const n = await sight.numberOver(rest, staffIndex);
    if (n !== undefined && n >= 2 && n <= 999) counts.set(rest, n);
  }
  return counts;
}

/**
 * The bowl of a common-time C the model did not see as such on one staff
 * (a horn's, with no key to set it apart) reads as a whole note or two.
 * Where the other staves of the system show their time signature at that
 * place, a stemless whole note there is the signature too.
 */
export function dropTimeGlyphHeads(readings: StaffReading[], space: number): void {
  const xs = readings.flatMap((r) => r.signatures.times.map((t) => t.x));
  const shown = (x: number) => xs.filter((t) => Math.abs(t - x) < space * TIME_ACROSS_STAVES).length >= Math.max(1, readings.length / 3);
  for (const reading of readings) {
    reading.items = reading.items.filter((i) => !(i.kind === 'chord' && i.up === undefined && i.heads.every((h) => h.kind === 'whole') && shown(i.x)));
  }
}

/**
 * A first "measure" with nothing in it on any staff is the clef, key and
 * time signature cut off by a stroke taken for a barline (a bracket's edge
 * on a photo, a signature's digit): it joins the measure after it.
 */
function dropEmptyOpening(measures: SystemMeasures, readings: readonly StaffReading[]): void {
  const first = measures.bounds[1]!;
  if (measures.bounds.length <= 2 || readings.some((r) => r.items.some((i) => i.x < first))) return;
  measures.bounds.splice(1, 1);
  measures.right.splice(0, 1);
  const [opening, next] = measures.left.splice(0, 2);
  measures.left.unshift(opening ?? next);
}

/**
 * A last "measure" with nothing in it on any staff but a key or time signature, on half the staves or
 * more, is the courtesy signature after a system's last barline, announcing the next system's: it joins
 * the measure before it, whose barline stays the system's last.
 */
export function dropCourtesyClosing(measures: SystemMeasures, readings: readonly StaffReading[]): void {
  const n = measures.bounds.length - 1;
  const last = measures.bounds[n - 1]!;
  if (n < 2 || readings.some((r) => r.items.some((i) => i.x > last))) return;
  const shown = readings.filter((r) => r.signatures.keys.some((k) => k.x > last) || r.times.some((t) => t.x > last)).length;
  if (!shown || shown < Math.ceil(readings.length / 2)) return;
  measures.bounds.splice(n - 1, 1);
  measures.right.splice(n - 1, 1);
  measures.left.splice(n - 1, 1);
}

/**
 * A time signature stands at the start of a measure. One found inside a
 * measure, away from its start, means the barline before it was missed:
 * the measure is split just before the signature (where most staves show it).
 */
function splitAtTimeSignatures(measures: SystemMeasures, readings: readonly StaffReading[], space: number): void {
  const xs = readings.flatMap((r) => r.times.filter((t) => t.value).map((t) => t.x)).sort((a, b) => a - b);
  for (const x of xs) {
    const shown = readings.filter((r) => r.times.some((t) => Math.abs(t.x - x) < space * TIME_SPLIT_ACROSS)).length;
    if (shown < Math.ceil(readings.length / 2)) continue;
    const m = measures.bounds.findIndex((b, i) => i < measures.bounds.length - 1 && x >= b && x < measures.bounds[i + 1]!);
    if (m < 0 || x - measures.bounds[m]! < space * TIME_SPLIT_INSIDE) continue;
    // The opening signature follows the clef and key at the staff's start: not a split.
    if (m === 0 && readings.some((r) => x < r.staff.x0 + space * OPENING_SIGNATURES && !r.items.some((i) => i.x < x))) continue;
    const at = x - space * TIME_SPLIT_BEFORE;
    measures.bounds.splice(m + 1, 0, at);
    measures.right.splice(m, 0, undefined);
    measures.left.splice(m + 1, 0, undefined);
  }
}
