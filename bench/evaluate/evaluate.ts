/**
 * Accuracy of a recognised score against the ground truth of the same
 * document: the evaluator behind `npm run bench:accuracy`.
 *
 * Staves are numbered globally in score order — part by part, staff by staff
 * within a part — and predicted staff i is compared with true staff i. OMR
 * reads staves top to bottom, so this is the pairing a recogniser is judged
 * on; a staff it misses or invents shifts or extends the numbering, and its
 * notes then count as unmatched (lowering recall or precision) rather than
 * being excused by a search for the best staff permutation. Parts pair up
 * the same way, by index.
 *
 * Every metric keeps its counts beside its ratios, so that {@link aggregate}
 * can micro-average exactly: it sums the counts over documents and derives
 * the ratios again.
 */
import { add, compare, equals, sub, type Fraction } from '../../src/score/fraction.js';
import type { Measure, Pitch, Score } from '../../src/score/model.js';
import { midiNumber } from '../../src/score/pitch.js';
import { measureStarts, placedNotes } from '../../src/score/timeline.js';
import { align } from './align.js';
import { evaluateNotation, sumNotation, type NotationMetrics } from './notation.js';

/** Note detection: matched pairs, the notes on each side, and the ratios. */
export interface Detection {
  matched: number;
  predicted: number;
  truth: number;
  /** matched / predicted. */
  precision: number;
  /** matched / truth. */
  recall: number;
  /** 2·matched / (predicted + truth), the harmonic mean of the two. */
  f1: number;
}

/** Matched items of aligned sequences over the larger side's count. */
export interface Accuracy {
  matched: number;
  /** Σ max(true count, predicted count) per sequence, so extras cost as much as misses. */
  total: number;
  accuracy: number;
}

export interface MeasureCount {
  predicted: number;
  truth: number;
  /** |predicted − truth|, summed over documents. */
  difference: number;
  /** difference / truth. */
  error: number;
}

/** Whether a document's count (of staves, of parts) is right. */
export interface CountAgreement {
  predicted: number;
  truth: number;
  /** Documents whose counts agree. */
  correct: number;
  /** correct / documents. */
  accuracy: number;
}

export interface AggregateMetrics {
  documents: number;
  /** Notes matching in pitch and duration. */
  strict: Detection;
  /** Notes matching in pitch, on the same alignment as {@link strict}. */
  loose: Detection;
  /**
   * Notes as heard: a chain of tied heads is one note lasting their sum, and
   * it matches in pitch and that whole duration. A tie never read costs here
   * (two notes where the page has one), which per-head counting cannot see.
   */
  tieMerged: Detection;
  /** Everything printed: the notation edit-distance error rate and per-element precision and recall (notation.ts). */
  notation: NotationMetrics;
  measures: MeasureCount;
  /** Clefs in force, per staff. */
  clef: Accuracy;
  /** Key signatures (fifths), per part. */
  key: Accuracy;
  /** Time signatures (beats/beat type), per part. */
  time: Accuracy;
  staves: CountAgreement;
  parts: CountAgreement;
  /** The title read, word for word (documents whose truth has one). */
  title: Accuracy;
  /** Part names, part by part in score order. */
  partNames: Accuracy;
  /** Lyric syllables, per part and verse, aligned in order. */
  lyrics: Accuracy;
  /**
   * Measure numbers as the page prints them: the first part's measures compared position by position,
   * so a numbering shifted by one (a pickup counted, a printed number not read) costs every measure.
   */
  measureNumbers: Accuracy;
}

/** One document's metrics: the aggregate of a single document, so both combine alike. */
export type ScoreMetrics = AggregateMetrics;

/** Compares a recognised score with the true score of the same document. */
export function evaluateScore(predicted: Score, truth: Score): ScoreMetrics {
  const notes = matchNotes(staffNotes(predicted), staffNotes(truth));
  const heard = matchNotes(staffNotes(predicted, { mergeTies: true }), staffNotes(truth, { mergeTies: true }));
  const predictedMeasures = measureCount(predicted);
  const trueMeasures = measureCount(truth);
  return {
    documents: 1,
    strict: detection(notes.strict, notes.predicted, notes.truth),
    loose: detection(notes.loose, notes.predicted, notes.truth),
    tieMerged: detection(heard.strict, heard.predicted, heard.truth),
    notation: evaluateNotation(predicted, truth).metrics,
    measures: measureError(predictedMeasures, trueMeasures, Math.abs(predictedMeasures - trueMeasures)),
    clef: sequenceAccuracy(staffClefs(predicted), staffClefs(truth)),
    key: sequenceAccuracy(partSignatures(predicted, keyLabel), partSignatures(truth, keyLabel)),
    time: sequenceAccuracy(partSignatures(predicted, timeLabel), partSignatures(truth, timeLabel)),
    staves: agreement(staffTotal(predicted), staffTotal(truth)),
    parts: agreement(predicted.parts.length, truth.parts.length),
    ...textMetrics(predicted, truth),
    measureNumbers: measureNumberAccuracy(predicted, truth),
  };
}

