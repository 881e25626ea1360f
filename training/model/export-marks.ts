/**
 * Samples for the mark classifier (models/marks.onnx), cut from engraved
 * pages with the engine's own code (page preparation, src/symbols/mark-cells.ts):
 *
 *   npm run data:marks -- --pages 120 --seed 1 --out /tmp/marks/marks.bin
 *
 * Each page is a random score (training/data/random-score.ts, one to four
 * staves) whose notes carry articulations, fermatas, ornaments and bowing
 * (training/data/random-marks.ts), engraved by Verovio in a font and staff
 * size drawn from the seed. Every mark Verovio labels gives a cell centred on
 * its box, and half of them one more centred on an ink pixel inside it (the
 * symbol model may paint a mark in pieces: a fermata's dot, a trill's "t").
 * Negatives ("none") are cells centred on other ink the symbol model might
 * paint as a mark: augmentation dots, text, dynamics, slurs and ties, heads,
 * stems, flags, rests and accidentals, away from every mark. Hard negatives
 * are centred as the engine centres a candidate, on a component: words and
 * their letters, dynamics, tuplet figures, short beams, and tremolo strokes
 * (a share of the notes carry them; Verovio's labels paint them as marks,
 * and unless the model has seen them it reads them as ornaments), and the
 * ends of slurs and ties, which the symbol model paints alone as a mark. The engine asks about
 * components painted as text and dynamics, where a "tr" is painted
 * (src/symbols/marks.ts), so these matter as much as the marks.
 *
 * Output: `count × (1 label byte + MARK_CELL_HEIGHT·MARK_CELL_WIDTH bytes,
 * 0 ink … 255 paper)`, label = index into MARK_CLASSES, with `<out>.json`
 * describing it, read by train_marks.py.
 */
import { exportCells } from './labelled-cells.js';
import { CANONICAL_STAFF_SPACE, preparePage } from '../../src/preparation/prepare-page.js';
import { toPreparedPoint } from '../../src/reading/page-transform.js';
import { CLASS_INDEX } from '../../src/symbols/symbol-classes.js';
import { MARK_CELL_HEIGHT, MARK_CELL_WIDTH, MARK_CLASSES, markCell } from '../../src/symbols/mark-cells.js';
import type { MarkKind } from '../../src/reading/mark-kinds.js';
import type { Box } from '../../src/score/model.js';
import type { Rng } from '../data/prng.js';
import { decorateMarks, decorateTremolos } from '../data/random-marks.js';
import { connectedComponents } from '../../src/image/connected-components.js';
import type { renderPages, SymbolLabel } from '../data/render-pages.js';

/** Verovio's `artic` values → mark kinds. */
const ARTIC: Record<string, MarkKind> = {
  stacc: 'staccato',
  stacciss: 'staccatissimo',
  ten: 'tenuto',
  acc: 'accent',
  marc: 'strong-accent',
  upbow: 'up-bow',
  dnbow: 'down-bow',
};

/** The mark kind of a labelled symbol, if it is one the classifier knows. */
function markOf(s: SymbolLabel): MarkKind | undefined {
  switch (s.kind) {
    case 'artic':
      return ARTIC[s.attrs?.artic ?? ''];
    case 'fermata':
      return 'fermata';
    case 'trill':
      return 'trill-mark';
    case 'mordent':
      return s.attrs?.form === 'upper' ? 'inverted-mordent' : 'mordent';
    case 'turn':
      return s.attrs?.form === 'lower' ? undefined : 'turn';
    default:
      return undefined;
  }
}

