/**
 * A picture and a short summary of each recognition stage of a page, for
 * `scoresight recognize --debug <dir>`: what the staves, the symbol model,
 * the symbols, the measures and the music reader made of it, drawn over the
 * prepared page. It lets a user see why a measure went wrong, and a
 * developer see it without the benchmark.
 *
 * The first four views need only the page's own stages; the last two need
 * the score the whole job was read into, since voices and pitches are
 * settled across pages.
 */
import { Drawing, paletteColour, textWidth, type Rgb } from '../image/draw.js';
import type { Raster } from '../image/raster.js';
import type { PageStages } from './recognize-page.js';
import { toPreparedPoint } from '../reading/page-transform.js';
import { MAP_SCALE } from '../symbols/components.js';
import type { RestKind } from '../symbols/read-symbols.js';
import { CLASS_INDEX, SYMBOL_CLASSES } from '../symbols/symbol-classes.js';
import { toString as fractionText } from '../score/fraction.js';
import type { Evidence, Pitch, Score, VoiceEvent } from '../score/model.js';

/** The stages drawn, in pipeline order, with what each picture shows. */
export const STAGE_VIEWS = [
  { name: 'staves', shows: 'staff lines found, coloured by system' },
  { name: 'class-map', shows: "the symbol model's class of every pixel, coloured by class, with a legend" },
  { name: 'symbols', shows: 'symbols read from the class map, boxed by kind' },
  { name: 'measures', shows: 'measure bounds per system, numbered, and barline styles' },
  { name: 'voices', shows: 'notes and rests coloured by voice' },
  { name: 'notes', shows: 'the final notes: pitch over each head, colour by duration; doubtful measures shaded red' },
] as const;

export type StageName = (typeof STAGE_VIEWS)[number]['name'];

export interface StageView {
  stage: StageName;
  image: Raster;
  /** What the stage found, in numbers a person can compare with the picture. */
  summary: Record<string, unknown>;
}

/** A measure read with less mean confidence than this is shaded as doubtful in the notes view. */
const DOUBTFUL_MEASURE = 0.5;
/** Font pixel size of labels, in prepared pixels (the canonical staff space is 12). */
const LABEL_SCALE = 2;

const RED: Rgb = [220, 30, 30];
const BLUE: Rgb = [30, 80, 220];
const GREEN: Rgb = [20, 150, 60];
const ORANGE: Rgb = [230, 120, 0];
const PURPLE: Rgb = [140, 40, 180];
const GREY: Rgb = [110, 110, 110];
const LINE_GREY: Rgb = [150, 170, 190];

/** The views that need the page alone: staves, class map, symbols, measures. */
export function pageViews(stages: PageStages): StageView[] {
  return [stavesView(stages), classMapView(stages), symbolsView(stages), measuresView(stages)];
}

/** The views of the music read on this page, once the whole score is read: voices and notes. */
export function scoreViews(stages: PageStages, score: Score): StageView[] {
  return [voicesView(stages, score), notesView(stages, score)];
}

function stavesView(stages: PageStages): StageView {
  const d = new Drawing(stages.gray);
  stages.systems.forEach((system, s) => {
    const colour = paletteColour(s);
    for (const index of system.staves) {
      const staff = stages.staves[index]!;
      for (const line of staff.lines) {
        for (let k = 1; k < staff.xs.length; k++) d.line(staff.xs[k - 1]!, line[k - 1]!, staff.xs[k]!, line[k]!, colour);
      }
      d.text(Math.max(0, staff.x0 - textWidth(`S${s + 1}`, LABEL_SCALE) - 6), staff.lines[0]![0]! - 12, `S${s + 1}`, colour, LABEL_SCALE);
    }
  });
  return {
    stage: 'staves',
    image: d.toRaster(),
    summary: {
      page: stages.page + 1,
      turnedDegrees: stages.turned,
      skewDegrees: round(stages.transform.skew),
      preparedScale: round(stages.transform.scale),
      staves: stages.staves.length,
      systems: stages.systems.map((system) => ({ staves: system.staves.map((i) => i + 1) })),
    },
  };
}

