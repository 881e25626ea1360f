/**
 * One MusicXML `<measure>` → one model {@link Measure}.
 *
 * MusicXML is a single stream per part that moves a time cursor forwards and
 * backwards (`<backup>`, `<forward>`); the model instead keeps each voice as a
 * gap-free sequence. Notes are first placed at absolute offsets, then sorted
 * into voices, with gaps filled by hidden rests. A voice whose notes overlap
 * (invalid but seen in the wild) is split into extra voices rather than
 * losing or shifting notes.
 */
import { OmrError } from '../../errors.js';
import { add, compare, frac, sub, ZERO, type Fraction } from '../../score/fraction.js';
import type {
  Accidental,
  AccidentalSign,
  Barline,
  BarStyle,
  BeamValue,
  ClefSign,
  Direction,
  DurationType,
  KeySignature,
  Lyric,
  Measure,
  Note,
  NoteEvent,
  RestEvent,
  Slur,
  TimeSignature,
  Transposition,
  Tuplet,
  VoiceEvent,
} from '../../score/model.js';
import { isStep, midiNumber } from '../../score/pitch.js';
import { notatedDuration, TYPE_QUARTERS } from '../../score/timeline.js';
import { MAX_CHORD_NOTES, MAX_DOTS, MAX_MULTI_REST, MAX_VERSES } from '../limits.js';
import { child, children, childText, type XmlElement } from '../xml-tree.js';

/** What carries over from one measure of a part to the next. */
export interface PartReadState {
  partId: string;
  divisions: number;
  staves: number;
  transposition?: Transposition;
  /** Lyric `number` labels that are not plain numbers, mapped to verse numbers. */
  verseLabels: Map<string, number>;
  /** Voices inside a tuplet the file marks unprinted (its start says so; the notes between do not). */
  impliedTuplets?: Set<string>;
}

/** Largest `<divisions>` accepted; real files use at most a few tens of thousands. */
const MAX_DIVISIONS = 1_000_000;
/** Longest accepted single duration, in quarter notes (a maxima is 32). */
const MAX_QUARTERS = 4096;
/**
 * Most lanes one voice may split into. Real overlaps (a missing `<chord>` or
 * `<backup>`) need two or three; a bound keeps a hostile pile of overlapping
 * notes from making the lane search quadratic.
 */
const MAX_LANES = 64;

const DURATION_TYPES = new Set(Object.keys(TYPE_QUARTERS));
const ACCIDENTALS = new Set<string>([
  'sharp', 'flat', 'natural', 'double-sharp', 'flat-flat', 'sharp-sharp', 'natural-sharp', 'natural-flat',
  'quarter-sharp', 'quarter-flat', 'three-quarters-sharp', 'three-quarters-flat',
]);
const BAR_STYLES = new Set<string>([
  'regular', 'dotted', 'dashed', 'heavy', 'light-light', 'light-heavy', 'heavy-light', 'heavy-heavy', 'tick', 'short', 'none',
]);
const BEAM_VALUES = new Set<string>(['begin', 'continue', 'end', 'forward hook', 'backward hook']);
const CLEF_SIGNS = new Set<string>(['G', 'F', 'C', 'percussion', 'TAB', 'none']);
const DEFAULT_CLEF_LINE: Record<string, number> = { G: 2, F: 4, C: 3, percussion: 3, TAB: 5, none: 3 };
/** Articulations kept by the model: element names valid inside `<articulations>`. */
export const ARTICULATIONS = new Set<string>([
  'accent', 'strong-accent', 'staccato', 'tenuto', 'detached-legato', 'staccatissimo', 'spiccato',
  'breath-mark', 'caesura', 'stress', 'unstress', 'soft-accent',
]);

/** Technical marks kept by the model: element names valid inside `<technical>` with no content. */
export const TECHNICAL = new Set<string>(['up-bow', 'down-bow', 'harmonic', 'open-string', 'thumb-position', 'snap-pizzicato', 'stopped']);

