/**
 * Samples for the dynamics classifier (models/dynamics.onnx), cut from
 * engraved pages with the engine's own code (page preparation, ink
 * components, src/text/dynamic-cells.ts):
 *
 *   npx tsx training/model/export-dynamics.ts --pages 150 --seed 1 --out /tmp/dynamics/dynamics.bin
 *
 * Each page is a random score (training/data/random-score.ts, one to four
 * staves) engraved by Verovio in a font and staff size drawn from the seed.
 * Its dynamics are redrawn: one mark per measure in the whole score (in some
 * of the parts), so that a mark Verovio labels is known by the measure it stands in, with
 * expression words beside some of them. Each mark
 * gives a cell of the ink components inside its box. Negatives ("none") are
 * runs of one to four letters of the page's other text — expression and tempo
 * words, lyrics, measure numbers, fingering, tuplet numbers — hairpins, and
 * the pieces of music that stand loose beside notes (accidentals, rests,
 * flags, ties, clefs, signatures): what the symbol model may paint as dynamics.
 *
 * Output: `count × (1 label byte + DYNAMIC_CELL_HEIGHT·DYNAMIC_CELL_WIDTH
 * bytes, 0 ink … 255 paper)`, label = index into DYNAMIC_CLASSES, with
 * `<out>.json` describing it, read by train_dynamics.py.
 */
import { componentsIn, exportCells, measureOf, preparedPage, unionBox } from './labelled-cells.js';
import { CANONICAL_STAFF_SPACE } from '../../src/preparation/prepare-page.js';
import { add, compare, ZERO, type Fraction } from '../../src/score/fraction.js';
import type { Score } from '../../src/score/model.js';
import { DYNAMIC_CLASSES, dynamicCell } from '../../src/text/dynamic-cells.js';
import type { Rng } from '../data/prng.js';
import type { RenderedPage } from '../data/render-pages.js';

/** Label kinds whose letters make negatives. */
const NEGATIVE_KINDS = new Set(['dir', 'tempo', 'syl', 'mNum', 'fing', 'tuplet', 'hairpin', 'accid', 'rest', 'flag', 'tie', 'clef', 'keySig', 'meterSig']);
/** Words set among the dynamics, whose letters make negatives (an expression word's f or p is not a dynamic). */
const WORDS = ['cresc.', 'dim.', 'dolce', 'espress.', 'pizz.', 'arco', 'rit.', 'a tempo', 'sempre', 'poco a poco', 'sotto voce', 'mezza voce', 'sf sempre', 'Allegro', 'Presto', 'simile', 'rinf.', 'sfogato', 'smorz.', 'morendo', 'con sord.', 'senza sord.', 'tr', '3', '5'];
/** Negatives per mark on a page. */
const NEGATIVES_PER_MARK = 0.6;
/** A component belongs to a labelled box when its centre lies within this many spaces of it. */
const BOX_SLACK = 0.15;

/**
 * Replaces a score's dynamics by new ones, one mark per measure index in the
 * whole score (in some of the parts, each at a random note); returns each
 * measure's mark.
 */
function redrawDynamics(score: Score, rng: Rng): Map<number, string> {
  for (const part of score.parts) {
    for (const measure of part.measures) {
      for (const d of measure.directions) delete d.dynamics;
      measure.directions = measure.directions.filter((d) => d.words || d.metronome || d.wedge || d.pedal || d.rehearsal || d.sign);
    }
  }
  const marks = new Map<number, string>();
  const measures = score.parts[0]!.measures.length;
  for (let m = 0; m < measures; m++) {
    if (!rng.chance(0.8)) continue;
    const dynamics = DYNAMIC_CLASSES[rng.int(1, DYNAMIC_CLASSES.length - 1)]!;
    for (const part of score.parts) {
      const measure = part.measures[m]!;
      const voice = measure.voices[0];
      if (!voice || !rng.chance(0.8)) continue;
      const onsets: { offset: Fraction; staff: number }[] = [];
      let t = ZERO;
      for (const e of voice.events) {
        if (e.kind === 'note' && !e.grace) onsets.push({ offset: t, staff: e.staff });
        t = add(t, e.duration);
      }
      if (!onsets.length) continue;
      const at = rng.pick(onsets);
      measure.directions.push({ offset: at.offset, staff: at.staff, placement: rng.chance(0.8) ? 'below' : 'above', dynamics });
      if (rng.chance(0.3)) {
        const other = rng.pick(onsets);
        measure.directions.push({ offset: other.offset, staff: other.staff, placement: rng.chance(0.5) ? 'below' : 'above', words: rng.pick(WORDS) });
      }
      measure.directions.sort((a, b) => compare(a.offset, b.offset));
      marks.set(m, dynamics);
    }
  }
  return marks;
}

function samplePage(page: RenderedPage, marks: Map<number, string>, rng: Rng, write: (label: number, cell: Float32Array) => void): void {
  const { prepared, components, toPrepared } = preparedPage(page);
  const slack = CANONICAL_STAFF_SPACE * BOX_SLACK;
  let positives = 0;
  for (const s of page.labels.symbols) {
    if (s.kind !== 'dynam') continue;
    const measure = measureOf(page, s.bbox);
    const mark = measure === undefined ? undefined : marks.get(measure);
    if (!mark) continue;
    const own = componentsIn(components, toPrepared(s.bbox), slack);
    if (!own.length) continue;
    write(DYNAMIC_CLASSES.indexOf(mark as (typeof DYNAMIC_CLASSES)[number]), dynamicCell(prepared.gray, components.labels, new Set(own), unionBox(components, own)));
    positives++;
  }
  const others = page.labels.symbols.filter((s) => NEGATIVE_KINDS.has(s.kind));
  const wanted = Math.max(4, Math.round(positives * NEGATIVES_PER_MARK));
  for (let tries = 0, made = 0; made < wanted && tries < wanted * 5 && others.length; tries++) {
    const s = others[rng.int(0, others.length - 1)]!;
    const inside = componentsIn(components, toPrepared(s.bbox), slack);
    if (!inside.length) continue;
    const from = rng.int(0, inside.length - 1);
    const run = inside.slice(from, from + rng.int(1, 4));
    write(0, dynamicCell(prepared.gray, components.labels, new Set(run), unionBox(components, run)));
    made++;
  }
}

await exportCells({ defaultOut: '/tmp/dynamics/dynamics.bin', classes: DYNAMIC_CLASSES, maxStaves: 4, draw: redrawDynamics, sample: samplePage });
