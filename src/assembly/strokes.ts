/**
 * Noteheads, stems, beams, flags and dots joined into strokes — a chord (or
 * single note) with the notated value its parts spell out — and rests with
 * their dots.
 *
 * A head belongs to the stem that touches it; heads on one stem are one
 * chord. The number of beams is counted where the beams cross the stem's
 * free end, which is the one place every beam of that stem passes through.
 */
import type { DurationType } from '../score/model.js';
import type { PageSight, SymbolsSeen } from '../reading/page-reading.js';
import type { Box, Head, RestKind, RestSymbol, Stem } from '../symbols/read-symbols.js';
import { stemTremolo, wholeNoteTremolo } from './tremolos.js';

export interface Stroke extends Box {
  kind: 'chord';
  staff: number;
  /** Heads, lowest first. */
  heads: Head[];
  stem?: Stem;
  /** Stem direction; undefined for stemless (whole) notes. */
  up?: boolean;
  /** Beams plus flags: 0 for a quarter, 1 for an eighth … */
  hooks: number;
  /** Beams crossing the stem end (0 when flagged or unbeamed). */
  beams: number;
  /** Set on the strokes of a kneed beam (stems up and down on one beam): one voice, whatever their stems say. */
  kneed?: boolean;
  /** Strokes one beam joins share this number (unique on the page); absent where no beam joins the stroke to another. */
  beamGroup?: number;
  /** Small heads: a grace note (takes no time). */
  grace: boolean;
  /** A slash through a lone grace note's stem: an acciaccatura. */
  slash?: boolean;
  /** Tremolo strokes across the stem (a single-note tremolo), or between two notes' stems; absent where there are none. */
  tremolo?: number;
  /** The first or second note of a two-note tremolo: the notes alternate, each for half its written value. */
  tremoloPair?: 'start' | 'stop';
  /** An arpeggio sign stands before the chord (it is rolled). */
  arpeggio?: boolean;
  dots: number;
  x: number;
  confidence: number;
}

export interface RestStroke extends Box {
  kind: 'rest';
  staff: number;
  rest: RestSymbol;
  dots: number;
  x: number;
  /** Height of its centre (voices are told apart by it). */
  y: number;
  confidence: number;
}

export type StaffItem = Stroke | RestStroke;

const TYPES: readonly DurationType[] = ['whole', 'half', 'quarter', 'eighth', '16th', '32nd', '64th', '128th'];

/** Notated type of a stroke: head kind, then one step shorter per beam or flag. */
export function strokeType(stroke: Stroke): DurationType {
  const kind = stroke.heads[0]!.kind;
  if (kind === 'whole') return 'whole';
  if (kind === 'half') return 'half';
  return TYPES[Math.min(TYPES.length - 1, 2 + stroke.hooks)]!;
}

const REST_TYPES: Record<Exclude<RestKind, 'multi'>, DurationType> = {
  whole: 'whole',
  half: 'half',
  quarter: 'quarter',
  eighth: 'eighth',
  '16th': '16th',
  '32nd': '32nd',
  '64th': '64th',
};

export function restType(rest: RestStroke): DurationType {
  return rest.rest.kind === 'multi' ? 'whole' : REST_TYPES[rest.rest.kind];
}