/** Ornaments kept by the model: element names valid inside `<ornaments>` (wavy lines and tremolos have their own fields). */
export const ORNAMENTS = new Set<string>([
  'trill-mark', 'mordent', 'inverted-mordent', 'turn', 'inverted-turn', 'delayed-turn', 'delayed-inverted-turn',
  'vertical-turn', 'inverted-vertical-turn', 'shake', 'schleifer', 'haydn',
]);
const WEDGE_TYPES = new Set<string>(['crescendo', 'diminuendo', 'stop', 'continue']);
/** Octave lines MusicXML draws: 8va/8vb, 15ma/15mb, 22ma/22mb (8 when unsaid). */
const OCTAVE_SHIFT_SIZES = new Set([8, 15, 22]);

/** MusicXML pedal types onto the model's: a sostenuto pedal goes down like a damper pedal; a line broken off ends, and resumes as a start. */
const PEDAL_TYPES = new Map<string, NonNullable<Direction['pedal']>>([
  ['start', 'start'], ['stop', 'stop'], ['change', 'change'], ['continue', 'continue'],
  ['sostenuto', 'start'], ['discontinue', 'stop'], ['resume', 'start'],
]);

interface Placed {
  voice: string;
  start: Fraction;
  event: VoiceEvent;
}

export function readMeasure(el: XmlElement, state: PartReadState): Measure {
  const number = el.attrs.number ?? '';
  const where = `part ${state.partId}, measure ${number || '?'}`;
  const measure: Measure = { number, clefs: [], voices: [], directions: [] };
  if (el.attrs.implicit === 'yes') measure.implicit = true;

  const placed: Placed[] = [];
  let pos = ZERO;
  let lastNote: NoteEvent | undefined;

  const duration = (e: XmlElement, required: boolean): Fraction | undefined => {
    const text = childText(e, 'duration');
    if (text === undefined) {
      if (required) throw new OmrError('INVALID_MUSICXML', `${where}: <${e.name}> has no <duration>.`);
      return undefined;
    }
    // Number('') is 0: an empty <duration/> is no duration, not a timeless one.
    const value = text === '' ? NaN : Number(text);
    if (!Number.isFinite(value) || value < 0 || value / state.divisions > MAX_QUARTERS) {
      throw new OmrError('INVALID_MUSICXML', `${where}: duration "${text}" is out of range.`);
    }
    // Fractional durations are invalid MusicXML but written by some tools; round to the nearest division.
    return frac(Math.round(value), state.divisions);
  };

  for (const c of el.children) {
    switch (c.name) {
      case 'attributes':
        readAttributes(c, measure, state, pos, where);
        break;
      case 'note': {
        const isChord = child(c, 'chord') !== undefined;
        if (isChord && lastNote) {
          addChordNote(lastNote, c, state, where);
          break;
        }
        const read = readNote(c, state, where, duration);
        if (!read) break;
        const { event, voice } = read;
        placed.push({ voice, start: pos, event });
        lastNote = event.kind === 'note' ? event : undefined;
        pos = add(pos, event.duration);
        break;
      }
      case 'backup':
        pos = sub(pos, duration(c, true)!);
        if (compare(pos, ZERO) < 0) pos = ZERO;
        break;
      case 'forward': {
        // A forward in a voice is a gap that voice keeps to, even at the end of the measure.
        const gap = duration(c, true)!;
        const voice = childText(c, 'voice');
        if (voice && gap.n > 0) placed.push({ voice, start: pos, event: { kind: 'rest', duration: gap, dots: 0, staff: readStaff(c, state), hidden: true } });
        pos = add(pos, gap);
        break;
      }
      case 'direction': {
        const dir = readDirection(c, state, pos);
        if (dir) measure.directions.push(dir);
        break;
      }
      case 'sound': {
        const tempo = parseTempo(c.attrs.tempo);
        const jump = readJump(c);
        if (tempo !== undefined || jump) measure.directions.push({ offset: pos, staff: 1, ...(tempo !== undefined ? { tempo } : {}), ...(jump ? { jump } : {}) });
        break;
      }
      case 'barline':
        readBarline(c, measure);
        break;
      case 'print':
        if (c.attrs['new-system'] === 'yes') measure.systemBreak = true;
        if (c.attrs['new-page'] === 'yes') measure.pageBreak = true;
        break;
      default:
        // harmony, figured-bass, bookmark, link, grouping: not part of the model.
        break;
    }
  }
  measure.voices = assembleVoices(placed, where);
  return measure;
}

