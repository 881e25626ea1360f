/**
 * Measure completeness: a voice should fill its measure exactly. When it
 * does not, the likeliest misreadings are tried, each only when it alone
 * makes the voice fit:
 * - a rest alone in its voice is a whole-measure rest, whatever its glyph;
 * - notes one beam joins in a run of three (five, six) equal values are a
 *   triplet (quintuplet, sextuplet), printed with its number or not, when
 *   reading every such run so makes the voice fit exactly;
 * - a tuplet mark over a group makes it a triplet (3 in the time of 2);
 * - runs of equal short notes in threes are triplets whose mark the engraver
 *   left out after the first ("simile"), when that alone makes the voice fit;
 * - one missed or extra augmentation dot.
 * A first measure that is short and otherwise consistent is a pickup.
 */
import { add, compare, equals, frac, mul, sub, ZERO, type Fraction } from '../score/fraction.js';
import type { DurationType, Tuplet } from '../score/model.js';
import { notatedDuration } from '../score/timeline.js';

export interface TimedItem {
  x: number;
  type: DurationType;
  dots: number;
  tuplet?: Tuplet;
  isRest: boolean;
  /** Grace notes take no time and are never repaired. */
  grace?: boolean;
  measureRest?: boolean;
  duration: Fraction;
  /** Items one beam joins share this number; absent where no beam joins the item to another. */
  beamGroup?: number;
}

export function voiceDuration(items: readonly { duration: Fraction }[]): Fraction {
  return items.reduce((s, i) => add(s, i.duration), ZERO);
}

function setDuration(item: TimedItem): void {
  item.duration = item.grace ? ZERO : notatedDuration(item.type, item.dots, item.tuplet);
}

/** Puts back the tuplets a try changed (`before`: each item's tuplet before it), with their durations. */
function restoreTuplets(items: readonly TimedItem[], before: readonly (Tuplet | undefined)[]): void {
  items.forEach((item, k) => {
    item.tuplet = before[k];
    setDuration(item);
  });
}

/**
 * Repairs a voice in place so that it lasts `expected`, where one simple
 * explanation fits. `tripletsShown`: marked triplets have made earlier
 * measures of this staff fit, which is what licenses reading unmarked groups
 * of three as triplets (a stray mark licenses nothing: scans are full of
 * specks the model takes for tuplet numbers).
 *
 * Returns whether tuplets made it fit: marked ones, or ones its beams and its
 * length imply (both license unmarked triplets later on the staff).
 */
export function repairVoice(items: TimedItem[], expected: Fraction, tupletMarks: readonly number[], space: number, tripletsShown = false, compoundTime = false): boolean {
  if (items.length === 1 && items[0]!.isRest && (items[0]!.type === 'whole' || items[0]!.type === 'half' || compare(items[0]!.duration, expected) !== 0)) {
    items[0]!.measureRest = true;
    items[0]!.duration = expected;
    return false;
  }
  const fits = () => equals(voiceDuration(items), expected);
  if (fits()) return false;
  if (compare(voiceDuration(items), expected) > 0 && beamedTuplets(items, expected, tupletMarks, space)) return true;
  if (compare(voiceDuration(items), expected) > 0 && tupletMarks.length) {
    const before = items.map((i) => i.tuplet);
    // Marks one at a time: a triplet is kept only when the voice still does not fall short with it
    // (a stray mark, a bracket half read as a number, would make it too short).
    for (const mark of tupletMarks) {
      const kept = items.map((i) => i.tuplet);
      applyTriplet(items, mark, space);
      if (compare(voiceDuration(items), expected) < 0) {
        restoreTuplets(items, kept);
      }
      if (fits()) return true;
    }
    // The marks kept and the beamed runs they leave unmarked together.
    if (compare(voiceDuration(items), expected) > 0 && beamedTuplets(items, expected, tupletMarks, space)) return true;
    restoreTuplets(items, before);
  }
  if (tripletsShown && compare(voiceDuration(items), expected) > 0 && unmarkedTriplets(items, expected, tupletMarks, space)) return true;
  if (compare(voiceDuration(items), expected) > 0) tripletsPastMisread(items, expected, tupletMarks, space);
  if (compoundTime && compare(voiceDuration(items), expected) < 0 && markedDuplets(items, expected, tupletMarks, space)) return true;
  const missing = sub(expected, voiceDuration(items));
  // One dot more or less: the dot adds half the item's undotted value (for a single dot).
  const candidates = items.filter((item) => {
    if (item.tuplet || item.grace) return false;
    const dotted = notatedDuration(item.type, item.dots + 1);
    const delta = sub(dotted, notatedDuration(item.type, item.dots));
    if (equals(delta, missing)) return true;
    if (item.dots > 0) {
      const undotted = sub(notatedDuration(item.type, item.dots - 1), notatedDuration(item.type, item.dots));
      return equals(undotted, missing);
    }
    return false;
  });
  if (candidates.length === 1) {
    const item = candidates[0]!;
    const more = equals(sub(notatedDuration(item.type, item.dots + 1), notatedDuration(item.type, item.dots)), missing);
    item.dots += more ? 1 : -1;
    setDuration(item);
  }
  return false;
}