export function buildStrokes(symbols: SymbolsSeen, sight: PageSight, space: number): StaffItem[] {
  const { heads, stems } = symbols;
  const stemOf = heads.map((head) => attachedStem(head, stems, space));
  const byStem = new Map<Stem, Head[]>();
  const stemless: Head[] = [];
  const join = (stem: Stem, head: Head) => {
    const group = byStem.get(stem);
    if (group) group.push(head);
    else byStem.set(stem, [head]);
  };
  heads.forEach((head, i) => {
    const stem = stemOf[i];
    if (!stem) {
      stemless.push(head);
      return;
    }
    join(stem, head);
    // Two voices on one head: an up-stem on its right and a down-stem on its left (a quarter of the
    // upper voice struck with the first sixteenth of the lower). The head is a note of both.
    const other = otherVoiceStem(head, stem, stems, space);
    if (other) join(other, head);
  });
  // The end head of a chord may touch its neighbour with no stem pixels showing between them, and
  // a second's head sits on the far side of the stem: a stemless head against a chord's head joins it.
  // So does a head just beyond a stem's end, in line with it: an octave's lower head under ledger
  // lines, where the class map gave the stem's last stretch to the ledgers.
  for (const head of [...stemless]) {
    for (const [stem, group] of byStem) {
      const touching = group.some((h) => {
        if (h.staff !== head.staff || h.kind !== head.kind) return false;
        const dx = Math.abs(h.x - head.x);
        const dy = Math.abs(h.y - head.y);
        return (dx < space * TOUCH_ACROSS && dy <= space * TOUCH_DOWN) || (dx < space * TOUCH_SIDE_ACROSS && dy <= space * TOUCH_SIDE_DOWN);
      });
      const inLine = stem.x >= head.x0 - space * STEM_SIDE_REACH && stem.x <= head.x1 + space * STEM_SIDE_REACH;
      const beyondEnd = Math.min(Math.abs(head.y - stem.y1), Math.abs(stem.y0 - head.y)) < space * BEYOND_STEM_END;
      const continues = inLine && beyondEnd && group.some((h) => h.staff === head.staff && h.kind === head.kind);
      if (touching || continues) {
        group.push(head);
        stemless.splice(stemless.indexOf(head), 1);
        break;
      }
    }
  }
  const strokes: Stroke[] = [];
  for (const [stem, seen] of byStem) {
    // Tremolo strokes across the stem; the model paints some of them as heads astride it.
    const { heads: group, strokes: tremolo } = stemTremolo(stem, seen, stems, sight, space);
    const unison = halvesInUnison(group);
    if (!unison.length) {
      const stroke = withTremolo(strokeFromStem(stem, group, symbols, sight, space), tremolo);
      // A piece of stem that stays among its heads says nothing of the stroke's value; a beam may.
      // Its side still tells which way the stem goes: down from the heads' left edge, up from their right.
      const beamed = !stroke.hooks && stemReach(stroke) < space * SHORT_STEM ? stemUnderBeam(group, sight, space, stem.x < stroke.x ? 'down' : 'up') : undefined;
      strokes.push(beamed ? withTremolo(strokeFromStem(beamed, group, symbols, sight, space), tremolo) : stroke);
      continue;
    }
    // A quarter and a half in unison, side by side with their stems all but touching between them,
    // read as one stem: two voices' notes, not one chord (a chord's heads share one value). The head
    // left of the stem is the up-stem voice's, the one right of it the down-stem voice's; any beam
    // or flag is the black head's.
    const black = strokeFromStem(stem, group.filter((h) => !unison.includes(h)), symbols, sight, space);
    black.up = black.x < stem.x;
    strokes.push(black, makeStroke(unison, stem, !black.up, 0, 0, symbols, space));
  }
  for (const group of stacks(stemless, space)) {
    const stem = stemUnderBeam(group, sight, space);
    if (stem) {
      strokes.push(strokeFromStem(stem, group, symbols, sight, space));
      continue;
    }
    const stroke = makeStroke(group, undefined, undefined, 0, graceFlags(group, symbols, space), symbols, space);
    strokes.push(withTremolo(stroke, wholeNoteTremolo(group, symbols.rests.filter((r) => r.staff === stroke.staff), sight, space)));
  }
  const rests = symbols.rests.map((rest): RestStroke => {
    const x = (rest.x0 + rest.x1) / 2;
    const y = (rest.y0 + rest.y1) / 2;
    return { kind: 'rest', staff: rest.staff, rest, x0: rest.x0, x1: rest.x1, y0: rest.y0, y1: rest.y1, x, dots: dotsAfter(rest.x1, [{ x, y }], symbols, space), y, confidence: rest.confidence };
  });
  const chords = withoutStemFragments(strokes, symbols, sight, space);
  markBeamGroups(chords, sight, space);
  markTremoloPairs(chords);
  markArpeggios(chords, sight);
  return [...chords, ...rests];
}

/** The stroke with `tremolo` strokes across its stem, where there are any (a stroke made afresh from its stem keeps its tremolo so). */
function withTremolo(stroke: Stroke, tremolo: number | undefined): Stroke {
  return tremolo ? { ...stroke, tremolo } : stroke;
}

