/**
 * The notation metric: an edit-distance error rate over everything printed,
 * in the manner of OMR-NED (musicdiff's notation edit distance, as Legato and
 * copista-evidence report it), and per-element precision and recall.
 *
 * Each measure of a part becomes a sequence of items in reading order —
 * staff by staff, then by onset: clef, key and time changes, directions
 * (dynamics, hairpins, words, metronome marks, pedal, rehearsal marks),
 * strokes (notes, chords, rests), and the measure's barlines. Each item is a
 * bag of symbols, every one of which a reader can get right or wrong on its
 * own: a chord is its heads' pitches, their printed accidentals and ties,
 * the stroke's type, dots, tuplet, beams per level, stem, voice (where a
 * staff holds several), slurs, articulations, ornaments, grace and lyrics.
 *
 * The cost of pairing two items is the size of the symmetric difference of
 * their bags; an item left unpaired costs all its symbols. Items within a
 * measure are aligned by edit distance, and the measures of a part likewise
 * (within a band, as a missed measure shifts the rest by one). Parts pair up
 * by index, as the note evaluator pairs staves. The error rate is the total
 * cost divided by the symbols of both scores, so an empty reading, or one
 * that shares nothing with the truth, scores 100 %, and a perfect one 0 %.
 *
 * How it differs from musicdiff's OMR-NED: musicdiff compares music21
 * objects with its own costs (a note's insertion costs 1 plus its attributes,
 * a pitch change 1); here every symbol of a pair costs 1 on each side that
 * has it, so a changed pitch costs 2 against the symbols of both scores. The
 * ratio is bounded and comparable between documents, but it is not the same
 * number, and figures published with musicdiff are put beside ours as a
 * reference only.
 */
import { add, compare, ZERO, type Fraction } from '../../src/score/fraction.js';
import type { Barline, Direction, Measure, NoteEvent, Part, Pitch, Score, VoiceEvent } from '../../src/score/model.js';

/** Element classes with their own precision and recall. */
export const ELEMENT_CLASSES = [
  'notes',
  'rests',
  'accidentals',
  'durations',
  'ties',
  'beams',
  'stems',
  'voices',
  'slurs',
  'articulations',
  'ornaments',
  'fermatas',
  'dynamics',
  'hairpins',
  'words',
  'metronome',
  'pedal',
  'repeats',
  'voltas',
  'barlines',
  'tuplets',
  'grace',
  'lyrics',
  'clefs',
  'keys',
  'times',
  'rehearsal',
] as const;

export type ElementClass = (typeof ELEMENT_CLASSES)[number];

/** One symbol: its class and what it says, e.g. `ties` / `tie:C#4`. */
interface Symbol {
  cls: ElementClass;
  key: string;
}

/** A bag of symbols at one place of a measure. */
export interface Item {
  staff: number;
  onset: Fraction;
  /** Orders items at the same onset: attributes, directions, strokes, barlines. */
  rank: number;
  /** Tie-break among strokes: voice, then lowest pitch. */
  order: number;
  symbols: Symbol[];
  /** Short wording for the report. */
  label: string;
  /** The symbols' `class|key` strings, sorted: pairs are costed by merging these. */
  sorted?: string[];
}

export interface ElementCount {
  matched: number;
  predicted: number;
  truth: number;
}

export interface NotationMetrics {
  /** Edit cost over the alignment. */
  edits: number;
  /** Symbols of both scores: the most the cost can be. */
  symbols: number;
  /** edits / symbols (0 when both scores are empty). */
  errorRate: number;
  elements: Record<ElementClass, ElementCount>;
}

/** Edits found in one measure, for people. */
export interface MeasureEdits {
  part: number;
  /** Measure index in the truth, or in the prediction for a measure only it has. */
  measure: number;
  number: string;
  edits: string[];
}

/** Widest shift (in measures) the measure alignment considers, beyond the difference in length. */
const MEASURE_BAND = 16;

export function emptyElements(): Record<ElementClass, ElementCount> {
  return Object.fromEntries(ELEMENT_CLASSES.map((c) => [c, { matched: 0, predicted: 0, truth: 0 }])) as Record<ElementClass, ElementCount>;
}