function readNote(
  c: XmlElement,
  state: PartReadState,
  where: string,
  duration: (e: XmlElement, required: boolean) => Fraction | undefined,
): { event: VoiceEvent; voice: string } | undefined {
  const voice = childText(c, 'voice') || '1';
  const staff = readStaff(c, state);
  const typeText = childText(c, 'type');
  const type = typeText && DURATION_TYPES.has(typeText) ? (typeText as DurationType) : undefined;
  const dots = children(c, 'dot').length;
  if (dots > MAX_DOTS) throw new OmrError('INVALID_MUSICXML', `${where}: a note has ${dots} dots; at most ${MAX_DOTS} are accepted.`);
  const tuplet = readTuplet(c, state, voice);
  const grace = child(c, 'grace');

  let dur: Fraction;
  if (grace) {
    dur = ZERO;
  } else {
    const given = duration(c, false);
    if (given) dur = given;
    else if (type) dur = notatedDuration(type, dots, tuplet);
    else throw new OmrError('INVALID_MUSICXML', `${where}: a note has neither <duration> nor <type>.`);
  }

  const common = { duration: dur, dots, staff, ...(type && { type }), ...(tuplet && { tuplet }) };
  // A timeless note outside <grace> is invalid but written by some tools: it sounds like a grace note.
  const timeless = !grace && dur.n === 0;
  const rest = child(c, 'rest');
  if (rest) {
    if (timeless) return undefined; // A rest that takes no time shows nothing.
    const event: RestEvent = { kind: 'rest', ...common };
    if (rest.attrs.measure === 'yes') event.measureRest = true;
    const displayStep = childText(rest, 'display-step');
    const displayOctave = Number(childText(rest, 'display-octave'));
    if (displayStep && isStep(displayStep) && Number.isInteger(displayOctave) && displayOctave >= 0 && displayOctave <= 9) {
      event.displayStep = displayStep;
      event.displayOctave = displayOctave;
    }
    if (c.attrs['print-object'] === 'no') event.hidden = true;
    return { event, voice };
  }

  const event: NoteEvent = { kind: 'note', ...common, notes: [readPitchedNote(c, where)], lyrics: [] };
  const stem = childText(c, 'stem');
  if (stem === 'up' || stem === 'down' || stem === 'none' || stem === 'double') event.stem = stem;
  const beams = readBeams(c);
  if (beams) event.beams = beams;
  if (grace || timeless) event.grace = { slash: grace?.attrs.slash === 'yes' };
  if (child(c, 'cue')) event.cue = true;
  const articulations = readArticulations(c);
  if (articulations.length) event.articulations = articulations;
  addNotations(event, c);
  addLyrics(event, c, state);
  return { event, voice };
}

/** A staff the part does not have (its `<staves>` missing or smaller) falls back to the first. */
function readStaff(c: XmlElement, state: PartReadState): number {
  const staff = Number(childText(c, 'staff') ?? 1);
  return Number.isInteger(staff) && staff >= 1 && staff <= state.staves ? staff : 1;
}