function classMapView(stages: PageStages): StageView {
  const d = new Drawing(stages.gray);
  const { map } = stages;
  const counts = new Array<number>(SYMBOL_CLASSES.length).fill(0);
  const sure = new Array<number>(SYMBOL_CLASSES.length).fill(0);
  for (let i = 0; i < map.data.length; i++) {
    const cls = map.data[i]!;
    counts[cls]!++;
    sure[cls]! += map.confidence[i]! / 255;
    if (cls === 0) continue;
    // Staff and ledger lines in one quiet colour, so the symbols' colours stand out.
    const colour = cls === CLASS_INDEX.staffLine || cls === CLASS_INDEX.ledgerLine ? LINE_GREY : paletteColour(cls);
    const x = (i % map.width) * MAP_SCALE;
    const y = Math.floor(i / map.width) * MAP_SCALE;
    d.fill(x, y, x + MAP_SCALE - 1, y + MAP_SCALE - 1, colour, 0.35 + 0.55 * (map.confidence[i]! / 255));
  }
  // The legend: every class found, in its colour.
  let y = 8;
  SYMBOL_CLASSES.forEach((name, cls) => {
    if (cls === 0 || !counts[cls]) return;
    const colour = cls === CLASS_INDEX.staffLine || cls === CLASS_INDEX.ledgerLine ? LINE_GREY : paletteColour(cls);
    d.fill(8, y, 8 + 10, y + 9, colour);
    d.text(24, y, name.toUpperCase(), colour, LABEL_SCALE);
    y += 14;
  });
  const classes = Object.fromEntries(
    SYMBOL_CLASSES.flatMap((name, cls) => (counts[cls] ? [[name, { pixels: counts[cls], meanConfidence: round(sure[cls]! / counts[cls]!) }]] : [])),
  );
  return { stage: 'class-map', image: d.toRaster(), summary: { page: stages.page + 1, mapScale: MAP_SCALE, classes } };
}

function symbolsView(stages: PageStages): StageView {
  const d = new Drawing(stages.gray);
  const s = stages.symbols;
  const families: [string, readonly { x0: number; y0: number; x1: number; y1: number }[], Rgb][] = [
    ['heads', s.heads, BLUE],
    ['stems', s.stems, GREY],
    ['flags', s.flags, ORANGE],
    ['rests', s.rests, GREEN],
    ['dots', s.dots, GREY],
    ['accidentals', s.accidentals, PURPLE],
    ['clefs', s.clefs, RED],
    ['time', s.time, RED],
    ['barlines', s.barlines, ORANGE],
    ['tuplets', s.tuplets, PURPLE],
    ['repeatDots', s.repeatDots, RED],
    ['curves', s.curves, GREEN],
    ['articulations', s.articulations, PURPLE],
    ['hairpins', s.hairpins, ORANGE],
    ['braces', s.braces, GREY],
  ];
  for (const [, boxes, colour] of families) for (const b of boxes) d.box(b.x0, b.y0, b.x1, b.y1, colour);
  for (const head of s.heads) d.text(head.x1 + 2, head.y - 5, head.kind[0]!, BLUE, LABEL_SCALE);
  for (const rest of s.rests) d.text(rest.x1 + 2, rest.y0, REST_LABEL[rest.kind], GREEN, LABEL_SCALE);
  for (const mark of s.articulations) d.text(mark.x1 + 2, mark.y0, mark.kind.slice(0, 3), PURPLE, LABEL_SCALE);
  return {
    stage: 'symbols',
    image: d.toRaster(),
    summary: {
      page: stages.page + 1,
      counts: Object.fromEntries(families.map(([name, boxes]) => [name, boxes.length])),
      heads: byKind(s.heads, (h) => h.kind),
      rests: byKind(s.rests, (r) => r.kind),
      accidentals: byKind(s.accidentals, (a) => a.kind),
      clefs: byKind(s.clefs, (c) => c.kind),
      articulations: byKind(s.articulations, (a) => a.kind),
      hairpins: byKind(s.hairpins, (h) => h.kind),
    },
  };
}

