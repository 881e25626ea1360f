/**
 * Seeded random music for OMR training data.
 *
 * Real corpora (lieder, string quartets, orchestral movements) are dense in
 * the common cases and thin in everything else: C clefs other than alto and
 * tenor, seven-flat keys, 64ths, septuplets, double flats, multi-measure
 * rests, notes six ledger lines off the staff. A recogniser only learns what
 * it sees, so this module writes scores that cover those cases on purpose,
 * while staying musically valid enough to be engraved: every voice fills its
 * measure, beams follow the beat, accidentals are what an engraver would
 * print, ties join equal pitches.
 *
 * The output is a {@link Score} of the model; the data pipeline writes it
 * with `writeMusicXml` and renders it with Verovio. Every random choice comes
 * from one seeded {@link Rng}, so a score is a pure function of its seed and
 * options.
 *
 * Structure: layout (which parts, groups, credits) → form (measures, meters,
 * keys, barlines, multi-measure rests, shared by all parts) → per part and
 * measure: clefs, rhythm, pitches and ties, beams and stems, grace notes,
 * accidentals, then lyrics and directions.
 */
import { add, compare, div, equals, frac, mul, sub, ZERO, type Fraction } from '../../src/score/fraction.js';
import { INSTRUMENTS, instrumentById, type Instrument } from '../../src/score/instruments.js';
import type {
  AccidentalSign,
  Barline,
  BeamValue,
  Clef,
  ClefChange,
  Credits,
  Direction,
  DurationType,
  Lyric,
  Measure,
  Note,
  NoteEvent,
  Part,
  PartGroup,
  Pitch,
  RestEvent,
  Score,
  Transposition,
  Tuplet,
  Voice,
  VoiceEvent,
} from '../../src/score/model.js';
import { diatonicIndex, keyAlter, STEPS } from '../../src/score/pitch.js';
import { notatedDuration, timeSignatureLength, TYPE_QUARTERS } from '../../src/score/timeline.js';
import { createRng, type Rng } from './prng.js';

// ---------------------------------------------------------------------------
// Options

export interface RandomScoreOptions {
  /**
   * Total number of staves over all parts, 1–24 (a piano or harp counts two).
   * Default: random, weighted towards 1–4 (solo, duo, song, quartet), with
   * chamber ensembles of 5–9 now and then and orchestras or choir with
   * orchestra of 10–24 occasionally.
   */
  staves: number;
  /** Number of measures, a pickup included, 4–32. Default: random, mostly 4–16, sometimes up to 32. */
  measures: number;
  /**
   * How often rare notation appears — tuplets, 32nds and 64ths, double
   * accidentals, notes far off the staff, clef changes, grace and cue notes,
   * multi-measure rests, key and time changes — as a multiplier of the
   * built-in rates: 0 = none, 1 (default) = the built-in rates, 2 = twice as often.
   */
  rareFeatureRate: number;
}

/** Scales the rates of rare features: `p` for a probability (capped at 1), `w` for a relative weight. */
interface Rate {
  p(probability: number): number;
  w(weight: number): number;
}

const MAX_STAVES = 24;
const MIN_MEASURES = 4;
const MAX_MEASURES = 32;

/**
 * A random score: parts, clefs, keys, meters, rhythms and pitches all drawn
 * from `seed`. The same seed and options always give a deep-equal score.
 */
export function generateRandomScore(seed: number, options: Partial<RandomScoreOptions> = {}): Score {
  const rng = createRng(seed);
  const opts = resolveOptions(rng.fork(), options);
  const rate: Rate = { p: (p) => Math.min(1, p * opts.rareFeatureRate), w: (w) => w * opts.rareFeatureRate };

  const layoutRng = rng.fork();
  const specs = chooseParts(layoutRng, opts.staves);
  const partGroups = chooseGroups(layoutRng, specs);
  const credits = chooseCredits(layoutRng, specs);
  const plans = planForm(rng.fork(), opts.measures, rate);

  const parts = specs.map((spec, i) => generatePart(rng.fork(), spec, plans, rate, i, opts.staves));
  return { credits, parts, partGroups };
}

function resolveOptions(rng: Rng, given: Partial<RandomScoreOptions>): RandomScoreOptions {
  const staves =
    given.staves ??
    rng.weighted<number>([
      [1, 24],
      [2, 20],
      [3, 16],
      [4, 14],
      [rng.int(5, 9), 14],
      [rng.int(10, 24), 12],
    ]);
  const measures = given.measures ?? (rng.chance(0.75) ? rng.int(MIN_MEASURES, 16) : rng.int(17, MAX_MEASURES));
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(v)));
  return {
    staves: clamp(staves, 1, MAX_STAVES),
    measures: clamp(measures, MIN_MEASURES, MAX_MEASURES),
    rareFeatureRate: Math.max(0, given.rareFeatureRate ?? 1),
  };
}

// ---------------------------------------------------------------------------
// Clefs and staff positions

/**
 * Every clef the generator writes. Staff positions count diatonic steps up
 * from the bottom line (0 = bottom line, 4 = middle line, 8 = top line), so a
 * clef is just the pitch of the bottom line.
 */
const CLEFS = {
  G2: { sign: 'G', line: 2 },
  G1: { sign: 'G', line: 1 },
  G8vb: { sign: 'G', line: 2, octaveChange: -1 },
  G8va: { sign: 'G', line: 2, octaveChange: 1 },
  F4: { sign: 'F', line: 4 },
  F3: { sign: 'F', line: 3 },
  F8vb: { sign: 'F', line: 4, octaveChange: -1 },
  C1: { sign: 'C', line: 1 },
  C2: { sign: 'C', line: 2 },
  C3: { sign: 'C', line: 3 },
  C4: { sign: 'C', line: 4 },
  C5: { sign: 'C', line: 5 },
} as const satisfies Record<string, Clef>;
type ClefCode = keyof typeof CLEFS;

/**
 * How likely each clef is as the replacement for another: the everyday clefs
 * most, the historical ones (soprano, mezzo, baritone, French violin) and the
 * octave clefs less, but often enough that a recogniser meets them.
 */
const CLEF_WEIGHTS: readonly (readonly [ClefCode, number])[] = [
  ['G2', 3], ['F4', 3], ['C3', 2], ['C4', 2], ['C1', 1], ['C2', 1], ['C5', 1],
  ['F3', 1], ['G1', 1], ['G8vb', 1], ['G8va', 1], ['F8vb', 1],
];

/** Diatonic index of the clef's reference pitch: G4, F3, C4; unpitched percussion reads like a G clef. */
const CLEF_REFERENCE: Record<string, number> = { G: 32, F: 24, C: 28, percussion: 32 };

/** Diatonic index (C0 = 0) of the bottom staff line under a clef. */
function bottomLine(clef: Clef): number {
  const ref = CLEF_REFERENCE[clef.sign] ?? 32;
  const line = clef.sign === 'percussion' ? 2 : clef.line;
  return ref - 2 * (line - 1) + 7 * (clef.octaveChange ?? 0);
}

function staffPosition(clef: Clef, pitch: Pick<Pitch, 'step' | 'octave'>): number {
  return diatonicIndex(pitch) - bottomLine(clef);
}

/** The diatonic pitch (step and octave) at a staff position; C0 to B9 at most. */
function positionPitch(clef: Clef, pos: number): { step: Pitch['step']; octave: number } {
  const index = Math.min(69, Math.max(0, bottomLine(clef) + pos));
  return { step: STEPS[index % 7]!, octave: Math.floor(index / 7) };
}

function copyClef(clef: Clef): Clef {
  return { sign: clef.sign, line: clef.line, ...(clef.octaveChange && { octaveChange: clef.octaveChange }) };
}

function sameClef(a: Clef, b: Clef): boolean {
  return a.sign === b.sign && a.line === b.line && (a.octaveChange ?? 0) === (b.octaveChange ?? 0);
}

function pickOtherClef(rng: Rng, current: Clef): Clef {
  const choices = CLEF_WEIGHTS.filter(([code]) => !sameClef(CLEFS[code], current));
  return copyClef(CLEFS[rng.weighted(choices)]);
}

// ---------------------------------------------------------------------------
// Layout: parts, groups, credits

type Section = 'woodwinds' | 'brass' | 'percussion' | 'solo' | 'voices' | 'keyboards' | 'strings';
const SECTION_ORDER: readonly Section[] = ['woodwinds', 'brass', 'percussion', 'solo', 'voices', 'keyboards', 'strings'];

