/**
 * MEI → score model. Reads MEI 3 to 5 as Verovio writes it (from Humdrum,
 * MusicXML or its own editor) and as common MEI editions encode it.
 *
 * What maps where:
 * - `meiHead`: title (`titleStmt/title`, or the work's title), composer,
 *   lyricist and arranger (`composer`/`lyricist`/`arranger` elements, or
 *   `persName`/`name` with a `role`), rights (`useRestrict`/`availability`).
 * - `scoreDef`/`staffGrp`/`staffDef`: each `staffDef` is a part, except a
 *   grand staff — a `staffGrp` with a brace, its own `label` (or `instrDef`),
 *   2–4 `staffDef`s and at most one of them labelled — which is one part with
 *   several staves. Nested `staffGrp`s with a symbol (or `bar.thru`) become
 *   part groups. Clef, key and meter come from attributes (MEI 3/4:
 *   `clef.shape`, `key.sig`, `meter.count` …) or child elements (MEI 4/5:
 *   `clef`, `keySig` with `sig` or `keyAccid`s, `meterSig`); `trans.diat`/
 *   `trans.semi` give the part's transposition.
 * - `section`/`ending`/`measure`: measures in document order; `left`/`right`
 *   barline attributes (`rptstart`, `rptend`, `rptboth`, `end`, `dbl`,
 *   `invis` …), `ending` → volta brackets, `sb`/`pb` → breaks, `scoreDef`/
 *   `staffDef` between measures → clef, key and meter changes.
 * - `staff`/`layer` → voices. A layer is a gap-free sequence, so time is the
 *   sum of durations in document order. Voice ids: layer `n` on a part's
 *   first staff, `4 × (staff − 1) + n` on later staves (as MusicXML editors
 *   number voices 5–8 on the left hand).
 * - Durations are exact: `dur` (`maxima` … `1024`) with `dots` give the
 *   notated type; the time a note takes is `dur.ges`/`dots.ges` when given
 *   (Humdrum rhythm that the notation cannot show; `…p` with a staff's
 *   `ppq`), times every enclosing `tuplet` (`num`:`numbase`) and a note's
 *   own `num`/`numbase`.
 * - `note`, `chord` (notes lowest first), `rest`, `mRest` (a whole-measure
 *   rest lasting as long as the measure's other voices, or the meter; after
 *   other events in its layer, the rest of the measure), `multiRest` (this
 *   measure and `num − 1` synthesised ones, the first carrying `multiRest`,
 *   as the MusicXML reader does), `space`/`mSpace` (hidden rests), grace
 *   notes (`grace`, `graceGrp`; `acc` is slashed), cue notes, stems,
 *   noteheads, `artic`, fermatas, `beam` (values on every level from the
 *   notes' types), `clef`/`keySig`/`meterSig` inside a layer (a key or meter
 *   met mid-measure shows on the next measure).
 * - What the model has no symbol for is written out as the notes it stands
 *   for: `bTrem`/`fTrem` as repeated or alternating notes of `unitdur` (when
 *   it divides the length; otherwise one note, or two at a 2:1 ratio as
 *   MusicXML writes tremolos), `mRpt`/`halfmRpt`/`beatRpt` as copies of the
 *   repeated notes (a hidden rest where the repeated span cannot be found).
 *   Invisible notes and chords (`visible="false"`) become hidden rests;
 *   Verovio's `no-attack` notes (tie continuations it could not draw) are
 *   tie stops; notes with a staff position (`loc`) but no pitch take the
 *   pitch of that position under the clef.
 * - Lyrics: `verse` (`n`) / `syl` (`wordpos` i/m/t → begin/middle/end;
 *   `con="u"` → a melisma line; several `syl`s elided with ‿).
 * - Control events: `tie` (`startid`/`endid`, besides the `tie` attribute
 *   i/m/t), `dir`/`tempo`/`dynam` (words, dynamics, tempo from `midi.bpm` or
 *   `mm`/`mm.unit`) at their `startid` or `tstamp`, `fermata`. Verovio's
 *   Humdrum annotations (`dir type="problem"` / `"sic"`) are skipped.
 *
 * Pitches are written pitch (`pname`/`oct`; `oct.ges` under an 8va line is
 * not applied, as the line itself is not in the model). `pitch.alter` is the
 * sounding alteration: `accid.ges` when given, else the written accidental
 * (`accid` attribute or child `accid`, editorial ones included), else what a
 * player reads: a tied-over note keeps its alteration, an accidental earlier
 * in the measure on the same staff, step and octave applies, and otherwise
 * the key signature. `note.accidental` is the printed accidental: the
 * `accid` attribute or a child `accid` — `func="caution"` or an enclosure
 * makes it cautionary (parenthesised when enclosed), and editorial ones
 * (`func="edit"`, printed above the staff, not beside the note) are not
 * kept as printed accidentals though they do alter the pitch.
 *
 * Anything else (slurs, hairpins, harmony, figured bass, ornaments, custos,
 * layout elements, `app` readings other than the first) is skipped. Every
 * failure is an `OmrError` with code `INVALID_ARGUMENT`, naming the measure
 * for malformed content (a note without a duration or a pitch). An attribute
 * written twice on one element (Verovio's Humdrum converter does that now and
 * then) is read with its first value rather than refused as ill-formed.
 */
import { OmrError } from '../../errors.js';
import { add, compare, frac, mul, sub, ZERO, type Fraction } from '../../score/fraction.js';
import { instrumentForProgram, matchInstrumentName } from '../../score/instruments.js';
import type {
  Accidental,
  AccidentalSign,
  Barline,
  BarStyle,
  BeamValue,
  Clef,
  ClefChange,
  ClefSign,
  Credits,
  Direction,
  DurationType,
  KeySignature,
  Lyric,
  Measure,
  Note,
  NoteEvent,
  Part,
  PartGroup,
  RestEvent,
  Score,
  Step,
  TimeSignature,
  Transposition,
  Voice,
  VoiceEvent,
} from '../../score/model.js';
import { isStep, keyAlter, midiNumber, STEPS } from '../../score/pitch.js';
import { notatedDuration, placedNotes, timeSignatureLength, voiceLength } from '../../score/timeline.js';
import { MAX_CHORD_NOTES, MAX_DOTS, MAX_MULTI_REST, MAX_VERSES } from '../limits.js';
import { decodeXmlText, DEFAULT_XML_LIMITS, parseXml, type XmlElement } from '../xml-tree.js';

const CODE = 'INVALID_ARGUMENT';

/** Largest tuplet number (and product of nested tuplet numbers) accepted. */
const MAX_TUPLET = 1000;
/** Most measures in a score, multi-measure rests written out included (real scores have a few thousand). */
const MAX_MEASURES = 100_000;

const DURATIONS: Record<string, DurationType> = {
  maxima: 'maxima',
  long: 'long',
  breve: 'breve',
  '1': 'whole',
  '2': 'half',
  '4': 'quarter',
  '8': 'eighth',
  '16': '16th',
  '32': '32nd',
  '64': '64th',
  '128': '128th',
  '256': '256th',
  '512': '512th',
  '1024': '1024th',
};

/** Beams a notated type carries (level 1 = the eighth-note beam). */
const BEAM_COUNT: Partial<Record<DurationType, number>> = {
  eighth: 1, '16th': 2, '32nd': 3, '64th': 4, '128th': 5, '256th': 6, '512th': 7, '1024th': 8,
};

/** MEI accidental values: their alteration and, where the model has one, their sign. */
const ACCIDENTALS: Record<string, { alter: number; sign?: AccidentalSign }> = {
  s: { alter: 1, sign: 'sharp' },
  f: { alter: -1, sign: 'flat' },
  n: { alter: 0, sign: 'natural' },
  x: { alter: 2, sign: 'double-sharp' },
  ss: { alter: 2, sign: 'sharp-sharp' },
  ff: { alter: -2, sign: 'flat-flat' },
  ns: { alter: 1, sign: 'natural-sharp' },
  nf: { alter: -1, sign: 'natural-flat' },
  '1qs': { alter: 0.5, sign: 'quarter-sharp' },
  '3qs': { alter: 1.5, sign: 'three-quarters-sharp' },
  '1qf': { alter: -0.5, sign: 'quarter-flat' },
  '3qf': { alter: -1.5, sign: 'three-quarters-flat' },
  xs: { alter: 3 },
  sx: { alter: 3 },
  ts: { alter: 3 },
  tf: { alter: -3 },
};

/** MEI `artic` values → the model's (MusicXML) articulation names. */
const ARTICULATIONS: Record<string, string> = {
  acc: 'accent',
  'acc-soft': 'soft-accent',
  marc: 'strong-accent',
  stacc: 'staccato',
  ten: 'tenuto',
  stacciss: 'staccatissimo',
  spicc: 'spiccato',
  stress: 'stress',
  unstress: 'unstress',
};

const NOTEHEADS: Record<string, string> = {
  x: 'x', diamond: 'diamond', slash: 'slash', square: 'square', '+': 'cross', isotriangle: 'triangle', rectangle: 'rectangle',
};

const DYNAMICS = new Set([
  'p', 'pp', 'ppp', 'pppp', 'ppppp', 'pppppp', 'f', 'ff', 'fff', 'ffff', 'fffff', 'ffffff', 'mp', 'mf', 'sf', 'sfp',
  'sfpp', 'fp', 'rf', 'rfz', 'sfz', 'sffz', 'fz', 'n', 'pf', 'sfzp',
]);

const MODES = new Set(['major', 'minor', 'dorian', 'phrygian', 'lydian', 'mixolydian', 'aeolian', 'ionian', 'locrian']);
const SHARP_ORDER: readonly Step[] = ['F', 'C', 'G', 'D', 'A', 'E', 'B'];
const DEFAULT_CLEF_LINE: Record<string, number> = { G: 2, F: 4, C: 3, percussion: 3, TAB: 5 };

/** Editorial wrappers whose content is read as if they were not there. */
const TRANSPARENT = new Set(['supplied', 'add', 'corr', 'reg', 'orig', 'sic', 'unclear', 'restore', 'damage', 'expan', 'abbr', 'ligature', 'subst', 'handShift']);