/** How many of a list's members there are of each kind. */
function byKind<T>(list: readonly T[], kind: (t: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const t of list) counts[kind(t)] = (counts[kind(t)] ?? 0) + 1;
  return counts;
}

/** A rest's label in the symbols view: its value as a musician abbreviates it. */
const REST_LABEL: Record<RestKind, string> = { whole: 'W', half: 'H', quarter: 'Q', eighth: '8', '16th': '16', '32nd': '32', '64th': '64', multi: 'M' };

function measuresView(stages: PageStages): StageView {
  const d = new Drawing(stages.gray);
  const systems = stages.readings.map((reading, s) => {
    const top = Math.min(...reading.staves.map((r) => Math.min(...r.staff.lines[0]!)));
    const bottom = Math.max(...reading.staves.map((r) => Math.max(...r.staff.lines[4]!)));
    const colour = paletteColour(s);
    const { bounds, left, right } = reading.measures;
    bounds.forEach((x) => d.line(x, top - 8, x, bottom + 8, colour));
    // Endings as brackets over the system, from the first measure's start to the last one's end.
    for (const e of reading.endings) {
      const [x0, x1, y] = [bounds[e.first]! + 2, bounds[e.last + 1]! - 2, top - 30];
      d.line(x0, y, x1, y, RED);
      d.line(x0, y, x0, y + 10, RED);
      if (e.closed) d.line(x1, y, x1, y + 10, RED);
      d.text(x0 + 4, y + 2, 'VOLTA', RED, LABEL_SCALE);
    }
    for (let m = 0; m + 1 < bounds.length; m++) {
      d.text(bounds[m]! + 4, top - 22, String(m + 1), colour, LABEL_SCALE);
      const style = right[m] && describeBarline(right[m]!);
      if (style) d.text(bounds[m + 1]! - textWidth(style, LABEL_SCALE) - 2, bottom + 12, style, RED, LABEL_SCALE);
      const opening = left[m] && describeBarline(left[m]!);
      if (opening) d.text(bounds[m]! + 2, bottom + 12, opening, RED, LABEL_SCALE);
    }
    return {
      system: s + 1,
      measures: Math.max(0, bounds.length - 1),
      widthsInSpaces: bounds.slice(1).map((x, m) => round((x - bounds[m]!) / reading.space)),
      barlines: right.flatMap((b, m) => (b ? [{ measure: m + 1, side: 'right', ...b }] : [])).concat(left.flatMap((b, m) => (b ? [{ measure: m + 1, side: 'left', ...b }] : []))),
      endings: reading.endings.map((e) => ({ measures: [e.first + 1, e.last + 1], closed: e.closed })),
    };
  });
  return { stage: 'measures', image: d.toRaster(), summary: { page: stages.page + 1, systems } };
}

/** A barline worth a label: a repeat (which way it faces), or a style other than a plain line. */
function describeBarline(b: { style: string; repeat?: { direction: string } }): string {
  if (b.repeat) return b.repeat.direction === 'forward' ? 'REP>' : '<REP';
  return b.style === 'regular' ? '' : b.style.toUpperCase();
}

/** Every event of the score recognised on this page, with the part, measure, voice and staff it went to. */
function eventsOnPage(score: Score, page: number) {
  return score.parts.flatMap((part, p) =>
    part.measures.flatMap((measure, m) =>
      measure.voices.flatMap((voice) => voice.events.filter((e) => e.evidence?.page === page).map((event) => ({ part: p, measure: m, number: measure.number, voice: voice.id, event }))),
    ),
  );
}