interface PartSpec {
  instrument: Instrument;
  name: string;
  abbreviation: string;
  section: Section;
  /** Clef of each staff at the start. */
  clefs: Clef[];
  /** Sung: one voice, no chords, lyrics. */
  vocal: boolean;
  /** Unpitched percussion on a percussion clef. */
  unpitched: boolean;
  /** Plays chords (keyboards, harp) rather than single lines. */
  chordal: boolean;
}

/** Orchestral parts in score order, with how often each is picked. Repeated ids become "1", "2". */
const ORCHESTRA: readonly (readonly [string, Section, number])[] = [
  ['wind.piccolo', 'woodwinds', 1],
  ['wind.flute', 'woodwinds', 4],
  ['wind.flute', 'woodwinds', 2],
  ['wind.oboe', 'woodwinds', 3],
  ['wind.oboe', 'woodwinds', 1.5],
  ['wind.cor-anglais', 'woodwinds', 0.7],
  ['wind.clarinet-bflat', 'woodwinds', 3],
  ['wind.clarinet-bflat', 'woodwinds', 1.5],
  ['wind.clarinet-a', 'woodwinds', 0.6],
  ['wind.bass-clarinet', 'woodwinds', 0.7],
  ['wind.alto-saxophone', 'woodwinds', 0.5],
  ['wind.tenor-saxophone', 'woodwinds', 0.4],
  ['wind.bassoon', 'woodwinds', 3],
  ['wind.bassoon', 'woodwinds', 1.5],
  ['wind.contrabassoon', 'woodwinds', 0.6],
  ['brass.horn-f', 'brass', 3],
  ['brass.horn-f', 'brass', 2],
  ['brass.horn-eflat', 'brass', 0.4],
  ['brass.trumpet-bflat', 'brass', 2.5],
  ['brass.trumpet-c', 'brass', 1],
  ['brass.trombone', 'brass', 2],
  ['brass.bass-trombone', 'brass', 1],
  ['brass.tuba', 'brass', 1.5],
  ['pitched-percussion.timpani', 'percussion', 2.5],
  ['pitched-percussion.glockenspiel', 'percussion', 0.6],
  ['pitched-percussion.xylophone', 'percussion', 0.5],
  ['percussion.snare-drum', 'percussion', 0.5],
  ['percussion.bass-drum', 'percussion', 0.4],
  ['percussion.triangle', 'percussion', 0.3],
  ['strings.violin', 'strings', 5],
  ['strings.violin', 'strings', 5],
  ['strings.viola', 'strings', 4.5],
  ['strings.cello', 'strings', 4.5],
  ['strings.double-bass', 'strings', 3],
];

const GRAND_STAFF: readonly (readonly [string, number])[] = [
  ['keyboard.piano', 10],
  ['plucked.harp', 2],
  ['keyboard.harpsichord', 1],
  ['keyboard.organ', 0.7],
  ['keyboard.celesta', 0.5],
  ['pitched-percussion.marimba', 0.5],
];

const SOLO_VOICES = ['voice.soprano', 'voice.mezzo-soprano', 'voice.alto', 'voice.tenor', 'voice.baritone', 'voice.bass', 'voice.voice'];
const CHOIR = ['choir.soprano', 'choir.alto', 'choir.tenor', 'choir.bass'];

/**
 * Clefs of the old vocal "chiavi": soprano, mezzo, alto, tenor and baritone
 * C clefs (and the baritone F clef), as in editions of early music.
 */
const OLD_VOCAL_CLEFS: Record<string, readonly ClefCode[]> = {
  'voice.soprano': ['C1'],
  'voice.mezzo-soprano': ['C2'],
  'voice.alto': ['C3'],
  'voice.tenor': ['C4'],
  'voice.baritone': ['C5', 'F3'],
  'choir.soprano': ['C1'],
  'choir.alto': ['C3'],
  'choir.tenor': ['C4'],
};

/** Single-staff pitched instruments for solo and duo writing (voices, synths and percussion aside). */
const SOLO_INSTRUMENTS: readonly Instrument[] = INSTRUMENTS.filter(
  (i) => i.staves === 1 && !i.percussion && /^(wind|brass|strings|plucked|pitched-percussion)\./.test(i.id),
);
const UNPITCHED: readonly Instrument[] = INSTRUMENTS.filter((i) => i.percussion);

function instrument(id: string): Instrument {
  const found = instrumentById(id);
  if (!found) throw new Error(`random-score: no instrument ${id} in the table`);
  return found;
}

/** A part for an instrument with its table clefs, sometimes one swapped for a rarer clef. */
function makeSpec(rng: Rng, inst: Instrument, section: Section): PartSpec {
  const vocal = /^(voice|choir)\./.test(inst.id);
  const unpitched = !!inst.percussion;
  let clefs = inst.clefs.map(copyClef);
  if (vocal && OLD_VOCAL_CLEFS[inst.id] && rng.chance(0.3)) {
    clefs = [copyClef(CLEFS[rng.pick(OLD_VOCAL_CLEFS[inst.id]!)])];
  } else if (!unpitched && rng.chance(0.15)) {
    const staff = rng.int(0, clefs.length - 1);
    clefs[staff] = pickOtherClef(rng, clefs[staff]!);
  }
  return {
    instrument: inst,
    name: inst.name,
    abbreviation: inst.abbreviation,
    section,
    clefs,
    vocal,
    unpitched,
    chordal: inst.staves === 2,
  };
}

/**
 * Parts whose staves add up to `staves`: a solo for one staff; otherwise an
 * optional grand staff (piano, harp …), optional voices (a solo voice or an
 * SATB choir), and single-staff instruments — a duo partner or a weighted
 * draw from the orchestra — in score order.
 */
function chooseParts(rng: Rng, staves: number): PartSpec[] {
  if (staves === 1) {
    const kind = rng.weighted<'instrument' | 'voice' | 'percussion'>([['instrument', 70], ['voice', 24], ['percussion', 6]]);
    if (kind === 'voice') return [makeSpec(rng, instrument(rng.pick(SOLO_VOICES)), 'voices')];
    if (kind === 'percussion') return [makeSpec(rng, rng.pick(UNPITCHED), 'percussion')];
    return [makeSpec(rng, rng.pick(SOLO_INSTRUMENTS), 'solo')];
  }
  const specs: PartSpec[] = [];
  let remaining = staves;
  if (rng.chance(staves <= 3 ? 0.65 : staves <= 8 ? 0.4 : 0.3)) {
    specs.push(makeSpec(rng, instrument(rng.weighted(GRAND_STAFF)), 'keyboards'));
    remaining -= 2;
    if (staves >= 14 && rng.chance(0.3)) {
      specs.push(makeSpec(rng, instrument('plucked.harp'), 'keyboards'));
      remaining -= 2;
    }
  }
  if (remaining >= 1 && rng.chance(0.35)) {
    if (remaining >= 4 && rng.chance(staves >= 6 ? 0.6 : 0.3)) {
      for (const id of CHOIR) specs.push(makeSpec(rng, instrument(id), 'voices'));
      remaining -= 4;
    } else {
      specs.push(makeSpec(rng, instrument(rng.pick(SOLO_VOICES)), 'voices'));
      remaining -= 1;
    }
  }
  if (remaining > 0 && remaining <= 2 && specs.length && rng.chance(0.5)) {
    for (let i = 0; i < remaining; i++) specs.push(makeSpec(rng, rng.pick(SOLO_INSTRUMENTS), 'solo'));
  } else if (remaining > 0) {
    const chosen = weightedSample(rng, ORCHESTRA.map((row, i) => [i, row[2]] as const), remaining).sort((a, b) => a - b);
    for (const i of chosen) {
      const [id, section] = ORCHESTRA[i]!;
      specs.push(makeSpec(rng, instrument(id), section));
    }
  }
  const ordered = SECTION_ORDER.flatMap((section) => specs.filter((s) => s.section === section));
  numberDuplicates(ordered);
  return ordered;
}

/** `count` distinct items drawn with the given weights. */
function weightedSample<T>(rng: Rng, items: readonly (readonly [T, number])[], count: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length) {
    const pick = rng.weighted(pool.map((entry, i) => [i, entry[1]] as const));
    out.push(pool[pick]![0]);
    pool.splice(pick, 1);
  }
  return out;
}

/** "Violin I", "Violin II"; "Horn in F 1", "Horn in F 2": engravers number desks of the same instrument. */
function numberDuplicates(specs: PartSpec[]): void {
  const roman = ['I', 'II', 'III', 'IV'];
  for (const spec of specs) {
    const same = specs.filter((s) => s.instrument.id === spec.instrument.id);
    if (same.length < 2 || spec.name !== spec.instrument.name) continue;
    same.forEach((s, i) => {
      const label = s.instrument.id === 'strings.violin' ? roman[i] ?? String(i + 1) : String(i + 1);
      s.name = `${s.instrument.name} ${label}`;
      s.abbreviation = `${s.instrument.abbreviation} ${label}`;
    });
  }
}