/** Compares everything printed in two scores. `details` also words the edits per measure. */
export function evaluateNotation(predicted: Score, truth: Score, details = false): { metrics: NotationMetrics; measures: MeasureEdits[] } {
  const elements = emptyElements();
  const measures: MeasureEdits[] = [];
  let edits = 0;
  let symbols = 0;
  const parts = Math.max(predicted.parts.length, truth.parts.length);
  for (let p = 0; p < parts; p++) {
    const a = predicted.parts[p] ? partItems(predicted.parts[p]!) : [];
    const b = truth.parts[p] ? partItems(truth.parts[p]!) : [];
    for (const items of a) for (const item of items) count(elements, item.symbols, 'predicted');
    for (const items of b) for (const item of items) count(elements, item.symbols, 'truth');
    symbols += sizeOf(a) + sizeOf(b);
    const numberOf = (m: number, side: 'a' | 'b') => (side === 'b' ? truth : predicted).parts[p]?.measures[m]?.number ?? String(m + 1);
    for (const step of alignMeasures(a, b)) {
      if (step.a !== undefined && step.b !== undefined) {
        const pairs = alignItems(a[step.a]!, b[step.b]!);
        edits += pairs.cost;
        for (const [x, y] of pairs.pairs) if (x && y) countMatched(elements, x.symbols, y.symbols);
        if (details && pairs.cost > 0) measures.push({ part: p, measure: step.b, number: numberOf(step.b, 'b'), edits: pairs.pairs.flatMap(([x, y]) => describeEdit(x, y)) });
      } else if (step.b !== undefined) {
        edits += itemsSize(b[step.b]!);
        if (details && b[step.b]!.length) measures.push({ part: p, measure: step.b, number: numberOf(step.b, 'b'), edits: ['measure missing'] });
      } else {
        edits += itemsSize(a[step.a!]!);
        if (details && a[step.a!]!.length) measures.push({ part: p, measure: step.a!, number: numberOf(step.a!, 'a'), edits: ['extra measure read'] });
      }
    }
  }
  return { metrics: { edits, symbols, errorRate: symbols > 0 ? edits / symbols : 0, elements }, measures };
}

/** Sums notation metrics over documents (micro-average). */
export function sumNotation(all: readonly NotationMetrics[]): NotationMetrics {
  const elements = emptyElements();
  let edits = 0;
  let symbols = 0;
  for (const m of all) {
    edits += m.edits;
    symbols += m.symbols;
    for (const c of ELEMENT_CLASSES) {
      elements[c].matched += m.elements[c].matched;
      elements[c].predicted += m.elements[c].predicted;
      elements[c].truth += m.elements[c].truth;
    }
  }
  return { edits, symbols, errorRate: symbols > 0 ? edits / symbols : 0, elements };
}

export function precision(c: ElementCount): number {
  return c.predicted > 0 ? c.matched / c.predicted : c.truth > 0 ? 0 : 1;
}

export function recall(c: ElementCount): number {
  return c.truth > 0 ? c.matched / c.truth : c.predicted > 0 ? 0 : 1;
}

// ---------------------------------------------------------------------------
// Items.

const RANK_CLEF = 0;
const RANK_KEY = 1;
const RANK_TIME = 2;
const RANK_LEFT_BARLINE = 3;
const RANK_DIRECTION = 4;
const RANK_STROKE = 5;
const RANK_RIGHT_BARLINE = 6;