/** Mask classes negatives are drawn from, with relative weights. */
const NEGATIVE_CLASSES: readonly (readonly [number[], number])[] = [
  [[CLASS_INDEX.augmentationDot], 3],
  [[CLASS_INDEX.text], 2],
  [[CLASS_INDEX.dynamics], 2],
  [[CLASS_INDEX.tieSlur], 3],
  [[CLASS_INDEX.noteheadBlack, CLASS_INDEX.noteheadHalf, CLASS_INDEX.stem, CLASS_INDEX.flag8, CLASS_INDEX.flag16, CLASS_INDEX.restQuarter, CLASS_INDEX.rest8, CLASS_INDEX.sharp, CLASS_INDEX.flat, CLASS_INDEX.natural, CLASS_INDEX.beam], 2],
];
/** Negatives per mark on a page. */
const NEGATIVES_PER_MARK = 1.2;
/** Mask classes whose components (words joined from their letters) give hard negatives, with relative weights. */
const COMPONENT_NEGATIVE_CLASSES: readonly (readonly [number, number])[] = [
  [CLASS_INDEX.text, 3],
  [CLASS_INDEX.dynamics, 2],
  [CLASS_INDEX.tuplet, 1],
  [CLASS_INDEX.beam, 1],
  // Ink of the mark class away from every labelled mark: tremolo strokes, which Verovio's labels paint as marks.
  [CLASS_INDEX.articulation, 2],
];
/** Hard negatives per mark on a page. */
const COMPONENT_NEGATIVES_PER_MARK = 1.2;
/** Negatives at the ends of slurs and ties per mark on a page: the symbol model paints a slur's end, alone, as a mark. */
const SLUR_END_NEGATIVES_PER_MARK = 0.5;
/** A slur's end is the ink within this many spaces of its first or last column. */
const SLUR_END_REACH = 1.5;
/** The share of notes given tremolo strokes. */
const TREMOLO_SHARE = 0.06;
/** Components of one class closer than this many spaces are one piece (a word's letters, a tremolo's strokes): the symbol model paints them joined. */
const COMPONENT_JOIN = 0.35;
/** A candidate is at most this many spaces wide and tall (src/symbols/marks.ts MARK_MAX_WIDTH, MARK_MAX_HEIGHT). */
const CANDIDATE_MAX_WIDTH = 3.5;
const CANDIDATE_MAX_HEIGHT = 2.5;


function samplePage(page: Awaited<ReturnType<typeof renderPages>>[number], rng: Rng, write: (label: number, cell: Float32Array) => void): void {
  const prepared = preparePage(page.image);
  const t = prepared.transform;
  const toPrepared = (b: Box): Box => {
    const [x0, y0] = toPreparedPoint(t, b.x, b.y);
    const [x1, y1] = toPreparedPoint(t, b.x + b.width, b.y + b.height);
    return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  };
  const marks = page.labels.symbols.flatMap((s) => {
    const kind = markOf(s);
    return kind ? [{ kind, box: toPrepared(s.bbox) }] : [];
  });
  for (const { kind, box } of marks) {
    const label = MARK_CLASSES.indexOf(kind);
    write(label, markCell(prepared.gray, box.x + box.width / 2, box.y + box.height / 2));
    if (rng.chance(0.5)) {
      const inked = inkIn(prepared.ink, box, rng);
      if (inked) write(label, markCell(prepared.gray, inked[0], inked[1]));
    }
  }
  // Negatives: ink of other classes, at least half a space clear of every mark's box.
  const clear = CANONICAL_STAFF_SPACE * 0.5;
  const nearMark = (x: number, y: number) => marks.some(({ box }) => x > box.x - clear && x < box.x + box.width + clear && y > box.y - clear && y < box.y + box.height + clear);
  const mask = page.mask;
  const byClass = new Map<number, number[]>();
  for (let i = 0; i < mask.data.length; i += 3) {
    const k = mask.data[i]!;
    if (k) (byClass.get(k) ?? byClass.set(k, []).get(k)!).push(i);
  }
  const wanted = Math.max(8, Math.round(marks.length * NEGATIVES_PER_MARK));
  for (let tries = 0, made = 0; made < wanted && tries < wanted * 10; tries++) {
    const classes = rng.weighted(NEGATIVE_CLASSES);
    const pool = classes.flatMap((k) => byClass.get(k) ?? []);
    if (!pool.length) continue;
    const i = pool[rng.int(0, pool.length - 1)]!;
    const [x, y] = toPreparedPoint(t, i % mask.width, Math.floor(i / mask.width));
    if (nearMark(x, y)) continue;
    write(0, markCell(prepared.gray, x + rng.range(-2, 2), y + rng.range(-2, 2)));
    made++;
  }
  // Hard negatives: components of the classes the engine also asks about, centred as it centres them.
  const pieces = new Map(COMPONENT_NEGATIVE_CLASSES.map(([k]) => [k, componentBoxes(mask, k, page.labels.staffSpace).map(toPrepared)]));
  const hard = Math.round(marks.length * COMPONENT_NEGATIVES_PER_MARK);
  for (let tries = 0, made = 0; made < hard && tries < hard * 10; tries++) {
    const pool = pieces.get(rng.weighted(COMPONENT_NEGATIVE_CLASSES))!;
    if (!pool.length) continue;
    const box = pool[rng.int(0, pool.length - 1)]!;
    if (box.width > CANONICAL_STAFF_SPACE * CANDIDATE_MAX_WIDTH || box.height > CANONICAL_STAFF_SPACE * CANDIDATE_MAX_HEIGHT) continue;
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    if (nearMark(x, y)) continue;
    write(0, markCell(prepared.gray, x + rng.range(-1.5, 1.5), y + rng.range(-1.5, 1.5)));
    made++;
  }
  const ends = slurEnds(mask, page.labels.staffSpace);
  const endsWanted = Math.round(marks.length * SLUR_END_NEGATIVES_PER_MARK);
  for (let tries = 0, made = 0; ends.length && made < endsWanted && tries < endsWanted * 10; tries++) {
    const i = ends[rng.int(0, ends.length - 1)]!;
    const [x, y] = toPreparedPoint(t, i % mask.width, Math.floor(i / mask.width));
    if (nearMark(x, y)) continue;
    write(0, markCell(prepared.gray, x, y));
    made++;
  }
}