/** A tuplet mark makes a triplet only where the note nearest it stands within this many spaces of it across. */
const TRIPLET_MARK_REACH = 6;

/** Makes the group under a tuplet mark a triplet: the three items nearest the mark, of about one value. */
function applyTriplet(items: TimedItem[], markX: number, space: number): void {
  const free = items.map((item, k) => ({ item, k })).filter(({ item }) => !item.tuplet && !item.grace);
  if (free.length < 3) return;
  let nearest = free[0]!;
  for (const f of free) if (Math.abs(f.item.x - markX) < Math.abs(nearest.item.x - markX)) nearest = f;
  if (Math.abs(nearest.item.x - markX) > space * TRIPLET_MARK_REACH) return;
  const at = free.indexOf(nearest);
  const start = Math.max(0, Math.min(free.length - 3, at - 1));
  const group = free.slice(start, start + 3).map((f) => f.item);
  const total = group.reduce((s, i) => add(s, notatedDuration(i.type, i.dots)), ZERO);
  // Three in the time of two: the group spans three of one note value (three eighths, or a quarter and an
  // eighth), none of its items longer than two of them. An eighth rest, a sixteenth rest and a sixteenth
  // span no such value: a mark read beside them is not theirs.
  const unit = mul(total, frac(1, 3));
  if (!plainValue(unit) || !group.every((i) => compare(notatedDuration(i.type, i.dots), add(unit, unit)) <= 0)) return;
  group.forEach((item, k) => {
    item.tuplet = { actual: 3, normal: 2, start: k === 0, stop: k === group.length - 1 };
    setDuration(item);
  });
}

/**
 * Engravers mark the first triplets of a passage and leave the number off the
 * rest. In an overfull voice, runs of equal quarters or shorter, in threes,
 * become triplets one group at a time from the left until the voice fits;
 * if it never fits exactly, nothing changes.
 */
function unmarkedTriplets(items: TimedItem[], expected: Fraction, tupletMarks: readonly number[], space: number): boolean {
  const before = items.map((i) => i.tuplet);
  const short = (i: TimedItem) => !i.tuplet && !i.grace && !i.isRest && i.dots === 0 && compare(notatedDuration(i.type), frac(1)) <= 0;
  for (let k = 0; k + 3 <= items.length && compare(voiceDuration(items), expected) > 0; ) {
    const group = items.slice(k, k + 3);
    if (group.every(short) && group.every((i) => i.type === group[0]!.type)) {
      makeTuplet(group, TRIPLET, tupletMarks, space);
      k += 3;
    } else k++;
  }
  if (equals(voiceDuration(items), expected)) return true;
  restoreTuplets(items, before);
  return false;
}

