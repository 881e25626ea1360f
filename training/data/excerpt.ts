/**
 * Cuts an excerpt out of a score: some of its parts, some of its measures.
 * The first measure of the excerpt restates the clef, key and time in force,
 * so the excerpt reads correctly on its own, as a page taken from the middle
 * of a piece does.
 */
import { compare, ZERO } from '../../src/score/fraction.js';
import type { Clef, ClefChange, KeySignature, Measure, Part, Score, TimeSignature } from '../../src/score/model.js';

export interface ExcerptSpec {
  /** Part indices, or instrument-id prefixes (`strings.violin` keeps every violin part); all parts when absent. */
  parts?: readonly (string | number)[];
  /** Measure indices [from, to). */
  measures: readonly [number, number];
  /**
   * The excerpt is pages of the source as printed (default false: it is engraved on its own). Its barlines are
   * then the source's: no final barline where the music goes on past the page, and the first measure keeps a
   * repeat or volta that starts there.
   */
  printed?: boolean;
}

export function excerpt(score: Score, spec: ExcerptSpec): Score {
  const keep = score.parts
    .map((part, index) => ({ part, index }))
    .filter(({ part, index }) => !spec.parts || spec.parts.some((p) => (typeof p === 'number' ? p === index : part.instrumentId.startsWith(p))));
  if (!keep.length) throw new Error(`no part matches ${JSON.stringify(spec.parts)}`);
  const parts = keep.map(({ part }) => slicePart(part, spec.measures[0], spec.measures[1], spec.printed ?? false));
  const newIndex = new Map(keep.map(({ index }, i) => [index, i]));
  const partGroups = score.partGroups
    .map((g) => {
      const inside = keep.filter(({ index }) => index >= g.first && index <= g.last).map(({ index }) => newIndex.get(index)!);
      return inside.length >= 2 ? { ...g, first: Math.min(...inside), last: Math.max(...inside) } : undefined;
    })
    .filter((g) => g !== undefined);
  return { credits: { ...score.credits }, parts, partGroups };
}

function slicePart(part: Part, from: number, to: number, printed: boolean): Part {
  if (from < 0 || to > part.measures.length || from >= to) {
    throw new Error(`part ${part.id} has ${part.measures.length} measures; cannot cut [${from}, ${to})`);
  }
  // What is in force when the excerpt starts.
  let key: KeySignature | undefined;
  let time: TimeSignature | undefined;
  const clefs = new Map<number, Clef>();
  for (const m of part.measures.slice(0, from)) {
    if (m.key) key = m.key;
    if (m.time) time = m.time;
    for (const c of m.clefs) clefs.set(c.staff, { sign: c.sign, line: c.line, ...(c.octaveChange && { octaveChange: c.octaveChange }) });
  }
  const measures = structuredClone(part.measures.slice(from, to));
  const first: Measure = measures[0]!;
  if (from > 0) {
    delete first.implicit;
    first.key ??= key;
    first.time ??= time;
    if (!first.key) delete first.key;
    if (!first.time) delete first.time;
    const restated: ClefChange[] = [];
    for (const [staff, clef] of clefs) {
      if (!first.clefs.some((c) => c.staff === staff && compare(c.offset, ZERO) === 0)) restated.push({ ...clef, staff, offset: ZERO });
    }
    first.clefs = [...restated, ...first.clefs];
    // A repeat or volta that began before the excerpt cannot be honoured where the excerpt is engraved anew.
    if (!printed) delete first.leftBarline;
  }
  // The source's line and page breaks belong to its own layout (a full score, a wider page): let the engraver lay out afresh.
  for (const m of measures) {
    delete m.systemBreak;
    delete m.pageBreak;
  }
  // Engraved on its own, the excerpt ends as a piece does.
  if (!printed) measures[measures.length - 1]!.rightBarline = { style: 'light-heavy' };
  // A multi-measure rest may not run past the end of the excerpt.
  measures.forEach((m, i) => {
    if (m.multiRest && i + m.multiRest > measures.length) m.multiRest = measures.length - i > 1 ? measures.length - i : undefined;
    if (m.multiRest === undefined) delete m.multiRest;
  });
  return { ...part, measures };
}