function readPitchedNote(c: XmlElement, where: string): Note {
  const pitchEl = child(c, 'pitch');
  const unpitchedEl = pitchEl ? undefined : child(c, 'unpitched');
  const stepText = pitchEl ? childText(pitchEl, 'step') : childText(unpitchedEl, 'display-step');
  const octaveText = pitchEl ? childText(pitchEl, 'octave') : childText(unpitchedEl, 'display-octave');
  let note: Note;
  if (!pitchEl && !unpitchedEl) {
    throw new OmrError('INVALID_MUSICXML', `${where}: a note has neither <pitch>, <unpitched> nor <rest>.`);
  }
  const octave = Number(octaveText);
  const alter = Number(childText(pitchEl, 'alter') ?? 0);
  if (unpitchedEl && (!stepText || !octaveText)) {
    // Unpitched notes without a display position sit on the middle line.
    note = { pitch: { step: 'B', alter: 0, octave: 4 }, unpitched: true };
  } else {
    if (!stepText || !isStep(stepText) || !octaveText || !Number.isInteger(octave) || octave < 0 || octave > 9 || !Number.isFinite(alter) || Math.abs(alter) > 3) {
      throw new OmrError('INVALID_MUSICXML', `${where}: invalid pitch ${stepText ?? '?'}${octaveText ?? '?'} (alter ${alter}).`);
    }
    note = { pitch: { step: stepText, alter, octave } };
    if (unpitchedEl) note.unpitched = true;
  }
  const acc = child(c, 'accidental');
  const sign = acc?.text.trim();
  if (acc && sign && ACCIDENTALS.has(sign)) {
    const accidental: Accidental = { sign: sign as AccidentalSign };
    if (acc.attrs.cautionary === 'yes') accidental.cautionary = true;
    if (acc.attrs.parentheses === 'yes') accidental.parentheses = true;
    note.accidental = accidental;
  }
  const ties = [...children(c, 'tie'), ...children(child(c, 'notations'), 'tied')].map((t) => t.attrs.type);
  if (ties.includes('start') || ties.includes('continue')) note.tieStart = true;
  if (ties.includes('stop') || ties.includes('continue')) note.tieStop = true;
  const notehead = childText(c, 'notehead');
  if (notehead && notehead !== 'normal') note.notehead = notehead;
  return note;
}

function addChordNote(event: NoteEvent, c: XmlElement, state: PartReadState, where: string): void {
  if (child(c, 'rest')) return; // A rest marked as a chord member carries no pitch.
  if (event.notes.length === MAX_CHORD_NOTES) {
    throw new OmrError('INVALID_MUSICXML', `${where}: a chord has more than ${MAX_CHORD_NOTES} notes.`);
  }
  const note = readPitchedNote(c, where);
  const key = midiNumber(note.pitch);
  const at = event.notes.findIndex((n) => midiNumber(n.pitch) > key);
  event.notes.splice(at < 0 ? event.notes.length : at, 0, note);
  addNotations(event, c);
  addLyrics(event, c, state);
}

function readTuplet(c: XmlElement, state: PartReadState, voice: string): Tuplet | undefined {
  const tm = child(c, 'time-modification');
  if (!tm) return undefined;
  const actual = Number(childText(tm, 'actual-notes'));
  const normal = Number(childText(tm, 'normal-notes'));
  if (!Number.isInteger(actual) || !Number.isInteger(normal) || actual < 1 || normal < 1 || actual > 1000 || normal > 1000) {
    return undefined;
  }
  const tuplet: Tuplet = { actual, normal };
  const normalType = childText(tm, 'normal-type');
  if (normalType && DURATION_TYPES.has(normalType)) tuplet.normalType = normalType as DurationType;
  for (const t of children(child(c, 'notations'), 'tuplet')) {
    if (t.attrs.type === 'start') tuplet.start = true;
    if (t.attrs.type === 'stop') tuplet.stop = true;
  }
  // A tuplet with neither number nor bracket shown is implied by the rhythm, from its start to its stop.
  const implied = (state.impliedTuplets ??= new Set());
  const unprinted = children(child(c, 'notations'), 'tuplet').some((t) => t.attrs.type === 'start' && t.attrs['show-number'] === 'none' && t.attrs.bracket === 'no');
  if (unprinted) implied.add(voice);
  else if (tuplet.start) implied.delete(voice);
  if (implied.has(voice)) tuplet.implied = true;
  if (tuplet.stop) implied.delete(voice);
  return tuplet;
}

function readBeams(c: XmlElement): BeamValue[] | undefined {
  const levels: BeamValue[] = [];
  for (const b of children(c, 'beam')) {
    const level = Number(b.attrs.number ?? 1);
    const value = b.text.trim();
    if (Number.isInteger(level) && level >= 1 && level <= 8 && BEAM_VALUES.has(value) && level === levels.length + 1) {
      levels.push(value as BeamValue);
    }
  }
  return levels.length ? levels : undefined;
}