/** Whole beams of three that a misread note leaves as the only evidence of triplets: at least this many. */
const MIN_BEAMED_THREES = 2;

/**
 * A voice of beamed threes, one of them under a printed "3", still overfull once no exact reading made
 * it fit: a note misread (a sixteenth taken for a quarter, a beam too many) spoils the sum, not the
 * beams. Every whole beam of three equal short notes is then a triplet, where there are several and
 * that leaves the voice no shorter than its measure; the misread note alone stays wrong. (Triplets
 * elsewhere on the staff are no licence here: a beam misread across two groups makes a false three.)
 */
function tripletsPastMisread(items: TimedItem[], expected: Fraction, tupletMarks: readonly number[], space: number): void {
  const threes = beamedGroups(items, tupletMarks).filter((g) => g.evidence === 0 && g.ratio === TRIPLET);
  if (threes.length < MIN_BEAMED_THREES || !threes.some((g) => markedOver(g.items, tupletMarks, space))) return;
  const before = items.map((i) => i.tuplet);
  for (const group of threes) makeTuplet(group.items, TRIPLET, tupletMarks, space);
  if (compare(voiceDuration(items), expected) < 0) restoreTuplets(items, before);
}

/**
 * In compound time a beat split in two is printed as a duplet: two eighths (or an eighth and two
 * sixteenths) in the time of three, under a "2". A voice short of its measure, with marks over beamed
 * groups of two units, fits once each such group is a duplet; if it does not fit exactly, nothing changes.
 */
function markedDuplets(items: TimedItem[], expected: Fraction, tupletMarks: readonly number[], space: number): boolean {
  const before = items.map((i) => i.tuplet);
  for (const span of beamSpans(items)) {
    if (span.length < 2 || span.some((i) => i.tuplet || i.grace) || !markedOver(span, tupletMarks, space)) continue;
    if (!plainValue(span.reduce((s, i) => add(s, notatedDuration(i.type, i.dots)), ZERO))) continue;
    makeTuplet(span, DUPLET, tupletMarks, space);
  }
  if (equals(voiceDuration(items), expected)) return true;
  restoreTuplets(items, before);
  return false;
}

/** Whether a length is one undotted note value (a whole, a half, a quarter …): a power of two. */
function plainValue(length: Fraction): boolean {
  const powerOfTwo = (k: number) => k > 0 && (k & (k - 1)) === 0;
  return (length.n === 1 && powerOfTwo(length.d)) || (length.d === 1 && powerOfTwo(length.n));
}

/** A tuplet's notes in the time of how many of their value. */
interface Ratio {
  actual: number;
  normal: number;
}

const TRIPLET: Ratio = { actual: 3, normal: 2 };
/** Two notes in the time of three: a beat of compound time split in two. */
const DUPLET: Ratio = { actual: 2, normal: 3 };
/** Five equal notes under one beam in the time of four. */
const QUINTUPLET: Ratio = { actual: 5, normal: 4 };
/** Six equal sixteenths (or shorter) under one beam in the time of four, where a "6" is printed over their centre. */
const SEXTUPLET: Ratio = { actual: 6, normal: 4 };
/** How far, in spaces, a tuplet number may stand beyond its group's first and last notes and still be its own. */
const MARK_OVER_GROUP_SPACES = 1.5;

/** A group of a voice read as one tuplet. */
interface TupletGroup {
  items: TimedItem[];
  ratio: Ratio;
  /**
   * How directly the beams show the group, tried in this order: 0, a whole beam; 1, the notes of one
   * value within a beam that also joins others (a triplet of sixteenths and an eighth under one beam);
   * 2, a beamed pair with a rest of its value beside it.
   */
  evidence: 0 | 1 | 2;
}

/**
 * Makes a group one tuplet. A group with no tuplet mark over it is implied: the page printed neither
 * number nor bracket, and the export says so.
 */