/**
 * Chords with an arpeggio sign before them: a wavy line left of the heads (and of their accidentals)
 * from the top head to the bottom one. A single note is not rolled; grace notes are left alone.
 */
function markArpeggios(chords: readonly Stroke[], sight: PageSight): void {
  for (const chord of chords) {
    if (chord.heads.length < 2 || chord.grace) continue;
    const left = Math.min(...chord.heads.map((h) => h.x0));
    if (sight.arpeggioBefore(left, Math.min(...chord.heads.map((h) => h.y)), Math.max(...chord.heads.map((h) => h.y)))) chord.arpeggio = true;
  }
}

/*
 * How strokes are put together, in staff spaces. These are the sizes of the engraving, not fitted
 * values: a notehead is about 1.2 spaces wide and 1 tall, a stem starts at a head's edge, beams and
 * flags hang from its free end, dots stand about a space after the heads.
 */
/** A head and a stem touch when the stem stands within this of the head's left or right edge … */
const STEM_SIDE_REACH = 0.4;
/** … and its extent reaches within this of the head's centre, up or down. */
const STEM_END_REACH = 0.7;
/** … or begins within this of the head's edge: a ledger line across the stem's root takes its first pixels. */
const STEM_PAST_EDGE = 0.35;
/** An up-stem of a second voice on a shared head rises at least this far above it. */
const OTHER_VOICE_RISE = 1.5;
/** A stemless head joins a chord whose head it touches: this close across … */
const TOUCH_ACROSS = 0.6;
/** … and up to this far apart up or down (a second's heads side by side: {@link TOUCH_SIDE_ACROSS} across, {@link TOUCH_SIDE_DOWN} down). */
const TOUCH_DOWN = 1.3;
const TOUCH_SIDE_ACROSS = 1.6;
const TOUCH_SIDE_DOWN = 0.6;
/** A head just beyond a stem's end, in line with it, within this of the end, is the chord's (an octave under ledger lines). */
const BEYOND_STEM_END = 1.5;
/** A stem reaching less than this past its heads says nothing of its value; a beam where it would run may. */
const SHORT_STEM = 0.5;
/** A stem seen only this far or less beyond its heads goes the way its side says (down from the left, up from the right). */
const STEM_SEEN_BEYOND = 1.5;
/** Beams are counted from the stem's tip back to this short of its nearest head. */
const BEAM_STACK_CLEAR_OF_HEAD = 0.6;
/** A piece of a blurred chord's stem reaches less than this past its heads … */
const STEM_FRAGMENT_REACH = 2;
/** … stands this close to the chord across … */
const STEM_FRAGMENT_ACROSS = 0.6;
/** … and its heads stand at most this far from the chord's (a third): an octave away is a note of its own. */
const STEM_FRAGMENT_NEAR = 1.6;
/** Stemless heads this close across are one chord. */
const STACK_ACROSS = 0.8;
/** A stem looked for in a beam column stands this far inside the heads' edge. */
const BEAM_COLUMN_INSET = 0.1;
/** A flag hangs from the stem: from this far left of it … */
const FLAG_LEFT = 0.3;
/** … to this far right, within this of the stem's tip up or down. */
const FLAG_RIGHT = 0.6;
const FLAG_TIP_REACH = 1.5;
/** An up-stem's flag pushes its dots this far right of the stem. */
const FLAG_WIDTH = 0.9;
/** A dot stands level with a head (or a space next to it): its centre within this of the head's … */
const DOT_LEVEL = 0.8;
/** … from just inside the heads' right edge (by this) … */
const DOT_INSET = 0.1;
/** … to this far right of it, the first within {@link FIRST_DOT_REACH}, each next within {@link NEXT_DOT_REACH} of the last. */
const DOT_REACH = 3;
const FIRST_DOT_REACH = 1.6;
const NEXT_DOT_REACH = 1.2;
/** Two dots closer than this are one, seen twice (two heads of a chord). */
const SAME_DOT = 0.4;