/** Each measure's items in reading order. Clefs, keys and times count where they change, not where restated. */
export function partItems(part: Part): Item[][] {
  const clefInForce = new Map<number, string>();
  let keyInForce: string | undefined;
  let timeInForce: string | undefined;
  return part.measures.map((measure) => {
    const items: Item[] = [];
    const attribute = (staff: number, onset: Fraction, rank: number, cls: ElementClass, key: string) =>
      items.push({ staff, onset, rank, order: 0, symbols: [{ cls, key }], label: key });
    for (const clef of [...measure.clefs].sort((x, y) => compare(x.offset, y.offset))) {
      const key = `clef:${clef.sign}${clef.line}${clef.octaveChange ? `^${clef.octaveChange}` : ''}`;
      if (clefInForce.get(clef.staff) === key) continue;
      clefInForce.set(clef.staff, key);
      attribute(clef.staff, clef.offset, RANK_CLEF, 'clefs', key);
    }
    if (measure.key && `key:${measure.key.fifths}` !== keyInForce) {
      keyInForce = `key:${measure.key.fifths}`;
      attribute(1, ZERO, RANK_KEY, 'keys', keyInForce);
    }
    if (measure.time && `time:${measure.time.beats}/${measure.time.beatType}` !== timeInForce) {
      timeInForce = `time:${measure.time.beats}/${measure.time.beatType}`;
      attribute(1, ZERO, RANK_TIME, 'times', timeInForce);
    }
    const left = barlineSymbols(measure.leftBarline);
    if (left.length) items.push({ staff: 0, onset: ZERO, rank: RANK_LEFT_BARLINE, order: 0, symbols: left, label: `left barline ${keys(left)}` });
    // The directions at one place are one item: "p cantabile" is one reading whether an encoder writes it as one direction or two.
    const places = new Map<string, Item>();
    for (const direction of measure.directions) {
      const symbols = directionSymbols(direction);
      if (!symbols.length) continue;
      const place = `${direction.staff} ${direction.offset.n}/${direction.offset.d}`;
      const item = places.get(place) ?? places.set(place, { staff: direction.staff, onset: direction.offset, rank: RANK_DIRECTION, order: 0, symbols: [], label: '' }).get(place)!;
      item.symbols.push(...symbols);
    }
    for (const item of places.values()) items.push({ ...item, label: keys(item.symbols) });
    items.push(...strokeItems(measure));
    const right = barlineSymbols(measure.rightBarline);
    if (right.length) items.push({ staff: Number.MAX_SAFE_INTEGER, onset: ZERO, rank: RANK_RIGHT_BARLINE, order: 0, symbols: right, label: `right barline ${keys(right)}` });
    return items.sort(readingOrder);
  });
}

function readingOrder(x: Item, y: Item): number {
  return x.staff - y.staff || compare(x.onset, y.onset) || x.rank - y.rank || x.order - y.order || (x.label < y.label ? -1 : x.label > y.label ? 1 : 0);
}

function keys(symbols: readonly Symbol[]): string {
  return symbols.map((s) => s.key).join(' ');
}

function barlineSymbols(barline: Barline | undefined): Symbol[] {
  if (!barline) return [];
  const out: Symbol[] = [];
  // A plain barline ends every measure: only what is drawn otherwise counts.
  if (barline.style !== 'regular' && !(barline.repeat && (barline.style === 'light-heavy' || barline.style === 'heavy-light'))) out.push({ cls: 'barlines', key: `barline:${barline.style}` });
  if (barline.repeat) out.push({ cls: 'repeats', key: `repeat:${barline.repeat.direction}` });
  if (barline.ending) out.push({ cls: 'voltas', key: `volta:${barline.ending.number}:${barline.ending.type === 'discontinue' ? 'stop' : barline.ending.type}` });
  return out;
}

function directionSymbols(d: Direction): Symbol[] {
  const out: Symbol[] = [];
  if (d.dynamics) {
    // A word set in the dynamics style ("più", "sempre" as <other-dynamics>) is read as a word.
    const word = normalWords(d.dynamics);
    if (/\p{L}/u.test(word) && !DYNAMIC_MARK.test(word)) out.push({ cls: 'words', key: `words:${word}` });
    else out.push({ cls: 'dynamics', key: `dynamic:${d.dynamics}` });
  }
  if (d.wedge && d.wedge.type !== 'continue') out.push({ cls: 'hairpins', key: `hairpin:${d.wedge.type}` });
  if (d.words) {
    const text = normalWords(d.words);
    if (text) out.push({ cls: 'words', key: `words:${text}` });
  }
  if (d.metronome) out.push({ cls: 'metronome', key: `metronome:${d.metronome.beatUnit}${'.'.repeat(d.metronome.dots)}=${d.metronome.perMinute}` });
  if (d.pedal && d.pedal !== 'continue') out.push({ cls: 'pedal', key: `pedal:${d.pedal}` });
  if (d.rehearsal) out.push({ cls: 'rehearsal', key: `rehearsal:${d.rehearsal.trim()}` });
  if (d.sign) out.push({ cls: 'repeats', key: `sign:${d.sign}` });
  return out;
}

/** A dynamic mark's letters: p, f, m, r, s, z and n (ppp, mf, sfz, fp, rfz, n). */
const DYNAMIC_MARK = /^[pfmrszn]+$/;

/** Words compared as read: case, spacing and punctuation around them are not judged. */
function normalWords(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
    .trim();
}