function makeTuplet(group: readonly TimedItem[], ratio: Ratio, tupletMarks: readonly number[], space: number): void {
  const implied = !markedOver(group, tupletMarks, space);
  group.forEach((item, n) => {
    item.tuplet = { ...ratio, start: n === 0, stop: n === group.length - 1, ...(implied ? { implied: true } : {}) };
    setDuration(item);
  });
}

/** Whether a tuplet mark stands over a group: between its first and last notes, or a little beyond them. */
function markedOver(group: readonly TimedItem[], tupletMarks: readonly number[], space: number): boolean {
  const x0 = group[0]!.x - space * MARK_OVER_GROUP_SPACES;
  const x1 = group[group.length - 1]!.x + space * MARK_OVER_GROUP_SPACES;
  return tupletMarks.some((x) => x >= x0 && x <= x1);
}

/** A voice's whole beams of three equal eighths: how many have a tuplet mark over them (printed triplets), and how many not. */
export function beamedEighthThrees(items: readonly TimedItem[], tupletMarks: readonly number[], space: number): { marked: number; unmarked: number } {
  const threes = beamedGroups(items, tupletMarks).filter((g) => g.evidence === 0 && g.ratio === TRIPLET && g.items.length === 3 && g.items[0]!.type === 'eighth');
  const marked = threes.filter((g) => markedOver(g.items, tupletMarks, space)).length;
  return { marked, unmarked: threes.length - marked };
}

/** A run of notes of one value under one beam, where it starts in the voice, and whether it is that beam's every note there. */
export interface BeamRun {
  at: number;
  run: TimedItem[];
  whole: boolean;
}

/**
 * Runs of notes one beam joins, in order: consecutive items of one beam group and one value (type and
 * dots), none a rest, a grace note or already a tuplet. A beam that joins notes of several values
 * (an eighth and three sixteenths) gives a run per value.
 */
export function beamRuns(items: readonly TimedItem[]): BeamRun[] {
  const runs: BeamRun[] = [];
  let k = 0;
  for (const beam of beamSpans(items)) {
    if (beam[0]!.beamGroup !== undefined && beam.every((i) => !i.isRest && !i.grace && !i.tuplet)) {
      for (let j = 0; j < beam.length; ) {
        let stop = j + 1;
        while (stop < beam.length && beam[stop]!.type === beam[j]!.type && beam[stop]!.dots === beam[j]!.dots) stop++;
        runs.push({ at: k + j, run: beam.slice(j, stop), whole: stop - j === beam.length });
        j = stop;
      }
    }
    k += beam.length;
  }
  return runs;
}

/** A voice cut into the runs of items one beam joins, in order; an item no beam joins is a run of its own. */
export function beamSpans<T extends Pick<TimedItem, 'beamGroup'>>(items: readonly T[]): T[][] {
  const spans: T[][] = [];
  for (let k = 0; k < items.length; ) {
    const group = items[k]!.beamGroup;
    let end = k + 1;
    if (group !== undefined) while (end < items.length && items[end]!.beamGroup === group) end++;
    spans.push(items.slice(k, end));
    k = end;
  }
  return spans;
}

/**
 * The groups a voice's beams suggest as tuplets, left to right: a beamed run of equal values (see
 * equalShortValues) of three is a triplet, of five a quintuplet where its number is read over its
 * middle (five beamed sixteenths last as long as two and a triplet, which engravers mark over the
 * last three), of six a sextuplet where its number is read over the run's centre (sixteenths or
 * shorter) and otherwise two triplets (engravers print sixteenth triplets "3" over each half, and
 * leave the numbers off later groups); a beamed pair with a rest of its value beside it (before
 * it, else after it) is a triplet that starts or ends on the rest.
 */