/** How far apart, in spaces, two strokes of one beam may stand (a sparse measure of eighths, a beam over rests). */
const BEAM_GROUP_REACH = 20;

/**
 * Groups beamed strokes by the beams joining them: strokes of one staff whose stem tips one beam joins
 * (a beam running straight from tip to tip, all the way). Each group of two or more gets a number; a
 * group with stems up and down is a kneed beam.
 */
function markBeamGroups(strokes: readonly Stroke[], sight: PageSight, space: number): void {
  const beamed = strokes.filter((s) => s.stem && s.beams > 0 && s.up !== undefined).sort((a, b) => a.x - b.x);
  // Groups by union-find over each stroke and the next few to its right (another voice's strokes may stand between).
  const parent = beamed.map((_, k) => k);
  const root = (k: number): number => (parent[k] === k ? k : (parent[k] = root(parent[k]!)));
  beamed.forEach((a, k) => {
    const next = beamed.flatMap((b, j) => (j > k && b.staff === a.staff && b.x - a.x <= space * BEAM_GROUP_REACH ? [j] : [])).slice(0, 3);
    for (const j of next) if (sight.beamAlong(stemTip(a), stemTip(beamed[j]!))) parent[root(j)] = root(k);
  });
  const members = new Map<number, Stroke[]>();
  beamed.forEach((s, k) => members.set(root(k), [...(members.get(root(k)) ?? []), s]));
  for (const [group, list] of members) {
    if (list.length < 2) continue;
    const kneed = new Set(list.map((s) => s.up)).size === 2;
    for (const s of list) {
      s.beamGroup = group;
      if (kneed) s.kneed = true;
    }
  }
}

/**
 * Two-note tremolos: a beam never joins open heads to group them, so two half notes one beam joins
 * alternate, and its strokes are the tremolo's. Each note lasts half its written value (MusicXML's 2:1
 * time modification, which writes two halves in the time of one); the pair is no beam group.
 */
function markTremoloPairs(strokes: readonly Stroke[]): void {
  const groups = new Map<number, Stroke[]>();
  for (const s of strokes) if (s.beamGroup !== undefined) groups.set(s.beamGroup, [...(groups.get(s.beamGroup) ?? []), s]);
  for (const pair of groups.values()) {
    if (pair.length !== 2 || !pair.every((s) => !s.grace && s.heads.every((h) => h.kind === 'half'))) continue;
    const marks = Math.min(...pair.map((s) => s.beams));
    pair.forEach((s, k) => {
      delete s.beamGroup;
      s.tremolo = marks;
      s.tremoloPair = k === 0 ? 'start' : 'stop';
    });
  }
}

/** Where a beamed stroke's stem ends: the point a beam joining it to another runs from. */
function stemTip(s: Stroke): [number, number] {
  return [s.stem!.x, s.up ? s.stem!.y0 : s.stem!.y1];
}

/** How far a stroke's stem runs past its outermost head (negative where it stops among them). */
function stemReach({ heads, stem }: Stroke): number {
  if (!stem) return 0;
  return Math.max(Math.min(...heads.map((h) => h.y)) - stem.y0, stem.y1 - Math.max(...heads.map((h) => h.y)));
}

/**
 * A blurred chord's stem can come apart, and a piece of it left beside the heads (reaching under two
 * spaces past them, with no beam or flag) then takes a head or two as a chord of its own. Where a
 * chord with a stem of its own stands at the same place, right beside those heads, they are that
 * chord's.
 */
function withoutStemFragments(strokes: readonly Stroke[], symbols: SymbolsSeen, sight: PageSight, space: number): Stroke[] {
  const out = [...strokes];
  for (const piece of strokes) {
    if (!piece.stem || piece.hooks || piece.grace || !out.includes(piece) || stemReach(piece) >= space * STEM_FRAGMENT_REACH) continue;
    // Its heads and the chord's stand close (a third apart at most): an octave above a chord is a note of its own.
    const near = (s: Stroke) => Math.min(...s.heads.flatMap((a) => piece.heads.map((b) => Math.abs(a.y - b.y)))) <= space * STEM_FRAGMENT_NEAR;
    const host = out.find((s) => s !== piece && s.stem && s.staff === piece.staff && !s.grace && Math.abs(s.x - piece.x) < space * STEM_FRAGMENT_ACROSS && stemReach(s) >= space * STEM_FRAGMENT_REACH && near(s));
    if (!host) continue;
    const heads = [...host.heads, ...piece.heads.filter((h) => !host.heads.includes(h))];
    out.splice(out.indexOf(host), 1, withTremolo(strokeFromStem(host.stem!, heads, symbols, sight, space), host.tremolo));
    out.splice(out.indexOf(piece), 1);
  }
  return out;
}