function readArticulations(c: XmlElement): string[] {
  const found: string[] = [];
  for (const n of children(c, 'notations')) {
    for (const a of children(n, 'articulations')) {
      for (const x of a.children) if (ARTICULATIONS.has(x.name) && !found.includes(x.name)) found.push(x.name);
    }
    if (child(n, 'fermata') && !found.includes('fermata')) found.push('fermata');
  }
  return found;
}

/** A `number` attribute as a MusicXML number-level (1–16); 1 when absent or out of range. */
function numberLevel(text: string | undefined): number {
  const n = Number(text ?? 1);
  return Number.isInteger(n) && n >= 1 && n <= 16 ? n : 1;
}

/**
 * Slurs, ornaments, technical marks, wavy lines, tremolos and arpeggios of one `<note>`, added
 * to its stroke: a chord's notes each may carry them, and the stroke gathers
 * them once (the same slur end or ornament on two heads counts once).
 * Accidental marks and other ornaments are not part of the model.
 */
function addNotations(event: NoteEvent, c: XmlElement): void {
  for (const n of children(c, 'notations')) {
    for (const s of children(n, 'slur')) {
      const type = s.attrs.type;
      if (type !== 'start' && type !== 'stop' && type !== 'continue') continue;
      const slur: Slur = { type, number: numberLevel(s.attrs.number) };
      const placement = s.attrs.placement;
      if (placement === 'above' || placement === 'below') slur.placement = placement;
      const slurs = (event.slurs ??= []);
      if (!slurs.some((x) => x.type === slur.type && x.number === slur.number)) slurs.push(slur);
    }
    for (const o of children(n, 'ornaments')) {
      for (const x of o.children) {
        if (ORNAMENTS.has(x.name)) {
          const ornaments = (event.ornaments ??= []);
          if (!ornaments.includes(x.name)) ornaments.push(x.name);
        } else if (x.name === 'wavy-line') {
          // A line that starts and stops on one stroke keeps its start: the trill is drawn.
          const type = x.attrs.type;
          if (type === 'start' || (type === 'stop' && !event.wavyLine)) event.wavyLine = type;
        } else if (x.name === 'tremolo' && !event.tremolo) {
          const type = x.attrs.type ?? 'single';
          const text = x.text.trim();
          const marks = text === '' ? NaN : Number(text);
          if ((type === 'single' || type === 'start' || type === 'stop') && Number.isInteger(marks) && marks >= 0 && marks <= 8) {
            event.tremolo = { marks, type };
          }
        }
      }
    }
    for (const t of children(n, 'technical')) {
      for (const x of t.children) {
        if (!TECHNICAL.has(x.name)) continue;
        const technical = (event.technical ??= []);
        if (!technical.includes(x.name)) technical.push(x.name);
      }
    }
    if (child(n, 'arpeggiate')) event.arpeggiate = true;
  }
}

function addLyrics(event: NoteEvent, c: XmlElement, state: PartReadState): void {
  for (const l of children(c, 'lyric')) {
    const texts = children(l, 'text').map((t) => t.text);
    if (!texts.length) continue; // An extend-only lyric continues a melisma; it has no syllable.
    const verse = verseNumber(l.attrs.number, state);
    if (verse === undefined || event.lyrics.some((x) => x.verse === verse)) continue;
    const syllabic = childText(l, 'syllabic');
    const lyric: Lyric = {
      verse,
      // Elided syllables ("di_a") share one note; the undertie keeps them apart.
      text: texts.join('\u203f'),
      syllabic: syllabic === 'begin' || syllabic === 'middle' || syllabic === 'end' ? syllabic : 'single',
    };
    const extend = child(l, 'extend');
    if (extend && extend.attrs.type !== 'stop') lyric.extend = true;
    event.lyrics.push(lyric);
  }
}

/** The verse a lyric `number` stands for; undefined past {@link MAX_VERSES}. */
function verseNumber(label: string | undefined, state: PartReadState): number | undefined {
  if (label === undefined || label === '') return 1;
  if (/^\d+$/.test(label) && Number(label) >= 1 && Number(label) <= MAX_VERSES) return Number(label);
  let n = state.verseLabels.get(label);
  if (n === undefined) {
    if (state.verseLabels.size === MAX_VERSES) return undefined;
    n = state.verseLabels.size + 1;
    state.verseLabels.set(label, n);
  }
  return n;
}