export function beamedGroups(items: readonly TimedItem[], tupletMarks: readonly number[] = []): TupletGroup[] {
  const groups: TupletGroup[] = [];
  const claimed = new Set<TimedItem>();
  const restOfValue = (item: TimedItem | undefined, like: TimedItem) => !!item && item.isRest && !item.tuplet && !item.measureRest && !claimed.has(item) && item.type === like.type && item.dots === 0;
  for (const { at, run, whole } of beamRuns(items)) {
    if (!equalShortValues(run)) continue;
    const evidence = whole ? 0 : 1;
    if (run.length === 3) groups.push({ items: run, ratio: TRIPLET, evidence });
    else if (run.length === 5 && markedAtMiddle(run, tupletMarks)) groups.push({ items: run, ratio: QUINTUPLET, evidence });
    else if (run.length === 6 && run[0]!.type !== 'eighth' && markedAtCentre(run, tupletMarks)) groups.push({ items: run, ratio: SEXTUPLET, evidence });
    else if (run.length === 6) groups.push({ items: run.slice(0, 3), ratio: TRIPLET, evidence }, { items: run.slice(3), ratio: TRIPLET, evidence });
    else if (run.length === 2) {
      const before = items[at - 1];
      const after = items[at + 2];
      const rest = restOfValue(before, run[0]!) ? before! : restOfValue(after, run[0]!) ? after! : undefined;
      if (!rest) continue;
      claimed.add(rest);
      groups.push({ items: rest === before ? [rest, ...run] : [...run, rest], ratio: TRIPLET, evidence: 2 });
    }
  }
  return groups;
}

/**
 * Tuplets the beams imply: in a voice longer than its measure, every group the beams suggest (see
 * beamedGroups) is read as a tuplet, when that makes the voice last exactly its measure (whole beams
 * first, then with parts of beams, then with pairs that take in a rest). The
 * arithmetic is the evidence: each such group is too long as printed by a set part (a third for a
 * triplet), and together they must account for all the voice runs over, no more and no less;
 * otherwise nothing changes. (In a compound metre three beamed eighths are a beat and the voice does
 * not run over.)
 */
export function beamedTuplets(items: TimedItem[], expected: Fraction, tupletMarks: readonly number[], space: number): boolean {
  const groups = beamedGroups(items, tupletMarks);
  const before = items.map((i) => i.tuplet);
  let tried = 0;
  for (const evidence of [0, 1, 2]) {
    const taken = groups.filter((g) => g.evidence <= evidence);
    if (taken.length === tried) continue;
    tried = taken.length;
    for (const group of taken) makeTuplet(group.items, group.ratio, tupletMarks, space);
    if (equals(voiceDuration(items), expected)) return true;
    restoreTuplets(items, before);
  }
  return false;
}

/** Whether a tuplet mark stands over the run's middle note: nearer to it than to any other. */
function markedAtMiddle(run: readonly TimedItem[], tupletMarks: readonly number[]): boolean {
  const middle = Math.floor(run.length / 2);
  return tupletMarks.some((x) => {
    const distances = run.map((i) => Math.abs(i.x - x));
    return distances.every((d, k) => k === middle || d > distances[middle]!);
  });
}

/**
 * Whether a tuplet mark stands over the centre of a run of six, between its third and fourth notes,
 * nearer to it than to the middle note of either half: a sextuplet's "6" stands there, the "3" of
 * two triplets over the second and fifth notes.
 */
function markedAtCentre(run: readonly TimedItem[], tupletMarks: readonly number[]): boolean {
  const centre = (run[2]!.x + run[3]!.x) / 2;
  return tupletMarks.some((x) => Math.abs(x - centre) < Math.abs(x - run[1]!.x) && Math.abs(x - centre) < Math.abs(x - run[4]!.x));
}

/** Notes of one undotted value, an eighth or shorter. */
function equalShortValues(run: readonly TimedItem[]): boolean {
  return run.every((i) => i.type === run[0]!.type && i.dots === 0 && compare(notatedDuration(i.type), frac(1, 2)) <= 0);
}