/** Reads an MEI document (text or bytes) into a score. */
export function readMei(input: string | Uint8Array): Score {
  if (input.length === 0) throw new OmrError(CODE, 'The file is empty: there is no MEI to read.');
  const root = parseMei(input);
  if (root.name !== 'mei') {
    throw new OmrError(CODE, `The document's root element is <${root.name}>, not <mei>: it is not an MEI document.`);
  }
  try {
    return new MeiReader(root).read();
  } catch (err) {
    if (err instanceof RangeError) {
      throw new OmrError(CODE, `The MEI holds durations too fine to compute with exactly (${err.message}).`, { cause: err });
    }
    throw err;
  }
}

function parseMei(input: string | Uint8Array): XmlElement {
  let root: XmlElement;
  try {
    root = parseXml(input, DEFAULT_XML_LIMITS, CODE);
  } catch (err) {
    // Verovio's Humdrum converter now and then writes an attribute twice (`symbol="bracket" symbol="brace"`),
    // which is not well-formed XML; the first value is kept and the document read again.
    if (!(err instanceof OmrError) || !/duplicate attribute/i.test(err.message)) throw err;
    const text = typeof input === 'string' ? input : decodeXmlText(input);
    root = parseXml(dropDuplicateAttributes(text), DEFAULT_XML_LIMITS, CODE);
  }
  stripPrefixes(root);
  return root;
}

function dropDuplicateAttributes(text: string): string {
  return text.replace(/<([A-Za-z_][\w.:-]*)(\s[^<>]*?)(\/?)>/g, (whole, name: string, attrs: string, close: string) => {
    const seen = new Set<string>();
    let dup = false;
    const kept = attrs.replace(/\s+([\w.:-]+)\s*=\s*("[^"]*"|'[^']*')/g, (a, key: string) => {
      if (seen.has(key)) {
        dup = true;
        return '';
      }
      seen.add(key);
      return a;
    });
    return dup ? `<${name}${kept}${close}>` : whole;
  });
}

/** `mei:note` → `note`: prefixed MEI reads like default-namespace MEI. */
function stripPrefixes(el: XmlElement): void {
  const stack = [el];
  while (stack.length) {
    const e = stack.pop()!;
    const colon = e.name.indexOf(':');
    if (colon >= 0) e.name = e.name.slice(colon + 1);
    for (const c of e.children) stack.push(c);
  }
}

// ---------------------------------------------------------------------------
// Small helpers

function first(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

function all(el: XmlElement | undefined, name: string): XmlElement[] {
  return el ? el.children.filter((c) => c.name === name) : [];
}

/** Depth-first descendants with the given name, not descending into matches. */
function descendants(el: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (c.name === name) out.push(c);
    else descendants(c, name, out);
  }
  return out;
}