function readAttributes(c: XmlElement, measure: Measure, state: PartReadState, pos: Fraction, where: string): void {
  const divisionsText = childText(c, 'divisions');
  if (divisionsText !== undefined) {
    const d = Number(divisionsText);
    if (!Number.isInteger(d) || d < 1 || d > MAX_DIVISIONS) {
      throw new OmrError('INVALID_MUSICXML', `${where}: <divisions> "${divisionsText}" must be a whole number from 1 to ${MAX_DIVISIONS}.`);
    }
    state.divisions = d;
    measure.divisions = d;
  }
  const stavesText = childText(c, 'staves');
  if (stavesText !== undefined) {
    const n = Number(stavesText);
    if (!Number.isInteger(n) || n < 1 || n > 16) throw new OmrError('INVALID_MUSICXML', `${where}: <staves> "${stavesText}" is out of range.`);
    state.staves = Math.max(state.staves, n);
  }
  const keyEl = child(c, 'key');
  const fifthsText = childText(keyEl, 'fifths');
  if (keyEl && fifthsText !== undefined) {
    const fifths = Number(fifthsText);
    if (!Number.isInteger(fifths) || Math.abs(fifths) > 15) throw new OmrError('INVALID_MUSICXML', `${where}: key with ${fifthsText} fifths.`);
    const key: KeySignature = { fifths };
    const mode = childText(keyEl, 'mode');
    if (mode) key.mode = mode;
    const staff = Number(keyEl.attrs.number);
    if (Number.isInteger(staff) && staff >= 1 && staff <= state.staves) key.staff = staff;
    measure.key = key;
  }
  const time = readTime(child(c, 'time'), where);
  if (time) measure.time = time;
  for (const clefEl of children(c, 'clef')) {
    const sign = childText(clefEl, 'sign') ?? 'G';
    if (!CLEF_SIGNS.has(sign)) continue;
    const staff = Number(clefEl.attrs.number ?? 1);
    const line = Number(childText(clefEl, 'line') ?? DEFAULT_CLEF_LINE[sign]);
    const octave = Number(childText(clefEl, 'clef-octave-change') ?? 0);
    if (!Number.isInteger(staff) || staff < 1 || staff > state.staves || !Number.isInteger(line) || line < 1 || line > 6) continue;
    measure.clefs.push({
      sign: sign as ClefSign,
      line,
      staff,
      offset: pos,
      ...(Number.isInteger(octave) && octave !== 0 && Math.abs(octave) <= 2 && { octaveChange: octave }),
    });
  }
  const transpose = child(c, 'transpose');
  if (transpose && !state.transposition) {
    const chromatic = Number(childText(transpose, 'chromatic') ?? 0);
    const diatonic = Number(childText(transpose, 'diatonic') ?? 0);
    const octaveChange = Number(childText(transpose, 'octave-change') ?? 0) + (child(transpose, 'double') ? -1 : 0);
    if ([chromatic, diatonic, octaveChange].every((v) => Number.isInteger(v) && Math.abs(v) <= 48) && (chromatic || diatonic || octaveChange)) {
      state.transposition = { diatonic, chromatic, ...(octaveChange !== 0 && { octaveChange }) };
    }
  }
  const multiRest = Number(childText(child(c, 'measure-style'), 'multiple-rest'));
  if (Number.isInteger(multiRest) && multiRest > 1 && multiRest <= MAX_MULTI_REST) measure.multiRest = multiRest;
}