/**
 * The half heads of a stem's group that stand at the very position of one of its black heads. Only a
 * unison does that; a half head elsewhere in a chord of black heads is more likely a black one the
 * model misread, and stays in the chord (which takes its value from one head).
 */
function halvesInUnison(group: readonly Head[]): Head[] {
  return group.filter((h) => h.kind === 'half' && group.some((b) => b.kind === 'black' && b.position === h.position && b.staff === h.staff));
}

/** How far, in spaces, a down-stem reaches below the head it belongs to, at the least. */
const STEM_REACH = 1.6;

/** The stem touching a head at its side, if any (the nearest when several do). */
function attachedStem(head: Head, stems: readonly Stem[], space: number): Stem | undefined {
  let best: Stem | undefined;
  let bestDistance = Infinity;
  for (const stem of stems) {
    if (stem.x < head.x0 - space * STEM_SIDE_REACH || stem.x > head.x1 + space * STEM_SIDE_REACH) continue;
    if (stem.y0 > Math.max(head.y + space * STEM_END_REACH, head.y1 + space * STEM_PAST_EDGE)) continue;
    if (stem.y1 < Math.min(head.y - space * STEM_END_REACH, head.y0 - space * STEM_PAST_EDGE)) continue;
    // The stem rises from one end of the head; a stem passing through its middle belongs to a neighbour.
    const atLeft = Math.abs(stem.x - head.x0) < Math.abs(stem.x - head.x1);
    // A stem at the head's left edge is a down-stem and hangs well below it; a neighbour's up-stem
    // that merely passes beside the head (a sixteenth's before a dotted eighth a third higher) does
    // not. (An up-stem on the right is not held to its reach: a flag eats into what is seen of it.)
    if (atLeft && stem.y1 - head.y < space * STEM_REACH) continue;
    const edge = Math.min(Math.abs(stem.x - head.x0), Math.abs(stem.x - head.x1));
    if (edge < bestDistance) {
      bestDistance = edge;
      best = stem;
    }
  }
  return best;
}

/** The stem of the other voice sharing a head whose own stem is `stem`: opposite side, opposite way, each leaving the head. */
function otherVoiceStem(head: Head, stem: Stem, stems: readonly Stem[], space: number): Stem | undefined {
  const rises = (s: Stem) => Math.abs(s.x - head.x1) < space * STEM_SIDE_REACH && head.y - s.y0 >= space * OTHER_VOICE_RISE && Math.abs(s.y1 - head.y) < space * STEM_END_REACH;
  const falls = (s: Stem) => Math.abs(s.x - head.x0) < space * STEM_SIDE_REACH && s.y1 - head.y >= space * STEM_REACH && Math.abs(s.y0 - head.y) < space * STEM_END_REACH;
  const wanted = rises(stem) ? falls : falls(stem) ? rises : undefined;
  return wanted && stems.find((s) => s !== stem && s.staff === head.staff && wanted(s));
}

function strokeFromStem(stem: Stem, heads: Head[], symbols: SymbolsSeen, sight: PageSight, space: number): Stroke {
  const headTop = Math.min(...heads.map((h) => h.y));
  const headBottom = Math.max(...heads.map((h) => h.y));
  // The stem goes the way it extends further beyond the heads. Where it was seen only between them,
  // its side tells: up-stems stand on the heads' right, down-stems on their left.
  const above = headTop - stem.y0;
  const below = stem.y1 - headBottom;
  const left = Math.min(...heads.map((h) => h.x0));
  const right = Math.max(...heads.map((h) => h.x1));
  const up = Math.max(above, below) < space * STEM_SEEN_BEYOND ? stem.x - left > right - stem.x : above > below;
  const tip = up ? stem.y0 : stem.y1;
  // Beams stack from the tip towards the heads; the nearest head bounds the stack.
  const nearestHead = up ? headTop : headBottom;
  const beams = sight.beamsAtStem(stem.x, tip, up, Math.abs(nearestHead - tip) - space * BEAM_STACK_CLEAR_OF_HEAD);
  const flags = beams ? 0 : flagsAt(symbols, stem, tip, space);
  return makeStroke(heads, stem, up, beams, beams + flags, symbols, space);
}