function pitchName(p: Pitch): string {
  const alter = p.alter === 0 ? '' : p.alter > 0 ? '#'.repeat(Math.round(p.alter)) || '+' : 'b'.repeat(Math.round(-p.alter)) || '-';
  return `${p.step}${alter}${p.octave}`;
}

function strokeItems(measure: Measure): Item[] {
  const items: Item[] = [];
  // Voices are ranked per staff in the order they come: a voice's label ("1", "5") is an encoder's choice.
  const voicesOnStaff = new Map<number, string[]>();
  for (const voice of measure.voices) {
    for (const event of voice.events) {
      if (event.kind === 'rest' && event.hidden) continue;
      const list = voicesOnStaff.get(event.staff) ?? [];
      if (!list.includes(voice.id)) list.push(voice.id);
      voicesOnStaff.set(event.staff, list);
    }
  }
  for (const voice of measure.voices) {
    let t = ZERO;
    for (const event of voice.events) {
      const onset = t;
      t = add(t, event.duration);
      if (event.kind === 'rest' && event.hidden) continue;
      const voices = voicesOnStaff.get(event.staff) ?? [];
      const rank = voices.indexOf(voice.id) + 1;
      const symbols = eventSymbols(event);
      if (voices.length > 1) symbols.push({ cls: 'voices', key: `voice:${rank}` });
      const lowest = event.kind === 'note' && event.notes.length ? Math.min(...event.notes.map((n) => pitchIndex(n.pitch))) : 0;
      items.push({ staff: event.staff, onset, rank: RANK_STROKE, order: rank * 1000 + lowest, symbols, label: strokeLabel(event) });
    }
  }
  return items;
}

function pitchIndex(p: Pitch): number {
  return p.octave * 7 + 'CDEFGAB'.indexOf(p.step);
}

function durationKey(event: VoiceEvent): string {
  if (event.kind === 'rest' && event.measureRest) return 'dur:measure';
  return event.type ? `dur:${event.type}` : `dur:${event.duration.n}/${event.duration.d}`;
}

function eventSymbols(event: VoiceEvent): Symbol[] {
  const out: Symbol[] = [];
  if (event.kind === 'rest') {
    out.push({ cls: 'rests', key: 'rest' });
  } else {
    for (const note of event.notes) {
      const name = pitchName(note.pitch);
      out.push({ cls: 'notes', key: `note:${name}` });
      if (note.accidental) out.push({ cls: 'accidentals', key: `accidental:${note.accidental.sign}:${name}` });
      if (note.tieStart) out.push({ cls: 'ties', key: `tie:${name}` });
    }
  }
  if (!(event.kind === 'note' && event.grace)) out.push({ cls: 'durations', key: durationKey(event) });
  if (event.dots) out.push({ cls: 'durations', key: `dots:${event.dots}` });
  if (event.tuplet) out.push({ cls: 'tuplets', key: `tuplet:${event.tuplet.actual}:${event.tuplet.normal}` });
  if (event.kind === 'note') noteEventSymbols(event, out);
  return out;
}

function noteEventSymbols(event: NoteEvent, out: Symbol[]): void {
  if (event.grace) out.push({ cls: 'grace', key: event.grace.slash ? 'grace:slash' : 'grace' }, { cls: 'durations', key: durationKey(event) });
  event.beams?.forEach((value, level) => out.push({ cls: 'beams', key: `beam${level + 1}:${value}` }));
  if (event.stem === 'up' || event.stem === 'down') out.push({ cls: 'stems', key: `stem:${event.stem}` });
  for (const slur of event.slurs ?? []) if (slur.type !== 'continue') out.push({ cls: 'slurs', key: `slur:${slur.type}` });
  for (const a of event.articulations ?? []) {
    if (a === 'fermata') out.push({ cls: 'fermatas', key: 'fermata' });
    // A portato is printed as what it is named for, a tenuto line over a staccato dot, and either encoding reads the same.
    else if (a === 'detached-legato') out.push({ cls: 'articulations', key: 'articulation:staccato' }, { cls: 'articulations', key: 'articulation:tenuto' });
    else out.push({ cls: 'articulations', key: `articulation:${a}` });
  }
  // Bowings and other technical marks are read like articulations, as musicdiff counts them.
  for (const t of event.technical ?? []) out.push({ cls: 'articulations', key: `technical:${t}` });
  for (const o of event.ornaments ?? []) out.push({ cls: 'ornaments', key: `ornament:${o}` });
  if (event.tremolo) out.push({ cls: 'ornaments', key: `tremolo:${event.tremolo.marks}` });
  if (event.arpeggiate) out.push({ cls: 'ornaments', key: 'arpeggio' });
  for (const lyric of event.lyrics) {
    const text = normalWords(lyric.text);
    if (text) out.push({ cls: 'lyrics', key: `lyric:${lyric.verse}:${text}` });
  }
}