/**
 * Brackets over orchestral sections with barlines through them; a bracket
 * over a choir without (lyrics run between the staves); sometimes a
 * secondary brace over Violin I and II. Grand staves need no group: the part
 * has two staves.
 */
function chooseGroups(rng: Rng, specs: PartSpec[]): PartGroup[] {
  const groups: PartGroup[] = [];
  for (const section of ['woodwinds', 'brass', 'percussion', 'voices', 'strings'] as const) {
    const indices = specs.flatMap((s, i) => (s.section === section ? [i] : []));
    if (indices.length < 2) continue;
    const first = indices[0]!;
    const last = indices[indices.length - 1]!;
    const vocal = section === 'voices';
    const group: PartGroup = { first, last, symbol: 'bracket', barlinesConnected: !vocal };
    if (vocal && rng.chance(0.5)) group.name = rng.pick(['Choir', 'Chor', 'Coro', 'Chœur']);
    groups.push(group);
    if (section === 'strings' && rng.chance(0.3)) {
      const violins = indices.filter((i) => specs[i]!.instrument.id === 'strings.violin');
      if (violins.length === 2 && indices.length > 2) groups.push({ first: violins[0]!, last: violins[1]!, symbol: rng.pick(['brace', 'square'] as const), barlinesConnected: true });
    }
  }
  return groups;
}

const TITLE_WORDS = [
  'Sonatine', 'Étude', 'Nocturne', 'Rêverie', 'Impromptu', 'Romanze', 'Ländler', 'Mazurka', 'Barcarolle', 'Canzonetta',
  'Élégie', 'Intermezzo', 'Pastorale', 'Sérénade', 'Fantasía', 'Chanson', 'Berceuse', 'Humoreske', 'Capriccio', 'Toccata',
  'Wiegenlied', 'Danza', 'Rondó', 'Scherzo', 'Ballade', 'Präludium', 'Caprice', 'Menuett', 'Gavotte', 'Polonaise',
];
const TITLE_FORMS: readonly ((w: string, rng: Rng) => string)[] = [
  (w) => w,
  (w, rng) => `${w} No. ${rng.int(1, 12)}`,
  (w, rng) => `${w} in ${rng.pick(['C', 'D', 'Es', 'Fis', 'g-Moll', 'ré mineur', 'La majeur', 'Si bémol', 'E'])}`,
  (w, rng) => `${rng.pick(['Petite', 'Kleine', 'Grande', 'Nueva', 'Première', 'Zweite'])} ${w}`,
  (w, rng) => `${w} ${rng.pick(["d'été", 'für Anna', 'à la fenêtre', 'del mar', 'im Grünen', 'sans paroles', 'über ein Thema'])}`,
];
const SUBTITLES: readonly ((rng: Rng) => string)[] = [
  (rng) => `Op. ${rng.int(1, 120)}`,
  (rng) => `Op. ${rng.int(1, 120)} No. ${rng.int(1, 6)}`,
  (rng) => rng.pick(['aus dem Album für die Jugend', 'pour les débutants', 'dédiée à Mlle Hélène', 'Andante cantabile', 'première version', 'für Gesang und Klavier', 'a mi querido José']),
];
const FIRST_NAMES = [
  'Antonín', 'Zoë', 'Björn', 'Agnès', 'José', 'Małgorzata', 'François', 'Jürgen', 'Søren', 'Íñigo', 'Chloé', 'Mihály',
  'Åsa', 'Grégoire', 'Dörte', 'Tomáš', 'Inês', 'Luís', 'Renée', 'Ödön', 'Clara', 'Henri', 'Paulína', 'Lukas',
];
const LAST_NAMES = [
  'Novák', 'Müller', 'Sørensen', 'Ibáñez', 'Lefèvre', 'Kowalczyk', 'Horváth', 'Öberg', 'Brückner', 'Pétursson', 'Çelik',
  'Gonçalves', 'Šimek', 'Åberg', 'Duchâtel', 'Jiménez', 'Fröhlich', 'Kovač', 'Ó Briain', 'Żuławski', 'Dubois', 'Schäfer',
];