function makeStroke(heads: Head[], stem: Stem | undefined, up: boolean | undefined, beams: number, hooks: number, symbols: SymbolsSeen, space: number): Stroke {
  const sorted = [...heads].sort((a, b) => b.position - a.position);
  const grace = heads.every((h) => h.small);
  // An acciaccatura: a lone grace note whose up-stem a slash crosses over its head. The slash hides its
  // stem and flag from the model at times: it is an eighth, stem up.
  const slash = grace && !beams && up !== false && heads.length === 1 && slashOver(heads[0]!, symbols, space);
  if (slash) [up, hooks] = [true, Math.max(1, hooks)];
  const x0 = Math.min(...heads.map((h) => h.x0), stem?.x ?? Infinity);
  const x1 = Math.max(...heads.map((h) => h.x1), stem?.x ?? -Infinity);
  const y0 = Math.min(...heads.map((h) => h.y0), stem?.y0 ?? Infinity);
  const y1 = Math.max(...heads.map((h) => h.y1), stem?.y1 ?? -Infinity);
  const headsRight = Math.max(...heads.map((h) => h.x1));
  // A flag hangs to the right of an up stem: dots come after it.
  const dotsFrom = up && hooks > beams && stem ? Math.max(headsRight, stem.x + space * FLAG_WIDTH) : headsRight;
  const confidence = Math.min(...heads.map((h) => h.confidence), stem?.confidence ?? 1);
  return {
    kind: 'chord',
    staff: sorted[0]!.staff,
    heads: sorted,
    stem,
    up,
    beams,
    hooks,
    grace,
    ...(slash ? { slash } : {}),
    dots: dotsAfter(dotsFrom, heads, symbols, space),
    x: heads.reduce((s, h) => s + h.x, 0) / heads.length,
    x0,
    x1,
    y0,
    y1,
    confidence,
  };
}

/** A grace note's stem reaches at most this many spaces over its head's middle. */
const GRACE_STEM_LENGTH = 3.5;
/** A slash read within this many spaces of a grace note's stem (its head's right edge) crosses it … */
const SLASH_AT_STEM = 0.5;
/** … no higher than this many spaces over the head's middle. */
const SLASH_RISE = 2.5;

/** Whether a slash read in the ink crosses the up-stem of this head, over it. */
function slashOver(head: Head, symbols: SymbolsSeen, space: number): boolean {
  return symbols.graceSlashes.some((s) => s.staff === head.staff && Math.abs(s.x - head.x1) <= space * SLASH_AT_STEM && s.y < head.y && s.y > head.y - space * SLASH_RISE);
}

/**
 * The stem of black heads that show none, where a beam says there is one: the class map loses a
 * stem inside a steep beam that runs close by its head, or on a blurred photo between a chord's
 * heads and its beam. Beam pixels in the column where a down-stem (the heads' left edge) or an
 * up-stem (their right edge) would run, within a stem's length of the heads, make the stem,
 * from the heads to the far side of that beam stack. Undefined where neither side has one, and
 * for open heads (a whole note beside another voice's beam keeps no stem).
 */