/** An evidence box (decoded-page pixels) in the prepared page's pixels. */
function preparedBox(stages: PageStages, e: Evidence): { x0: number; y0: number; x1: number; y1: number } {
  const corners = [
    toPreparedPoint(stages.transform, e.box.x, e.box.y),
    toPreparedPoint(stages.transform, e.box.x + e.box.width, e.box.y + e.box.height),
    toPreparedPoint(stages.transform, e.box.x + e.box.width, e.box.y),
    toPreparedPoint(stages.transform, e.box.x, e.box.y + e.box.height),
  ];
  return { x0: Math.min(...corners.map((c) => c[0])), y0: Math.min(...corners.map((c) => c[1])), x1: Math.max(...corners.map((c) => c[0])), y1: Math.max(...corners.map((c) => c[1])) };
}

function voicesView(stages: PageStages, score: Score): StageView {
  const d = new Drawing(stages.gray);
  const events = eventsOnPage(score, stages.page);
  const counts: Record<string, number> = {};
  for (const { voice, event } of events) {
    const colour = paletteColour(Number(voice) || 0);
    drawEvent(d, stages, event, colour);
    counts[voice] = (counts[voice] ?? 0) + 1;
  }
  return { stage: 'voices', image: d.toRaster(), summary: { page: stages.page + 1, eventsPerVoice: counts } };
}

function notesView(stages: PageStages, score: Score): StageView {
  const d = new Drawing(stages.gray);
  const doubtful: { part: number; measure: string; confidence: number }[] = [];
  score.parts.forEach((part, p) =>
    part.measures.forEach((measure) => {
      const e = measure.evidence;
      if (!e || e.page !== stages.page || e.confidence >= DOUBTFUL_MEASURE) return;
      const b = preparedBox(stages, e);
      d.fill(b.x0, b.y0, b.x1, b.y1, RED, 0.12);
      doubtful.push({ part: p + 1, measure: measure.number, confidence: round(e.confidence) });
    }),
  );
  const events = eventsOnPage(score, stages.page);
  for (const { event } of events) {
    const colour = paletteColour(DURATION_ORDER.indexOf(event.type ?? 'whole') + 1);
    drawEvent(d, stages, event, colour);
    if (event.kind === 'note') {
      for (const note of event.notes) {
        if (!note.evidence) continue;
        const b = preparedBox(stages, note.evidence);
        d.text(b.x1 + 2, (b.y0 + b.y1) / 2 - 5, pitchName(note.pitch), colour, LABEL_SCALE);
      }
    }
  }
  const measures = new Map<string, string[]>();
  for (const { part, number, voice, event } of events) {
    const key = `part ${part + 1} m. ${number} voice ${voice}`;
    measures.set(key, [...(measures.get(key) ?? []), describeEvent(event)]);
  }
  return { stage: 'notes', image: d.toRaster(), summary: { page: stages.page + 1, doubtfulMeasures: doubtful, measures: Object.fromEntries(measures) } };
}

function drawEvent(d: Drawing, stages: PageStages, event: VoiceEvent, colour: Rgb): void {
  const boxes = event.kind === 'note' ? event.notes.flatMap((n) => (n.evidence ? [n.evidence] : [])) : event.evidence ? [event.evidence] : [];
  for (const e of boxes) {
    const b = preparedBox(stages, e);
    d.box(b.x0, b.y0, b.x1, b.y1, colour, 2);
  }
}

const DURATION_ORDER = ['whole', 'half', 'quarter', 'eighth', '16th', '32nd', '64th'];

function pitchName(p: Pitch): string {
  const alter = p.alter > 0 ? '#'.repeat(p.alter) : p.alter < 0 ? 'b'.repeat(-p.alter) : '';
  return `${p.step}${alter}${p.octave}`;
}

/** An event as a musician would say it: pitches (or a rest), its duration in quarters. */
function describeEvent(event: VoiceEvent): string {
  const what = event.kind === 'note' ? event.notes.map((n) => pitchName(n.pitch)).join('+') : 'rest';
  return `${what} ${fractionText(event.duration)}${event.tuplet ? ` (${event.tuplet.actual}:${event.tuplet.normal})` : ''}`;
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
