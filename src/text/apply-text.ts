/**
 * The text read off the pages, put where it belongs in the score:
 *
 * - the title block of the first page → `credits` (the title also names the
 *   export files and the details step's title);
 * - part names and abbreviations → `Part.name` / `abbreviation`, and the
 *   instrument a name matches (`matchInstrumentName`: Violine, Vl.,
 *   "Klarinette in B" …) → instrument id, MIDI program, transposition;
 * - lyric lines → syllables on the notes above them, verse by verse;
 * - tempo and expression words, dynamics and rehearsal marks → directions at
 *   the note they stand under or over (a dynamic only where it reads as one);
 * - a movement's heading ("II. Menuetto") → words at the start of the system
 *   it heads, where the movement starts;
 * - measure numbers over the systems → the score's numbering.
 *
 * Parts and notes are found through their recognition evidence (boxes in
 * the decoded page's pixels), so this runs on the assembled score without
 * knowing how assembly laid out its parts.
 */
import { matchInstrumentName } from '../score/instruments.js';
import { add, compare, ZERO, type Fraction } from '../score/fraction.js';
import type { Box, Credits, Direction, Measure, NoteEvent, Part, Score, VoiceEvent } from '../score/model.js';
import { measureLength } from '../score/timeline.js';
import { toPreparedPoint, toSourcePoint, type PageTransform } from '../reading/page-transform.js';
import { staffLineY } from '../staves/detect-staves.js';
import { nearestStaff } from '../staves/staff-geometry.js';
import { assignSyllables, splitSyllables, syllableCuts, type NoteSlot } from './lyrics.js';
import { letterStart, type OcrWord } from './ocr.js';
import type { PageText, ReadLine } from './page-text.js';
import { correctMusicWords, exactMusicWord, MARK_LETTERS, wordBeforeMark } from './music-words.js';
import type { Beat, BeatUnit } from './metronome-glyph.js';

/** Syllables part where letters stand further apart than this share of the letter height. */
const SYLLABLE_GAP = 0.3;
/** How far (staff spaces) a syllable may stand from the notehead it is sung to. */
const SYLLABLE_REACH = 3;

export function applyText(score: Score, pages: readonly PageText[]): void {
  const first = pages.reduce<PageText | undefined>((a, b) => (!a || b.page < a.page ? b : a), undefined);
  if (first) applyCredits(score.credits, first.lines);
  const printed: PrintedNumber[] = [];
  const named = new Set<Part>();
  for (const page of pages) {
    applyPartNames(score.parts, page, named);
    const events = [...pageEvents(score, page)];
    applyLyrics(events, page);
    const numbered = applyEndingNumbers(score.parts, events, page);
    applyDirections(events, { ...page, lines: page.lines.map((line) => withoutWords(line, numbered)) });
    applyHeadings(events, page);
    printed.push(...printedNumbers(score.parts, events, page));
  }
  renumberMeasures(score.parts, printed);
}

const CREDIT_KINDS = ['title', 'subtitle', 'composer', 'lyricist'] as const;

function applyCredits(credits: Credits, lines: readonly ReadLine[]): void {
  for (const kind of CREDIT_KINDS) {
    const text = lines
      .filter((line) => line.kind === kind)
      .map((line) => cleanText(line.text))
      .filter(hasLetters)
      .join(' ');
    if (text) credits[kind] = text;
  }
}