/** All text inside an element, whitespace collapsed (`lb` reads as a space). */
function textOf(el: XmlElement | undefined): string {
  if (!el) return '';
  const parts: string[] = [];
  const walk = (e: XmlElement) => {
    parts.push(e.text);
    for (const c of e.children) {
      if (c.name === 'lb') parts.push(' ');
      else walk(c);
    }
  };
  walk(el);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

function xmlId(el: XmlElement): string | undefined {
  return el.attrs['xml:id'] ?? el.attrs.id;
}

function ref(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const v = value.trim().split(/\s+/)[0] ?? '';
  return v.startsWith('#') ? v.slice(1) : v || undefined;
}

function int(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*-?\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/** Best rational approximation of a decimal time stamp (denominators up to 1024). */
function toFraction(x: number): Fraction {
  const sign = x < 0 ? -1 : 1;
  let v = Math.abs(x);
  let [h0, h1, k0, k1] = [0, 1, 1, 0];
  for (let i = 0; i < 20; i++) {
    const a = Math.floor(v);
    const h2 = a * h1 + h0;
    const k2 = a * k1 + k0;
    if (k2 > 1024) break;
    [h0, h1, k0, k1] = [h1, h2, k1, k2];
    const rest = v - a;
    if (rest < 1e-9 || Math.abs(h1 / k1 - Math.abs(x)) < 1e-6) break;
    v = 1 / rest;
  }
  return frac(sign * h1, k1);
}

function neg(a: Fraction): Fraction {
  return sub(ZERO, a);
}

function fmax(a: Fraction, b: Fraction): Fraction {
  return compare(a, b) >= 0 ? a : b;
}

// ---------------------------------------------------------------------------
// Score definition

interface KeyState {
  fifths: number;
  mode?: string;
  /** Alteration per step; for keys that are not a run of sharps or flats. */
  alters: Map<Step, number>;
}

interface Meter {
  count: number;
  unit: number;
  symbol?: TimeSignature['symbol'];
  beatsText?: string;
}

interface StaffState {
  n: string;
  part: number;
  /** 1-based staff within the part. */
  staffInPart: number;
  clef?: Clef;
  key: KeyState;
  meter?: Meter;
  ppq?: number;
  /** Changes since the last measure, to be written on the next one. */
  changedClef: boolean;
  changedKey: boolean;
  changedMeter: boolean;
}

interface PartState {
  part: Part;
  staves: StaffState[];
  /** The key and time last written on the part's measures, so that a restatement is not a change. */
  shownKey?: string;
  shownTime?: string;
}

/** A note whose alteration is decided once its measure has been read, in time order per staff. */
interface PendingPitch {
  note: Note;
  staff: StaffState;
  onset: Fraction;
  order: number;
  /** `accid.ges`: the sounding alteration, stated. */
  gestural?: number;
  /** A written accidental (printed or editorial): it sets the alteration and holds for the measure. */
  written?: number;
  /** The note continues a tie (attribute `t`/`m`, or the end of a `<tie>`). */
  tiedFrom: boolean;
  id?: string;
}

interface Located {
  event: VoiceEvent;
  note?: Note;
  part: number;
  measure: number;
  offset: Fraction;
  staffInPart: number;
}

/** What one layer walk keeps track of. */
interface LayerWalk {
  part: PartState;
  staff: StaffState;
  voiceId: string;
  events: VoiceEvent[];
  cursor: Fraction;
  /** Product of the enclosing `tuplet` (and `fTrem`) ratios. */
  ratio: { num: number; numbase: number };
  /** Nesting of `beam` containers: only the outermost assigns beam values. */
  beamDepth: number;
  grace?: string;
}

interface MeasureRead {
  index: number;
  where: string;
  measures: Measure[];
  /** Whole-measure rests whose length is the measure's, set once every layer is read. */
  measureRests: { event: RestEvent; staff: StaffState; onset: Fraction; events: VoiceEvent[] }[];
  multiRests: Map<number, number>;
  pending: PendingPitch[];
  chords: NoteEvent[];
  /** The longest layer read so far (whole-measure rests count as nothing until their length is set). */
  length: Fraction;
}

class MeiReader {
  private readonly parts: PartState[] = [];
  private readonly staves = new Map<string, StaffState>();
  private readonly partGroups: PartGroup[] = [];
  private readonly ids = new Map<string, Located>();
  private readonly ties: [string, string][] = [];
  /** Alterations carried over a barline by ties: `<tie>` end id → alteration. */
  private tieCarryById = new Map<string, number>();
  /** …and by `tie` attributes: staff n → `step+octave` → alteration. */
  private tieCarryByPitch = new Map<string, Map<string, number>>();
  private pendingBreak: { system?: boolean; page?: boolean } = {};
  private measureCount = 0;
  private order = 0;
  private pendingTempo: number | undefined;

  constructor(private readonly root: XmlElement) {}

  read(): Score {
    const music = first(this.root, 'music');
    const score = music && findScore(music);
    if (!score) throw new OmrError(CODE, 'The MEI document has no <music>/<body>/<mdiv>/<score>: there is no score to read.');
    const scoreDef = first(score, 'scoreDef');
    if (!scoreDef) throw new OmrError(CODE, 'The MEI score has no <scoreDef>: its staves are not defined.');
    this.readScoreDef(scoreDef);
    if (!this.parts.length) throw new OmrError(CODE, 'The MEI <scoreDef> defines no staves.');
    this.readSectionContent(score, true);
    if (this.measureCount === 0) throw new OmrError(CODE, 'The MEI score has no measures.');
    this.applyTies();
    const parts = this.parts.map((p) => p.part);
    for (const part of parts) checkTimeline(part);
    return { credits: readCredits(first(this.root, 'meiHead')), parts, partGroups: this.partGroups };
  }

  // -- scoreDef ------------------------------------------------------------

  private readScoreDef(scoreDef: XmlElement): void {
    const defaults = readAttributeChanges(scoreDef);
    const bpm = Number(scoreDef.attrs['midi.bpm']);
    if (Number.isFinite(bpm) && bpm > 0 && bpm <= 10_000) this.pendingTempo = bpm;
    const grp = first(scoreDef, 'staffGrp');
    if (grp && isGrandStaff(grp)) this.addPart(all(grp, 'staffDef'), grp, defaults);
    else if (grp) this.readStaffGrp(grp, defaults, true);
    else for (const def of all(scoreDef, 'staffDef')) this.addPart([def], undefined, defaults);
  }

  private readStaffGrp(grp: XmlElement, defaults: AttributeChanges, top: boolean): void {
    const from = this.parts.length;
    for (const c of grp.children) {
      if (c.name === 'staffDef') this.addPart([c], undefined, defaults);
      else if (c.name === 'staffGrp') {
        if (isGrandStaff(c)) this.addPart(all(c, 'staffDef'), c, defaults);
        else this.readStaffGrp(c, defaults, false);
      }
    }
    const last = this.parts.length - 1;
    const symbol = groupSymbol(grp.attrs.symbol);
    const connected = grp.attrs['bar.thru'] === 'true';
    if (last < from || (top && symbol === 'none')) return;
    if (symbol === 'none' && (!connected || last === from)) return;
    const group: PartGroup = { first: from, last, symbol, barlinesConnected: connected };
    const name = textOf(first(grp, 'label'));
    if (name) group.name = name;
    this.partGroups.push(group);
  }

  private addPart(defs: XmlElement[], grand: XmlElement | undefined, defaults: AttributeChanges): void {
    const index = this.parts.length;
    const labelled = grand ?? defs[0]!;
    const name = textOf(first(labelled, 'label')) || (grand ? '' : (labelled.attrs.label ?? '').trim());
    const abbreviation = textOf(first(labelled, 'labelAbbr')) || (labelled.attrs['label.abbr'] ?? '').trim();
    const instrDef = first(labelled, 'instrDef') ?? defs.map((d) => first(d, 'instrDef')).find(Boolean);
    const programNumber = int(instrDef?.attrs['midi.instrnum']);
    const program = programNumber !== undefined && programNumber >= 0 && programNumber <= 127 ? programNumber : undefined;
    // MEI counts MIDI channels from 0: channel 10, the drums, is 9.
    const percussion = instrDef?.attrs['midi.channel'] === '9';
    // A name that clearly names an instrument wins over `instrDef` (Verovio's Humdrum import gives
    // altos a recorder); otherwise the program picks the instrument.
    const match = name ? matchInstrumentName(name) : undefined;
    const named = match && match.confidence !== 'low' ? match.instrument : undefined;
    const instrument =
      named ??
      (program !== undefined || percussion ? instrumentForProgram(program ?? 0, { percussion }) : undefined) ??
      match?.instrument ??
      instrumentForProgram(0);
    const part: Part = {
      id: `P${index + 1}`,
      name,
      instrumentId: instrument.id,
      midiProgram: named ? instrument.midiProgram : (program ?? instrument.midiProgram),
      staves: defs.length,
      measures: [],
    };
    if (abbreviation) part.abbreviation = abbreviation;
    if (percussion || instrument.percussion) part.percussion = true;
    const transposition = readTransposition(defs[0]!);
    if (transposition) part.transposition = transposition;
    const state: PartState = { part, staves: [] };
    defs.forEach((def, i) => {
      const n = def.attrs.n ?? String(this.staves.size + 1);
      const staff: StaffState = {
        n,
        part: index,
        staffInPart: i + 1,
        key: { fifths: 0, alters: new Map() },
        changedClef: false,
        changedKey: false,
        changedMeter: false,
      };
      applyChanges(staff, defaults);
      applyChanges(staff, readAttributeChanges(def));
      const ppq = int(def.attrs.ppq);
      if (ppq !== undefined && ppq > 0) staff.ppq = ppq;
      if (!this.staves.has(n)) this.staves.set(n, staff);
      state.staves.push(staff);
    });
    this.parts.push(state);
  }

  /** A `scoreDef` or `staffDef` between measures: changes for the measures that follow. */
  private readChanges(el: XmlElement): void {
    if (el.name === 'scoreDef') {
      const changes = readAttributeChanges(el);
      if (changes.clef || changes.key || changes.meter) for (const s of this.staves.values()) applyChanges(s, changes);
      for (const def of descendants(el, 'staffDef')) this.readChanges(def);
      const bpm = Number(el.attrs['midi.bpm']);
      if (Number.isFinite(bpm) && bpm > 0 && bpm <= 10_000) this.pendingTempo = bpm;
    } else {
      const staff = this.staves.get(el.attrs.n ?? '');
      if (staff) applyChanges(staff, readAttributeChanges(el));
    }
  }

  // -- sections --------------------------------------------------------------

  private readSectionContent(el: XmlElement, top = false): void {
    for (const c of el.children) {
      switch (c.name) {
        case 'measure':
          this.readMeasure(c);
          break;
        case 'section':
        case 'lem':
        case 'rdg':
        case 'div':
          this.readSectionContent(c);
          break;
        case 'ending':
          this.readEnding(c);
          break;
        case 'app':
        case 'choice': {
          const pick = pickReading(c);
          if (pick) this.readSectionContent(pick);
          break;
        }
        case 'scoreDef':
          if (!top || this.measureCount > 0 || c !== first(el, 'scoreDef')) this.readChanges(c);
          break;
        case 'staffDef':
          this.readChanges(c);
          break;
        case 'sb':
          if (this.measureCount > 0) this.pendingBreak.system = true;
          break;
        case 'pb':
          if (this.measureCount > 0) this.pendingBreak.page = true;
          break;
        default:
          if (TRANSPARENT.has(c.name)) this.readSectionContent(c);
          break;
      }
    }
  }

  private readEnding(el: XmlElement): void {
    const start = this.measureCount;
    this.readSectionContent(el);
    if (this.measureCount === start) return;
    const label = (el.attrs.label ?? el.attrs.n ?? '').trim();
    const numbers = label.match(/\d+/g)?.filter((d) => Number(d) >= 1) ?? [];
    const number = numbers.length ? numbers.map(Number).join(', ') : '1';
    const text = label && label !== number ? label : undefined;
    const discontinue = el.attrs.lendsym === 'none';
    for (const { part } of this.parts) {
      const firstMeasure = part.measures[start]!;
      const lastMeasure = part.measures[this.measureCount - 1]!;
      firstMeasure.leftBarline = { ...(firstMeasure.leftBarline ?? { style: 'regular' }), ending: { number, type: 'start', ...(text && { text }) } };
      lastMeasure.rightBarline = { ...(lastMeasure.rightBarline ?? { style: 'regular' }), ending: { number, type: discontinue ? 'discontinue' : 'stop' } };
    }
  }

  // -- measures --------------------------------------------------------------

  private readMeasure(el: XmlElement): void {
    const index = this.measureCount;
    const number = (el.attrs.n ?? '').trim() || String(index + 1);
    const where = `measure ${number}`;
    const read: MeasureRead = {
      index,
      where,
      measures: [],
      measureRests: [],
      multiRests: new Map(),
      pending: [],
      chords: [],
      length: ZERO,
    };
    for (const [p, state] of this.parts.entries()) {
      const measure: Measure = { number, clefs: [], voices: [], directions: [] };
      this.writeAttributeChanges(state, measure, index === 0);
      if (this.pendingBreak.system) measure.systemBreak = true;
      if (this.pendingBreak.page) measure.pageBreak = true;
      if (el.attrs.metcon === 'false') measure.implicit = true;
      readBarlines(el, measure);
      if (this.pendingTempo !== undefined && p === 0) measure.directions.push({ offset: ZERO, staff: 1, tempo: this.pendingTempo });
      read.measures.push(measure);
      state.part.measures.push(measure);
    }
    this.pendingBreak = {};
    this.pendingTempo = undefined;
    this.measureCount++;

    const voices = this.parts.map(() => new Map<string, { staff: number; n: number; voice: Voice }>());
    for (const staffEl of descendantsOf(el, 'staff')) {
      const staff = this.staves.get(staffEl.attrs.n ?? '');
      if (!staff) continue;
      const partVoices = voices[staff.part]!;
      for (const [li, layerEl] of descendantsOf(staffEl, 'layer').entries()) {
        const n = int(layerEl.attrs.n) ?? li + 1;
        let id = String(staff.staffInPart === 1 ? n : 4 * (staff.staffInPart - 1) + n);
        while (partVoices.has(id)) id = `${id}.1`;
        const walk: LayerWalk = {
          part: this.parts[staff.part]!,
          staff,
          voiceId: id,
          events: [],
          cursor: ZERO,
          ratio: { num: 1, numbase: 1 },
          beamDepth: 0,
        };
        this.walkLayer(layerEl.children, walk, read);
        const voice: Voice = { id, events: walk.events };
        partVoices.set(id, { staff: staff.staffInPart, n, voice });
        read.length = fmax(read.length, walk.cursor);
      }
    }
    for (const [p, partVoices] of voices.entries()) {
      read.measures[p]!.voices = [...partVoices.values()].sort((a, b) => a.staff - b.staff || a.n - b.n).map((v) => v.voice);
    }

    // Whole-measure rests last as long as the measure's other voices, or the meter when there are none;
    // one after other events in its layer (Humdrum writes them so) fills the rest of the measure.
    for (const { event, staff, onset, events } of read.measureRests) {
      const length = read.length.n > 0 ? read.length : meterLength(staff.meter);
      const rest = sub(length, onset);
      if (rest.n > 0) event.duration = rest;
      else events.splice(events.indexOf(event), 1);
    }
    if (index === 0 && read.length.n > 0) {
      const meter = this.parts[0]?.staves[0]?.meter;
      if (meter && compare(read.length, meterLength(meter)) < 0 && read.measureRests.length === 0) {
        for (const m of read.measures) m.implicit = true;
      }
    }
    this.resolvePitches(read);
    for (const chord of read.chords) chord.notes.sort((a, b) => midiNumber(a.pitch) - midiNumber(b.pitch));
    this.readControlEvents(el, read);
    this.expandMultiRest(read, number);
  }

  /** Clef, key and time at the start of a measure: all of them on the first, changes later. */
  private writeAttributeChanges(state: PartState, measure: Measure, firstMeasure: boolean): void {
    const [lead] = state.staves;
    if (!lead) return;
    if (firstMeasure || state.staves.some((s) => s.changedKey)) showKey(state, measure, lead.key);
    if ((firstMeasure || state.staves.some((s) => s.changedMeter)) && lead.meter) showTime(state, measure, lead.meter);
    for (const s of state.staves) {
      if ((firstMeasure || s.changedClef) && s.clef) measure.clefs.push({ ...s.clef, staff: s.staffInPart, offset: ZERO });
      s.changedClef = s.changedKey = s.changedMeter = false;
    }
  }

  private expandMultiRest(read: MeasureRead, number: string): void {
    let count = 0;
    for (const n of read.multiRests.values()) count = Math.max(count, n);
    if (count < 2) return;
    for (const [p, n] of read.multiRests) if (n >= 2) read.measures[p]!.multiRest = n;
    const base = int(number);
    if (this.measureCount + count - 1 > MAX_MEASURES) {
      throw new OmrError(CODE, `${read.where}: the score would have more than ${MAX_MEASURES} measures with its multi-measure rests written out.`);
    }
    for (let k = 1; k < count; k++) {
      for (const state of this.parts) {
        const measure: Measure = {
          number: base !== undefined ? String(base + k) : `${number}.${k}`,
          clefs: [],
          voices: state.staves.map((s) => ({
            id: String(s.staffInPart === 1 ? 1 : 4 * (s.staffInPart - 1) + 1),
            events: [{ kind: 'rest', duration: meterLength(s.meter), dots: 0, staff: s.staffInPart, measureRest: true } as RestEvent],
          })),
          directions: [],
        };
        state.part.measures.push(measure);
      }
      this.measureCount++;
    }
  }

  // -- layers ----------------------------------------------------------------

  private walkLayer(items: XmlElement[], walk: LayerWalk, read: MeasureRead): void {
    for (const el of items) {
      switch (el.name) {
        case 'note':
          this.addNoteEvent(el, [el], walk, read);
          break;
        case 'chord':
          this.addNoteEvent(el, descendants(el, 'note'), walk, read);
          break;
        case 'rest':
          this.addRest(el, walk, read);
          break;
        case 'space': {
          const duration = this.duration(el, walk, read.where, false);
          if (duration && duration.n > 0) this.push(walk, { kind: 'rest', duration, dots: 0, staff: walk.staff.staffInPart, hidden: true }, el);
          break;
        }
        case 'mRest':
        case 'mSpace':
        case 'multiRest': {
          const event: RestEvent = { kind: 'rest', duration: ZERO, dots: 0, staff: walk.staff.staffInPart, measureRest: true };
          if (el.name === 'mSpace' || el.attrs.visible === 'false') event.hidden = true;
          read.measureRests.push({ event, staff: walk.staff, onset: walk.cursor, events: walk.events });
          this.push(walk, event, el);
          if (el.name === 'multiRest') {
            const num = int(el.attrs.num) ?? 1;
            if (num < 1 || num > MAX_MULTI_REST) throw new OmrError(CODE, `${read.where}: a multi-measure rest of ${el.attrs.num} measures is out of range.`);
            read.multiRests.set(walk.staff.part, Math.max(read.multiRests.get(walk.staff.part) ?? 0, num));
          }
          break;
        }
        case 'beam': {
          const start = walk.events.length;
          walk.beamDepth++;
          this.walkLayer(el.children, walk, read);
          walk.beamDepth--;
          if (walk.beamDepth === 0 && !(el.attrs.type ?? '').split(/\s+/).includes('invisible')) assignBeams(walk.events.slice(start));
          break;
        }
        case 'tuplet': {
          const num = int(el.attrs.num) ?? 3;
          const numbase = int(el.attrs.numbase) ?? 2;
          if (num < 1 || numbase < 1 || num > MAX_TUPLET || numbase > MAX_TUPLET) {
            throw new OmrError(CODE, `${read.where}: tuplet ${el.attrs.num}:${el.attrs.numbase} is out of range.`);
          }
          const start = walk.events.length;
          const saved = walk.ratio;
          walk.ratio = ratio(saved.num * num, saved.numbase * numbase, read.where);
          this.walkLayer(el.children, walk, read);
          walk.ratio = saved;
          const hidden = el.attrs['num.visible'] === 'false' && el.attrs['bracket.visible'] === 'false';
          if (!hidden) markTuplet(walk.events.slice(start));
          break;
        }
        case 'bTrem':
        case 'fTrem': {
          const start = walk.events.length;
          const saved = walk.ratio;
          if (el.name === 'fTrem') walk.ratio = ratio(saved.num * 2, saved.numbase, read.where);
          this.walkLayer(el.children, walk, read);
          walk.ratio = saved;
          this.writeOutTremolo(el, walk, read, start);
          break;
        }
        case 'graceGrp': {
          const saved = walk.grace;
          walk.grace = el.attrs.grace ?? 'unacc';
          this.walkLayer(el.children, walk, read);
          walk.grace = saved;
          break;
        }
        case 'app':
        case 'choice': {
          const pick = pickReading(el);
          if (pick) this.walkLayer(pick.children, walk, read);
          break;
        }
        case 'clef':
          this.clefChange(el, walk, read);
          break;
        case 'keySig': {
          const key = readKeySig(el);
          if (key && !sameKey(key, walk.staff.key)) {
            walk.staff.key = key;
            this.attributeChange(walk, read, 'key');
          }
          break;
        }
        case 'meterSig': {
          const meter = readMeterSig(el);
          if (meter && !sameMeter(meter, walk.staff.meter)) {
            walk.staff.meter = meter;
            this.attributeChange(walk, read, 'meter');
          }
          break;
        }
        case 'mRpt':
          this.repeatSpan(walk, read, 'measure');
          break;
        case 'halfmRpt':
          this.repeatSpan(walk, read, 'half');
          break;
        case 'beatRpt':
          this.repeatSpan(walk, read, 'beat');
          break;
        default:
          if (TRANSPARENT.has(el.name)) this.walkLayer(el.children, walk, read);
          // custos, barLine, dir, accid, artic and the like: nothing to place in time.
          break;
      }
    }
  }

  private push(walk: LayerWalk, event: VoiceEvent, el: XmlElement, note?: { el: XmlElement; note: Note }[]): void {
    const located = (n?: Note): Located => ({
      event,
      ...(n && { note: n }),
      part: walk.staff.part,
      measure: this.measureCount - 1,
      offset: walk.cursor,
      staffInPart: event.staff,
    });
    const id = xmlId(el);
    if (id) this.ids.set(id, located());
    for (const n of note ?? []) {
      const nid = xmlId(n.el);
      if (nid) this.ids.set(nid, located(n.note));
    }
    walk.events.push(event);
    walk.cursor = add(walk.cursor, event.duration);
  }

  /** Time an element takes: `dur.ges`/`dots.ges` when given, else `dur`/`dots`, under the layer's ratio. */
  private duration(el: XmlElement, walk: LayerWalk, where: string, required: boolean, host?: XmlElement): Fraction | undefined {
    const src = el.attrs.dur !== undefined || !host ? el : host;
    const type = readType(src.attrs.dur);
    const dots = readDots(src, 'dots', where);
    const gesText = el.attrs['dur.ges'] ?? host?.attrs['dur.ges'];
    const gesDots = el.attrs['dots.ges'] !== undefined ? readDots(el, 'dots.ges', where) : host?.attrs['dots.ges'] !== undefined ? readDots(host, 'dots.ges', where) : dots;
    const r = withOwnRatio(walk.ratio, src, where);
    const tuplet = r.num === 1 && r.numbase === 1 ? undefined : { actual: r.num, normal: r.numbase };
    if (gesText !== undefined) {
      const ppqMatch = /^(\d+)p$/.exec(gesText.trim());
      // Pulses per quarter are the time itself, tuplets included.
      if (ppqMatch && walk.staff.ppq) return frac(Number(ppqMatch[1]), walk.staff.ppq);
      const gesType = readType(gesText);
      if (gesType) return notatedDuration(gesType, gesDots, tuplet);
    }
    if (type) return notatedDuration(type, dots, tuplet);
    if (required) throw new OmrError(CODE, `${where}: <${el.name}> has no valid dur ("${src.attrs.dur ?? ''}").`);
    return undefined;
  }

  private addRest(el: XmlElement, walk: LayerWalk, read: MeasureRead): void {
    const type = readType(el.attrs.dur) ?? readType(el.attrs['dur.ges']);
    const duration = this.duration(el, walk, read.where, true)!;
    const event: RestEvent = { kind: 'rest', duration, dots: readDots(el, 'dots', read.where), staff: walk.staff.staffInPart };
    if (type) event.type = type;
    const r = withOwnRatio(walk.ratio, el, read.where);
    if (r.num !== 1 || r.numbase !== 1) event.tuplet = { actual: r.num, normal: r.numbase };
    if (el.attrs.visible === 'false') event.hidden = true;
    const step = (el.attrs.ploc ?? '').toUpperCase();
    const octave = int(el.attrs.oloc);
    if (isStep(step) && octave !== undefined && octave >= 0 && octave <= 9) {
      event.displayStep = step;
      event.displayOctave = octave;
    }
    this.push(walk, event, el);
  }

  private addNoteEvent(host: XmlElement, noteEls: XmlElement[], walk: LayerWalk, read: MeasureRead): void {
    const { where } = read;
    const graceAttr = host.attrs.grace ?? walk.grace;
    const grace = graceAttr !== undefined;
    if (noteEls.length > MAX_CHORD_NOTES) throw new OmrError(CODE, `${where}: a chord has more than ${MAX_CHORD_NOTES} notes.`);
    const visibleEls = host.attrs.visible === 'false' ? [] : noteEls.filter((n) => n.attrs.visible !== 'false');
    const typeSource = host.attrs.dur !== undefined ? host : (noteEls.find((n) => n.attrs.dur !== undefined) ?? host);
    let type = readType(typeSource.attrs.dur) ?? readType(typeSource.attrs['dur.ges']);
    if (!type) {
      if (grace) type = 'eighth';
      else if (!noteEls.length) return;
      else throw new OmrError(CODE, `${where}: a ${host.name} has no valid dur ("${typeSource.attrs.dur ?? ''}").`);
    }
    const dots = readDots(typeSource, 'dots', where);
    const duration = grace ? ZERO : this.duration(typeSource === host ? host : typeSource, walk, where, true, host)!;
    if (!visibleEls.length) {
      // An invisible note or chord still takes its time: a gap in the voice.
      if (!grace && duration.n > 0) this.push(walk, { kind: 'rest', duration, dots: 0, staff: walk.staff.staffInPart, hidden: true }, host);
      return;
    }
    const staff = this.drawnStaff(host.attrs.staff ?? visibleEls[0]!.attrs.staff, walk);
    const event: NoteEvent = { kind: 'note', duration, type, dots, staff: staff.staffInPart, notes: [], lyrics: [] };
    const r = withOwnRatio(walk.ratio, typeSource, where);
    if (r.num !== 1 || r.numbase !== 1) event.tuplet = { actual: r.num, normal: r.numbase };
    if (grace) event.grace = { slash: graceAttr === 'acc' };
    if (host.attrs.cue === 'true' || visibleEls.every((n) => n.attrs.cue === 'true')) event.cue = true;
    const stemDir = host.attrs['stem.dir'] ?? (noteEls.length === 1 ? noteEls[0]!.attrs['stem.dir'] : undefined);
    if (stemDir === 'up' || stemDir === 'down') event.stem = stemDir;
    if ((host.attrs['stem.visible'] ?? noteEls[0]?.attrs['stem.visible']) === 'false') event.stem = 'none';

    const notes: { el: XmlElement; note: Note }[] = [];
    for (const noteEl of visibleEls) {
      const note = this.readNote(noteEl, host, staff, walk, read);
      notes.push({ el: noteEl, note });
      event.notes.push(note);
    }
    if (event.notes.length > 1) read.chords.push(event);
    readLyrics(event, [host, ...(host === noteEls[0] ? [] : visibleEls)]);
    const articulations = readArticulations([host, ...(host === noteEls[0] ? [] : visibleEls)]);
    if (articulations.length) event.articulations = articulations;
    this.push(walk, event, host, notes);
  }

  private drawnStaff(attr: string | undefined, walk: LayerWalk): StaffState {
    const n = attr?.trim().split(/\s+/)[0];
    const s = n === undefined ? undefined : this.staves.get(n);
    return s && s.part === walk.staff.part ? s : walk.staff;
  }

  private readNote(el: XmlElement, host: XmlElement, staff: StaffState, walk: LayerWalk, read: MeasureRead): Note {
    const { where } = read;
    let pname = (el.attrs.pname ?? '').trim().toUpperCase();
    let octave = int(el.attrs.oct);
    const loc = int(el.attrs.loc);
    if (el.attrs.pname === undefined && el.attrs.oct === undefined && loc !== undefined) {
      // A note placed on the staff without a pitch (Humdrum's rhythm-only notes): read it off the clef.
      const position = staffPosition(staff.clef) + loc;
      if (position >= 0 && position < 70) {
        pname = STEPS[position % 7]!;
        octave = Math.floor(position / 7);
      }
    }
    if (!isStep(pname) || octave === undefined || octave < 0 || octave > 9) {
      throw new OmrError(CODE, `${where}: a note has an invalid pitch (pname "${el.attrs.pname ?? ''}", oct "${el.attrs.oct ?? ''}").`);
    }
    const note: Note = { pitch: { step: pname, alter: 0, octave } };
    const pending: PendingPitch = { note, staff, onset: walk.cursor, order: this.order++, tiedFrom: false };
    const id = xmlId(el);
    if (id) pending.id = id;

    // Written accidentals: the attribute, or child <accid> elements.
    const accidEls = all(el, 'accid');
    const printedValue = el.attrs.accid ?? accidEls.find((a) => a.attrs.func !== 'edit' && a.attrs.accid)?.attrs.accid;
    const editValue = accidEls.find((a) => a.attrs.func === 'edit' && a.attrs.accid)?.attrs.accid;
    const gesValue = el.attrs['accid.ges'] ?? accidEls.find((a) => a.attrs['accid.ges'])?.attrs['accid.ges'];
    const printed = printedValue === undefined ? undefined : ACCIDENTALS[printedValue.trim()];
    const edit = editValue === undefined ? undefined : ACCIDENTALS[editValue.trim()];
    const ges = gesValue === undefined ? undefined : ACCIDENTALS[gesValue.trim()];
    if (ges) pending.gestural = ges.alter;
    if (printed ?? edit) pending.written = (printed ?? edit)!.alter;
    if (printed?.sign) {
      const accidental: Accidental = { sign: printed.sign };
      const accidEl = el.attrs.accid === undefined ? accidEls.find((a) => a.attrs.func !== 'edit' && a.attrs.accid) : undefined;
      const func = accidEl?.attrs.func ?? el.attrs['accid.func'];
      const enclose = accidEl?.attrs.enclose ?? el.attrs['accid.enclose'];
      if (func === 'caution' || enclose) accidental.cautionary = true;
      if (enclose === 'paren' || enclose === 'brack') accidental.parentheses = true;
      note.accidental = accidental;
    }

    const tie = (el.attrs.tie ?? host.attrs.tie ?? '').trim();
    // Verovio marks the continuation of a tie it could not draw as a note without attack.
    if (/\bno-attack\b/.test(el.attrs.type ?? host.attrs.type ?? '')) {
      note.tieStop = true;
      pending.tiedFrom = true;
    }
    if (tie === 'i' || tie === 'm') note.tieStart = true;
    if (tie === 't' || tie === 'm') {
      note.tieStop = true;
      pending.tiedFrom = true;
    }
    if (id && this.tieCarryById.has(id)) pending.tiedFrom = true;
    const shape = el.attrs['head.shape'];
    const head = shape === undefined ? undefined : NOTEHEADS[shape];
    if (head) note.notehead = head;
    if (el.attrs['head.visible'] === 'false') note.notehead = 'none';
    read.pending.push(pending);
    return note;
  }

  private clefChange(el: XmlElement, walk: LayerWalk, read: MeasureRead): void {
    const clef = readClef(el.attrs.shape, el.attrs.line, el.attrs.dis, el.attrs['dis.place']);
    if (!clef) return;
    const staff = walk.staff;
    const measure = read.measures[staff.part]!;
    if (staff.clef && sameClef(staff.clef, clef)) return;
    staff.clef = clef;
    const change: ClefChange = { ...clef, staff: staff.staffInPart, offset: walk.cursor };
    const at = measure.clefs.findIndex((c) => c.staff === change.staff && compare(c.offset, change.offset) === 0);
    if (at >= 0) measure.clefs[at] = change;
    else measure.clefs.push(change);
    measure.clefs.sort((a, b) => compare(a.offset, b.offset) || a.staff - b.staff);
  }

  /** A key or meter met inside a layer: on this measure at its start, otherwise on the next. */
  private attributeChange(walk: LayerWalk, read: MeasureRead, what: 'key' | 'meter'): void {
    const staff = walk.staff;
    const lead = this.parts[staff.part]!.staves[0]!;
    if (walk.cursor.n !== 0 || lead !== staff) {
      if (what === 'key') staff.changedKey = true;
      else staff.changedMeter = true;
      return;
    }
    const measure = read.measures[staff.part]!;
    if (what === 'key') showKey(walk.part, measure, staff.key);
    else if (staff.meter) showTime(walk.part, measure, staff.meter);
  }

  /**
   * `mRpt`, `halfmRpt` and `beatRpt`: the repeated notes written out. A
   * measure repeat copies the previous measure's voice; a half-measure or
   * beat repeat copies the span just before it in the layer when events fill
   * it exactly. Otherwise the span is a hidden rest.
   */
  private repeatSpan(walk: LayerWalk, read: MeasureRead, kind: 'measure' | 'half' | 'beat'): void {
    const staff = walk.staff;
    const meter = staff.meter;
    if (kind === 'measure') {
      const previous = walk.part.part.measures[read.index - 1];
      const source = previous?.voices.find((v) => v.id === walk.voiceId);
      if (source && source.events.length) {
        for (const event of source.events) this.pushCopy(walk, event, read);
        return;
      }
      const event: RestEvent = { kind: 'rest', duration: ZERO, dots: 0, staff: staff.staffInPart, measureRest: true, hidden: true };
      read.measureRests.push({ event, staff, onset: walk.cursor, events: walk.events });
      walk.events.push(event);
      return;
    }
    let span = meterLength(meter);
    if (kind === 'half') span = mul(span, frac(1, 2));
    else {
      const unit = meter?.unit ?? 4;
      const compound = meter !== undefined && meter.count % 3 === 0 && meter.count > 3 && unit >= 8;
      span = frac(4 * (compound ? 3 : 1), unit);
    }
    let from = sub(walk.cursor, span);
    // In a measure shorter than the meter (split by invisible barlines) the repeat repeats all there is.
    if (compare(from, ZERO) < 0 && walk.cursor.n > 0) {
      from = ZERO;
      span = walk.cursor;
    }
    // At the start of a measure the repeated span ends the previous measure.
    const previous = walk.cursor.n === 0 ? (walk.part.part.measures[read.index - 1]?.voices.find((v) => v.id === walk.voiceId)?.events ?? []) : [];
    const history = [...previous, ...walk.events];
    let t = neg(voiceLength(previous));
    if (compare(from, t) < 0) {
      from = t;
      span = sub(walk.cursor, t);
    }
    const copy: VoiceEvent[] = [];
    for (const event of history) {
      if (compare(t, from) >= 0 && compare(t, walk.cursor) < 0) copy.push(event);
      else if (compare(t, from) < 0 && compare(add(t, event.duration), from) > 0) {
        copy.length = 0;
        break;
      }
      t = add(t, event.duration);
    }
    if (copy.length && copy[0] && compare(copy.reduce((s, e) => add(s, e.duration), ZERO), span) === 0) {
      for (const event of copy) this.pushCopy(walk, event, read);
    } else {
      walk.events.push({ kind: 'rest', duration: span, dots: 0, staff: staff.staffInPart, hidden: true });
      walk.cursor = add(walk.cursor, span);
    }
  }

  /**
   * A tremolo written out as the notes it stands for: a `bTrem` repeats its
   * note or chord, an `fTrem` alternates its two, in notes of `unitdur` (or
   * of as many beams as the `fTrem` has). Where the unit does not divide the
   * length, the tremolo stays one note (`bTrem`) or two at half their value.
   */
  private writeOutTremolo(el: XmlElement, walk: LayerWalk, read: MeasureRead, start: number): void {
    const made = walk.events.slice(start);
    const notes = made.filter((e): e is NoteEvent => e.kind === 'note' && !e.grace);
    const alternating = el.name === 'fTrem';
    if (notes.length !== made.length || notes.length !== (alternating ? 2 : 1)) return;
    const beams = int(el.attrs.beams);
    const unitType = readType(el.attrs.unitdur) ?? (beams !== undefined ? readType(String(4 * 2 ** beams)) : undefined);
    if (!unitType) return;
    // The layer's own tuplet ratio (an fTrem's 2:1 taken out again).
    const outer = (e: NoteEvent) => {
      const t = e.tuplet;
      if (!t) return undefined;
      const actual = alternating ? t.actual / 2 : t.actual;
      return actual === t.normal ? undefined : { ...t, actual };
    };
    const total = notes.reduce((sum, e) => add(sum, e.duration), ZERO);
    const tuplet = outer(notes[0]!);
    const unit = notatedDuration(unitType, 0, tuplet);
    const count = mul(total, frac(unit.d, unit.n));
    if (count.d !== 1 || count.n < 2 || count.n > 256 || (alternating && count.n % 2 !== 0)) return;
    const replaced: NoteEvent[] = [];
    for (let i = 0; i < count.n; i++) {
      const source = notes[alternating ? i % 2 : 0]!;
      const event: NoteEvent = i < notes.length ? source : this.cloneNoteEvent(source, read);
      event.type = unitType;
      event.dots = 0;
      event.duration = unit;
      const t = outer(source);
      if (i < notes.length && t) event.tuplet = { ...t };
      else if (i < notes.length) delete event.tuplet;
      replaced.push(event);
    }
    // Ties and lyrics stay on the first and last notes of the written-out run.
    for (const [i, event] of replaced.entries()) {
      if (i > 0) {
        event.lyrics = i < notes.length ? event.lyrics : [];
        for (const n of event.notes) delete n.tieStop;
      }
      if (i < replaced.length - 1) for (const n of event.notes) delete n.tieStart;
    }
    walk.events.splice(start, made.length, ...replaced);
    let t = ZERO;
    for (const e of walk.events) t = add(t, e.duration);
    walk.cursor = t;
    // Onsets of the written-out notes, for the alteration pass.
    let onset = sub(walk.cursor, total);
    for (const event of replaced) {
      for (const n of event.notes) {
        const p = read.pending.find((x) => x.note === n);
        if (p) p.onset = onset;
      }
      onset = add(onset, event.duration);
    }
    if (BEAM_COUNT[unitType] && walk.beamDepth === 0) assignBeams(replaced);
  }

  /** A copy of a note event of this measure, its notes' alterations decided with the originals'. */
  private cloneNoteEvent(event: NoteEvent, read: MeasureRead): NoteEvent {
    const copy = structuredClone(event);
    copy.notes.forEach((n, i) => {
      const original = read.pending.find((p) => p.note === event.notes[i]);
      if (original) read.pending.push({ ...original, note: n, order: this.order++, tiedFrom: false });
    });
    if (copy.notes.length > 1) read.chords.push(copy);
    return copy;
  }

  private pushCopy(walk: LayerWalk, event: VoiceEvent, read: MeasureRead): void {
    const copy = structuredClone(event);
    if (copy.kind === 'note') {
      copy.lyrics = [];
      copy.notes.forEach((n, i) => {
        delete n.tieStart;
        delete n.tieStop;
        // A copy of a note of this measure has its alteration decided with the original's.
        const original = read.pending.find((p) => p.note === (event as NoteEvent).notes[i]);
        if (original) read.pending.push({ ...original, note: n, onset: walk.cursor, order: this.order++, tiedFrom: false });
      });
      if (copy.notes.length > 1) read.chords.push(copy);
    }
    if (copy.kind === 'rest' && copy.measureRest) {
      read.measureRests.push({ event: copy, staff: walk.staff, onset: walk.cursor, events: walk.events });
    }
    walk.events.push(copy);
    walk.cursor = add(walk.cursor, copy.duration);
  }

  // -- pitches ---------------------------------------------------------------

  /** Decides every note's alteration in time order per staff, as a player reads the measure. */
  private resolvePitches(read: MeasureRead): void {
    const byStaff = new Map<StaffState, PendingPitch[]>();
    for (const p of read.pending) {
      const list = byStaff.get(p.staff);
      if (list) list.push(p);
      else byStaff.set(p.staff, [p]);
    }
    const carryById = this.tieCarryById;
    const carryByPitch = this.tieCarryByPitch;
    this.tieCarryById = new Map();
    this.tieCarryByPitch = new Map();
    for (const [staff, list] of byStaff) {
      list.sort((a, b) => compare(a.onset, b.onset) || a.order - b.order);
      const state = new Map<string, number>();
      const carried = carryByPitch.get(staff.n);
      const nextCarry = new Map<string, number>();
      for (const p of list) {
        const { step, octave } = p.note.pitch;
        const key = `${step}${octave}`;
        let alter: number;
        const fromTie = p.tiedFrom ? ((p.id !== undefined ? carryById.get(p.id) : undefined) ?? carried?.get(key)) : undefined;
        if (p.gestural !== undefined) alter = p.gestural;
        else if (p.written !== undefined) alter = p.written;
        else if (fromTie !== undefined) alter = fromTie;
        else alter = state.get(key) ?? staff.key.alters.get(step) ?? keyAlter(staff.key.fifths, step);
        if (p.written !== undefined) state.set(key, alter);
        p.note.pitch.alter = alter;
        if (p.note.tieStart) nextCarry.set(key, alter);
      }
      if (nextCarry.size) this.tieCarryByPitch.set(staff.n, nextCarry);
    }
  }

  // -- control events --------------------------------------------------------

  private readControlEvents(el: XmlElement, read: MeasureRead): void {
    for (const c of el.children) {
      switch (c.name) {
        case 'tie': {
          const start = ref(c.attrs.startid);
          const end = ref(c.attrs.endid);
          if (!start || !end) break;
          this.ties.push([start, end]);
          const from = this.ids.get(start)?.note;
          if (from) this.tieCarryById.set(end, from.pitch.alter);
          break;
        }
        case 'dir':
        case 'tempo':
        case 'dynam': {
          const type = c.attrs.type ?? '';
          if (/\b(problem|sic)\b/.test(type)) break;
          const dir = this.readDirection(c, read);
          if (!dir) break;
          const list = read.measures[dir.part]!.directions;
          // Verovio's Humdrum import states a tempo word both as <tempo> and as <dir>: it is printed once.
          const same = list.find((d) => d.words !== undefined && d.words === dir.direction.words && compare(d.offset, dir.direction.offset) === 0);
          if (!same) list.push(dir.direction);
          else if (dir.direction.tempo !== undefined || dir.direction.metronome) Object.assign(same, dir.direction);
          break;
        }
        case 'fermata': {
          const target = this.ids.get(ref(c.attrs.startid) ?? '');
          if (target && target.event.kind === 'note') {
            const list = (target.event.articulations ??= []);
            if (!list.includes('fermata')) list.push('fermata');
          }
          break;
        }
        default:
          break;
      }
    }
    for (const m of read.measures) m.directions.sort((a, b) => compare(a.offset, b.offset));
  }

  private readDirection(c: XmlElement, read: MeasureRead): { part: number; direction: Direction } | undefined {
    const target = this.ids.get(ref(c.attrs.startid) ?? '');
    const staffN = (c.attrs.staff ?? '').trim().split(/\s+/)[0] ?? '';
    const staff = this.staves.get(staffN) ?? (target ? this.parts[target.part]?.staves[target.staffInPart - 1] : undefined) ?? this.parts[0]!.staves[0]!;
    let offset: Fraction | undefined;
    if (target && target.measure === read.index) offset = target.offset;
    else {
      const tstamp = Number(c.attrs.tstamp);
      if (Number.isFinite(tstamp)) offset = mul(toFraction(Math.max(0, tstamp - 1)), frac(4, staff.meter?.unit ?? 4));
    }
    offset ??= ZERO;
    if (compare(offset, read.length) > 0) offset = read.length;
    const direction: Direction = { offset, staff: staff.staffInPart };
    const place = c.attrs.place;
    if (place === 'above' || place === 'below') direction.placement = place;
    const text = textOf(c);
    if (c.name === 'dynam') {
      if (DYNAMICS.has(text)) direction.dynamics = text;
      else if (text) direction.words = text;
    } else if (text) direction.words = text;
    if (c.name === 'tempo') {
      const mm = Number(c.attrs.mm);
      const unit = readType(c.attrs['mm.unit']);
      const dots = int(c.attrs['mm.dots']) ?? 0;
      if (Number.isFinite(mm) && mm > 0 && mm <= 10_000 && unit && dots >= 0 && dots <= 3) {
        direction.metronome = { beatUnit: unit, dots, perMinute: mm };
        const quarters = notatedDuration(unit, dots);
        direction.tempo = (mm * quarters.n) / quarters.d;
      }
      const bpm = Number(c.attrs['midi.bpm']);
      if (Number.isFinite(bpm) && bpm > 0 && bpm <= 10_000) direction.tempo = bpm;
    }
    if (direction.words === undefined && direction.dynamics === undefined && direction.metronome === undefined && direction.tempo === undefined) return undefined;
    return { part: staff.part, direction };
  }

  private applyTies(): void {
    for (const [start, end] of this.ties) {
      const a = this.ids.get(start);
      const b = this.ids.get(end);
      if (!a || !b) continue;
      const from = a.note ? [a.note] : a.event.kind === 'note' ? a.event.notes : [];
      const to = b.note ? [b.note] : b.event.kind === 'note' ? b.event.notes : [];
      for (const n of from) {
        const m = to.find((x) => x.pitch.step === n.pitch.step && x.pitch.octave === n.pitch.octave);
        if (!m) continue;
        n.tieStart = true;
        m.tieStop = true;
      }
    }
  }
}

function showKey(state: PartState, measure: Measure, key: KeyState): void {
  const shown = `${key.fifths} ${key.mode ?? ''}`;
  if (shown === state.shownKey) return;
  state.shownKey = shown;
  const signature: KeySignature = { fifths: key.fifths };
  if (key.mode) signature.mode = key.mode;
  measure.key = signature;
}

function showTime(state: PartState, measure: Measure, meter: Meter): void {
  const shown = `${meter.count}/${meter.unit} ${meter.symbol ?? ''} ${meter.beatsText ?? ''}`;
  if (shown === state.shownTime) return;
  state.shownTime = shown;
  measure.time = toTimeSignature(meter);
}

/** The first `score` of the first `mdiv` that has one. */
function findScore(el: XmlElement): XmlElement | undefined {
  for (const c of el.children) {
    if (c.name === 'score') return c;
    if (c.name === 'body' || c.name === 'mdiv') {
      const found = findScore(c);
      if (found) return found;
    }
  }
  return undefined;
}

/** `staff` and `layer` children, looking through editorial wrappers. */
function descendantsOf(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    if (c.name === name) out.push(c);
    else if (TRANSPARENT.has(c.name)) out.push(...descendantsOf(c, name));
    else if (c.name === 'app' || c.name === 'choice') {
      const pick = pickReading(c);
      if (pick) out.push(...descendantsOf(pick, name));
    }
  }
  return out;
}

/** The reading of an `app` (its `lem`, else the first `rdg`) or a `choice` (the corrected, regularised or expanded text). */
function pickReading(el: XmlElement): XmlElement | undefined {
  if (el.name === 'app') return first(el, 'lem') ?? first(el, 'rdg');
  return first(el, 'corr') ?? first(el, 'reg') ?? first(el, 'expan') ?? el.children[0];
}

function isGrandStaff(grp: XmlElement): boolean {
  if (grp.attrs.symbol !== 'brace') return false;
  const defs = all(grp, 'staffDef');
  if (defs.length < 2 || defs.length > 4 || all(grp, 'staffGrp').length) return false;
  const named = textOf(first(grp, 'label')) !== '' || first(grp, 'instrDef') !== undefined;
  return named && defs.filter((d) => textOf(first(d, 'label')) !== '' || (d.attrs.label ?? '').trim() !== '').length <= 1;
}

function groupSymbol(symbol: string | undefined): PartGroup['symbol'] {
  switch (symbol) {
    case 'brace':
    case 'bracket':
    case 'line':
      return symbol;
    case 'bracketsq':
      return 'square';
    default:
      return 'none';
  }
}

function readTransposition(def: XmlElement): Transposition | undefined {
  const diat = int(def.attrs['trans.diat']) ?? 0;
  const semi = int(def.attrs['trans.semi']) ?? 0;
  if ((!diat && !semi) || Math.abs(diat) > 48 || Math.abs(semi) > 48) return undefined;
  const octaveChange = Math.trunc(semi / 12);
  const t: Transposition = { diatonic: diat - 7 * octaveChange, chromatic: semi - 12 * octaveChange };
  if (octaveChange) t.octaveChange = octaveChange;
  return t;
}

// ---------------------------------------------------------------------------
// Clef, key and meter

interface AttributeChanges {
  clef?: Clef;
  key?: KeyState;
  meter?: Meter;
}

/** Clef, key and meter stated on a `scoreDef` or `staffDef`, as attributes or child elements. */
function readAttributeChanges(el: XmlElement): AttributeChanges {
  const changes: AttributeChanges = {};
  const clefEl = first(el, 'clef');
  const clef = clefEl
    ? readClef(clefEl.attrs.shape, clefEl.attrs.line, clefEl.attrs.dis, clefEl.attrs['dis.place'])
    : readClef(el.attrs['clef.shape'], el.attrs['clef.line'], el.attrs['clef.dis'], el.attrs['clef.dis.place']);
  if (clef) changes.clef = clef;
  const keyEl = first(el, 'keySig');
  const key = keyEl ? readKeySig(keyEl) : readKeyValue(el.attrs['key.sig'], el.attrs['key.mode']);
  if (key) changes.key = key;
  const meterEl = first(el, 'meterSig') ?? first(first(el, 'meterSigGrp'), 'meterSig');
  const meter = meterEl ? readMeterSig(meterEl) : readMeter(el.attrs['meter.count'], el.attrs['meter.unit'], el.attrs['meter.sym']);
  if (meter) {
    const mensur = first(el, 'mensur');
    if (meterEl?.attrs.visible === 'false' && mensur?.attrs.sign === 'C' && !meter.symbol) meter.symbol = mensur.attrs.slash ? 'cut' : 'common';
    changes.meter = meter;
  }
  return changes;
}

function applyChanges(staff: StaffState, changes: AttributeChanges): void {
  if (changes.clef && !(staff.clef && sameClef(staff.clef, changes.clef))) {
    staff.clef = changes.clef;
    staff.changedClef = true;
  }
  if (changes.key && !sameKey(staff.key, changes.key)) {
    staff.key = changes.key;
    staff.changedKey = true;
  }
  if (changes.meter && !sameMeter(changes.meter, staff.meter)) {
    staff.meter = changes.meter;
    staff.changedMeter = true;
  }
}

function readClef(shape: string | undefined, lineText: string | undefined, dis: string | undefined, place: string | undefined): Clef | undefined {
  if (!shape) return undefined;
  const sign: ClefSign | undefined =
    shape === 'G' || shape === 'GG' ? 'G' : shape === 'F' ? 'F' : shape === 'C' ? 'C' : shape === 'perc' ? 'percussion' : shape === 'TAB' ? 'TAB' : undefined;
  if (!sign) return undefined;
  const line = int(lineText) ?? DEFAULT_CLEF_LINE[sign] ?? 3;
  if (line < 1 || line > 6) return undefined;
  const clef: Clef = { sign, line };
  const octaves = dis === '8' ? 1 : dis === '15' ? 2 : 0;
  if (octaves) clef.octaveChange = place === 'above' ? octaves : -octaves;
  else if (shape === 'GG') clef.octaveChange = -1;
  return clef;
}

/** Diatonic index (C0 = 0) of a clef's bottom line; a treble clef when there is none. */
function staffPosition(clef: Clef | undefined): number {
  const sign = clef?.sign ?? 'G';
  const [pitch, defaultLine] = sign === 'F' ? [24, 4] : sign === 'C' ? [28, 3] : [32, 2];
  return pitch - 2 * ((clef?.line ?? defaultLine) - 1) + 7 * (clef?.octaveChange ?? 0);
}

function sameClef(a: Clef, b: Clef): boolean {
  return a.sign === b.sign && a.line === b.line && (a.octaveChange ?? 0) === (b.octaveChange ?? 0);
}

/** `key.sig` values: `0`, `2s`, `3f` (MEI 3/4 also `mixed`, read as no signature). */
function readKeyValue(sig: string | undefined, mode: string | undefined): KeyState | undefined {
  if (sig === undefined) return undefined;
  const m = /^\s*(\d+)\s*([sf])?\s*$/.exec(sig);
  if (!m) return undefined;
  const count = Number(m[1]);
  if (count > 7 || (count > 0 && !m[2])) return undefined;
  const key: KeyState = { fifths: m[2] === 'f' ? -count : count, alters: new Map() };
  if (mode && MODES.has(mode)) key.mode = mode;
  return key;
}

/** A `keySig` element: `sig`, or `keyAccid` children for keys that are not a run of sharps or flats. */
function readKeySig(el: XmlElement): KeyState | undefined {
  const keyAccids = all(el, 'keyAccid');
  if (el.attrs.sig !== undefined && el.attrs.sig !== 'mixed') return readKeyValue(el.attrs.sig, el.attrs.mode);
  // A key signature with neither `sig` nor `keyAccid`s has no accidentals.
  if (!keyAccids.length) return { fifths: 0, alters: new Map(), ...(el.attrs.mode && MODES.has(el.attrs.mode) && { mode: el.attrs.mode }) };
  const alters = new Map<Step, number>();
  for (const ka of keyAccids) {
    const step = (ka.attrs.pname ?? '').toUpperCase();
    const accid = ACCIDENTALS[ka.attrs.accid ?? ''];
    if (isStep(step) && accid) alters.set(step, accid.alter);
  }
  // A key whose accidentals are the first n sharps or flats is that key; others keep their own alterations.
  const sharps = [...alters].filter(([, a]) => a === 1).map(([s]) => s);
  const flats = [...alters].filter(([, a]) => a === -1).map(([s]) => s);
  const isRun = (steps: Step[], order: readonly Step[]) => steps.length === alters.size && steps.every((s) => order.indexOf(s) < steps.length);
  let fifths: number;
  if (isRun(sharps, SHARP_ORDER)) fifths = sharps.length;
  else if (isRun(flats, [...SHARP_ORDER].reverse())) fifths = -flats.length;
  else fifths = Math.max(-7, Math.min(7, sharps.length - flats.length));
  const key: KeyState = { fifths, alters: new Map() };
  if (!isRun(sharps, SHARP_ORDER) && !isRun(flats, [...SHARP_ORDER].reverse())) {
    for (const step of SHARP_ORDER) key.alters.set(step, alters.get(step) ?? 0);
  }
  if (el.attrs.mode && MODES.has(el.attrs.mode)) key.mode = el.attrs.mode;
  return key;
}

function sameKey(a: KeyState, b: KeyState): boolean {
  if (a.fifths !== b.fifths || a.mode !== b.mode || a.alters.size !== b.alters.size) return false;
  for (const [s, v] of a.alters) if (b.alters.get(s) !== v) return false;
  return true;
}

function readMeterSig(el: XmlElement): Meter | undefined {
  return readMeter(el.attrs.count, el.attrs.unit, el.attrs.sym);
}

function readMeter(countText: string | undefined, unitText: string | undefined, sym: string | undefined): Meter | undefined {
  const symbol = sym === 'common' ? 'common' : sym === 'cut' ? 'cut' : undefined;
  if (countText === undefined && unitText === undefined) {
    if (symbol === 'common') return { count: 4, unit: 4, symbol };
    if (symbol === 'cut') return { count: 2, unit: 2, symbol };
    return undefined;
  }
  const parts = (countText ?? '').split('+').map((p) => Number(p.trim()));
  const count = parts.reduce((s, p) => s + p, 0);
  const unit = Number(unitText ?? 4);
  if (!parts.every((p) => Number.isInteger(p) && p >= 1) || count < 1 || count > 1000 || !Number.isInteger(unit) || unit < 1 || unit > 1024) return undefined;
  const meter: Meter = { count, unit };
  if (symbol) meter.symbol = symbol;
  if (parts.length > 1) meter.beatsText = (countText ?? '').replace(/\s+/g, '');
  return meter;
}

function sameMeter(a: Meter, b: Meter | undefined): boolean {
  return !!b && a.count === b.count && a.unit === b.unit && a.symbol === b.symbol && a.beatsText === b.beatsText;
}

function toTimeSignature(meter: Meter): TimeSignature {
  const time: TimeSignature = { beats: meter.count, beatType: meter.unit };
  if (meter.symbol) time.symbol = meter.symbol;
  if (meter.beatsText) time.beatsText = meter.beatsText;
  return time;
}

function meterLength(meter: Meter | undefined): Fraction {
  return meter ? timeSignatureLength({ beats: meter.count, beatType: meter.unit }) : frac(4);
}

// ---------------------------------------------------------------------------
// Events

function readType(dur: string | undefined): DurationType | undefined {
  return dur === undefined ? undefined : DURATIONS[dur.trim()];
}

function readDots(el: XmlElement, attr: string, where: string): number {
  const text = el.attrs[attr];
  if (text === undefined) return 0;
  const dots = int(text);
  if (dots === undefined || dots < 0 || dots > MAX_DOTS) throw new OmrError(CODE, `${where}: ${attr}="${text}" is out of range (0 to ${MAX_DOTS}).`);
  return dots;
}

function ratio(num: number, numbase: number, where: string): { num: number; numbase: number } {
  if (num > MAX_TUPLET * MAX_TUPLET || numbase > MAX_TUPLET * MAX_TUPLET) throw new OmrError(CODE, `${where}: tuplets nest too deep.`);
  return { num, numbase };
}

/** The layer's ratio times the element's own `num`/`numbase`. */
function withOwnRatio(r: { num: number; numbase: number }, el: XmlElement, where: string): { num: number; numbase: number } {
  const num = int(el.attrs.num);
  const numbase = int(el.attrs.numbase);
  if (num === undefined || numbase === undefined || num < 1 || numbase < 1 || num > MAX_TUPLET || numbase > MAX_TUPLET) return r;
  return ratio(r.num * num, r.numbase * numbase, where);
}

/** Flags the first and last timed events under a tuplet bracket. */
function markTuplet(events: VoiceEvent[]): void {
  const timed = events.filter((e) => e.tuplet && e.duration.n > 0);
  const firstEvent = timed[0];
  const lastEvent = timed[timed.length - 1];
  if (!firstEvent || !lastEvent) return;
  firstEvent.tuplet = { ...firstEvent.tuplet!, start: true };
  lastEvent.tuplet = { ...lastEvent.tuplet!, stop: true };
}

/** Beam values on every level for the notes under one `beam`; grace notes are beamed among themselves. */
function assignBeams(events: VoiceEvent[]): void {
  const notes = events.filter((e): e is NoteEvent => e.kind === 'note');
  for (const group of [notes.filter((e) => !e.grace), notes.filter((e) => e.grace)]) {
    const beamed = group.filter((e) => e.type && (BEAM_COUNT[e.type] ?? 0) > 0);
    if (beamed.length < 2) continue;
    const counts = beamed.map((e) => BEAM_COUNT[e.type!] ?? 0);
    beamed.forEach((event, i) => {
      const values: BeamValue[] = [];
      for (let level = 1; level <= counts[i]!; level++) {
        const prev = level === 1 ? i > 0 : i > 0 && counts[i - 1]! >= level;
        const next = level === 1 ? i < beamed.length - 1 : i < beamed.length - 1 && counts[i + 1]! >= level;
        values.push(prev && next ? 'continue' : prev ? 'end' : next ? 'begin' : i === 0 ? 'forward hook' : 'backward hook');
      }
      event.beams = values;
    });
  }
}

function readArticulations(els: XmlElement[]): string[] {
  const found: string[] = [];
  const addAll = (values: string | undefined) => {
    for (const v of (values ?? '').split(/\s+/)) {
      const name = ARTICULATIONS[v];
      if (name && !found.includes(name)) found.push(name);
    }
  };
  for (const el of els) {
    addAll(el.attrs.artic);
    for (const a of all(el, 'artic')) addAll(a.attrs.artic);
    if (el.attrs.fermata && !found.includes('fermata')) found.push('fermata');
  }
  return found;
}

function readLyrics(event: NoteEvent, els: XmlElement[]): void {
  for (const el of els) {
    for (const verse of [...all(el, 'verse'), ...all(el, 'syl').map((syl) => ({ name: 'verse', attrs: {}, children: [syl], text: '' }) as XmlElement)]) {
      const n = int(verse.attrs.n) ?? 1;
      if (n < 1 || n > MAX_VERSES || event.lyrics.some((l) => l.verse === n)) continue;
      const syls = all(verse, 'syl');
      const texts = syls.map((s) => textOf(s)).filter((t) => t !== '');
      if (!texts.length) continue;
      const firstSyl = syls[0]!;
      const lastSyl = syls[syls.length - 1]!;
      const wordpos = firstSyl.attrs.wordpos ?? lastSyl.attrs.wordpos;
      const startPos = firstSyl.attrs.wordpos;
      const endPos = lastSyl.attrs.wordpos;
      // Elided syllables: the word position runs from the first syllable's start to the last one's end.
      const begins = (startPos ?? wordpos) === 'i' || (startPos ?? wordpos) === undefined || (startPos ?? wordpos) === 's';
      const ends = (endPos ?? wordpos) === 't' || (endPos ?? wordpos) === undefined || (endPos ?? wordpos) === 's';
      const lyric: Lyric = {
        verse: n,
        text: texts.join('\u203f'),
        syllabic: syls.length === 1
          ? wordpos === 'i' ? 'begin' : wordpos === 'm' ? 'middle' : wordpos === 't' ? 'end' : 'single'
          : begins && ends ? 'single' : begins ? 'begin' : ends ? 'end' : 'middle',
      };
      if (lastSyl.attrs.con === 'u') lyric.extend = true;
      event.lyrics.push(lyric);
    }
  }
  event.lyrics.sort((a, b) => a.verse - b.verse);
}

// ---------------------------------------------------------------------------
// Barlines and credits

function readBarlines(el: XmlElement, measure: Measure): void {
  const left = el.attrs.left;
  const right = el.attrs.right;
  if (left === 'rptstart' || left === 'rptboth') measure.leftBarline = { style: 'heavy-light', repeat: { direction: 'forward' } };
  else if (left && left !== 'single') {
    const style = barStyle(left);
    if (style) measure.leftBarline = { style };
  }
  if (right === 'rptend' || right === 'rptboth') measure.rightBarline = { style: 'light-heavy', repeat: { direction: 'backward' } };
  else if (right && right !== 'single') {
    const style = barStyle(right);
    if (style) measure.rightBarline = { style };
  }
}

function barStyle(form: string): BarStyle | undefined {
  const styles: Record<string, BarStyle> = {
    end: 'light-heavy',
    dbl: 'light-light',
    dbldashed: 'light-light',
    dbldotted: 'light-light',
    dblheavy: 'heavy-heavy',
    dashed: 'dashed',
    dotted: 'dotted',
    heavy: 'heavy',
    invis: 'none',
  };
  return styles[form];
}

function readCredits(head: XmlElement | undefined): Credits {
  const credits: Credits = {};
  if (!head) return credits;
  const fileDesc = first(head, 'fileDesc');
  const titleStmt = first(fileDesc, 'titleStmt');
  const works = [...all(first(head, 'workList'), 'work'), ...all(first(head, 'workDesc'), 'work')];
  const work = works.find((w) => w.attrs.type === 'encoded') ?? works.find((w) => w.attrs.type !== 'parent') ?? works[0];
  const titles = all(titleStmt, 'title');
  const mainTitle = titles.find((t) => !t.attrs.type || t.attrs.type === 'main' || t.attrs.type === 'uniform') ?? titles[0];
  const mainPart = mainTitle && (all(mainTitle, 'titlePart').find((p) => p.attrs.type === 'main') ?? undefined);
  const title = textOf(mainPart ?? mainTitle) || textOf(first(work, 'title'));
  if (title) credits.title = title;
  const subtitle = textOf(titles.find((t) => t.attrs.type === 'subordinate') ?? (mainTitle && all(mainTitle, 'titlePart').find((p) => p.attrs.type === 'subordinate')));
  if (subtitle && subtitle !== title) credits.subtitle = subtitle;

  const people = (scope: XmlElement | undefined, role: string): string => {
    if (!scope) return '';
    const direct = textOf(first(scope, role));
    if (direct) return direct;
    for (const stmt of [scope, ...all(scope, 'respStmt')]) {
      for (const p of [...all(stmt, 'persName'), ...all(stmt, 'name'), ...all(stmt, 'corpName')]) {
        if ((p.attrs.role ?? '').toLowerCase() === role) return textOf(p);
      }
    }
    return '';
  };
  const bibls = descendants(first(fileDesc, 'sourceDesc') ?? { name: '', attrs: {}, children: [], text: '' }, 'bibl');
  const roles: [keyof Credits, string[]][] = [
    ['composer', ['composer']],
    ['lyricist', ['lyricist', 'librettist']],
    ['arranger', ['arranger']],
  ];
  for (const [field, names] of roles) {
    for (const role of names) {
      const found = people(titleStmt, role) || people(work, role) || bibls.map((b) => people(b, role)).find(Boolean) || '';
      if (found) {
        credits[field] = found;
        break;
      }
    }
  }
  const restrict = descendants(head, 'useRestrict');
  const rights = textOf(restrict.find((r) => r.attrs.type === 'copyright') ?? restrict[0] ?? first(first(first(fileDesc, 'pubStmt'), 'availability'), 'p'));
  if (rights) credits.rights = rights;
  return credits;
}

/** Refuses a part whose measures add up to times beyond exact arithmetic (see the MusicXML reader). */
function checkTimeline(part: Part): void {
  try {
    for (const _ of placedNotes({ credits: {}, parts: [part], partGroups: [] }));
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    throw new OmrError(CODE, `Part ${part.id}: its measures' durations add up to times too fine to keep exactly (${err.message}).`, { cause: err });
  }
}

