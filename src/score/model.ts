/**
 * The score model: the one representation in the middle of ScoreSight.
 *
 * Recognition produces it, the MusicXML reader produces it, and every writer
 * (MusicXML, MXL, MIDI) consumes it. It is plain data — no classes, no
 * cycles — so it can be structured-cloned across a worker boundary, stored
 * in IndexedDB and serialised as JSON without a custom codec.
 *
 * Conventions:
 * - Time is exact: durations and offsets are {@link Fraction}s of a quarter note.
 * - Pitches are written pitch. A transposing part's sounding pitch is derived
 *   from its {@link Transposition}.
 * - Staff numbers are 1-based within a part, as in MusicXML.
 * - Any element may carry {@link Evidence} of where recognition saw it.
 */
import type { Fraction } from './fraction.js';

/** Where recognition saw an element, and how sure it is. */
export interface Evidence {
  /** 0-based index of the input page. */
  page: number;
  /** Bounding box in the pixels of the decoded input page (not the rescaled one). */
  box: Box;
  /** 0 (a guess) to 1 (certain). */
  confidence: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Fields shared by everything recognition can point at. */
export interface Evidenced {
  evidence?: Evidence;
}

export interface Score {
  credits: Credits;
  parts: Part[];
  /** Brackets, braces and barline groupings over consecutive parts. */
  partGroups: PartGroup[];
}

export interface Credits {
  title?: string;
  subtitle?: string;
  composer?: string;
  lyricist?: string;
  arranger?: string;
  rights?: string;
}

export interface PartGroup {
  /** 0-based index of the first part in the group. */
  first: number;
  /** 0-based index of the last part in the group (inclusive). */
  last: number;
  symbol: 'brace' | 'bracket' | 'line' | 'square' | 'none';
  /** Whether barlines are drawn through the whole group (orchestral sections, choirs). */
  barlinesConnected: boolean;
  name?: string;
}

export interface Part extends Evidenced {
  /** Stable id, e.g. `P1`. Unique within the score. */
  id: string;
  name: string;
  abbreviation?: string;
  /** Dotted `<group>.<instrument>` identifier, e.g. `strings.violin`, `keyboard.piano`. */
  instrumentId: string;
  /** General MIDI program, 0–127 (0 = Acoustic Grand Piano). */
  midiProgram: number;
  /** Unpitched percussion plays on MIDI channel 10. */
  percussion?: boolean;
  /** How written pitch differs from sounding pitch; absent for concert-pitch parts. */
  transposition?: Transposition;
  /** Number of staves (2 for a piano grand staff). */
  staves: number;
  measures: Measure[];
}

/**
 * Written-to-sounding interval, as MusicXML `<transpose>`:
 * sounding = written + chromatic semitones + 12 × octaveChange.
 * A B♭ clarinet is { diatonic: -1, chromatic: -2 }.
 */
export interface Transposition {
  diatonic: number;
  chromatic: number;
  octaveChange?: number;
}

export interface Measure extends Evidenced {
  /** Displayed measure number, a string as in MusicXML ("12", "12a", "X1"). */
  number: string;
  /** A pickup or a split measure that does not count in the numbering. */
  implicit?: boolean;
  /** Attribute changes that take effect at the start of this measure. */
  divisions?: number;
  key?: KeySignature;
  time?: TimeSignature;
  /** Clef changes in this measure, at the start (offset 0) or mid-measure. */
  clefs: ClefChange[];
  /** Barline on the left edge (forward repeats, volta starts). */
  leftBarline?: Barline;
  /** Barline on the right edge (final, double, backward repeats, volta ends). */
  rightBarline?: Barline;
  /** Multi-measure rest: this measure starts a run of `multiRest` empty measures. */
  multiRest?: number;
  /** A system (or page) break precedes this measure in the source layout. */
  systemBreak?: boolean;
  pageBreak?: boolean;
  /** Voices in display order; each runs from the start of the measure. */
  voices: Voice[];
  directions: Direction[];
}

/**
 * Key signature. `fifths` is -7 (7 flats) to 7 (7 sharps).
 * `mode` is informative ("major", "minor", …) and optional.
 */
export interface KeySignature extends Evidenced {
  fifths: number;
  mode?: string;
  /** Limit the key to one staff of the part (rare); absent = all staves. */
  staff?: number;
}

export interface TimeSignature extends Evidenced {
  beats: number;
  beatType: number;
  /**
   * How the signature is drawn: `common` (C), `cut` (¢), `single-number`, or
   * `normal`; additive signatures such as 3+2/8 keep `beats` as the sum and
   * `beatsText` as displayed.
   */
  symbol?: 'common' | 'cut' | 'single-number' | 'normal';
  beatsText?: string;
  /** Limit to one staff (rare); absent = all staves. */
  staff?: number;
}

export type ClefSign = 'G' | 'F' | 'C' | 'percussion' | 'TAB' | 'none';

export interface Clef extends Evidenced {
  sign: ClefSign;
  /** Staff line the clef sits on, 1 = bottom line (G clef: 2, F: 4, alto C: 3). */
  line: number;
  /** Octave transposition of the clef: -1 for a tenor G clef with an 8 below. */
  octaveChange?: number;
}

export interface ClefChange extends Clef {
  staff: number;
  /** Offset from the start of the measure, in quarter notes. */
  offset: Fraction;
}

export type BarStyle =
  | 'regular'
  | 'dotted'
  | 'dashed'
  | 'heavy'
  | 'light-light'
  | 'light-heavy'
  | 'heavy-light'
  | 'heavy-heavy'
  | 'tick'
  | 'short'
  | 'none';

export interface Barline extends Evidenced {
  style: BarStyle;
  repeat?: { direction: 'forward' | 'backward'; times?: number };
  /** Volta bracket: starts on the left barline, stops or is discontinued on the right. */
  ending?: { number: string; type: 'start' | 'stop' | 'discontinue'; text?: string };
}

/** One voice of a measure: events that follow each other without gaps or overlaps. */
export interface Voice {
  /** Voice label, as in MusicXML (`"1"`, `"2"`, `"5"` for the left hand …). */
  id: string;
  events: VoiceEvent[];
}

export type VoiceEvent = NoteEvent | RestEvent;

export type DurationType =
  | 'maxima'
  | 'long'
  | 'breve'
  | 'whole'
  | 'half'
  | 'quarter'
  | 'eighth'
  | '16th'
  | '32nd'
  | '64th'
  | '128th'
  | '256th'
  | '512th'
  | '1024th';

/** Fields shared by notes and rests. */
interface TimedEvent extends Evidenced {
  /**
   * Sounding length in quarter notes: the notated type with its dots and
   * tuplet ratio applied (0 for grace notes). This is the value time runs
   * on; `type`, `dots` and `tuplet` say how it is drawn.
   */
  duration: Fraction;
  /** Notated type; absent for whole-measure rests and for hidden spacers. */
  type?: DurationType;
  dots: number;
  tuplet?: Tuplet;
  /** Staff (1-based) the event is drawn on. */
  staff: number;
}

/**
 * A tuplet ratio: `actual` notes in the time of `normal` (a triplet is 3:2).
 * `start`/`stop` mark the first and last event under the bracket; nested
 * tuplets keep the product ratio on the inner events.
 */
export interface Tuplet {
  actual: number;
  normal: number;
  normalType?: DurationType;
  start?: boolean;
  stop?: boolean;
  /**
   * The page prints neither number nor bracket: the tuplet is implied by the
   * rhythm (engravers mark the first groups of a passage and leave the rest).
   */
  implied?: boolean;
}

/** One stroke: a single note, or a chord when it has several notes. */
export interface NoteEvent extends TimedEvent {
  kind: 'note';
  /** The heads of the stroke, lowest first; one for a single note. */
  notes: Note[];
  stem?: 'up' | 'down' | 'none' | 'double';
  /** Beam values by level, index 0 = the eighth-note beam. */
  beams?: BeamValue[];
  /** Grace note (duration 0); `slash` for an acciaccatura. */
  grace?: { slash: boolean };
  /** Cue-size note: drawn, not played. */
  cue?: boolean;
  lyrics: Lyric[];
  /** Fermata, staccato … as MusicXML element names; only what was seen. */
  articulations?: string[];
  /** Slurs starting, continuing or stopping on this stroke. */
  slurs?: Slur[];
  /** Ornaments as MusicXML element names inside `<ornaments>`: `trill-mark`, `mordent`, `inverted-mordent`, `turn`, `inverted-turn`, `shake` … */
  ornaments?: string[];
  /** Technical marks as MusicXML element names inside `<technical>`: `up-bow`, `down-bow` … */
  technical?: string[];
  /** A trill's wavy line starts or stops on this stroke. */
  wavyLine?: 'start' | 'stop';
  /** Tremolo strokes through the stem (`single`), or between two strokes (`start`/`stop`). */
  tremolo?: { marks: number; type: 'single' | 'start' | 'stop' };
  /** The chord is rolled (an arpeggio sign before it). */
  arpeggiate?: boolean;
}

/**
 * One end of a slur, as MusicXML `<slur>`: `number` tells overlapping slurs
 * apart (1–16); a slur crossing a system break is still one slur, and a
 * writer splits it as its format expects.
 */
export interface Slur {
  type: 'start' | 'stop' | 'continue';
  number: number;
  placement?: 'above' | 'below';
}

export type BeamValue = 'begin' | 'continue' | 'end' | 'forward hook' | 'backward hook';

export interface Note extends Evidenced {
  pitch: Pitch;
  /** Accidental as printed, if one is printed. */
  accidental?: Accidental;
  /** Tie to the next / from the previous note of the same pitch. */
  tieStart?: boolean;
  tieStop?: boolean;
  /** Notehead shape when not normal (`x`, `diamond`, `slash` …). */
  notehead?: string;
  /** Unpitched percussion: the instrument line the note stands for. */
  unpitched?: boolean;
}

export type Step = 'C' | 'D' | 'E' | 'F' | 'G' | 'A' | 'B';

/** Written pitch. `octave` 4 starts at middle C; `alter` in semitones (-2…2, halves allowed). */
export interface Pitch {
  step: Step;
  alter: number;
  octave: number;
}

export type AccidentalSign =
  | 'sharp'
  | 'flat'
  | 'natural'
  | 'double-sharp'
  | 'flat-flat'
  | 'sharp-sharp'
  | 'natural-sharp'
  | 'natural-flat'
  | 'quarter-sharp'
  | 'quarter-flat'
  | 'three-quarters-sharp'
  | 'three-quarters-flat';

export interface Accidental extends Evidenced {
  sign: AccidentalSign;
  /** Courtesy accidental (printed although the key and measure already imply it). */
  cautionary?: boolean;
  parentheses?: boolean;
}

export interface Lyric extends Evidenced {
  /** Verse number, 1-based. */
  verse: number;
  text: string;
  syllabic: 'single' | 'begin' | 'middle' | 'end';
  /** A melisma line follows the syllable. */
  extend?: boolean;
}

export interface RestEvent extends TimedEvent {
  kind: 'rest';
  /** A whole-measure rest: fills the measure whatever its time signature. */
  measureRest?: boolean;
  /**
   * Not drawn: a gap in a voice (MusicXML `<forward>`), so that every voice
   * still runs from the start of its measure.
   */
  hidden?: boolean;
  /** Vertical position when the rest is moved off its default line (e.g. in two-voice writing). */
  displayStep?: Step;
  displayOctave?: number;
}

/** Something written above or below a staff at a point in the measure. */
export interface Direction extends Evidenced {
  /** Offset from the start of the measure, in quarter notes. */
  offset: Fraction;
  staff: number;
  placement?: 'above' | 'below';
  /** Words: tempo text ("Allegro"), expression text ("dolce", "cresc."). */
  words?: string;
  /** Metronome mark as printed: ♩ = 120 is { beatUnit: 'quarter', dots: 0, perMinute: 120 }. */
  metronome?: { beatUnit: DurationType; dots: number; perMinute: number };
  /** Dynamics marks as MusicXML element names: `p`, `mf`, `sfz` … */
  dynamics?: string;
  /** Playback tempo in quarter notes per minute, when the direction sets one. */
  tempo?: number;
  /** A hairpin starts (`crescendo`, `diminuendo`) or ends (`stop`) here; `number` pairs overlapping ones. */
  wedge?: { type: 'crescendo' | 'diminuendo' | 'stop' | 'continue'; number: number };
  /**
   * An octave line starts or stops here, as MusicXML writes it: `down` for 8va (the notes stand an
   * octave below where they sound; their pitches are the sounding ones), `up` for 8vb.
   */
  octaveShift?: { type: 'up' | 'down' | 'stop'; size: number };
  /** Piano pedal mark: Ped. (`start`), * (`stop`), a change, or the line going on. */
  pedal?: 'start' | 'stop' | 'change' | 'continue';
  /** Rehearsal mark as printed ("A", "12"). */
  rehearsal?: string;
  /** Segno or coda sign. */
  sign?: 'segno' | 'coda';
  /**
   * Where the player goes from here, as the words say: `daCapo` (D.C.) back to the start once this
   * measure is played, `fine` (Fine) the end on the way through after a D.C. (MusicXML `<sound
   * dacapo="yes">`, `<sound fine="yes">`).
   */
  jump?: 'daCapo' | 'fine';
}