function strokeLabel(event: VoiceEvent): string {
  const what = event.kind === 'rest' ? 'rest' : event.notes.map((n) => pitchName(n.pitch)).join('+');
  return `${what} ${event.kind === 'rest' && event.measureRest ? 'measure' : (event.type ?? `${event.duration.n}/${event.duration.d}`)}${'.'.repeat(event.dots)}`;
}

// ---------------------------------------------------------------------------
// Costs and alignment.

function sizeOf(measures: readonly Item[][]): number {
  return measures.reduce((total, items) => total + itemsSize(items), 0);
}

function itemsSize(items: readonly Item[]): number {
  return items.reduce((total, item) => total + item.symbols.length, 0);
}

function symbolKey(s: Symbol): string {
  return `${s.cls}|${s.key}`;
}

/** Symbols two bags share, as multisets. */
function shared(x: readonly Symbol[], y: readonly Symbol[]): Symbol[] {
  const pool = new Map<string, number>();
  for (const s of y) pool.set(symbolKey(s), (pool.get(symbolKey(s)) ?? 0) + 1);
  const out: Symbol[] = [];
  for (const s of x) {
    const left = pool.get(symbolKey(s)) ?? 0;
    if (left > 0) {
      pool.set(symbolKey(s), left - 1);
      out.push(s);
    }
  }
  return out;
}

function sortedKeys(item: Item): string[] {
  return (item.sorted ??= item.symbols.map(symbolKey).sort());
}

/**
 * Between pairings that cost as much, one of items at the same onset is chosen: it adds this much to a
 * pairing of items at different onsets, far too little to change a cost (alignItems rounds it off).
 */
const ONSET_TIE_BREAK = 1e-6;

/** Cost of reading item y as x: the size of the bags' symmetric difference (and the onsets' tie break). */
function pairCost(x: Item, y: Item): number {
  if (x.staff !== y.staff) return x.symbols.length + y.symbols.length;
  const moved = compare(x.onset, y.onset) === 0 ? 0 : ONSET_TIE_BREAK;
  const a = sortedKeys(x);
  const b = sortedKeys(y);
  let common = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return a.length + b.length - 2 * common + moved;
}

function count(elements: Record<ElementClass, ElementCount>, symbols: readonly Symbol[], side: 'predicted' | 'truth'): void {
  for (const s of symbols) elements[s.cls][side]++;
}

function countMatched(elements: Record<ElementClass, ElementCount>, x: readonly Symbol[], y: readonly Symbol[]): void {
  for (const s of shared(x, y)) elements[s.cls].matched++;
}

/** Levenshtein alignment of two measures' items; pairs hold undefined on the side of an unpaired item. */
export function alignItems(a: readonly Item[], b: readonly Item[]): { cost: number; pairs: [Item | undefined, Item | undefined][] } {
  if (a.length === b.length && a.every((x, i) => pairCost(x, b[i]!) === 0)) return { cost: 0, pairs: a.map((x, i) => [x, b[i]]) };
  const n = a.length;
  const m = b.length;
  const w = m + 1;
  const d = new Float64Array((n + 1) * w);
  for (let i = 1; i <= n; i++) d[i * w] = d[(i - 1) * w]! + a[i - 1]!.symbols.length;
  for (let j = 1; j <= m; j++) d[j] = d[j - 1]! + b[j - 1]!.symbols.length;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const del = d[(i - 1) * w + j]! + a[i - 1]!.symbols.length;
      const ins = d[i * w + j - 1]! + b[j - 1]!.symbols.length;
      const pair = d[(i - 1) * w + j - 1]! + pairCost(a[i - 1]!, b[j - 1]!);
      d[i * w + j] = Math.min(del, ins, pair);
    }
  }
  const pairs: [Item | undefined, Item | undefined][] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const here = d[i * w + j]!;
    if (i > 0 && j > 0 && here === d[(i - 1) * w + j - 1]! + pairCost(a[i - 1]!, b[j - 1]!)) {
      pairs.push([a[--i], b[--j]]);
    } else if (i > 0 && here === d[(i - 1) * w + j]! + a[i - 1]!.symbols.length) {
      pairs.push([a[--i], undefined]);
    } else {
      pairs.push([undefined, b[--j]]);
    }
  }
  return { cost: Math.round(d[n * w + m]!), pairs: pairs.reverse() };
}

