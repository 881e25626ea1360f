/**
 * Layout: which parts the score has, which part and staff each staff of
 * each system fills, and the measures of every system between their
 * barlines.
 *
 * Parts come from the fullest system: each staff is a part, except staves a
 * brace joins, which are one instrument (a piano's grand staff). Systems
 * with fewer staves (orchestral scores drop resting instruments) are matched
 * to those slots by their clefs.
 *
 * Reads: the systems' staves, braces, opening clefs and barlines.
 * Adds: `layout`, `slotsOf`, the parts (generic names, no measures yet) and
 * the list of measures with their places.
 */
import { ZERO } from '../../score/fraction.js';
import type { Clef, Part } from '../../score/model.js';
import { sameClef } from '../clef-pitch.js';
import type { StaffReading, SystemReading } from '../read-page.js';
import type { Layout, ScorePass, Slot } from './reading-state.js';

/** Matching a system's staves to slots: a staff braced to another placed in a part of one staff, or the reverse, costs this much (a clef apart costs 1). */
const BRACE_MISMATCH_COST = 0.25;
/** … and the same clef an octave apart (the 8 under it missed or imagined) costs this much. */
const OCTAVE_APART_COST = 0.5;

export const layoutPass: ScorePass = {
  name: 'layout',
  run(state) {
    const { systems } = state;
    state.layout = partLayout(systems);
    state.slotsOf = systems.map((s) => matchSlots(s, state.layout));
    state.parts = state.layout.parts.map((p, i): Part => ({
      id: `P${i + 1}`,
      name: p.staves === 2 ? 'Piano' : `Staff ${i + 1}`,
      instrumentId: 'keyboard.piano',
      midiProgram: 0,
      staves: p.staves,
      measures: [],
    }));
    state.measures = systems.flatMap((system, si) =>
      system.measures.bounds.slice(0, -1).map((left, m) => ({
        system: si,
        index: m,
        left,
        right: system.measures.bounds[m + 1]!,
        staves: new Map(),
        time: undefined,
        timeChanged: false,
        timeShown: false,
        expected: ZERO,
        run: 1,
        parts: [],
      })),
    );
  },
};

/** Parts from the system with the most staves: braced staves are one part, every other staff its own. */
function partLayout(systems: readonly SystemReading[]): Layout {
  const reference = systems.reduce((best, s) => (s.staves.length > best.staves.length ? s : best), systems[0]!);
  const parts: { staves: number }[] = [];
  const slots: Slot[] = [];
  // An instrument's brace stands on every system: one missed on a system (the first, crowded by
  // instrument names) is seen on the others, and one seen on fewer than half of them is a bracket's
  // hook or a blot that a scan made look like one.
  const full = systems.filter((s) => s.staves.length === reference.staves.length);
  const seen = (a: number, b: number) => full.filter((s) => s.braces.some(([x, y]) => x === a && y === b)).length;
  const braces = full.flatMap((s) => s.braces).filter(([a, b]) => seen(a, b) * 2 >= full.length);
  for (let k = 0; k < reference.staves.length; ) {
    const brace = braces.find(([a]) => a === k);
    const count = brace ? brace[1] - brace[0] + 1 : 1;
    for (let j = 0; j < count; j++) slots.push({ part: parts.length, staff: j + 1 });
    parts.push({ staves: count });
    k += count;
  }
  return { parts, slots, clefs: reference.staves.map((r) => openingClef(r)) };
}

/**
 * Which slot each staff of a system fills. A full system maps one to one; a
 * system with fewer staves is matched in order to the slots whose opening
 * clefs agree best, and whose braces (an alignment that keeps the
 * top-to-bottom order).
 */
function matchSlots(system: SystemReading, layout: Layout): number[] {
  const n = system.staves.length;
  const m = layout.slots.length;
  if (n >= m) return system.staves.map((_, k) => Math.min(k, m - 1));
  const clefs = system.staves.map((r) => openingClef(r));
  // A staff the system braces to another goes to a keyboard's slots rather than to a staff of its own
  // (a voice and a piano's right hand both read treble); clefs weigh more, as braces may go unseen.
  const braced = (k: number) => system.braces.some(([a, b]) => k >= a && k <= b);
  // cost[i][j]: best cost placing the first i staves within the first j slots.
  const cost = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(Infinity));
  for (let j = 0; j <= m; j++) cost[0]![j] = 0;
  for (let i = 1; i <= n; i++) {
    for (let j = i; j <= m; j++) {
      const mismatch = clefDistance(clefs[i - 1], layout.clefs[j - 1]) + (braced(i - 1) === (layout.parts[layout.slots[j - 1]!.part]!.staves > 1) ? 0 : BRACE_MISMATCH_COST);
      cost[i]![j] = Math.min(cost[i]![j - 1]!, cost[i - 1]![j - 1]! + mismatch);
    }
  }
  const result = new Array<number>(n);
  for (let i = n, j = m; i > 0; j--) {
    if (cost[i]![j] === cost[i]![j - 1]) continue;
    result[i - 1] = j - 1;
    i--;
  }
  return result;
}

/** 0 for the same clef, {@link OCTAVE_APART_COST} for the same clef an octave apart, else 1. */
function clefDistance(a: Clef | undefined, b: Clef | undefined): number {
  if (sameClef(a, b)) return 0;
  return a && b && a.sign === b.sign && a.line === b.line ? OCTAVE_APART_COST : 1;
}

function openingClef(reading: StaffReading): Clef | undefined {
  return reading.signatures.clefs[0]?.value;
}