/** OCR spacing tidied: one space between words, none before closing punctuation. */
function cleanText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\s+([,.;:!?’'])/g, '$1').trim();
}

function hasLetters(text: string): boolean {
  return /\p{L}{2}/u.test(text);
}

// ---------------------------------------------------------------------------
// Parts.

/**
 * Names read left of the systems name the parts and pick their instruments. A document that starts after
 * the first page of a score shows only abbreviations: the first one read names a part no name was read
 * for, as the instrument it stands for ("Vla." is the Viola), numbered as printed. `named`: the parts
 * named so far, over the pages.
 */
function applyPartNames(parts: Part[], page: PageText, named: Set<Part>): void {
  for (const kind of ['partName', 'abbreviation'] as const) {
    const byPart = new Map<number, string[]>();
    for (const line of page.lines) {
      if (line.kind !== kind || line.staff === undefined || !hasLetters(line.text)) continue;
      const part = partAtStaff(parts, page, line.staff);
      if (part >= 0) byPart.set(part, [...(byPart.get(part) ?? []), partNameText(line.text)]);
    }
    for (const [index, texts] of byPart) {
      const part = parts[index]!;
      const text = texts.join(' ');
      // A near miss (a misread or cut-off name) says too little to replace the layout's guess.
      const found = matchInstrumentName(text);
      const match = found && found.confidence !== 'low' ? found : undefined;
      if (kind === 'abbreviation') {
        part.abbreviation ??= text;
        if (named.has(part) || !match) continue;
        named.add(part);
        part.name = match.confidence === 'high' ? text : [match.instrument.name, ...(text.match(/\d+$/) ?? [])].join(' ');
      } else {
        named.add(part);
        part.name = text;
        if (!match) continue;
      }
      const { instrument } = match;
      part.instrumentId = instrument.id;
      part.midiProgram = instrument.midiProgram;
      if (instrument.percussion) part.percussion = true;
      if (instrument.transposition) part.transposition = { ...instrument.transposition };
    }
  }
}

/** A part's name as printed: a lone bar ending it is the OCR's reading of a serif "1" ("Flute |" is Flute 1). */
export function partNameText(text: string): string {
  return cleanText(text).replace(/(\p{L}\.?)\s+\|$/u, '$1 1');
}

/** The part whose measures on this page span the staff's middle line (a measure's box covers its part's staves); -1 if none. */
function partAtStaff(parts: readonly Part[], page: PageText, staff: number): number {
  const s = page.staves[staff]!;
  const x = (s.x0 + s.x1) / 2;
  const [sx, sy] = toSourcePoint(page.transform, x, staffLineY(s, 2, x));
  const inside = (box: Box) => sy >= box.y && sy <= box.y + box.height && sx >= box.x - 1 && sx <= box.x + box.width + 1;
  return parts.findIndex((part) => part.measures.some((m) => m.evidence?.page === page.page && inside(m.evidence.box)));
}

// ---------------------------------------------------------------------------
// Lyrics.

interface PlacedNote extends NoteSlot {
  event: NoteEvent;
}

function applyLyrics(events: readonly PageEvent[], page: PageText): void {
  const lines = page.lines.filter((line) => line.kind === 'lyrics' && line.staff !== undefined);
  if (!lines.length) return;
  const byStaff = notesByStaff(events, page);
  for (const line of lines) {
    const notes = byStaff.get(line.staff!) ?? [];
    if (!notes.length) continue;
    const space = page.staves[line.staff!]!.space;
    const syllables = splitSyllables(line.words, syllableCuts(line.spans, line.size * SYLLABLE_GAP));
    const assigned = assignSyllables(syllables, notes, space * SYLLABLE_REACH);
    syllables.forEach((syllable, i) => {
      const note = notes[assigned[i]!];
      if (!note) return;
      const confidence = line.words.find((w) => w.x0 <= syllable.x1 && w.x1 >= syllable.x0)?.confidence ?? 0;
      note.event.lyrics.push({
        verse: line.verse ?? 1,
        text: syllable.text,
        syllabic: syllable.syllabic,
        ...(syllable.extend ? { extend: true } : {}),
        evidence: { page: page.page, box: sourceBox(page.transform, syllable.x0, line.y0, syllable.x1, line.y1), confidence: Math.round(confidence * 10) / 1000 },
      });
    });
  }
}

/**
 * The notes on each staff of the page, left to right, one per notehead
 * column: where two voices strike together the lyric goes to the first.
 */
function notesByStaff(events: readonly PageEvent[], page: PageText): Map<number, PlacedNote[]> {
  const byStaff = new Map<number, PlacedNote[]>();
  for (const placed of events) {
    const { event } = placed;
    if (event.kind !== 'note' || event.grace) continue;
    byStaff.set(placed.pageStaff, [...(byStaff.get(placed.pageStaff) ?? []), { x0: placed.x0, x1: placed.x1, event }]);
  }
  for (const [staff, notes] of byStaff) {
    notes.sort((a, b) => a.x0 - b.x0);
    const space = page.staves[staff]!.space;
    byStaff.set(staff, notes.filter((note, i) => i === 0 || Math.abs(note.x0 - notes[i - 1]!.x0) > space * 0.5));
  }
  return byStaff;
}

interface PageEvent {
  event: VoiceEvent;
  measure: Measure;
  /** The measure's index in its part: every part's measure at one index stands in one column of the system. */
  index: number;
  /** Its onset in its measure. */
  onset: Fraction;
  /** The page's staff it stands on, and its extent across (its first head's, for a note), in prepared pixels. */
  pageStaff: number;
  x0: number;
  x1: number;
}

/** Every event recognition placed on this page, with its measure, onset and staff. */
function* pageEvents(score: Score, page: PageText): Generator<PageEvent> {
  for (const part of score.parts) {
    for (const [index, measure] of part.measures.entries()) {
      if (measure.evidence?.page !== page.page) continue;
      for (const voice of measure.voices) {
        let onset = ZERO;
        for (const event of voice.events) {
          const at = onset;
          onset = add(onset, event.duration);
          if (event.evidence?.page !== page.page) continue;
          const { box } = (event.kind === 'note' ? event.notes[0]?.evidence : undefined) ?? event.evidence;
          const [x0, y0] = toPreparedPoint(page.transform, box.x, box.y);
          const [x1, y1] = toPreparedPoint(page.transform, box.x + box.width, box.y + box.height);
          const pageStaff = nearestStaff(page.staves, (x0 + x1) / 2, (y0 + y1) / 2);
          if (pageStaff >= 0) yield { event, measure, index, onset: at, pageStaff, x0, x1 };
        }
      }
    }
  }
}

function sourceBox(transform: PageTransform, x0: number, y0: number, x1: number, y1: number): Box {
  const corners = [toSourcePoint(transform, x0, y0), toSourcePoint(transform, x1, y1)];
  const x = Math.max(0, Math.floor(Math.min(corners[0]![0], corners[1]![0])));
  const y = Math.max(0, Math.floor(Math.min(corners[0]![1], corners[1]![1])));
  return { x, y, width: Math.ceil(Math.max(corners[0]![0], corners[1]![0])) - x, height: Math.ceil(Math.max(corners[0]![1], corners[1]![1])) - y };
}

// ---------------------------------------------------------------------------
// Measure numbers.

/** A measure number printed over a system's start, and what it says of the numbering there. */
interface PrintedNumber {
  /** The index in its part of the system's first measure (that of the leftmost event on the system's first staff). */
  index: number;
  /** The printed number minus the one the score gives that measure. */
  shift: number;
}

function printedNumbers(parts: readonly Part[], events: readonly PageEvent[], page: PageText): PrintedNumber[] {
  const printed: PrintedNumber[] = [];
  for (const line of page.lines) {
    if (line.kind !== 'measureNumber' || line.staff === undefined) continue;
    const first = events.filter((e) => e.pageStaff === line.staff).reduce<PageEvent | undefined>((a, b) => (!a || b.x0 < a.x0 ? b : a), undefined);
    const part = first && parts.find((p) => p.measures.includes(first.measure));
    if (!first || !part || !/^\d+$/.test(first.measure.number)) continue;
    printed.push({ index: part.measures.indexOf(first.measure), shift: Number(line.text.trim()) - Number(first.measure.number) });
  }
  return printed;
}

/**
 * A printed number that alone moves the numbering from the count before it moves it by at most this many
 * measures (the reading split or lost one); a larger move read from one number alone is a misread digit.
 */
const LONE_NUMBER_SHIFT = 1;

/**
 * Numbers the measures as the page does. The shift most printed numbers agree on must be more than half
 * of them, and two at least when several were read (one misread digit must not renumber a score). Then
 * the systems' numbers, in measure order, move the count where the reading split or lost a measure: a
 * shift printed over two systems in a row, or the common one, or one within a measure of the count
 * before it, holds from its system on; the first to hold, from the start.
 */
function renumberMeasures(parts: readonly Part[], printed: readonly PrintedNumber[]): void {
  const votes = new Map<number, number>();
  for (const { shift } of printed) votes.set(shift, (votes.get(shift) ?? 0) + 1);
  const [common, count] = [...votes].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
  if (count * 2 <= printed.length || (printed.length > 1 && count < 2)) return;
  const sorted = [...printed].sort((a, b) => a.index - b.index);
  const holds: PrintedNumber[] = [];
  for (let k = 0, end = 1; k < sorted.length; k = end, end = k + 1) {
    while (end < sorted.length && sorted[end]!.shift === sorted[k]!.shift) end++;
    const { index, shift } = sorted[k]!;
    const before = holds[holds.length - 1]?.shift ?? common;
    if (holds.length && shift === before) continue;
    if (end - k >= 2 || shift === common || Math.abs(shift - before) <= LONE_NUMBER_SHIFT) holds.push({ index: holds.length ? index : 0, shift });
  }
  const renumbered = parts.map((part) =>
    part.measures.map((measure, i) => {
      if (!/^\d+$/.test(measure.number)) return measure.number;
      const shift = holds.filter((h) => h.index <= i).pop()!.shift;
      return String(Number(measure.number) + shift);
    }),
  );
  if (renumbered.some((numbers) => numbers.some((n) => n.startsWith('-')))) return;
  parts.forEach((part, p) => part.measures.forEach((measure, i) => (measure.number = renumbered[p]![i]!)));
}

// ---------------------------------------------------------------------------
// Directions.

/** Words that send the player back to the start ("D.C.", "D. C. al Fine", "Menuetto D.C.", "M.D.C.", "Menuetto da capo"). */
const DA_CAPO = /\bD\.\s?C\.|\bda capo\b/i;
/** Words that stand at a barline, for the end of the measure before it: a jump back ("D.C.", "D.S.", "dal segno") or the end ("Fine"). */
const AT_BARLINE = /\bD\.\s?[CS]\.|\bda capo\b|\bdal segno\b|^fine\.?$/i;
/** The word that ends the piece after a D.C. */
const FINE = /^fine\.?$/i;
/** Words a line carries on with, printed again in parentheses where it runs on into a new system ("(cresc.)"). */
const CARRIED_ON = /^\s*\(/;

/** The jump a direction's words ask playback for, if any (D.S. and coda are not followed). */
export function jumpOf(words: string): 'daCapo' | 'fine' | undefined {
  if (DA_CAPO.test(words)) return 'daCapo';
  return FINE.test(words.trim()) ? 'fine' : undefined;
}

/** Dynamics as printed, each a MusicXML element name. */
const DYNAMICS = new Set(['pppp', 'ppp', 'pp', 'p', 'mp', 'mf', 'f', 'ff', 'fff', 'ffff', 'sf', 'sfz', 'sffz', 'sfp', 'sfpp', 'fp', 'fz', 'rf', 'rfz', 'pf']);
/** How far (staff spaces) before the first note a direction's text may start and still belong to it. */
const DIRECTION_REACH = 4;
/** How far (staff spaces) words may start before their note's head, or overlap a dynamic they are set on from. */
const WORDS_LEAD = 0.5;
/** Words set on from a dynamic start at most this many spaces past its last letter. */
const WORDS_AFTER_DYNAMIC = 2;
/**
 * A dynamic this many spaces or less past the end of words on its row is set on from them as one mark,
 * a word's space apart ("più f"); a dynamic further on is a mark of its own after them ("cresc. sf").
 */
const DYNAMIC_AFTER_WORDS = 0.5;
/** How far (staff spaces) from its staff a direction stands at most; text further off is a footer or a note to the player. */
const DIRECTION_DISTANCE = 7;
/**
 * A hairpin drawn on from a dynamic ("fz" then a diminuendo) starts at the dynamic's note, although its ink starts
 * past the note, and one drawn up to a dynamic stops there: its end stands at most this many spaces clear of the
 * dynamic's letters …
 */
const HAIRPIN_DYNAMIC_GAP = 2;
/** … or this many spaces inside it (the end may touch the letter), and at its height within this many spaces. */
const HAIRPIN_DYNAMIC_OVERLAP = 0.5;
/**
 * A metronome mark read as a line of its own goes with tempo words ending at most this many letter heights
 * before it (room for its note glyph) …
 */
const METRONOME_JOIN = 5;
/** … whose foot stands within this many letter heights of its own. */
const METRONOME_FOOT = 0.6;

/**
 * Tempo words as read, split from a metronome mark after them ("Allegro ♩ = 120", the note glyph read
 * as a letter or two; a dot after it makes it dotted) and from a measure number read before them. The
 * mark's note is `beat` where its ink was read (metronome-glyph.ts), else a quarter.
 */
export function readTempoText(text: string, beat?: Beat): { words?: string; metronome?: Metronome } {
  let rest = cleanText(text).replace(/^\d+\s+(?=\p{L})/u, '');
  let metronome: Metronome | undefined;
  // The note glyph read as letters stands apart from the words before it ("moderato = 76" keeps its "ato").
  const mark = /(?:^|\s)(\S{0,3}?)\s*=\s*(\d{2,3})\s*\)?$/u.exec(rest);
  if (mark) {
    const perMinute = Number(mark[2]);
    if (perMinute >= 20 && perMinute <= 400) metronome = { beatUnit: beat?.unit ?? 'quarter', dots: beat ? beat.dots : mark[1]!.includes('.') ? 1 : 0, perMinute };
    rest = rest.slice(0, mark.index).replace(/[\s(]+$/u, '');
  }
  return { ...(hasLetters(rest) ? { words: rest } : {}), ...(metronome ? { metronome } : {}) };
}

interface Metronome {
  beatUnit: BeatUnit;
  dots: number;
  perMinute: number;
}

/** Quarter notes in each beat unit a metronome mark is read with. */
const QUARTERS: Readonly<Record<BeatUnit, number>> = { half: 2, quarter: 1, eighth: 0.5 };

/** A metronome mark's playback tempo in quarter notes per minute: 𝅗𝅥 = 60 is 120. */
export function quartersPerMinute(m: Metronome): number {
  return m.perMinute * QUARTERS[m.beatUnit] * (m.dots ? 1.5 : 1);
}

/**
 * Tempo words and the metronome mark printed after them read as one line, where the mark was read as a line
 * of its own (its note glyph, painted as music, parts them): the mark goes with the words, at their note.
 */
function joinMetronomeMarks(lines: readonly ReadLine[]): ReadLine[] {
  const out = [...lines];
  for (const mark of lines) {
    const read = readTempoText(mark.text);
    if (!read.metronome || read.words) continue;
    const before = out.filter((l) => l !== mark && l.staff === mark.staff && (l.kind === 'tempo' || l.kind === 'expression') && l.x1 <= mark.x0 && mark.x0 - l.x1 < mark.size * METRONOME_JOIN && Math.abs(l.y1 - mark.y1) < mark.size * METRONOME_FOOT);
    const words = before.filter((l) => !readTempoText(l.text).metronome).sort((a, b) => b.x1 - a.x1)[0];
    if (!words) continue;
    out[out.indexOf(words)] = {
      ...words,
      x1: mark.x1,
      y0: Math.min(words.y0, mark.y0),
      y1: Math.max(words.y1, mark.y1),
      spans: [...words.spans, ...mark.spans],
      text: `${words.text} ${mark.text}`,
      words: [...words.words, ...mark.words],
      ...(mark.beat ? { beat: mark.beat } : {}),
    };
    out.splice(out.indexOf(mark), 1);
  }
  return out;
}

/** A dynamic as read: letters only, lower case; undefined where the letters spell none. */
export function readDynamic(text: string): string | undefined {
  const letters = text.normalize('NFKD').replace(/ƒ/g, 'f').toLowerCase().replace(/[^a-z]/g, '');
  // An italic s touching the f after it reads as an o or an e: no dynamic starts with either.
  const read = letters.replace(/^[oe](?=f)/, 's');
  return DYNAMICS.has(read) ? read : undefined;
}

/** Fewest letters a word read among the dynamics has: two or one ("If", "Fy") are a mark misread. */
const MIN_MARK_WORD_LETTERS = 3;

/** A line found among the dynamics pixels that spells no dynamic, as expression words ("cresc."); undefined where it reads as a misread mark. */
export function readMarkWords(text: string): string | undefined {
  const words = cleanText(text);
  const letters = words.toLowerCase().replace(/[^\p{L}]/gu, '');
  return letters.length >= MIN_MARK_WORD_LETTERS && !MARK_LETTERS.test(letters) ? words : undefined;
}

/**
 * String players' technique words, which stand over the staff they are for, where dynamics and
 * expression words stand under theirs: between two staves, such a word is the lower staff's.
 */
const OVER_STAFF_WORDS = /^(arco|pizz|col legno|sul pont|sul tasto|con sord|senza sord)/i;

/** The page staff a direction's line is for: its own, or for a technique word in the gap under it, the staff under that gap. */
function directionStaff(page: PageText, line: ReadLine, words: string | undefined): number {
  const own = line.staff!;
  const next = page.staves[own + 1];
  if (!words || !OVER_STAFF_WORDS.test(words.trim()) || !next) return own;
  const cx = (line.x0 + line.x1) / 2;
  const under = line.y0 > staffLineY(page.staves[own]!, 4, cx);
  const over = staffLineY(next, 0, cx) - line.y1;
  return under && over > 0 && over < next.space * DIRECTION_DISTANCE ? own + 1 : own;
}

/**
 * The words of one direction stand closer than this many letter heights; a wider gap parts two
 * directions that one row of text holds ("cresc." under two measures).
 */
const DIRECTION_WORD_GAP = 4;

/** Fewest letters a word alone on its line has to read as a dynamic (a lone letter is as often a misread mark). */
const LONE_DYNAMIC_LETTERS = 2;

/**
 * A line of words as the directions it holds: one per run of words that no wide gap parts, and one per
 * dynamic at a run's ends, printed apart ("p sehr ausdrucksvoll", "cresc. sf") or run into the word after
 * it ("ppcresc."). A line the dynamics model left to the OCR is split so too where it spells no dynamic
 * whole ("mf dim."); a word of two letters or more alone on its line that spells one is one ("rf").
 */
function directionsOf(line: ReadLine): ReadLine[] {
  if (line.kind !== 'expression' && line.kind !== 'tempo' && line.kind !== 'dynamics') return [line];
  if (line.kind === 'dynamics' && readDynamic(line.text)) return [line];
  const runs: ReadLine['words'][] = [];
  for (const word of [...line.words].sort((a, b) => a.x0 - b.x0).flatMap(gluedDynamic)) {
    const run = runs[runs.length - 1];
    if (run && word.x0 - Math.max(...run.map((w) => w.x1)) <= line.size * DIRECTION_WORD_GAP) run.push(word);
    else runs.push([word]);
  }
  const part = (words: ReadLine['words'], kind = line.kind): ReadLine => {
    const x0 = Math.min(...words.map((w) => w.x0));
    const x1 = Math.max(...words.map((w) => w.x1));
    return { ...line, kind, x0, x1, words, text: words.map((w) => w.text).join(' '), spans: line.spans.filter(([a, b]) => b > x0 && a < x1) };
  };
  return runs.flatMap((words) => {
    if (words.length === 1 && letterCount(words[0]!.text) >= LONE_DYNAMIC_LETTERS && readDynamic(words[0]!.text)) return [part(words, 'dynamics')];
    const lead = words.length > 1 && readDynamic(words[0]!.text) ? 1 : 0;
    const tail = words.length > 1 && readDynamic(words[words.length - 1]!.text) ? 1 : 0;
    if (!lead && !tail) return [runs.length > 1 ? part(words) : line];
    const middle = words.slice(lead, words.length - tail);
    return [...(lead ? [part(words.slice(0, 1), 'dynamics')] : []), ...(middle.length ? [part(middle)] : []), ...(tail ? [part(words.slice(-1), 'dynamics')] : [])];
  });
}

/** The fewest letters one of a direction's words has (a trill's wavy line, a hairpin's end read as "vv", "nn", "rm" has fewer in each). */
const DIRECTION_WORD_LETTERS = 3;

/** Words read off ink that is no text: none of them three letters long or more, nor a letter or two with a period. */
function letterNoise(words: string): boolean {
  return words.split(/\s+/).every((w) => letterCount(w) < DIRECTION_WORD_LETTERS && !/\p{L}\./u.test(w));
}

function letterCount(text: string): number {
  return text.replace(/[^\p{L}]/gu, '').length;
}

/**
 * A word read with a dynamic run into its start ("ppcresc.", "fdim."), as the dynamic and the word: where the
 * letters after a dynamic's are a performance word of the lexicon, letter for letter; or into its end
 * ("pocof", "semprep"), as the word and the dynamic (music-words.ts). Each keeps its letters' extent.
 */
function gluedDynamic(word: OcrWord): OcrWord[] {
  const text = word.text;
  const before = wordBeforeMark(text, { lettersOff: false });
  if (before && !exactMusicWord(text)) {
    const split = letterStart(word, before.letters, before.letters + before.mark.length);
    return [
      { ...word, text: before.word, x1: split, symbols: [] },
      { ...word, text: before.mark, x0: split, symbols: [] },
    ];
  }
  // The longest dynamics ("pppp", "sffz") have four letters; the word after one, three at least.
  for (let cut = Math.min(4, text.length - 3); cut >= 1; cut--) {
    const [head, rest] = [text.slice(0, cut), text.slice(cut)];
    if (!readDynamic(head) || head !== head.toLowerCase() || !exactMusicWord(rest)) continue;
    const split = word.symbols.length === text.length ? word.symbols[cut]!.x0 : word.x0 + ((word.x1 - word.x0) * cut) / text.length;
    const symbols = (from: number, to: number) => word.symbols.slice(from, to);
    return [
      { ...word, text: head, x1: split, symbols: symbols(0, cut) },
      { ...word, text: rest, x0: split, symbols: symbols(cut, text.length) },
    ];
  }
  return [word];
}

/** Lines that become directions: words, dynamics, rehearsal and pedal marks. */
const DIRECTION_KINDS: ReadonlySet<string> = new Set(['tempo', 'expression', 'dynamics', 'rehearsal', 'pedal']);

/** Words, dynamics and pedal marks under or over a staff, as directions at the note whose place they start at. */
function applyDirections(events: readonly PageEvent[], page: PageText): void {
  const lines = joinMetronomeMarks(page.lines.filter((line) => DIRECTION_KINDS.has(line.kind) && line.staff !== undefined).flatMap(directionsOf));
  if (!lines.length) return;
  const byStaff = timedNotes(events);
  const byIndex = new Map<number, PageEvent[]>();
  for (const notes of byStaff.values()) for (const n of notes) byIndex.set(n.index, [...(byIndex.get(n.index) ?? []), n]);
  for (const notes of byIndex.values()) notes.sort((a, b) => a.x0 - b.x0);
  for (const line of lines) {
    // Rehearsal letters are capitals; the OCR reads a lone C, O or S as either.
    const rehearsal = line.kind === 'rehearsal' ? line.text.trim().toUpperCase() : undefined;
    const dynamics = line.kind === 'dynamics' ? readDynamic(line.text) : undefined;
    const pedal = line.kind === 'pedal' ? (line.text as 'start' | 'stop') : undefined;
    // Italic words among the dynamics pixels ("cresc.", "dim.") are expression words.
    const read = rehearsal || pedal ? {} : line.kind !== 'dynamics' ? readTempoText(line.text, line.beat) : dynamics ? {} : { words: readMarkWords(line.text) };
    const { metronome } = read;
    const words = read.words && !letterNoise(read.words) ? correctMusicWords(read.words) : undefined;
    const jump = words ? jumpOf(words) : undefined;
    if (!dynamics && !words && !metronome && !rehearsal && !pedal) continue;
    const at = directionStaff(page, line, words);
    const target = page.staves[at]!;
    // Text far from the staff it is for is a footer or a note to the player.
    const cx = (line.x0 + line.x1) / 2;
    if (Math.max(staffLineY(target, 0, cx) - line.y1, line.y0 - staffLineY(target, 4, cx)) > target.space * DIRECTION_DISTANCE) continue;
    // Words set on just after a dynamic on its row ("p dim.") are the dynamic's note's.
    const led = words && !dynamics ? lines.find((o) => o.kind === 'dynamics' && o.staff === line.staff && readDynamic(o.text) && followsOn(o, line, target.space)) : undefined;
    // A dynamic a word's space after words on its row ("più f", "sempre p") is printed with them as one mark.
    const leading = dynamics ? lines.find((o) => (o.kind === 'expression' || o.kind === 'tempo') && o.staff === line.staff && !readDynamic(o.text) && followsOn(o, line, target.space, DYNAMIC_AFTER_WORDS)) : undefined;
    // Where words start: at their first letter (a dot read before "loco" is the octave line's end), or at their
    // dynamic; where a dynamic printed with words before it starts: where they do.
    const firstLetter = (l: ReadLine) => l.words.find((w) => /\p{L}/u.test(w.text))?.x0;
    const x0 = led?.x0 ?? (leading ? firstLetter(leading) : undefined) ?? (words && !dynamics ? firstLetter(line) : undefined) ?? line.x0;
    // Words go to the onset, in the measure they start in, whose notes on any staff start nearest them:
    // under a held note, words start where another staff's next note does. A dynamic goes to the first
    // note at or after its start or the next, or to the last one before it when none follows in reach.
    const noteOn = (staff: number) => {
      const notes = byStaff.get(staff) ?? [];
      // A staff resting the whole measure has no note for words to start at: they are the next note's.
      const measure = (words && !dynamics && !led) || leading ? notes.filter((n) => spans(page, n.measure, x0 + target.space * WORDS_LEAD) && !(n.event.kind === 'rest' && n.event.measureRest)) : [];
      if (measure.length) {
        const column = (byIndex.get(measure[0]!.index) ?? []).filter((n) => !(n.event.kind === 'rest' && n.event.measureRest));
        const nearest = column.reduce((a, b) => (Math.abs(b.x0 - x0) < Math.abs(a.x0 - x0) ? b : a), measure[0]!);
        return { ...measure[0]!, onset: nearest.onset };
      }
      const reach = target.space * DIRECTION_REACH;
      const first = notes.findIndex((n) => n.x0 >= x0 - target.space);
      if (first < 0) return [...notes].reverse().find((n) => n.x0 < x0 && x0 - n.x0 < reach);
      // A dynamic stands centred under its note: of the first note and the next, the one nearer its middle.
      const mark = dynamics ? line : led;
      const [here, next] = [notes[first]!, notes[first + 1]];
      if (!mark || !next) return here;
      const off = (n: PageEvent) => Math.abs((n.x0 + n.x1 - mark.x0 - mark.x1) / 2);
      return off(next) < off(here) ? next : here;
    };
    let note = noteOn(at);
    if (!note) continue;
    // Words in parentheses over a system's first measure ("(cresc.)") carry on a line of words from the system before: no new direction.
    if (words && !dynamics && CARRIED_ON.test(words) && byStaff.get(at)![0]!.measure === note.measure) continue;
    // A pedal mark is the instrument's: between two staves of one part (a piano's), it goes with the lower one, where it is written.
    const lower = pedal ? noteOn(at + 1) : undefined;
    if (lower && lower.measure === note.measure) note = lower;
    const middle = staffLineY(target, 2, (line.x0 + line.x1) / 2);
    // Words for a barline stand over it, ending past the measure's last note: they are the measure's end's.
    const atBarline = words && AT_BARLINE.test(words.trim()) && line.x1 > Math.max(...(byStaff.get(at) ?? []).filter((n) => n.measure === note!.measure).map((n) => n.x1));
    note.measure.directions.push({
      offset: atBarline ? measureLength(note.measure, undefined) : note.onset,
      staff: note.event.staff,
      placement: pedal || (line.y0 + line.y1) / 2 > middle ? 'below' : 'above',
      ...(rehearsal ? { rehearsal } : {}),
      ...(dynamics ? { dynamics } : {}),
      ...(pedal ? { pedal } : {}),
      ...(words ? { words } : {}),
      ...(jump ? { jump } : {}),
      // A metronome mark sets the playback tempo, in quarters per minute.
      ...(metronome ? { metronome, tempo: quartersPerMinute(metronome) } : {}),
      evidence: lineEvidence(page, line),
    });
    if (dynamics) anchorHairpinsAt(note, line, page, target.space);
  }
}

// ---------------------------------------------------------------------------
// Endings' printed numbers.

/** An ending's number as printed under its bracket's start ("1.", "2.", "3."; a tuplet's number has no period). */
const ENDING_NUMBER = /^([1-9])\.$/;
/** The number stands over the staff under it, at most this many spaces up (as high as a bracket is lifted) … */
const ENDING_NUMBER_RISE = 10;
/** … and the ending's first note at most this many spaces right of the number's start (the number just past the barline). */
const ENDING_NOTE_REACH = 6.5;

/**
 * The endings' numbers as the page prints them. The music reader numbers endings in order (1, 2, or 2
 * after a repeat); a third ending, or one whose first stands on an earlier page, is known only from the
 * number printed under its bracket's start. Where such a number stands over the start of a measure
 * that begins an ending, that ending takes it in every part, to its stop. Returns the words read so.
 */
function applyEndingNumbers(parts: readonly Part[], events: readonly PageEvent[], page: PageText): Set<OcrWord> {
  const used = new Set<OcrWord>();
  for (const line of page.lines) {
    if (!DIRECTION_KINDS.has(line.kind)) continue;
    for (const word of line.words) {
      const number = ENDING_NUMBER.exec(word.text.trim())?.[1];
      if (!number) continue;
      const below = staffUnder(page, word);
      if (below === undefined) continue;
      const space = page.staves[below]!.space;
      const first = events.filter((e) => e.pageStaff === below && e.x1 >= word.x0).reduce<PageEvent | undefined>((a, b) => (!a || b.x0 < a.x0 ? b : a), undefined);
      if (!first || first.x0 - word.x0 > space * ENDING_NOTE_REACH) continue;
      const part = parts.find((p) => p.measures.includes(first.measure))!;
      const index = part.measures.indexOf(first.measure);
      const ending = first.measure.leftBarline?.ending;
      if (!ending || ending.type !== 'start') continue;
      if (ending.number !== number) for (const p of parts) renumberEnding(p.measures, index, ending.number, number);
      used.add(word);
    }
  }
  return used;
}

/** The page's staff under a word, its top line at most {@link ENDING_NUMBER_RISE} spaces below the word. */
function staffUnder(page: PageText, word: OcrWord): number | undefined {
  const x = (word.x0 + word.x1) / 2;
  let best: { staff: number; gap: number } | undefined;
  page.staves.forEach((staff, k) => {
    const gap = staffLineY(staff, 0, x) - word.y1;
    if (gap > 0 && gap <= staff.space * ENDING_NUMBER_RISE && (!best || gap < best.gap)) best = { staff: k, gap };
  });
  return best?.staff;
}

/** The ending that starts at measure `index` numbered `number` instead of `old`, from its start to its stop. */
function renumberEnding(measures: readonly Measure[], index: number, old: string, number: string): void {
  for (let m = index; m < measures.length; m++) {
    const { leftBarline, rightBarline } = measures[m]!;
    if (m === index && leftBarline?.ending?.number === old) leftBarline.ending.number = number;
    if (rightBarline?.ending?.number === old) {
      rightBarline.ending.number = number;
      return;
    }
  }
}

/** A line less the given words (an ending's number read with the words beside it: "3. Majeur"). */
function withoutWords(line: ReadLine, used: ReadonlySet<OcrWord>): ReadLine {
  const words = line.words.filter((w) => !used.has(w));
  if (words.length === line.words.length) return line;
  return { ...line, words, text: words.map((w) => w.text).join(' '), ...(words.length ? { x0: words[0]!.x0 } : {}) };
}

/** Where a line's direction was read: its box on the source page, at its least sure word's confidence. */
function lineEvidence(page: PageText, line: ReadLine): NonNullable<Direction['evidence']> {
  return { page: page.page, box: sourceBox(page.transform, line.x0, line.y0, line.x1, line.y1), confidence: Math.round(Math.min(...line.words.map((w) => w.confidence))) / 100 };
}

/** Movements' headings, as words at the start of the first measure of the system under each. */
function applyHeadings(events: readonly PageEvent[], page: PageText): void {
  const headings = page.lines.filter((line) => line.kind === 'heading' && line.staff !== undefined);
  if (!headings.length) return;
  const byStaff = timedNotes(events);
  for (const line of headings) {
    const first = byStaff.get(line.staff!)?.[0];
    if (!first) continue;
    first.measure.directions.push({
      offset: ZERO,
      staff: first.event.staff,
      placement: 'above',
      words: cleanText(line.text),
      evidence: lineEvidence(page, line),
    });
  }
}

/**
 * Moves to the dynamic's note the start of a hairpin drawn on from the dynamic's last letter, and the end of one
 * drawn up to its first: the music reader placed them at the notes the ink reaches, one note off.
 */
function anchorHairpinsAt(note: PageEvent, line: ReadLine, page: PageText, space: number): void {
  for (const d of note.measure.directions) {
    if (!d.wedge || d.wedge.type === 'continue' || d.staff !== note.event.staff || d.evidence?.page !== page.page) continue;
    const { box } = d.evidence;
    const stop = d.wedge.type === 'stop';
    // A start the reader put after the dynamic's note, or a stop before it.
    if (stop ? compare(d.offset, note.onset) >= 0 : compare(d.offset, note.onset) <= 0) continue;
    const [x, y] = toPreparedPoint(page.transform, stop ? box.x + box.width : box.x, box.y + box.height / 2);
    const gap = stop ? line.x0 - x : x - line.x1;
    if (gap < -space * HAIRPIN_DYNAMIC_OVERLAP || gap > space * HAIRPIN_DYNAMIC_GAP) continue;
    if (y < line.y0 - space * HAIRPIN_DYNAMIC_OVERLAP || y > line.y1 + space * HAIRPIN_DYNAMIC_OVERLAP) continue;
    d.offset = note.onset;
  }
}

/** Whether line `b` is set on from line `a` on its row: starting at most `reach` spaces past its end. */
function followsOn(a: ReadLine, b: ReadLine, space: number, reach = WORDS_AFTER_DYNAMIC): boolean {
  const gap = b.x0 - a.x1;
  return gap > -space * WORDS_LEAD && gap <= space * reach && a.y0 < b.y1 && b.y0 < a.y1;
}

/** Whether a measure stands across the page's column `x` (prepared pixels), from barline to barline. */
function spans(page: PageText, measure: Measure, x: number): boolean {
  const box = measure.evidence?.page === page.page ? measure.evidence.box : undefined;
  if (!box) return false;
  const [x0] = toPreparedPoint(page.transform, box.x, box.y);
  const [x1] = toPreparedPoint(page.transform, box.x + box.width, box.y + box.height);
  return x0 <= x && x < x1;
}

/** Every event of the page with its onset in its measure, by the staff of the page it stands on, left to right. */
function timedNotes(events: readonly PageEvent[]): Map<number, PageEvent[]> {
  const byStaff = new Map<number, PageEvent[]>();
  for (const placed of events) {
    if (placed.event.kind === 'note' && placed.event.grace) continue;
    byStaff.set(placed.pageStaff, [...(byStaff.get(placed.pageStaff) ?? []), placed]);
  }
  for (const notes of byStaff.values()) notes.sort((a, b) => a.x0 - b.x0);
  return byStaff;
}
