/**
 * Samples for the pedal-mark classifier (models/pedals.onnx), cut from
 * engraved pages with the engine's own code (page preparation, ink
 * components, the dynamics' cell of src/text/dynamic-cells.ts):
 *
 *   npx tsx training/model/export-pedals.ts --pages 150 --seed 1 --out /tmp/pedals/pedals.bin
 *
 * Each page is a random score (training/data/random-score.ts, one to three
 * staves) engraved by Verovio in a font and staff size drawn from the seed.
 * Its lowest staff gets pedal marks, at most one per measure, so that a mark
 * Verovio labels is known by the measure it stands in: the sign that presses
 * the pedal (Ped., `start`) and the one that lets it go (*, `stop`), with
 * expression words and dynamics beside some of them, and plain words (as
 * lyrics are) under every staff. Negatives ("none"),
 * four for each mark, are what the engine also asks the classifier about,
 * the words of the text by the staves: mostly whole words of expression and
 * tempo marks, lyrics, measure numbers and dynamics, and otherwise runs of
 * one to four of their letters, fingering, tuplet numbers and loose pieces of
 * music (accidentals, rests, flags, ties, clefs).
 *
 * Output: `count × (1 label byte + DYNAMIC_CELL_HEIGHT·DYNAMIC_CELL_WIDTH
 * bytes, 0 ink … 255 paper)`, label = index into PEDAL_CLASSES, with
 * `<out>.json` describing it, read by train_pedals.py.
 */
import { CANONICAL_STAFF_SPACE, transformLabels } from '../../src/preparation/prepare-page.js';
import { CLASS_INDEX } from '../../src/symbols/symbol-classes.js';
import { add, compare, ZERO, type Fraction } from '../../src/score/fraction.js';
import type { Score } from '../../src/score/model.js';
import { DYNAMIC_CLASSES, dynamicCell, type CellBox } from '../../src/text/dynamic-cells.js';
import { PEDAL_CLASSES, WORD_GAP } from '../../src/text/read-pedals.js';
import type { InkComponents } from '../../src/text/text-regions.js';
import type { Rng } from '../data/prng.js';
import type { RenderedPage } from '../data/render-pages.js';
import { componentsIn, exportCells, measureOf, preparedPage, unionBox } from './labelled-cells.js';

/** Label kinds whose letters make negatives. */
const NEGATIVE_KINDS = new Set(['dir', 'tempo', 'syl', 'mNum', 'fing', 'tuplet', 'dynam', 'hairpin', 'accid', 'rest', 'flag', 'tie', 'clef', 'keySig', 'meterSig']);
/** Words set among the pedal marks. */
const WORDS = ['cresc.', 'dim.', 'dolce', 'espress.', 'rit.', 'a tempo', 'sempre', 'poco a poco', 'legato', 'Red.', 'Pd.', 'simile', 'una corda', 'tre corde', 'sost.', 'rall.', 'morendo', 'smorz.', 'leggiero', 'Led.', 'sf', '*', 'ped.', 'Ped. sempre'];
/**
 * Plain words set under every staff, in the text font lyrics and expression words share: the
 * words of a lyric line are the negatives the engine meets most.
 */
const PLAIN_WORDS = [
  'the', 'and', 'like', 'love', 'heart', 'my', 'thee', 'sweet', 'night', 'rose', 'light', 'out', 'O', 'Ah!', 'sing,', 'day.',
  'die', 'der', 'und', 'Herz', 'Liebe', 'mein', 'bei', 'wie', 'dein', 'Blut', 'Zeit', 'den', 'du,', 'Und', 'Ach!', 'Lie',
  'le', 'la', 'et', 'mon', 'coeur', 'amour', 'plage', 'sur', 'les', 'ciel', 'il', 'che', 'amor', 'mio', 'per', 'del',
  'Ro', 'Blu', 'dess', 'blast', 'Hand.', 'E\'en', 'Par', 'bei', 'pe', 'do', 're', 'al', 'ver', 'ge', 'ben', 'lo',
];
/** Chance of a plain word under each staff in each measure. */
const PLAIN_WORD_CHANCE = 0.5;
/** Negatives per mark on a page: the engine asks about every word of the text by the staves, lyrics included, and few are pedal marks. */
const NEGATIVES_PER_MARK = 4;
/** Share of negatives that are whole words of the text (the rest are runs of one to four of their letters, or loose pieces of music). */
const WHOLE_WORDS = 0.7;
/** A component belongs to a labelled box when its centre lies within this many spaces of it. */
const BOX_SLACK = 0.15;