function readTime(el: XmlElement | undefined, where: string): TimeSignature | undefined {
  if (!el || child(el, 'senza-misura')) return undefined;
  const beatsList = children(el, 'beats').map((b) => b.text.trim());
  const typeList = children(el, 'beat-type').map((b) => Number(b.text.trim()));
  if (!beatsList.length || beatsList.length !== typeList.length) return undefined;
  // Composite signatures (3/4 + 3/8) become one signature over the smallest common beat type.
  let beatType = 1;
  for (const t of typeList) {
    if (!Number.isInteger(t) || t < 1 || t > 1024) throw new OmrError('INVALID_MUSICXML', `${where}: beat type "${t}" is invalid.`);
    beatType = Math.max(beatType, t);
  }
  let beats = 0;
  for (const [i, text] of beatsList.entries()) {
    const sum = text.split('+').reduce((s, part) => s + Number(part), 0);
    if (!Number.isInteger(sum) || sum < 1 || sum > 1000) throw new OmrError('INVALID_MUSICXML', `${where}: time signature beats "${text}" are invalid.`);
    beats += (sum * beatType) / typeList[i]!;
  }
  if (!Number.isInteger(beats)) return undefined;
  const time: TimeSignature = { beats, beatType };
  const symbol = el.attrs.symbol;
  if (symbol === 'common' || symbol === 'cut' || symbol === 'single-number' || symbol === 'normal') time.symbol = symbol;
  if (beatsList.length === 1 && beatsList[0]!.includes('+')) time.beatsText = beatsList[0]!;
  return time;
}

function readBarline(c: XmlElement, measure: Measure): void {
  const location = c.attrs.location ?? 'right';
  if (location === 'middle') return;
  const styleText = childText(c, 'bar-style') ?? 'regular';
  const barline: Barline = { style: BAR_STYLES.has(styleText) ? (styleText as BarStyle) : 'regular' };
  const repeat = child(c, 'repeat');
  const direction = repeat?.attrs.direction;
  if (direction === 'forward' || direction === 'backward') {
    const times = Number(repeat!.attrs.times);
    barline.repeat = { direction, ...(Number.isInteger(times) && times > 0 && times <= 1000 && { times }) };
  }
  const ending = child(c, 'ending');
  const endingType = ending?.attrs.type;
  if (ending && (endingType === 'start' || endingType === 'stop' || endingType === 'discontinue')) {
    const number = (ending.attrs.number ?? '1').trim();
    const text = ending.text.trim();
    barline.ending = { number: /^[1-9][0-9]*(, ?[1-9][0-9]*)*$/.test(number) ? number : '1', type: endingType, ...(text && { text }) };
  }
  if (location === 'left') measure.leftBarline = barline;
  else measure.rightBarline = barline;
}

function readDirection(c: XmlElement, state: PartReadState, pos: Fraction): Direction | undefined {
  const dir: Direction = { offset: pos, staff: readStaff(c, state) };
  const placement = c.attrs.placement;
  if (placement === 'above' || placement === 'below') dir.placement = placement;
  const words: string[] = [];
  const rehearsal: string[] = [];
  for (const dt of children(c, 'direction-type')) {
    for (const w of children(dt, 'words')) if (w.text.trim()) words.push(w.text.trim());
    const dyn = child(dt, 'dynamics');
    if (dyn && !dir.dynamics) {
      const mark = dyn.children.find((m) => m.name !== 'other-dynamics');
      const others = children(dyn, 'other-dynamics').map((m) => m.text.trim()).filter(Boolean);
      // A mark with words printed beside it as one dynamic ("f risoluto", as MuseScore writes it): the mark, and the words.
      if (mark) {
        dir.dynamics = mark.name;
        words.push(...others);
      } else if (others.length) dir.dynamics = others.join(' ');
    }
    const metronome = readMetronome(child(dt, 'metronome'));
    if (metronome && !dir.metronome) dir.metronome = metronome;
    const wedge = child(dt, 'wedge');
    const wedgeType = wedge?.attrs.type;
    // Of a hairpin ending where the next begins, the beginning is kept: it is what is drawn from here on.
    if (wedgeType && WEDGE_TYPES.has(wedgeType) && (!dir.wedge || (dir.wedge.type === 'stop' && wedgeType !== 'stop'))) {
      dir.wedge = { type: wedgeType as NonNullable<Direction['wedge']>['type'], number: numberLevel(wedge.attrs.number) };
    }
    const pedal = PEDAL_TYPES.get(child(dt, 'pedal')?.attrs.type ?? '');
    if (pedal && !dir.pedal) dir.pedal = pedal;
    const shift = child(dt, 'octave-shift')?.attrs;
    if (!dir.octaveShift && shift && (shift.type === 'up' || shift.type === 'down' || shift.type === 'stop')) {
      dir.octaveShift = { type: shift.type, size: OCTAVE_SHIFT_SIZES.has(Number(shift.size)) ? Number(shift.size) : 8 };
    }
    for (const r of children(dt, 'rehearsal')) if (r.text.trim()) rehearsal.push(r.text.trim());
    if (!dir.sign && child(dt, 'segno')) dir.sign = 'segno';
    if (!dir.sign && child(dt, 'coda')) dir.sign = 'coda';
  }
  if (words.length) dir.words = words.join(' ');
  if (rehearsal.length) dir.rehearsal = rehearsal.join(' ');
  const sound = child(c, 'sound');
  const tempo = parseTempo(sound?.attrs.tempo);
  if (tempo !== undefined) dir.tempo = tempo;
  const jump = sound && readJump(sound);
  if (jump) dir.jump = jump;
  const kept = [dir.words, dir.dynamics, dir.metronome, dir.tempo, dir.wedge, dir.octaveShift, dir.pedal, dir.rehearsal, dir.sign, dir.jump];
  if (kept.every((x) => x === undefined)) return undefined;
  return dir;
}