function personName(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

/** Title always; subtitle and composer mostly; a lyricist when someone sings. */
function chooseCredits(rng: Rng, specs: PartSpec[]): Credits {
  const credits: Credits = { title: rng.pick(TITLE_FORMS)(rng.pick(TITLE_WORDS), rng) };
  if (rng.chance(0.5)) credits.subtitle = rng.pick(SUBTITLES)(rng);
  if (rng.chance(0.85)) credits.composer = personName(rng);
  if (specs.some((s) => s.vocal) && rng.chance(0.7)) credits.lyricist = personName(rng);
  return credits;
}

// ---------------------------------------------------------------------------
// Form: measures, meters, keys, barlines (shared by all parts)

interface Meter {
  beats: number;
  beatType: number;
  symbol?: 'common' | 'cut';
  /** Beat groups in quarter notes: beams and tuplets never cross them. */
  groups: Fraction[];
}

interface MeasurePlan {
  number: string;
  implicit: boolean;
  meter: Meter;
  /** The time signature is written here (first measure or a change). */
  timeChange: boolean;
  /** Actual length: the meter's, or less for a pickup. */
  length: Fraction;
  /** Beat groups of this measure (a pickup has the last ones, or part of one). */
  groups: Fraction[];
  /** Key in concert pitch; transposing parts write it transposed. */
  concertFifths: number;
  mode: 'major' | 'minor';
  keyChange: boolean;
  leftBarline?: Barline;
  rightBarline?: Barline;
  /** Starts a multi-measure rest of this many measures. */
  multiRest?: number;
  /** Inside a multi-measure rest: every part holds a whole-measure rest. */
  resting: boolean;
}

const q = (n: number, d = 1) => frac(n, d);

/**
 * Meters and how often each is drawn: flatter than in real music, so that
 * 5/4, 7/8 or 4/2 are not vanishingly rare. Beat groups come from {@link meterGroups}.
 */
const METERS: readonly (readonly [string, number])[] = [
  ['4/4', 6], ['3/4', 5], ['2/4', 5], ['6/8', 5], ['2/2', 4], ['3/8', 4], ['9/8', 4], ['12/8', 4],
  ['5/4', 4], ['6/4', 4], ['3/2', 4], ['5/8', 4], ['7/8', 4], ['4/2', 4],
];

function meterGroups(rng: Rng, beats: number, beatType: number): Fraction[] {
  const times = (n: number, g: Fraction) => Array.from({ length: n }, () => g);
  if (beatType === 8) {
    if (beats % 3 === 0) return times(beats / 3, q(3, 2));
    if (beats === 5) return rng.pick([[q(3, 2), q(1)], [q(1), q(3, 2)]]);
    return rng.pick([[q(1), q(1), q(3, 2)], [q(3, 2), q(1), q(1)], [q(1), q(3, 2), q(1)]]);
  }
  if (beatType === 2) return times(beats, q(2));
  if (beats === 6) return times(2, q(3));
  return times(beats, q(1));
}

function pickMeter(rng: Rng, rate: Rate, not?: Meter): Meter {
  const choices = METERS.filter(([name]) => !not || name !== `${not.beats}/${not.beatType}`).map(
    ([name, w]) => [name, name === '4/2' || /^[57]\//.test(name) ? rate.w(w) || 1e-9 : w] as const,
  );
  const [beats, beatType] = rng.weighted(choices).split('/').map(Number) as [number, number];
  const meter: Meter = { beats, beatType, groups: meterGroups(rng, beats, beatType) };
  if (beats === 4 && beatType === 4 && rng.chance(0.5)) meter.symbol = 'common';
  if (beats === 2 && beatType === 2 && rng.chance(0.5)) meter.symbol = 'cut';
  return meter;
}

/** Keys −7…+7, the extremes a little more often than their share in real music. */
function pickKey(rng: Rng, not?: number): number {
  const keys = Array.from({ length: 15 }, (_, i) => i - 7).filter((k) => k !== not);
  return rng.weighted(keys.map((k) => [k, Math.abs(k) >= 6 ? 1.3 : Math.abs(k) <= 2 ? 2 : 1] as const));
}

/** A pickup: the last beat group(s) of the meter, or part of the last group. */
function pickupGroups(rng: Rng, meter: Meter): Fraction[] {
  const n = meter.groups.length;
  if (n >= 2 && rng.chance(0.6)) return meter.groups.slice(n - rng.weighted([[1, 3], [Math.max(1, n - 1), 1]]));
  const last = meter.groups[n - 1]!;
  return [isTriple(last) ? div(last, q(3)) : div(last, q(2))];
}

function planForm(rng: Rng, count: number, rate: Rate): MeasurePlan[] {
  const pickup = rng.chance(0.25);
  const first = pickup ? 1 : 0;
  let meter = pickMeter(rng, rate);
  let fifths = pickKey(rng);
  let mode = rng.chance(0.3) ? ('minor' as const) : ('major' as const);
  const plans: MeasurePlan[] = [];
  for (let m = 0; m < count; m++) {
    plans.push({
      number: String(pickup ? m : m + 1),
      implicit: pickup && m === 0,
      meter,
      timeChange: m === 0,
      length: timeSignatureLength(meter),
      groups: meter.groups,
      concertFifths: fifths,
      mode,
      keyChange: m === 0,
      resting: false,
    });
  }

  planRepeats(rng, plans, first);

  // Key changes (with a double barline before them) and time changes, never on the first measures.
  const changeAt = (p: number) => {
    const out = new Set<number>();
    if (count - first >= 4 && rng.chance(rate.p(p))) {
      const n = rng.chance(0.3) ? 2 : 1;
      for (let i = 0; i < n; i++) out.add(rng.int(first + 2, count - 1));
    }
    return out;
  };
  const keyChanges = changeAt(0.3);
  // Now and then a piece in changing meters (as in much 20th-century music): a new meter every few measures.
  const mixedMeter = count - first >= 4 && rng.chance(rate.p(0.2));
  const timeChanges = mixedMeter ? new Set(plans.map((_, m) => m).filter((m) => m > first && rng.chance(0.4))) : changeAt(0.3);
  for (let m = 1; m < count; m++) {
    const plan = plans[m]!;
    if (keyChanges.has(m)) {
      fifths = pickKey(rng, fifths);
      mode = rng.chance(0.3) ? 'minor' : 'major';
      plan.keyChange = true;
      plans[m - 1]!.rightBarline ??= { style: 'light-light' };
    }
    if (timeChanges.has(m)) {
      meter = pickMeter(rng, rate, meter);
      plan.timeChange = true;
      if (rng.chance(0.3)) plans[m - 1]!.rightBarline ??= { style: 'light-light' };
    }
    Object.assign(plan, { meter, length: timeSignatureLength(meter), groups: meter.groups, concertFifths: fifths, mode });
  }
  if (pickup) {
    const p = plans[0]!;
    p.groups = pickupGroups(rng, p.meter);
    p.length = p.groups.reduce(add, ZERO);
  }
  plans[count - 1]!.rightBarline ??= { style: 'light-heavy' };

  planMultiRest(rng, plans, first, rate);
  return plans;
}

/** Nothing, a repeated passage, or a repeated passage with first and second endings. */
function planRepeats(rng: Rng, plans: MeasurePlan[], first: number): void {
  const count = plans.length;
  const kind = rng.weighted<'none' | 'repeat' | 'volta'>([['none', 5], ['repeat', 3], ['volta', 2.5]]);
  const forward = (a: number) => {
    if (a > first || rng.chance(0.5)) plans[a]!.leftBarline = { style: 'heavy-light', repeat: { direction: 'forward' } };
  };
  if (kind === 'repeat' && count - first >= 2) {
    const a = rng.int(first, count - 2);
    const b = rng.int(a + 1, count - 1);
    forward(a);
    plans[b]!.rightBarline = { style: 'light-heavy', repeat: { direction: 'backward' } };
  } else if (kind === 'volta') {
    const len1 = rng.int(1, 2);
    const len2 = rng.int(1, 2);
    // The repeat starts at a, the first ending covers s1..b, the second b+1..b+len2.
    const lo = first + len1;
    const hi = count - 1 - len2;
    if (lo > hi) return;
    const b = rng.int(lo, hi);
    const s1 = b - len1 + 1;
    const a = rng.int(first, s1 - 1);
    forward(a);
    plans[s1]!.leftBarline = { style: 'regular', ending: { number: '1', type: 'start', text: '1.' } };
    plans[b]!.rightBarline = { style: 'light-heavy', repeat: { direction: 'backward' }, ending: { number: '1', type: 'stop' } };
    plans[b + 1]!.leftBarline = { style: 'regular', ending: { number: '2', type: 'start', text: '2.' } };
    const e2 = b + len2;
    const last = e2 === count - 1;
    plans[e2]!.rightBarline = {
      style: last ? 'light-heavy' : 'regular',
      ending: { number: '2', type: last ? 'stop' : rng.pick(['stop', 'discontinue'] as const) },
    };
  }
}

/**
 * A run of 2–6 measures where every part rests, drawn as one multi-measure
 * rest: only where nothing else happens (no barlines, key or time changes),
 * and never at the very start or end.
 */
function planMultiRest(rng: Rng, plans: MeasurePlan[], first: number, rate: Rate): void {
  if (!rng.chance(rate.p(0.25))) return;
  const free = (m: number) => {
    const p = plans[m];
    return !!p && m > first && m < plans.length - 1 && !p.keyChange && !p.timeChange && !p.leftBarline && !p.rightBarline;
  };
  const n = rng.int(2, 6);
  const starts: number[] = [];
  for (let m = 0; m < plans.length; m++) {
    let ok = true;
    for (let k = 0; k < n && ok; k++) ok = free(m + k);
    if (ok) starts.push(m);
  }
  if (!starts.length) return;
  const s = rng.pick(starts);
  plans[s]!.multiRest = n;
  for (let k = 0; k < n; k++) plans[s + k]!.resting = true;
}

/** A tie may run into measure m unless a repeat, a volta or a rest run lies in between. */
function tieableInto(plans: MeasurePlan[], m: number): boolean {
  const next = plans[m];
  const prev = plans[m - 1];
  if (!next || !prev || next.resting || next.leftBarline) return false;
  return !prev.rightBarline?.repeat && !prev.rightBarline?.ending;
}

// ---------------------------------------------------------------------------
// Keys of transposing parts

/** The interval as a number of fifths (a major second up is +2), for transposing key signatures. */
function intervalFifths(diatonic: number, chromatic: number): number {
  const mod = (a: number, n: number) => ((a % n) + n) % n;
  for (let k = 0; k <= 11; k++) {
    for (const f of k === 0 ? [0] : [k, -k]) {
      if (mod(4 * f, 7) === mod(diatonic, 7) && mod(7 * f, 12) === mod(chromatic, 12)) return f;
    }
  }
  return 0;
}

/** The written key of a part: concert key moved by the inverse of the transposition, kept within ±7. */
function writtenFifths(concert: number, transposition: Transposition | undefined): number {
  if (!transposition) return concert;
  let f = concert + intervalFifths(-transposition.diatonic, -transposition.chromatic);
  while (f > 7) f -= 12;
  while (f < -7) f += 12;
  return f;
}

// ---------------------------------------------------------------------------
// Rhythm

/** Shortest value written: a 64th. */
const MIN_NOTE = q(1, 16);
const FLAGS: Partial<Record<DurationType, number>> = { eighth: 1, '16th': 2, '32nd': 3, '64th': 4 };
const DOUBLED: Partial<Record<DurationType, DurationType>> = { '32nd': '16th', '16th': 'eighth', eighth: 'quarter', quarter: 'half' };

/** Every single notated value from breve to 64th with up to two dots, none finer than a 64th. */
const NOTATABLE = (['breve', 'whole', 'half', 'quarter', 'eighth', '16th', '32nd', '64th'] as const).flatMap((type) =>
  [0, 1, 2]
    .filter((dots) => compare(div(TYPE_QUARTERS[type], q(2 ** dots)), MIN_NOTE) >= 0)
    .map((dots) => ({ type, dots, len: notatedDuration(type, dots) })),
);

function notate(len: Fraction): { type: DurationType; dots: number } | undefined {
  const hit = NOTATABLE.find((n) => equals(n.len, len));
  return hit && { type: hit.type, dots: hit.dots };
}

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;
/** Lengths like 3/2, 3, 6: three equal power-of-two parts (a compound beat). */
function isTriple(len: Fraction): boolean {
  return len.n % 3 === 0 && isPowerOfTwo(len.n / 3) && isPowerOfTwo(len.d);
}

/** One rhythmic slot of a voice before it gets pitches. */
interface Cell {
  duration: Fraction;
  type: DurationType;
  dots: number;
  tuplet?: Tuplet;
  rest: boolean;
  /** Index of the beat group: beams stay inside one. */
  group: number;
  onset: Fraction;
  /** Tie this note to the next cell. */
  tieNext?: boolean;
}

type Piece = Omit<Cell, 'group' | 'onset' | 'rest'>;

interface RhythmStyle {
  /** The note value the voice moves in; longer spans are usually split, shorter ones rarely. */
  target: Fraction;
  restRate: number;
  tupletRate: number;
  /** Chance that a note spans several beat groups where the meter allows. */
  longRate: number;
  tieRate: number;
}

function rhythmStyle(rng: Rng, rate: Rate, calm: boolean): RhythmStyle {
  const target = calm
    ? rng.weighted([[q(2), 2], [q(1), 3], [q(1, 2), 1]] as const)
    : rng.weighted([[q(2), 1], [q(1), 3], [q(1, 2), 3.5], [q(1, 4), 2], [q(1, 8), rate.w(0.6)], [q(1, 16), rate.w(0.3)]] as const);
  return {
    target,
    restRate: rng.pick([0.03, 0.08, 0.15]),
    tupletRate: rate.p(0.08),
    longRate: calm ? 0.4 : 0.2,
    tieRate: 0.05,
  };
}

function piece(len: Fraction): Piece {
  const n = notate(len);
  if (!n) throw new Error(`random-score: ${len.n}/${len.d} is not a single notated value`);
  return { duration: len, ...n };
}

/**
 * Fills a span (a beat group or part of one) with notes: one value, two
 * halves, a dotted pair (dotted + short, or the reverse "snap"), a
 * double-dotted pair, three parts of a compound beat, or a tuplet — each
 * part filled again until the voice's note value is reached.
 */
function fillSpan(rng: Rng, len: Fraction, style: RhythmStyle): Piece[] {
  const single = notate(len);
  const cmp = compare(len, style.target);
  const split = cmp > 0 ? 0.85 : cmp === 0 ? 0.2 : 0.04;
  if (single && (compare(len, MIN_NOTE) <= 0 || !rng.chance(split))) return [{ duration: len, ...single }];
  if (rng.chance(style.tupletRate)) {
    const t = tupletPieces(rng, len);
    if (t) return t;
  }
  const recurse = (parts: readonly Fraction[]) => parts.flatMap((p) => fillSpan(rng, p, style));
  if (isTriple(len)) {
    const p = div(len, q(3));
    const p2 = mul(p, q(2));
    return recurse(rng.weighted([[[p, p, p], 3], [[p2, p], 1.2], [[p, p2], 0.5]] as const));
  }
  const half = div(len, q(2));
  const quarter = div(len, q(4));
  const eighth = div(len, q(8));
  type Split = 'halves' | 'dotted' | 'snap' | 'double-dotted';
  const options: [Split, number][] = [['halves', 6]];
  if (compare(quarter, MIN_NOTE) >= 0) options.push(['dotted', 1.5], ['snap', 0.3]);
  if (compare(eighth, MIN_NOTE) >= 0) options.push(['double-dotted', 0.5]);
  switch (rng.weighted(options)) {
    case 'dotted':
      return [piece(sub(len, quarter)), ...recurse([quarter])];
    case 'snap':
      return [...recurse([quarter]), piece(sub(len, quarter))];
    case 'double-dotted':
      return [piece(sub(len, eighth)), piece(eighth)];
    default:
      return recurse([half, half]);
  }
}

/**
 * A complete tuplet over the span: triplets of 16ths (an eighth), of eighths,
 * quintuplets, sextuplets and septuplets (a quarter), quarter triplets (a
 * half), duplets (a dotted quarter). Sometimes the first two triplet notes
 * merge into one of double value.
 */
function tupletPieces(rng: Rng, len: Fraction): Piece[] | undefined {
  type Shape = [actual: number, normal: number, type: DurationType];
  let shapes: (readonly [Shape, number])[] = [];
  if (equals(len, q(1, 2))) shapes = [[[3, 2, '16th'], 1]];
  else if (equals(len, q(1))) shapes = [[[3, 2, 'eighth'], 6], [[6, 4, '16th'], 1.2], [[5, 4, '16th'], 1], [[7, 8, '32nd'], 0.6]];
  else if (equals(len, q(2))) shapes = [[[3, 2, 'quarter'], 1]];
  else if (equals(len, q(3, 2))) shapes = [[[2, 3, 'eighth'], 1]];
  if (!shapes.length) return undefined;
  const [actual, normal, type] = rng.weighted(shapes);
  const ratio = { actual, normal, normalType: type };
  const types: DurationType[] = Array.from({ length: actual }, () => type);
  if (actual === 3 && DOUBLED[type] && rng.chance(0.25)) types.splice(0, 2, DOUBLED[type]!);
  return types.map((t, i) => {
    const tuplet: Tuplet = { ...ratio };
    if (i === 0) tuplet.start = true;
    if (i === types.length - 1) tuplet.stop = true;
    return { duration: notatedDuration(t, 0, tuplet), type: t, dots: 0, tuplet };
  });
}

/**
 * The rhythm of one voice in one measure: beat group by beat group, with
 * longer notes over whole groups where the meter allows them (a half on
 * beat 1 or 3 of 4/4, a whole measure, a breve in 4/2). `breaks` are offsets
 * no note may cross (mid-measure clef changes).
 */
function measureRhythm(rng: Rng, groups: Fraction[], breaks: Fraction[], style: RhythmStyle): Cell[] {
  const cells: Cell[] = [];
  let onset = ZERO;
  const push = (pieces: Piece[], group: number) => {
    for (const p of pieces) {
      cells.push({ ...p, rest: rng.chance(style.restRate), group, onset });
      onset = add(onset, p.duration);
    }
  };
  for (let i = 0; i < groups.length; ) {
    if (rng.chance(style.longRate)) {
      const spans: (readonly [number, Fraction])[] = [];
      let span = groups[i]!;
      for (let k = 2; i + k <= groups.length; k++) {
        const inner = add(onset, span); // where group i+k-1 starts, now inside the note
        if (breaks.some((b) => equals(b, inner))) break;
        span = add(span, groups[i + k - 1]!);
        if (notate(span) && (i % k === 0 || i + k === groups.length)) spans.push([k, span]);
      }
      if (spans.length) {
        // Longer spans weigh more: whole-measure notes (a whole, a breve in 4/2) are what this branch is for.
        const [k, len] = rng.weighted(spans.map((s) => [s, s[0]] as const));
        push([piece(len)], i);
        i += k;
        continue;
      }
    }
    push(fillSpan(rng, groups[i]!, style), i);
    i++;
  }
  mergeRests(cells);
  for (let i = 0; i + 1 < cells.length; i++) {
    if (!cells[i]!.rest && !cells[i + 1]!.rest && rng.chance(style.tieRate)) cells[i]!.tieNext = true;
  }
  return cells;
}

/**
 * Neighbouring rests in a beat group become one where an engraver would
 * write one: two 16th rests on an eighth boundary are an eighth rest.
 */
function mergeRests(cells: Cell[]): void {
  for (let i = 0; i + 1 < cells.length; ) {
    const a = cells[i]!;
    const b = cells[i + 1]!;
    const len = add(a.duration, b.duration);
    const n = a.rest && b.rest && !a.tuplet && !b.tuplet && a.group === b.group ? notate(len) : undefined;
    if (n && n.dots === 0 && div(a.onset, len).d === 1) {
      cells.splice(i, 2, { ...a, duration: len, type: n.type, dots: 0 });
      i = Math.max(0, i - 1);
    } else {
      i++;
    }
  }
}

// ---------------------------------------------------------------------------
// Parts and measures

type Role = 'single' | 'upper' | 'lower';

interface PartContext {
  rng: Rng;
  spec: PartSpec;
  plans: MeasurePlan[];
  rate: Rate;
  staves: number;
  /** Clef in force on each staff (index staff − 1) at the end of the measure so far. */
  clefs: Clef[];
  /** Last staff position of each voice, so melodies continue across barlines. */
  walkers: Map<string, number>;
  /** Notes tied over the barline into the next measure, by voice id. */
  pendingTies: Map<string, Note[]>;
  /** Per staff: alterations the previous measure's accidentals left (for courtesy accidentals). */
  altered: Map<string, number>[];
  /** Large ensembles rest more: whole-measure rests are common in orchestral parts. */
  restMeasureRate: number;
}

function generatePart(rng: Rng, spec: PartSpec, plans: MeasurePlan[], rate: Rate, index: number, totalStaves: number): Part {
  const inst = spec.instrument;
  const staves = inst.staves;
  const ctx: PartContext = {
    rng,
    spec,
    plans,
    rate,
    staves,
    clefs: spec.clefs.map(copyClef),
    walkers: new Map(),
    pendingTies: new Map(),
    altered: Array.from({ length: staves }, () => new Map()),
    restMeasureRate: totalStaves >= 8 ? 0.15 : 0.04,
  };
  const measures = plans.map((_, m) => generateMeasure(ctx, m));
  if (spec.vocal) addLyrics(rng.fork(), measures);
  addDirections(rng.fork(), ctx, measures, index === 0);
  const part: Part = {
    id: `P${index + 1}`,
    name: spec.name,
    abbreviation: spec.abbreviation,
    instrumentId: inst.id,
    midiProgram: inst.midiProgram,
    staves,
    measures,
  };
  if (inst.percussion) part.percussion = true;
  if (inst.transposition) part.transposition = { ...inst.transposition };
  return part;
}

/** Voice ids of a staff, MusicXML style: 1 and 2 on the first staff, 5 and 6 on the second. */
function voiceIds(staff: number, count: number): string[] {
  const base = staff === 1 ? 1 : 5;
  return Array.from({ length: count }, (_, i) => String(base + i));
}

function generateMeasure(ctx: PartContext, m: number): Measure {
  const { rng, spec, plans } = ctx;
  const plan = plans[m]!;
  const measure: Measure = { number: plan.number, clefs: [], voices: [], directions: [] };
  if (plan.implicit) measure.implicit = true;
  const fifths = spec.unpitched ? 0 : writtenFifths(plan.concertFifths, spec.instrument.transposition);
  if (m === 0 || (plan.keyChange && !spec.unpitched)) measure.key = spec.unpitched ? { fifths: 0 } : { fifths, mode: plan.mode };
  if (plan.timeChange) {
    measure.time = { beats: plan.meter.beats, beatType: plan.meter.beatType };
    if (plan.meter.symbol) measure.time.symbol = plan.meter.symbol;
  }
  if (plan.leftBarline) measure.leftBarline = structuredClone(plan.leftBarline);
  if (plan.rightBarline) measure.rightBarline = structuredClone(plan.rightBarline);
  if (plan.multiRest) measure.multiRest = plan.multiRest;
  if (m === 0) ctx.clefs.forEach((clef, i) => measure.clefs.push({ ...copyClef(clef), staff: i + 1, offset: ZERO }));

  // Ties from the previous measure: each voice takes its own; the rest are taken back below.
  const incoming = ctx.pendingTies;
  ctx.pendingTies = new Map();

  if (plan.resting) {
    for (let s = 1; s <= ctx.staves; s++) measure.voices.push({ id: voiceIds(s, 1)[0]!, events: [measureRest(plan, s)] });
    releaseTies(incoming);
    ctx.altered = ctx.altered.map(() => new Map());
    return measure;
  }

  const clefChanges = m > 0 && !plan.implicit ? chooseClefChanges(ctx, plan) : [];
  measure.clefs.push(...clefChanges);
  measure.clefs.sort((a, b) => compare(a.offset, b.offset));
  for (let s = 1; s <= ctx.staves; s++) {
    const changes = clefChanges.filter((c) => c.staff === s);
    const startClef = ctx.clefs[s - 1]!;
    const clefAt = (onset: Fraction): Clef => {
      let clef = startClef;
      for (const c of changes) if (compare(c.offset, onset) <= 0) clef = c;
      return clef;
    };
    const twoVoiceRate = spec.vocal || spec.unpitched ? 0 : spec.chordal ? 0.3 : 0.07;
    const count = rng.chance(twoVoiceRate) ? 2 : 1;
    const ids = voiceIds(s, count);
    if (count === 1 && !plan.implicit && rng.chance(ctx.restMeasureRate)) {
      measure.voices.push({ id: ids[0]!, events: [measureRest(plan, s)] });
    } else {
      ids.forEach((id, i) => {
        const role: Role = count === 1 ? 'single' : i === 0 ? 'upper' : 'lower';
        const clefChangeAtStart = changes.some((c) => c.offset.n === 0);
        measure.voices.push(buildVoice(ctx, m, s, id, role, fifths, clefAt, changes.map((c) => c.offset), clefChangeAtStart, incoming));
      });
    }
    const last = changes[changes.length - 1];
    if (last) ctx.clefs[s - 1] = copyClef(last);
  }
  releaseTies(incoming);
  if (!spec.unpitched) {
    for (let s = 1; s <= ctx.staves; s++) ctx.altered[s - 1] = applyAccidentals(rng, measure, s, fifths, ctx.altered[s - 1]!, ctx.rate.p(0.5));
  }
  return measure;
}

function measureRest(plan: MeasurePlan, staff: number): RestEvent {
  return { kind: 'rest', duration: plan.length, dots: 0, staff, measureRest: true };
}

/** Ties that no voice took (the voice is gone, rests, is cue, or its clef changed) are taken back. */
function releaseTies(incoming: Map<string, Note[]>): void {
  for (const notes of incoming.values()) for (const n of notes) delete n.tieStart;
}

/**
 * Clef changes: now and then a staff switches to another clef (and later
 * back to its own), at the start of a measure (a change at the line break)
 * or on a beat inside it.
 */
function chooseClefChanges(ctx: PartContext, plan: MeasurePlan): ClefChange[] {
  const { rng } = ctx;
  if (ctx.spec.unpitched) return [];
  const out: ClefChange[] = [];
  for (let s = 1; s <= ctx.staves; s++) {
    if (!rng.chance(ctx.rate.p(0.035))) continue;
    const current = ctx.clefs[s - 1]!;
    const home = ctx.spec.clefs[s - 1]!;
    const clef = sameClef(current, home) ? pickOtherClef(rng, current) : copyClef(home);
    let offset = ZERO;
    if (plan.groups.length >= 2 && rng.chance(0.5)) {
      const k = rng.int(1, plan.groups.length - 1);
      offset = plan.groups.slice(0, k).reduce(add, ZERO);
    }
    out.push({ ...clef, staff: s, offset });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Voices: pitches, ties, beams, stems, grace and cue notes

/** Staff positions a voice moves in: around the staff, the upper voice higher, the lower lower. */
const RANGES: Record<Role, readonly [number, number]> = { single: [-3, 11], upper: [3, 12], lower: [-4, 5] };
const VOCAL_RANGE: readonly [number, number] = [-2, 10];

function buildVoice(
  ctx: PartContext,
  m: number,
  staff: number,
  id: string,
  role: Role,
  fifths: number,
  clefAt: (onset: Fraction) => Clef,
  breaks: Fraction[],
  clefChangeAtStart: boolean,
  incoming: Map<string, Note[]>,
): Voice {
  const { rng, spec, plans, rate } = ctx;
  const plan = plans[m]!;
  const cue = role === 'single' && ctx.staves === 1 && !spec.vocal && !spec.unpitched && rng.chance(rate.p(0.015));
  const style = rhythmStyle(rng, rate, role === 'lower' || spec.vocal);
  const cells = measureRhythm(rng, plan.groups, breaks, style);
  if (cue) cells.forEach((c) => delete c.tieNext);

  const pending = incoming.get(id);
  let tiedIn: Note[] | undefined;
  if (pending && !cue && !clefChangeAtStart) {
    tiedIn = pending;
    cells[0]!.rest = false;
    incoming.delete(id);
  }

  const range = spec.vocal ? VOCAL_RANGE : RANGES[role];
  const walkerKey = `${staff}:${role === 'lower' ? 'lower' : 'upper'}`;
  const events: VoiceEvent[] = [];
  let prev: NoteEvent | undefined;
  cells.forEach((cell, i) => {
    const common = { duration: cell.duration, type: cell.type, dots: cell.dots, staff, ...(cell.tuplet && { tuplet: { ...cell.tuplet } }) };
    const clef = clefAt(cell.onset);
    if (cell.rest) {
      const rest: RestEvent = { kind: 'rest', ...common };
      if (role !== 'single') {
        const at = positionPitch(clef, role === 'upper' ? 6 : 2);
        rest.displayStep = at.step;
        rest.displayOctave = at.octave;
      }
      events.push(rest);
      prev = undefined;
      return;
    }
    let notes: Note[];
    if (i === 0 && tiedIn) {
      notes = tiedIn.map((n) => tiedCopy(n));
    } else if (i > 0 && cells[i - 1]!.tieNext && prev) {
      for (const n of prev.notes) n.tieStart = true;
      notes = prev.notes.map((n) => tiedCopy(n));
    } else {
      notes = freshNotes(ctx, walkerKey, clef, range, role, fifths);
    }
    const event: NoteEvent = { kind: 'note', ...common, notes, lyrics: [] };
    if (cue) event.cue = true;
    events.push(event);
    prev = event;
  });

  beamAndStem(events, cells, role, clefAt, spec.unpitched);
  const withGraces = cue ? events : insertGraces(ctx, events, cells, role, clefAt, fifths);

  // A tie over the barline into the same voice of the next measure.
  const last = events[events.length - 1];
  if (last?.kind === 'note' && !cue && tieableInto(plans, m + 1) && rng.chance(0.12)) {
    for (const n of last.notes) n.tieStart = true;
    ctx.pendingTies.set(id, last.notes);
  }
  return { id, events: withGraces };
}

function tiedCopy(n: Note): Note {
  return { pitch: { ...n.pitch }, tieStop: true, ...(n.unpitched && { unpitched: true }) };
}

/**
 * The next pitch (or chord) of a melody: a random walk over staff positions,
 * mostly steps, sometimes leaps, reflected at the edges of the voice's
 * range; now and then a note 4–6 ledger lines off the staff. Pitches follow
 * the key, with chromatic alterations now and then (double sharps and flats
 * rarely). Keyboards and harp play chords of 2–4 notes, strings double stops.
 */
function freshNotes(ctx: PartContext, walkerKey: string, clef: Clef, range: readonly [number, number], role: Role, fifths: number): Note[] {
  const { rng, spec, rate } = ctx;
  if (spec.unpitched) {
    const pos = rng.pick([1, 3, 4, 5, 7, 8, 9]);
    return [{ pitch: { ...positionPitch(clef, pos), alter: 0 }, unpitched: true }];
  }
  const [lo, hi] = range;
  let pos = ctx.walkers.get(walkerKey) ?? rng.int(lo + 2, hi - 2);
  const step = rng.weighted<number>([
    [0, 1], [1, 4], [-1, 4], [2, 2], [-2, 2], [3, 1], [-3, 1], [4, 0.6], [-4, 0.6], [5, 0.3], [-5, 0.3], [7, 0.3], [-7, 0.3],
  ]);
  pos += step;
  if (pos > hi) pos = Math.max(lo, 2 * hi - pos);
  if (pos < lo) pos = Math.min(hi, 2 * lo - pos);
  ctx.walkers.set(walkerKey, pos);

  // Far off the staff: 4 to 6 ledger lines, only for this note (the melody goes on from where it was).
  if (!spec.vocal && role === 'single' && rng.chance(rate.p(0.01))) {
    const below = -2 * rng.int(4, 6) - rng.int(0, 1);
    const above = 8 + 2 * rng.int(4, 6) + rng.int(0, 1);
    const far = rng.chance(0.5) ? below : above;
    const inRange = bottomLine(clef) + far >= 0 && bottomLine(clef) + far <= 69;
    return [diatonicNote(clef, inRange ? far : above, fifths)];
  }

  const chordRate = spec.vocal ? 0 : spec.chordal ? 0.35 : spec.instrument.id.startsWith('strings.') ? 0.06 : 0;
  if (rng.chance(chordRate)) {
    const size = spec.chordal ? rng.weighted([[2, 3], [3, 3], [4, 1.5]] as const) : 2;
    // Built away from the edge of the range the melody note is nearer, so chords stay around the staff.
    const sign = pos > (lo + hi) / 2 ? -1 : 1;
    const positions = [pos];
    for (let k = 1; k < size; k++) positions.push(positions[k - 1]! + sign * rng.weighted([[2, 4], [3, 2], [4, 1.5], [5, 0.7]] as const));
    positions.sort((a, b) => a - b);
    // Chord notes keep the key's alterations, so a third apart is always higher in pitch too.
    return positions.map((p) => diatonicNote(clef, p, fifths));
  }

  const note = diatonicNote(clef, pos, fifths);
  if (rng.chance(rate.p(0.012))) {
    note.pitch.alter = rng.pick([2, -2]);
  } else if (rng.chance(0.08)) {
    note.pitch.alter = Math.max(-2, Math.min(2, note.pitch.alter + rng.pick([1, -1])));
  }
  return [note];
}

function diatonicNote(clef: Clef, pos: number, fifths: number): Note {
  const { step, octave } = positionPitch(clef, pos);
  return { pitch: { step, alter: keyAlter(fifths, step), octave } };
}

/** Stem direction from the note farthest from the middle line (down when balanced), or fixed by the voice. */
function stemFor(positions: number[], role: Role): 'up' | 'down' {
  if (role === 'upper') return 'up';
  if (role === 'lower') return 'down';
  const hi = Math.max(...positions);
  const lo = Math.min(...positions);
  return hi - 4 >= 4 - lo ? 'down' : 'up';
}

/**
 * Beams over consecutive eighths and shorter within one beat group (rests
 * break them), one level per flag, with hooks for a lone shorter note;
 * stems by pitch, one direction for a whole beamed group.
 */
function beamAndStem(events: VoiceEvent[], cells: Cell[], role: Role, clefAt: (onset: Fraction) => Clef, unpitched: boolean): void {
  const positionsOf = (i: number) => {
    const e = events[i] as NoteEvent;
    const clef = clefAt(cells[i]!.onset);
    return e.notes.map((n) => staffPosition(clef, n.pitch));
  };
  const direction = (indices: number[]) => (unpitched ? 'up' : stemFor(indices.flatMap(positionsOf), role));
  let run: number[] = [];
  const flush = () => {
    if (run.length >= 2) {
      setBeams(run.map((i) => events[i] as NoteEvent));
      const dir = direction(run);
      for (const i of run) (events[i] as NoteEvent).stem = dir;
    } else if (run.length === 1) {
      (events[run[0]!] as NoteEvent).stem = direction(run);
    }
    run = [];
  };
  events.forEach((e, i) => {
    const beamable = e.kind === 'note' && !!e.type && !!FLAGS[e.type];
    if (!beamable || (run.length && cells[run[0]!]!.group !== cells[i]!.group)) flush();
    if (beamable) run.push(i);
    else if (e.kind === 'note' && e.type !== 'whole' && e.type !== 'breve') e.stem = direction([i]);
  });
  flush();
}

/** Beam values per level for a run of beamable notes. */
function setBeams(run: NoteEvent[]): void {
  const levels = run.map((e) => FLAGS[e.type!] ?? 0);
  const depth = Math.max(...levels);
  run.forEach((e) => (e.beams = []));
  for (let level = 0; level < depth; level++) {
    for (let i = 0; i < run.length; ) {
      if (levels[i]! <= level) {
        i++;
        continue;
      }
      let j = i;
      while (j + 1 < run.length && levels[j + 1]! > level) j++;
      if (j > i) {
        for (let k = i; k <= j; k++) run[k]!.beams!.push(k === i ? 'begin' : k === j ? 'end' : 'continue');
      } else {
        run[i]!.beams!.push(i === 0 ? 'forward hook' : 'backward hook');
      }
      i = j + 1;
    }
  }
}

/**
 * Grace notes before some notes: a slashed eighth (acciaccatura) or a
 * beamed run of two or three 16ths leading up to the note. Only before a
 * note that starts a beam or has none, so graces never sit inside a beam.
 */
function insertGraces(ctx: PartContext, events: VoiceEvent[], cells: Cell[], role: Role, clefAt: (onset: Fraction) => Clef, fifths: number): VoiceEvent[] {
  const { rng, spec, rate } = ctx;
  const out: VoiceEvent[] = [];
  events.forEach((e, i) => {
    const eligible = e.kind === 'note' && !e.notes.some((n) => n.tieStop) && (!e.beams || e.beams[0] === 'begin');
    if (eligible && rng.chance(rate.p(0.03))) {
      const clef = clefAt(cells[i]!.onset);
      const target = staffPosition(clef, e.notes[e.notes.length - 1]!.pitch);
      const slash = rng.chance(0.6);
      const count = slash ? 1 : rng.int(2, 3);
      const stem = role === 'lower' ? 'down' : 'up';
      for (let k = 0; k < count; k++) {
        const pos = slash ? target + rng.pick([1, -1]) : target - (count - k);
        const note = spec.unpitched ? { pitch: { ...positionPitch(clef, pos), alter: 0 }, unpitched: true } : diatonicNote(clef, pos, fifths);
        const grace: NoteEvent = {
          kind: 'note',
          duration: ZERO,
          type: slash ? 'eighth' : '16th',
          dots: 0,
          staff: e.staff,
          notes: [note],
          lyrics: [],
          grace: { slash },
          stem,
        };
        if (count > 1) {
          const v: BeamValue = k === 0 ? 'begin' : k === count - 1 ? 'end' : 'continue';
          grace.beams = [v, v];
        }
        out.push(grace);
      }
    }
    out.push(e);
  });
  return out;
}

// ---------------------------------------------------------------------------
// Accidentals

const ACCIDENTAL_SIGNS: Record<number, AccidentalSign> = { [-2]: 'flat-flat', [-1]: 'flat', 0: 'natural', 1: 'sharp', 2: 'double-sharp' };

/**
 * Prints accidentals as an engraver does, per staff and measure: a note
 * shows one when its alteration differs from what the key signature and the
 * accidentals earlier in the measure on the same line or space imply; a
 * note tied over from before shows none. On the first note of a position
 * that the previous measure altered, a courtesy accidental (sometimes in
 * parentheses) appears now and then. Returns the alterations this measure
 * leaves, for the next one's courtesy accidentals.
 */
function applyAccidentals(rng: Rng, measure: Measure, staff: number, fifths: number, before: Map<string, number>, courtesyRate: number): Map<string, number> {
  const items: { onset: Fraction; grace: boolean; order: number; note: Note }[] = [];
  let order = 0;
  for (const voice of measure.voices) {
    let t = ZERO;
    for (const e of voice.events) {
      if (e.kind === 'note' && e.staff === staff) {
        for (const note of e.notes) items.push({ onset: t, grace: !!e.grace, order: order++, note });
      }
      t = add(t, e.duration);
    }
  }
  items.sort((a, b) => compare(a.onset, b.onset) || Number(b.grace) - Number(a.grace) || a.order - b.order);

  const state = new Map<string, number>();
  const seen = new Set<string>();
  for (const { note } of items) {
    if (note.unpitched) continue;
    const { step, octave, alter } = note.pitch;
    const key = `${step}${octave}`;
    const first = !seen.has(key);
    seen.add(key);
    if (note.tieStop) continue;
    const expected = state.get(key) ?? keyAlter(fifths, step);
    if (alter !== expected) {
      note.accidental = { sign: ACCIDENTAL_SIGNS[alter]! };
      state.set(key, alter);
    } else if (first && before.has(key) && before.get(key) !== alter && rng.chance(courtesyRate)) {
      note.accidental = { sign: ACCIDENTAL_SIGNS[alter]!, cautionary: true, ...(rng.chance(0.5) && { parentheses: true }) };
    }
  }
  const after = new Map<string, number>();
  for (const [key, alter] of state) if (alter !== keyAlter(fifths, key[0] as Pitch['step'])) after.set(key, alter);
  return after;
}

// ---------------------------------------------------------------------------
// Lyrics

const ONSETS = ['', '', 'b', 'd', 'f', 'g', 'l', 'm', 'n', 'r', 's', 't', 'v', 'ch', 'st', 'tr', 'br', 'gl', 'pl', 'sch', 'ñ', 'ç', 'z', 'h', 'k', 'w', 'j'];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'a', 'e', 'o', 'ä', 'ö', 'ü', 'é', 'è', 'ê', 'à', 'ô', 'î', 'ø', 'å', 'au', 'ei', 'ie', 'ú', 'ã'];
const CODAS = ['', '', '', '', 'n', 'r', 's', 'l', 'm', 't', 'nd', 'st', 'rz', 'ng'];

function syllable(rng: Rng): string {
  return rng.pick(ONSETS) + rng.pick(NUCLEI) + rng.pick(CODAS);
}

/**
 * Pseudo-words sung on voice 1: one syllable per note, words of one to
 * three syllables that end before a rest, melismas (a syllable held over
 * several notes, with an extender line after a word's last syllable), no
 * new syllable on a tied-over note; one to three verses.
 */
function addLyrics(rng: Rng, measures: Measure[]): void {
  type Item = NoteEvent | 'break';
  const seq: Item[] = [];
  for (const m of measures) {
    const voice = m.voices.find((v) => v.id === '1');
    if (!voice) {
      seq.push('break');
      continue;
    }
    for (const e of voice.events) {
      if (e.kind === 'rest') seq.push('break');
      else if (!e.grace && !e.cue) seq.push(e);
    }
  }
  // Notes that can take a new syllable from each position up to the next rest.
  const left = new Array<number>(seq.length + 1).fill(0);
  for (let i = seq.length - 1; i >= 0; i--) {
    const item = seq[i]!;
    left[i] = item === 'break' ? 0 : left[i + 1]! + (item.notes.some((n) => n.tieStop) ? 0 : 1);
  }
  const verses = rng.weighted([[1, 5], [2, 3], [3, 2]] as const);
  for (let verse = 1; verse <= verses; verse++) {
    let word: string[] = [];
    let at = 0;
    let last: Lyric | undefined;
    const extendLast = () => {
      if (last && (last.syllabic === 'single' || last.syllabic === 'end')) last.extend = true;
    };
    seq.forEach((item, i) => {
      if (item === 'break') {
        last = undefined;
        return;
      }
      if (item.notes.some((n) => n.tieStop)) {
        extendLast();
        return;
      }
      const remaining = word.length - at;
      if (last && remaining < left[i]! && rng.chance(0.12)) {
        extendLast();
        return;
      }
      if (at >= word.length) {
        const n = Math.min(left[i]!, rng.weighted([[1, 4], [2, 3], [3, 2]] as const));
        word = Array.from({ length: n }, () => syllable(rng));
        if (rng.chance(0.15)) word[0] = word[0]!.charAt(0).toUpperCase() + word[0]!.slice(1);
        at = 0;
      }
      const syllabic = word.length === 1 ? 'single' : at === 0 ? 'begin' : at === word.length - 1 ? 'end' : 'middle';
      last = { verse, text: word[at]!, syllabic };
      item.lyrics.push(last);
      at++;
    });
  }
}

// ---------------------------------------------------------------------------
// Directions

const TEMPO_WORDS = [
  'Allegro', 'Andante', 'Adagio', 'Moderato', 'Presto', 'Allegretto', 'Largo', 'Vivace', 'Andantino', 'Lento',
  'Tempo di minuetto', 'Più mosso', 'Très lent', 'Mäßig', 'Lebhaft', 'Allegro ma non troppo', 'Animé', 'Langsam, träumerisch',
];
const DYNAMICS = ['ppp', 'pp', 'p', 'mp', 'mf', 'f', 'ff', 'fff', 'sfz', 'sf', 'fp', 'sfp', 'rfz'];
const EXPRESSIONS = ['dolce', 'cresc.', 'dim.', 'espress.', 'rit.', 'a tempo', 'sempre legato', 'très expressif', 'mit Ausdruck', 'leggiero', 'cantabile'];

/**
 * A tempo mark (words, metronome mark or both) at the top of the first
 * part now and then; dynamics and expression words under notes here and
 * there (above the staff for singers, whose lyrics sit below).
 */
function addDirections(rng: Rng, ctx: PartContext, measures: Measure[], firstPart: boolean): void {
  const plan0 = ctx.plans[0]!;
  if (firstPart && rng.chance(0.6)) {
    const compound = plan0.meter.groups.every((g) => isTriple(g));
    const halfBeat = plan0.meter.beatType === 2;
    const beatUnit: DurationType = halfBeat ? 'half' : 'quarter';
    const dots = compound ? 1 : 0;
    const perMinute = 2 * rng.int(halfBeat || compound ? 20 : 24, halfBeat || compound ? 60 : 84);
    const dir: Direction = { offset: ZERO, staff: 1, placement: 'above' };
    const kind = rng.weighted<'words' | 'metronome' | 'both'>([['words', 1], ['metronome', 1], ['both', 1]]);
    if (kind !== 'metronome') dir.words = rng.pick(TEMPO_WORDS);
    if (kind !== 'words') {
      dir.metronome = { beatUnit, dots, perMinute };
      dir.tempo = perMinute * (halfBeat ? 2 : 1) * (compound ? 1.5 : 1);
    }
    measures[0]!.directions.push(dir);
  }
  measures.forEach((measure, m) => {
    if (ctx.plans[m]!.resting || !rng.chance(0.12)) return;
    const voice = measure.voices[0];
    if (!voice) return;
    const onsets: { offset: Fraction; staff: number }[] = [];
    let t = ZERO;
    for (const e of voice.events) {
      if (e.kind === 'note' && !e.grace) onsets.push({ offset: t, staff: e.staff });
      t = add(t, e.duration);
    }
    if (!onsets.length) return;
    const at = rng.pick(onsets);
    const dir: Direction = { offset: at.offset, staff: at.staff, placement: ctx.spec.vocal ? 'above' : 'below' };
    if (rng.chance(0.75)) dir.dynamics = rng.pick(DYNAMICS);
    else dir.words = rng.pick(EXPRESSIONS);
    measure.directions.push(dir);
    measure.directions.sort((a, b) => compare(a.offset, b.offset));
  });
}