interface MeasureStep {
  a?: number;
  b?: number;
}

/**
 * Aligns two parts' measures, each pair costing its items' edit distance and
 * an unpaired measure all its symbols, within a band around the diagonal.
 */
export function alignMeasures(a: readonly Item[][], b: readonly Item[][]): MeasureStep[] {
  const n = a.length;
  const m = b.length;
  const band = MEASURE_BAND + Math.abs(n - m);
  const w = m + 1;
  const INF = Number.POSITIVE_INFINITY;
  const d = new Float64Array((n + 1) * w).fill(INF);
  const pairCosts = new Map<number, number>();
  const costOf = (i: number, j: number) => {
    const k = i * w + j;
    let c = pairCosts.get(k);
    if (c === undefined) {
      c = alignItems(a[i]!, b[j]!).cost;
      pairCosts.set(k, c);
    }
    return c;
  };
  d[0] = 0;
  for (let i = 0; i <= n; i++) {
    const lo = Math.max(0, i - band);
    const hi = Math.min(m, i + band);
    for (let j = lo; j <= hi; j++) {
      if (i === 0 && j === 0) continue;
      let best = INF;
      if (i > 0 && d[(i - 1) * w + j]! < INF) best = Math.min(best, d[(i - 1) * w + j]! + itemsSize(a[i - 1]!));
      if (j > 0 && d[i * w + j - 1]! < INF) best = Math.min(best, d[i * w + j - 1]! + itemsSize(b[j - 1]!));
      if (i > 0 && j > 0 && d[(i - 1) * w + j - 1]! < INF) best = Math.min(best, d[(i - 1) * w + j - 1]! + costOf(i - 1, j - 1));
      d[i * w + j] = best;
    }
  }
  const steps: MeasureStep[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const here = d[i * w + j]!;
    if (i > 0 && j > 0 && d[(i - 1) * w + j - 1]! < INF && here === d[(i - 1) * w + j - 1]! + costOf(i - 1, j - 1)) {
      steps.push({ a: --i, b: --j });
    } else if (i > 0 && d[(i - 1) * w + j]! < INF && here === d[(i - 1) * w + j]! + itemsSize(a[i - 1]!)) {
      steps.push({ a: --i });
    } else {
      steps.push({ b: --j });
    }
  }
  return steps.reverse();
}

// ---------------------------------------------------------------------------
// Wording, for the report.

function describeEdit(x: Item | undefined, y: Item | undefined): string[] {
  if (x && y) {
    if (Math.round(pairCost(x, y)) === 0) return [];
    const inTruth = shared(x.symbols, y.symbols);
    const missing = y.symbols.filter((s) => !removeOne(inTruth, s));
    const inReading = shared(x.symbols, y.symbols);
    const extra = x.symbols.filter((s) => !removeOne(inReading, s));
    return [`staff ${staffName(y)}: ${y.label} — missing ${keys(missing) || 'nothing'}; read instead ${keys(extra) || 'nothing'}`];
  }
  if (y) return [`staff ${staffName(y)}: missing ${y.label}${y.label === keys(y.symbols) ? '' : ` (${keys(y.symbols)})`}`];
  return [`staff ${staffName(x!)}: extra ${x!.label}${x!.label === keys(x!.symbols) ? '' : ` (${keys(x!.symbols)})`}`];
}

/** Removes one symbol equal to `s` from `pool`; true when there was one. */
function removeOne(pool: Symbol[], s: Symbol): boolean {
  const k = pool.findIndex((p) => p.cls === s.cls && p.key === s.key);
  if (k < 0) return false;
  pool.splice(k, 1);
  return true;
}

function staffName(item: Item): string {
  return item.staff === 0 || item.staff === Number.MAX_SAFE_INTEGER ? 'all' : String(item.staff);
}
