/**
 * The text read off the pages, put where it belongs in the score:
 *
 * - the title block of the first page → `credits` (the title also names the
 *   export files and the details step's title);
 * - part names and abbreviations → `Part.name` / `abbreviation`, and the
 *   instrument a name matches (`matchInstrumentName`: Violine, Vl.,
 *   "Klarinette in B" …) → instrument id, MIDI program, transposition;
 * - lyric lines → syllables on the notes above them, verse by verse.
 *
 * Parts and notes are found through their recognition evidence (boxes in
 * the decoded page's pixels), so this runs on the assembled score without
 * knowing how assembly laid out its parts.
 */
import { matchInstrumentName } from '../score/instruments.js';
import type { Box, Credits, NoteEvent, Part, Score } from '../score/model.js';
import { toPreparedPoint, toSourcePoint, type PageTransform } from '../preparation/prepare-page.js';
import { staffLineY } from '../staves/detect-staves.js';
import { nearestStaff } from '../staves/staff-geometry.js';
import { assignSyllables, splitSyllables, syllableCuts, type NoteSlot } from './lyrics.js';
import type { PageText, ReadLine } from './page-text.js';

/** Syllables part where letters stand further apart than this share of the letter height. */
const SYLLABLE_GAP = 0.3;
/** How far (staff spaces) a syllable may stand from the notehead it is sung to. */
const SYLLABLE_REACH = 3;

export function applyText(score: Score, pages: readonly PageText[]): void {
  const first = pages.reduce<PageText | undefined>((a, b) => (!a || b.page < a.page ? b : a), undefined);
  if (first) applyCredits(score.credits, first.lines);
  for (const page of pages) {
    applyPartNames(score.parts, page);
    applyLyrics(score, page);
  }
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

function applyPartNames(parts: Part[], page: PageText): void {
  for (const kind of ['partName', 'abbreviation'] as const) {
    const byPart = new Map<number, string[]>();
    for (const line of page.lines) {
      if (line.kind !== kind || line.staff === undefined || !hasLetters(line.text)) continue;
      const part = partAtStaff(parts, page, line.staff);
      if (part >= 0) byPart.set(part, [...(byPart.get(part) ?? []), cleanText(line.text)]);
    }
    for (const [index, texts] of byPart) {
      const part = parts[index]!;
      const text = texts.join(' ');
      if (kind === 'abbreviation') {
        part.abbreviation ??= text;
        continue;
      }
      part.name = text;
      // A near miss (a misread or cut-off name) says too little to replace the layout's guess.
      const match = matchInstrumentName(text);
      if (!match || match.confidence === 'low') continue;
      const { instrument } = match;
      part.instrumentId = instrument.id;
      part.midiProgram = instrument.midiProgram;
      if (instrument.percussion) part.percussion = true;
      if (instrument.transposition) part.transposition = { ...instrument.transposition };
    }
  }
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

function applyLyrics(score: Score, page: PageText): void {
  const lines = page.lines.filter((line) => line.kind === 'lyrics' && line.staff !== undefined);
  if (!lines.length) return;
  const byStaff = notesByStaff(score, page);
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
function notesByStaff(score: Score, page: PageText): Map<number, PlacedNote[]> {
  const byStaff = new Map<number, PlacedNote[]>();
  for (const part of score.parts) {
    for (const measure of part.measures) {
      if (measure.evidence?.page !== page.page) continue;
      for (const voice of measure.voices) {
        for (const event of voice.events) {
          if (event.kind !== 'note' || event.grace || event.evidence?.page !== page.page) continue;
          const { box } = event.notes[0]?.evidence ?? event.evidence;
          const [x0, y0] = toPreparedPoint(page.transform, box.x, box.y);
          const [x1, y1] = toPreparedPoint(page.transform, box.x + box.width, box.y + box.height);
          const staff = nearestStaff(page.staves, (x0 + x1) / 2, (y0 + y1) / 2);
          if (staff < 0) continue;
          byStaff.set(staff, [...(byStaff.get(staff) ?? []), { x0, x1, event }]);
        }
      }
    }
  }
  for (const [staff, notes] of byStaff) {
    notes.sort((a, b) => a.x0 - b.x0);
    const space = page.staves[staff]!.space;
    byStaff.set(staff, notes.filter((note, i) => i === 0 || Math.abs(note.x0 - notes[i - 1]!.x0) > space * 0.5));
  }
  return byStaff;
}

function sourceBox(transform: PageTransform, x0: number, y0: number, x1: number, y1: number): Box {
  const corners = [toSourcePoint(transform, x0, y0), toSourcePoint(transform, x1, y1)];
  const x = Math.max(0, Math.floor(Math.min(corners[0]![0], corners[1]![0])));
  const y = Math.max(0, Math.floor(Math.min(corners[0]![1], corners[1]![1])));
  return { x, y, width: Math.ceil(Math.max(corners[0]![0], corners[1]![0])) - x, height: Math.ceil(Math.max(corners[0]![1], corners[1]![1])) - y };
}