/** Micro-average over documents: counts are summed, then the ratios recomputed. */
export function aggregate(metrics: readonly ScoreMetrics[]): AggregateMetrics {
  const sum = (value: (m: ScoreMetrics) => number) => metrics.reduce((total, m) => total + value(m), 0);
  const documents = sum((m) => m.documents);
  const detectionSum = (pick: (m: ScoreMetrics) => Detection) =>
    detection(sum((m) => pick(m).matched), sum((m) => pick(m).predicted), sum((m) => pick(m).truth));
  const accuracySum = (pick: (m: ScoreMetrics) => Accuracy) => accuracy(sum((m) => pick(m).matched), sum((m) => pick(m).total));
  const agreementSum = (pick: (m: ScoreMetrics) => CountAgreement): CountAgreement => ({
    predicted: sum((m) => pick(m).predicted),
    truth: sum((m) => pick(m).truth),
    correct: sum((m) => pick(m).correct),
    accuracy: ratio(sum((m) => pick(m).correct), documents),
  });
  return {
    documents,
    strict: detectionSum((m) => m.strict),
    loose: detectionSum((m) => m.loose),
    tieMerged: detectionSum((m) => m.tieMerged),
    notation: sumNotation(metrics.map((m) => m.notation)),
    measures: measureError(sum((m) => m.measures.predicted), sum((m) => m.measures.truth), sum((m) => m.measures.difference)),
    clef: accuracySum((m) => m.clef),
    key: accuracySum((m) => m.key),
    time: accuracySum((m) => m.time),
    staves: agreementSum((m) => m.staves),
    parts: agreementSum((m) => m.parts),
    title: accuracySum((m) => m.title),
    partNames: accuracySum((m) => m.partNames),
    lyrics: accuracySum((m) => m.lyrics),
    measureNumbers: accuracySum((m) => m.measureNumbers),
  };
}

// ---------------------------------------------------------------------------
// Ratios. An empty denominator means there was nothing to get wrong: it is
// perfect only when the other side is empty too (no notes predicted for a
// score with no notes), so that emitting nothing never scores well.

function ratio(part: number, whole: number): number {
  return whole > 0 ? part / whole : 1;
}

function detection(matched: number, predicted: number, truth: number): Detection {
  return {
    matched,
    predicted,
    truth,
    precision: predicted > 0 ? matched / predicted : truth > 0 ? 0 : 1,
    recall: truth > 0 ? matched / truth : predicted > 0 ? 0 : 1,
    f1: ratio(2 * matched, predicted + truth),
  };
}

function accuracy(matched: number, total: number): Accuracy {
  return { matched, total, accuracy: ratio(matched, total) };
}

/** The first part's measure numbers, position by position, over the longer side. */
function measureNumberAccuracy(predicted: Score, truth: Score): Accuracy {
  const numbers = (score: Score) => score.parts[0]?.measures.map((m) => m.number) ?? [];
  const [p, t] = [numbers(predicted), numbers(truth)];
  return accuracy(t.filter((number, i) => p[i] === number).length, Math.max(p.length, t.length));
}

function measureError(predicted: number, truth: number, difference: number): MeasureCount {
  return { predicted, truth, difference, error: truth > 0 ? difference / truth : Math.min(difference, 1) };
}

function agreement(predicted: number, truth: number): CountAgreement {
  const correct = predicted === truth ? 1 : 0;
  return { predicted, truth, correct, accuracy: correct };
}

// ---------------------------------------------------------------------------
// Staves.

/**
 * Global staff index of a part's staff. A staff number the part does not
 * have counts as its first staff, as the MusicXML reader reads it.
 */
function staffSlot(offsets: readonly number[], score: Score, part: number, staff: number): number {
  const staves = score.parts[part]!.staves;
  return offsets[part]! + (Number.isInteger(staff) && staff >= 1 && staff <= staves ? staff - 1 : 0);
}

/** First global staff index of each part. */
function staffOffsets(score: Score): number[] {
  let next = 0;
  return score.parts.map((part) => {
    const first = next;
    next += part.staves;
    return first;
  });
}

function staffTotal(score: Score): number {
  return score.parts.reduce((total, part) => total + part.staves, 0);
}