function stemUnderBeam(group: readonly Head[], sight: PageSight, space: number, only?: 'up' | 'down'): Stem | undefined {
  if (!group.every((h) => h.kind === 'black' && !h.small)) return undefined;
  const top = Math.min(...group.map((h) => h.y));
  const bottom = Math.max(...group.map((h) => h.y));
  const sides = [
    { side: 'down', x: Math.min(...group.map((h) => h.x0)) + space * BEAM_COLUMN_INSET, from: bottom, way: 1 as const },
    { side: 'up', x: Math.max(...group.map((h) => h.x1)) - space * BEAM_COLUMN_INSET, from: top, way: -1 as const },
  ].filter(({ side }) => !only || side === only);
  const found = sides.flatMap(({ x, from, way }) => {
    const stack = sight.beamBeyond(x, from, way);
    return stack ? [{ x, near: stack.near, y0: way > 0 ? top : stack.far, y1: way > 0 ? stack.far : bottom }] : [];
  });
  // The beam nearer the heads (the down side on a tie).
  const pick = found.sort((a, b) => a.near - b.near)[0];
  if (!pick) return undefined;
  const { x, y0, y1 } = pick;
  return { x, x0: x, x1: x, y0, y1, staff: group[0]!.staff, confidence: Math.min(...group.map((h) => h.confidence)) };
}

/** Stemless heads at one x are one chord (whole notes, or heads whose stem was missed). */
function stacks(heads: readonly Head[], space: number): Head[][] {
  const sorted = [...heads].sort((a, b) => a.x - b.x);
  const groups: Head[][] = [];
  for (const head of sorted) {
    const last = groups[groups.length - 1];
    if (last && last[0]!.staff === head.staff && Math.abs(last[0]!.x - head.x) < space * STACK_ACROSS) last.push(head);
    else groups.push([head]);
  }
  return groups;
}

/**
 * The flags of a lone grace note whose short stem the model did not paint as one: a flag hanging right of
 * where its up-stem would stand, over the head. 0 for any other group. (The stem's direction is left
 * unknown: the voices are found as before.)
 */
function graceFlags(group: readonly Head[], symbols: SymbolsSeen, space: number): number {
  const [head] = group;
  if (group.length !== 1 || !head!.small) return 0;
  return mostFlags(symbols, (flag) => flag.staff === head!.staff && flag.x0 >= head!.x1 - space * FLAG_LEFT && flag.x0 <= head!.x1 + space * FLAG_RIGHT && flag.y1 <= head!.y && flag.y0 >= head!.y - space * GRACE_STEM_LENGTH);
}

/** Flags on a stem's free end: the flag glyph's class says how many. */
function flagsAt(symbols: SymbolsSeen, stem: Stem, tip: number, space: number): number {
  return mostFlags(symbols, (flag) => flag.x0 <= stem.x + space * FLAG_RIGHT && flag.x1 >= stem.x - space * FLAG_LEFT && flag.y0 <= tip + space * FLAG_TIP_REACH && flag.y1 >= tip - space * FLAG_TIP_REACH);
}

/** The most flags a flag glyph standing where `at` accepts shows; 0 for none. */
function mostFlags(symbols: SymbolsSeen, at: (flag: SymbolsSeen['flags'][number]) => boolean): number {
  let count = 0;
  for (const flag of symbols.flags) if (at(flag)) count = Math.max(count, flag.count);
  return count;
}

/**
 * Augmentation dots to the right of `from`, level with one of the heads (or a space next to it). A
 * dot beyond another head at its height is that head's: two voices in unison print their heads side
 * by side, and only the second may be dotted.
 */
function dotsAfter(from: number, own: readonly { x: number; y: number }[], symbols: SymbolsSeen, space: number): number {
  const level = (d: { y: number }, y: number) => Math.abs(d.y - y) < space * DOT_LEVEL;
  const candidates = symbols.dots
    .filter((d) => d.x > from - space * DOT_INSET && d.x < from + space * DOT_REACH && own.some((h) => level(d, h.y)))
    .filter((d) => !symbols.heads.some((h) => !own.includes(h) && own.every((o) => h.x > o.x) && h.x < d.x && level(d, h.y)))
    .sort((a, b) => a.x - b.x);
  let count = 0;
  let reach = from + space * FIRST_DOT_REACH;
  let lastX = -Infinity;
  for (const dot of candidates) {
    if (dot.x > reach) break;
    if (dot.x - lastX < space * SAME_DOT) continue;
    count++;
    lastX = dot.x;
    reach = dot.x + space * NEXT_DOT_REACH;
    if (count === 3) break;
  }
  return count;
}