/** Puts pedal marks under the last staff, at most one per measure, and plain words under every staff; returns each measure's mark. */
function drawPedals(score: Score, rng: Rng): Map<number, 'start' | 'stop'> {
  const part = score.parts[score.parts.length - 1]!;
  const staff = Math.max(...part.measures.flatMap((m) => m.voices.flatMap((v) => v.events.map((e) => e.staff))), 1);
  const marks = new Map<number, 'start' | 'stop'>();
  let down = false;
  part.measures.forEach((measure, m) => {
    measure.directions = measure.directions.filter((d) => !d.pedal);
    if (!rng.chance(0.75)) return;
    const onsets: Fraction[] = [];
    for (const voice of measure.voices) {
      let t = ZERO;
      for (const e of voice.events) {
        if (!('grace' in e && e.grace)) onsets.push(t);
        t = add(t, e.duration);
      }
    }
    if (!onsets.length) return;
    const pedal = down && rng.chance(0.7) ? 'stop' : !down ? 'start' : rng.chance(0.5) ? 'stop' : 'start';
    down = pedal === 'start';
    measure.directions.push({ offset: rng.pick(onsets), staff, placement: 'below', pedal });
    if (rng.chance(0.3)) measure.directions.push({ offset: rng.pick(onsets), staff, placement: 'below', words: rng.pick(WORDS) });
    if (rng.chance(0.2)) measure.directions.push({ offset: rng.pick(onsets), staff, placement: 'below', dynamics: DYNAMIC_CLASSES[rng.int(1, DYNAMIC_CLASSES.length - 1)]! });
    measure.directions.sort((a, b) => compare(a.offset, b.offset));
    marks.set(m, pedal);
  });
  for (const other of score.parts) {
    other.measures.forEach((measure) => {
      const notes = measure.voices[0]?.events.filter((e) => e.kind === 'note') ?? [];
      if (!notes.length || !rng.chance(PLAIN_WORD_CHANCE)) return;
      measure.directions.push({ offset: ZERO, staff: notes[0]!.staff, placement: 'below', words: rng.pick(PLAIN_WORDS) });
      measure.directions.sort((a, b) => compare(a.offset, b.offset));
    });
  }
  return marks;
}

function samplePage(page: RenderedPage, marks: Map<number, 'start' | 'stop'>, rng: Rng, write: (label: number, cell: Float32Array) => void): void {
  const { prepared, components, toPrepared } = preparedPage(page);
  const slack = CANONICAL_STAFF_SPACE * BOX_SLACK;
  const cell = (own: number[]) => dynamicCell(prepared.gray, components.labels, new Set(own), unionBox(components, own));
  let positives = 0;
  for (const s of page.labels.symbols) {
    if (s.kind !== 'pedal') continue;
    const measure = measureOf(page, s.bbox);
    const mark = measure === undefined ? undefined : marks.get(measure);
    if (!mark) continue;
    const own = componentsIn(components, toPrepared(s.bbox), slack);
    if (!own.length) continue;
    write(PEDAL_CLASSES.indexOf(mark), cell(own));
    positives++;
  }
  // Verovio gives text no boxes: the words are the text-class ink of the page's mask, grouped as the engine groups them.
  const mask = transformLabels({ width: page.mask.width, height: page.mask.height, data: page.mask.data }, prepared.transform);
  const pedalBoxes = page.labels.symbols.filter((s) => s.kind === 'pedal').map((s) => toPrepared(s.bbox));
  const words = textWords(components, mask.data, slack).filter((word) => !pedalBoxes.some((b) => overlaps(unionBox(components, word), b)));
  const others = page.labels.symbols.filter((s) => NEGATIVE_KINDS.has(s.kind));
  const wanted = Math.max(4, Math.round(positives * NEGATIVES_PER_MARK));
  for (let tries = 0, made = 0; made < wanted && tries < wanted * 5 && (others.length || words.length); tries++) {
    if (words.length && (rng.chance(WHOLE_WORDS) || !others.length)) {
      write(0, cell(words[rng.int(0, words.length - 1)]!));
      made++;
      continue;
    }
    const s = others[rng.int(0, others.length - 1)]!;
    const inside = componentsIn(components, toPrepared(s.bbox), slack);
    if (!inside.length) continue;
    const from = rng.int(0, inside.length - 1);
    write(0, cell(inside.slice(from, from + rng.int(1, 4))));
    made++;
  }
}

/**
 * The page's words of text: ink components most of whose pixels the mask calls text, joined left
 * to right where they share rows and stand within {@link WORD_GAP} spaces (`slack` is 0.15 of one).
 */
function textWords(components: InkComponents, mask: Uint8Array, slack: number): number[][] {
  const textClass = CLASS_INDEX.text;
  const text = new Float64Array(components.boxes.length);
  const all = new Float64Array(components.boxes.length);
  components.labels.forEach((label, i) => {
    if (!label) return;
    all[label]!++;
    if (mask[i] === textClass) text[label]!++;
  });
  const glyphs = components.boxes.map((_, label) => label).filter((label) => label > 0 && text[label]! > all[label]! / 2);
  glyphs.sort((a, b) => components.boxes[a]!.x0 - components.boxes[b]!.x0);
  const gap = (WORD_GAP / BOX_SLACK) * slack;
  const words: { labels: number[]; box: CellBox }[] = [];
  for (const label of glyphs) {
    const b = components.boxes[label]!;
    const word = words.find((w) => b.x0 - w.box.x1 < gap && b.x0 >= w.box.x0 && Math.min(b.y1, w.box.y1) - Math.max(b.y0, w.box.y0) > 0.3 * Math.min(b.y1 - b.y0, w.box.y1 - w.box.y0));
    if (word) {
      word.labels.push(label);
      word.box = { x0: word.box.x0, y0: Math.min(word.box.y0, b.y0), x1: Math.max(word.box.x1, b.x1), y1: Math.max(word.box.y1, b.y1) };
    } else words.push({ labels: [label], box: { ...b } });
  }
  return words.map((w) => w.labels);
}

function overlaps(a: CellBox, b: CellBox): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

await exportCells({ defaultOut: '/tmp/pedals/pedals.bin', classes: PEDAL_CLASSES, maxStaves: 3, draw: drawPedals, sample: samplePage });