/**
 * Measures of the longest part. Parts of one score normally agree; taking
 * the longest keeps a stray short (or empty) part from hiding measures the
 * recogniser did read, while a part it cut short still loses its notes.
 */
function measureCount(score: Score): number {
  return score.parts.reduce((most, part) => Math.max(most, part.measures.length), 0);
}

// ---------------------------------------------------------------------------
// Notes.

/** A note as compared: written pitch, duration and where it sits in its measure. */
export interface NoteToken {
  measure: number;
  /** Onset from the start of the measure: ordering only, never matched on. */
  onset: Fraction;
  pitch: Pitch;
  duration: Fraction;
  midi: number;
}

/**
 * Each global staff's notes in reading order: measure, onset in the measure,
 * pitch from low to high, then duration, so that a chord or a unison shared
 * by two voices comes out in the same order whichever voice holds which
 * note. Grace notes are left out — they take no time and recognisers and
 * encoders disagree most about them; cue notes are printed, so they count.
 * Tied notes count once per notehead, as printed, unless `mergeTies` asks
 * for them as heard: a head whose tie stop meets an open tie of the same
 * pitch on its staff, ending where it starts, lengthens that note instead.
 */
export function staffNotes(score: Score, options: { mergeTies?: boolean } = {}): NoteToken[][] {
  const offsets = staffOffsets(score);
  const staves = Array.from({ length: staffTotal(score) }, (): NoteToken[] => []);
  const starts = score.parts.map(measureStarts);
  /** Tied notes waiting for their continuation, by staff and pitch: the token and where it ends. */
  const open = new Map<string, { token: NoteToken; end: Fraction }>();
  const placedInTime = [...placedNotes(score)].filter((p) => !p.grace).sort((x, y) => compare(x.onset, y.onset));
  for (const placed of placedInTime) {
    const slot = staffSlot(offsets, score, placed.part, placed.staff);
    const key = `${slot}:${midiNumber(placed.pitch)}`;
    const pending = options.mergeTies ? open.get(key) : undefined;
    if (pending && placed.note.tieStop && equals(pending.end, placed.onset)) {
      pending.token.duration = add(pending.token.duration, placed.duration);
      pending.end = add(placed.onset, placed.duration);
      if (!placed.note.tieStart) open.delete(key);
      continue;
    }
    const token: NoteToken = {
      measure: placed.measure,
      onset: sub(placed.onset, starts[placed.part]![placed.measure]!),
      pitch: placed.pitch,
      duration: placed.duration,
      midi: midiNumber(placed.pitch),
    };
    staves[slot]!.push(token);
    if (options.mergeTies && placed.note.tieStart) open.set(key, { token, end: add(placed.onset, placed.duration) });
    else open.delete(key);
  }
  for (const notes of staves) notes.sort(readingOrder);
  return staves;
}

function readingOrder(x: NoteToken, y: NoteToken): number {
  return x.measure - y.measure || compare(x.onset, y.onset) || x.midi - y.midi || compare(x.duration, y.duration);
}

/** Spelled written pitch: an enharmonic misspelling (C♯ for D♭) is a wrong pitch. */
function samePitch(x: Pitch, y: Pitch): boolean {
  return x.step === y.step && x.alter === y.alter && x.octave === y.octave;
}

interface NoteMatches {
  strict: number;
  loose: number;
  predicted: number;
  truth: number;
}

function matchNotes(predicted: NoteToken[][], truth: NoteToken[][]): NoteMatches {
  let strict = 0;
  let loose = 0;
  for (let i = 0; i < Math.min(predicted.length, truth.length); i++) {
    const p = predicted[i]!;
    const t = truth[i]!;
    for (const [a, b] of alignNotes(p, t)) {
      loose++;
      if (equals(p[a]!.duration, t[b]!.duration)) strict++;
    }
  }
  const count = (staves: NoteToken[][]) => staves.reduce((total, notes) => total + notes.length, 0);
  return { strict, loose, predicted: count(predicted), truth: count(truth) };
}

/**
 * Aligns two staves' notes by sequence order alone. Absolute onsets are not
 * compared: one missing measure would shift every later onset and turn the
 * rest of the staff into mismatches, while the order survives it. Only equal
 * pitches may pair. A pitch match is worth more than all possible duration
 * bonuses together, so the alignment first maximises pitch matches (loose
 * matches are the longest common pitch subsequence) and then, among those
 * alignments, duration matches; strict and loose thus count on one alignment
 * and strict never exceeds loose.
 */
function alignNotes(predicted: readonly NoteToken[], truth: readonly NoteToken[]) {
  const pitchMatch = Math.min(predicted.length, truth.length) + 1;
  return align(predicted, truth, (p, t) => {
    if (!samePitch(p.pitch, t.pitch)) return 0;
    return equals(p.duration, t.duration) ? pitchMatch + 1 : pitchMatch;
  });
}