/** A `<sound>` that sends the player back to the start (dacapo) or ends the piece after a D.C. (fine). */
function readJump(sound: XmlElement): Direction['jump'] {
  if (sound.attrs.dacapo === 'yes') return 'daCapo';
  return sound.attrs.fine !== undefined && sound.attrs.fine !== 'no' ? 'fine' : undefined;
}

function readMetronome(el: XmlElement | undefined): Direction['metronome'] {
  if (!el) return undefined;
  const units = children(el, 'beat-unit').map((u) => u.text.trim());
  const perMinuteText = childText(el, 'per-minute');
  // Metric modulations (♩ = ♪.) name two beat units and no speed: not a tempo.
  if (units.length !== 1 || perMinuteText === undefined) return undefined;
  const perMinute = Number(/\d+(\.\d+)?/.exec(perMinuteText)?.[0]);
  const unit = units[0]!;
  if (!DURATION_TYPES.has(unit) || !Number.isFinite(perMinute) || perMinute <= 0 || perMinute > 10_000) return undefined;
  return { beatUnit: unit as DurationType, dots: children(el, 'beat-unit-dot').length, perMinute };
}

function parseTempo(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const tempo = Number(text);
  return Number.isFinite(tempo) && tempo > 0 && tempo <= 10_000 ? tempo : undefined;
}

/**
 * Sorts placed events into gap-free voices. Events keep document order at
 * equal start times, so grace notes stay before their main note.
 */
function assembleVoices(placed: Placed[], where: string): Measure['voices'] {
  const byVoice = new Map<string, Placed[]>();
  for (const p of placed) {
    const list = byVoice.get(p.voice);
    if (list) list.push(p);
    else byVoice.set(p.voice, [p]);
  }
  const ids = [...byVoice.keys()].sort((a, b) => {
    const na = Number(a);
    const nb = Number(b);
    return Number.isFinite(na) && Number.isFinite(nb) ? na - nb : a.localeCompare(b);
  });
  const voices: Measure['voices'] = [];
  for (const id of ids) {
    const items = byVoice.get(id)!.slice().sort((a, b) => compare(a.start, b.start));
    const lanes: { cursor: Fraction; events: VoiceEvent[] }[] = [];
    for (const item of items) {
      let lane = lanes.find((l) => compare(l.cursor, item.start) <= 0);
      if (!lane) {
        if (lanes.length === MAX_LANES) {
          throw new OmrError('INVALID_MUSICXML', `${where}: voice ${id} has more than ${MAX_LANES} notes sounding at once.`);
        }
        lane = { cursor: ZERO, events: [] };
        lanes.push(lane);
      }
      if (compare(lane.cursor, item.start) < 0) {
        lane.events.push({ kind: 'rest', duration: sub(item.start, lane.cursor), dots: 0, staff: item.event.staff, hidden: true });
      }
      lane.events.push(item.event);
      lane.cursor = add(item.start, item.event.duration);
    }
    lanes.forEach((lane, i) => voices.push({ id: i === 0 ? id : `${id}.${i}`, events: lane.events }));
  }
  return voices;
}