/** The pixels (indices into the mask) of the slur and tie class within SLUR_END_REACH spaces of a component's first or last column. */
function slurEnds(mask: { width: number; height: number; data: Uint8Array }, space: number): number[] {
  const member = new Uint8Array(mask.data.length);
  for (let i = 0; i < member.length; i++) member[i] = mask.data[i] === CLASS_INDEX.tieSlur ? 1 : 0;
  const { boxes, pixelsOf } = connectedComponents(mask.width, mask.height, member);
  const reach = space * SLUR_END_REACH;
  return boxes.flatMap((b, k) => [...pixelsOf(k + 1)].filter((i) => i % mask.width < b.x0 + reach || i % mask.width >= b.x1 - reach));
}

/**
 * The boxes (page pixels) of one mask class's components, each alone and, where several stand within
 * COMPONENT_JOIN spaces of each other, joined (a word from its letters, a tremolo from its strokes).
 */
function componentBoxes(mask: { width: number; height: number; data: Uint8Array }, cls: number, space: number): Box[] {
  const member = new Uint8Array(mask.data.length);
  for (let i = 0; i < member.length; i++) member[i] = mask.data[i] === cls ? 1 : 0;
  const boxes = connectedComponents(mask.width, mask.height, member).boxes.filter((b) => (b.x1 - b.x0) * (b.y1 - b.y0) >= 4);
  const gap = space * COMPONENT_JOIN;
  const joined: { x0: number; y0: number; x1: number; y1: number }[] = [];
  for (const b of [...boxes].sort((p, q) => p.x0 - q.x0)) {
    const host = joined.find((j) => b.x0 <= j.x1 + gap && b.y0 <= j.y1 + gap && b.y1 >= j.y0 - gap);
    if (host) {
      host.x1 = Math.max(host.x1, b.x1);
      host.y0 = Math.min(host.y0, b.y0);
      host.y1 = Math.max(host.y1, b.y1);
    } else joined.push({ ...b });
  }
  const multi = joined.filter((j) => !boxes.some((b) => b.x0 === j.x0 && b.x1 === j.x1 && b.y0 === j.y0 && b.y1 === j.y1));
  return [...boxes, ...multi].map((b) => ({ x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0 }));
}

/** A random ink pixel of the prepared page inside a box, if any. */
function inkIn(ink: { width: number; height: number; data: Uint8Array }, box: Box, rng: Rng): [number, number] | undefined {
  const found: [number, number][] = [];
  for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(ink.height, Math.ceil(box.y + box.height)); y++) {
    for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(ink.width, Math.ceil(box.x + box.width)); x++) if (ink.data[y * ink.width + x]) found.push([x, y]);
  }
  return found.length ? found[rng.int(0, found.length - 1)] : undefined;
}

await exportCells({
  defaultOut: '/tmp/marks/marks.bin',
  defaultPages: 100,
  classes: MARK_CLASSES,
  cellHeight: MARK_CELL_HEIGHT,
  cellWidth: MARK_CELL_WIDTH,
  maxStaves: 4,
  draw: (score, rng) => {
    decorateMarks(score, rng, rng.range(0.3, 0.6));
    decorateTremolos(score, rng, TREMOLO_SHARE);
  },
  sample: (page, _marks, rng, write) => samplePage(page, rng, write),
});