// ---------------------------------------------------------------------------
// Clefs, keys and time signatures: each compared as the sequence of values
// in force, aligned like notes so that one missed change costs one item.

/**
 * Drops an item equal to the one before it. A restated clef or signature
 * (at a system start, or after a repeat) changes nothing, and whether a
 * recogniser reports it says nothing about what it read.
 */
function changes(values: readonly string[]): string[] {
  return values.filter((value, i) => value !== values[i - 1]);
}

/** The clefs of each global staff, in order of appearance. */
function staffClefs(score: Score): string[][] {
  const offsets = staffOffsets(score);
  const staves = Array.from({ length: staffTotal(score) }, (): string[] => []);
  for (const [p, part] of score.parts.entries()) {
    for (const measure of part.measures) {
      const clefs = [...measure.clefs].sort((x, y) => compare(x.offset, y.offset));
      for (const clef of clefs) {
        staves[staffSlot(offsets, score, p, clef.staff)]!.push(`${clef.sign}${clef.line}${clef.octaveChange ? `^${clef.octaveChange}` : ''}`);
      }
    }
  }
  return staves.map(changes);
}

/** Each part's signatures, in order of appearance; `label` reads one measure's. */
function partSignatures(score: Score, label: (measure: Measure) => string | undefined): string[][] {
  return score.parts.map((part) => changes(part.measures.flatMap((m) => label(m) ?? [])));
}

/** A key signature as counted: its fifths; the mode is rarely printed, so it is not judged. */
function keyLabel(measure: Measure): string | undefined {
  return measure.key && String(measure.key.fifths);
}

/** A time signature as counted: `symbol` and additive text are only how it is drawn. */
function timeLabel(measure: Measure): string | undefined {
  return measure.time && `${measure.time.beats}/${measure.time.beatType}`;
}

function sequenceAccuracy(predicted: readonly string[][], truth: readonly string[][]): Accuracy {
  let matched = 0;
  let total = 0;
  for (let i = 0; i < Math.max(predicted.length, truth.length); i++) {
    const p = predicted[i] ?? [];
    const t = truth[i] ?? [];
    matched += align(p, t, (x, y) => (x === y ? 1 : 0)).length;
    total += Math.max(p.length, t.length);
  }
  return accuracy(matched, total);
}

// ---------------------------------------------------------------------------
// Text: the title, part names and lyrics, compared as printed text. Spacing
// and the typographic form of quotes and apostrophes are not judged (OCR
// and engravers differ in them), nor, for lyrics, the punctuation around a
// syllable; letters and their case are.

function textMetrics(predicted: Score, truth: Score): Pick<ScoreMetrics, 'title' | 'partNames' | 'lyrics'> {
  const trueTitle = normalText(truth.credits.title ?? '');
  const title = trueTitle ? accuracy(normalText(predicted.credits.title ?? '') === trueTitle ? 1 : 0, 1) : accuracy(0, 0);
  const parts = Math.max(predicted.parts.length, truth.parts.length);
  let names = 0;
  for (let i = 0; i < Math.min(predicted.parts.length, truth.parts.length); i++) {
    if (normalText(predicted.parts[i]!.name).toLowerCase() === normalText(truth.parts[i]!.name).toLowerCase()) names++;
  }
  const predictedLyrics = lyricLines(predicted);
  const trueLyrics = lyricLines(truth);
  const keys = [...new Set([...predictedLyrics.keys(), ...trueLyrics.keys()])];
  const lyrics = sequenceAccuracy(keys.map((k) => predictedLyrics.get(k) ?? []), keys.map((k) => trueLyrics.get(k) ?? []));
  return { title, partNames: accuracy(names, parts), lyrics };
}

function normalText(text: string): string {
  return text.normalize('NFC').replace(/[‘’`´]/g, "'").replace(/[“”„«»]/g, '"').replace(/\s+/g, ' ').trim();
}

/** The syllables of each part and verse (`part:verse`), in score order. */
function lyricLines(score: Score): Map<string, string[]> {
  const lines = new Map<string, string[]>();
  score.parts.forEach((part, p) => {
    for (const measure of part.measures) {
      // Voices of a measure one after the other: lyrics hang on one voice per staff in practice.
      for (const voice of measure.voices) {
        for (const event of voice.events) {
          if (event.kind !== 'note') continue;
          for (const lyric of event.lyrics) {
            const text = normalText(lyric.text).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
            const key = `${p}:${lyric.verse}`;
            if (text) lines.set(key, [...(lines.get(key) ?? []), text]);
          }
        }
      }
    }
  });
  return lines;
}
