/**
 * Score model → MusicXML 4.0 partwise, valid against the official XSD.
 *
 * Element order follows the schema's sequences exactly (the tests validate
 * every written file with xmllint). Each voice is written as one pass through
 * the measure, separated by `<backup>`; directions and mid-measure clef
 * changes are slotted in at their offsets with `<backup>`/`<forward>` as
 * needed. `<divisions>` are derived per measure from the exact durations.
 */
import { add, compare, lcm, sub, ZERO, type Fraction } from '../score/fraction.js';
import { instrumentById } from '../score/instruments.js';
import type { Direction, Measure, NoteEvent, Part, PartGroup, Score, VoiceEvent } from '../score/model.js';
import { LIBRARY_VERSION } from '../version.js';
import { writeXmlDocument, XmlNode } from './xml-writer.js';

export interface MusicXmlWriteOptions {
  /** Version of the recognition model that read the pages; omitted for scores that were not recognised. */
  modelVersion?: string;
  /** `<encoding-date>`, YYYY-MM-DD; today by default. */
  encodingDate?: string;
}

export const MUSICXML_CONTENT_TYPE = 'application/vnd.recordare.musicxml+xml';

const NOTEHEADS = new Set([
  'slash', 'triangle', 'diamond', 'square', 'cross', 'x', 'circle-x', 'inverted triangle', 'arrow down', 'arrow up',
  'circled', 'slashed', 'back slashed', 'cluster', 'circle dot', 'left triangle', 'rectangle', 'none',
  'do', 're', 'mi', 'fa', 'fa up', 'so', 'la', 'ti', 'other',
]);
const DYNAMICS = new Set([
  'p', 'pp', 'ppp', 'pppp', 'ppppp', 'pppppp', 'f', 'ff', 'fff', 'ffff', 'fffff', 'ffffff', 'mp', 'mf', 'sf', 'sfp',
  'sfpp', 'fp', 'rf', 'rfz', 'sfz', 'sffz', 'fz', 'n', 'pf', 'sfzp',
]);

/** Element names the model keeps in `ornaments` and the schema allows inside `<ornaments>`. */
const ORNAMENTS = new Set([
  'trill-mark', 'mordent', 'inverted-mordent', 'turn', 'inverted-turn', 'delayed-turn', 'delayed-inverted-turn',
  'vertical-turn', 'inverted-vertical-turn', 'shake', 'schleifer', 'haydn',
]);

/** Element names the model keeps in `technical` and the schema allows, empty, inside `<technical>`. */
const TECHNICAL = new Set(['up-bow', 'down-bow', 'harmonic', 'open-string', 'thumb-position', 'snap-pizzicato', 'stopped']);

/** Page geometry written to `<defaults>`: A4 at 7.0556 mm per 40 tenths (a 7 mm staff). */
const MM_PER_40_TENTHS = 7.0556;
const PAGE_HEIGHT = 1684;
const PAGE_WIDTH = 1190;
const MARGIN = 80;

/** The DOCTYPE that names the MusicXML 4.0 partwise DTD, which readers such as MuseScore and Finale look for. */
const PARTWISE_DOCTYPE = {
  name: 'score-partwise',
  publicId: '-//Recordare//DTD MusicXML 4.0 Partwise//EN',
  systemId: 'http://www.musicxml.org/dtds/partwise.dtd',
};

export function writeMusicXml(score: Score, options: MusicXmlWriteOptions = {}): string {
  const root = new XmlNode('score-partwise', { version: '4.0' });
  writeHeader(root, score, options);
  const ids = partIds(score.parts);
  writePartList(root.ele('part-list'), score, ids);
  score.parts.forEach((part, i) => writePart(root.ele('part', { id: ids[i] }), part));
  return writeXmlDocument(root, PARTWISE_DOCTYPE);
}

function writeHeader(root: XmlNode, score: Score, options: MusicXmlWriteOptions): void {
  const { credits } = score;
  if (credits.title) root.ele('work').ele('work-title').txt(credits.title);
  const ident = root.ele('identification');
  for (const type of ['composer', 'lyricist', 'arranger'] as const) {
    const name = credits[type];
    if (name) ident.ele('creator', { type }).txt(name);
  }
  if (credits.rights) ident.ele('rights').txt(credits.rights);
  const encoding = ident.ele('encoding');
  encoding.ele('software').txt(`ScoreSight ${LIBRARY_VERSION}`);
  if (options.modelVersion) encoding.ele('software').txt(`ScoreSight recognition model ${options.modelVersion}`);
  encoding.ele('encoding-date').txt(options.encodingDate ?? new Date().toISOString().slice(0, 10));
  for (const element of ['accidental', 'beam', 'stem']) encoding.ele('supports', { element, type: 'yes' });
  for (const attribute of ['new-system', 'new-page']) {
    encoding.ele('supports', { element: 'print', attribute, type: 'yes', value: 'yes' });
  }

  const defaults = root.ele('defaults');
  const scaling = defaults.ele('scaling');
  scaling.ele('millimeters').txt(String(MM_PER_40_TENTHS));
  scaling.ele('tenths').txt('40');
  const layout = defaults.ele('page-layout');
  layout.ele('page-height').txt(String(PAGE_HEIGHT));
  layout.ele('page-width').txt(String(PAGE_WIDTH));
  const margins = layout.ele('page-margins', { type: 'both' });
  for (const side of ['left', 'right', 'top', 'bottom']) margins.ele(`${side}-margin`).txt(String(MARGIN));

  // Credits place the title block on page 1 the way engravers do, so viewers show it.
  const credit = (type: string, text: string | undefined, x: number, y: number, justify: string, size: number) => {
    if (!text) return;
    const c = root.ele('credit', { page: '1' });
    c.ele('credit-type').txt(type);
    c.ele('credit-words', { 'default-x': String(x), 'default-y': String(y), justify, valign: 'top', 'font-size': String(size) }).txt(text);
  };
  const top = PAGE_HEIGHT - MARGIN;
  credit('title', credits.title, PAGE_WIDTH / 2, top, 'center', 22);
  credit('subtitle', credits.subtitle, PAGE_WIDTH / 2, top - 60, 'center', 14);
  credit('composer', credits.composer, PAGE_WIDTH - MARGIN, top - 110, 'right', 10);
  credit('lyricist', credits.lyricist, MARGIN, top - 110, 'left', 10);
}

/** Part ids must be unique XML names; the model's ids are kept when they are. */
function partIds(parts: Part[]): string[] {
  const seen = new Set<string>();
  return parts.map((p, i) => {
    const id = /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(p.id) && !seen.has(p.id) ? p.id : `P${i + 1}`;
    seen.add(id);
    return id;
  });
}

function writePartList(list: XmlNode, score: Score, ids: string[]): void {
  const groups = score.partGroups.map((g, i) => ({ ...g, number: String(i + 1) }));
  let channel = 0;
  score.parts.forEach((part, i) => {
    // Outer groups open first and close last, so nesting stays well-formed.
    groups
      .filter((g) => g.first === i)
      .sort((a, b) => b.last - a.last)
      .forEach((g) => writeGroup(list, g, 'start'));
    const id = ids[i]!;
    const sp = list.ele('score-part', { id });
    sp.ele('part-name').txt(part.name);
    if (part.abbreviation) sp.ele('part-abbreviation').txt(part.abbreviation);
    const instrument = instrumentById(part.instrumentId);
    const si = sp.ele('score-instrument', { id: `${id}-I1` });
    si.ele('instrument-name').txt(instrument?.name ?? (part.name || 'Instrument'));
    si.ele('instrument-sound').txt(part.instrumentId);
    const midi = sp.ele('midi-instrument', { id: `${id}-I1` });
    if (part.percussion) {
      midi.ele('midi-channel').txt('10');
    } else {
      channel = channel % 15 + 1;
      midi.ele('midi-channel').txt(String(channel >= 10 ? channel + 1 : channel));
    }
    midi.ele('midi-program').txt(String(part.midiProgram + 1));
    groups
      .filter((g) => g.last === i)
      .sort((a, b) => a.first - b.first)
      .reverse()
      .forEach((g) => writeGroup(list, g, 'stop'));
  });
}

function writeGroup(list: XmlNode, group: PartGroup & { number: string }, type: 'start' | 'stop'): void {
  const el = list.ele('part-group', { type, number: group.number });
  if (type === 'stop') return;
  if (group.name) el.ele('group-name').txt(group.name);
  el.ele('group-symbol').txt(group.symbol);
  el.ele('group-barline').txt(group.barlinesConnected ? 'yes' : 'no');
}

function writePart(el: XmlNode, part: Part): void {
  let divisions = 0;
  part.measures.forEach((measure, index) => {
    const needed = measureDivisions(measure);
    const declared = measure.divisions;
    const chosen =
      declared && declared % needed === 0 ? declared : divisions && divisions % needed === 0 ? divisions : lcm(divisions || 1, needed);
    const m = el.ele('measure', { number: measure.number || String(index + 1), ...(measure.implicit && { implicit: 'yes' }) });
    if (index > 0 && (measure.systemBreak || measure.pageBreak)) {
      m.ele('print', { ...(measure.systemBreak && { 'new-system': 'yes' }), ...(measure.pageBreak && { 'new-page': 'yes' }) });
    }
    if (measure.leftBarline) writeBarline(m, measure.leftBarline, 'left');
    writeStartAttributes(m, part, measure, index === 0, chosen !== divisions ? chosen : undefined);
    divisions = chosen;
    writeMeasureContent(m, part, measure, divisions);
    if (measure.rightBarline) writeBarline(m, measure.rightBarline, 'right');
  });
}

/** The smallest `<divisions>` that expresses every duration and offset of the measure exactly. */
function measureDivisions(measure: Measure): number {
  let d = 1;
  for (const v of measure.voices) for (const e of v.events) d = lcm(d, e.duration.d);
  for (const dir of measure.directions) d = lcm(d, dir.offset.d);
  for (const c of measure.clefs) d = lcm(d, c.offset.d);
  return d;
}

function writeStartAttributes(m: XmlNode, part: Part, measure: Measure, first: boolean, divisions: number | undefined): void {
  const clefs = measure.clefs.filter((c) => compare(c.offset, ZERO) === 0);
  const any = divisions !== undefined || measure.key || measure.time || clefs.length || measure.multiRest || (first && (part.staves > 1 || part.transposition));
  if (!any) return;
  const a = m.ele('attributes');
  if (divisions !== undefined) a.ele('divisions').txt(String(divisions));
  if (measure.key) {
    const k = a.ele('key', measure.key.staff ? { number: String(measure.key.staff) } : {});
    k.ele('fifths').txt(String(measure.key.fifths));
    if (measure.key.mode) k.ele('mode').txt(measure.key.mode);
  }
  if (measure.time) {
    const t = measure.time;
    const el = a.ele('time', { ...(t.symbol && { symbol: t.symbol }), ...(t.staff && { number: String(t.staff) }) });
    el.ele('beats').txt(t.beatsText ?? String(t.beats));
    el.ele('beat-type').txt(String(t.beatType));
  }
  if (first && part.staves > 1) a.ele('staves').txt(String(part.staves));
  for (const c of clefs) writeClef(a, part, c);
  if (first && part.transposition) {
    const t = a.ele('transpose');
    t.ele('diatonic').txt(String(part.transposition.diatonic));
    t.ele('chromatic').txt(String(part.transposition.chromatic));
    if (part.transposition.octaveChange) t.ele('octave-change').txt(String(part.transposition.octaveChange));
  }
  if (measure.multiRest) a.ele('measure-style').ele('multiple-rest').txt(String(measure.multiRest));
}

function writeClef(a: XmlNode, part: Part, clef: Measure['clefs'][number]): void {
  const el = a.ele('clef', part.staves > 1 ? { number: String(clef.staff) } : {});
  el.ele('sign').txt(clef.sign);
  el.ele('line').txt(String(clef.line));
  if (clef.octaveChange) el.ele('clef-octave-change').txt(String(clef.octaveChange));
}

function writeBarline(m: XmlNode, barline: NonNullable<Measure['rightBarline']>, location: 'left' | 'right'): void {
  const el = m.ele('barline', { location });
  el.ele('bar-style').txt(barline.style);
  if (barline.ending) {
    const { number, type, text } = barline.ending;
    const e = el.ele('ending', { number, type });
    if (text) e.txt(text);
  }
  if (barline.repeat) {
    el.ele('repeat', { direction: barline.repeat.direction, ...(barline.repeat.times && { times: String(barline.repeat.times) }) });
  }
}

/** Things that happen at a point in the measure rather than in a voice. */
type PointItem = { offset: Fraction; write: (m: XmlNode) => void };

function writeMeasureContent(m: XmlNode, part: Part, measure: Measure, divisions: number): void {
  const ticks = (f: Fraction) => (f.n * divisions) / f.d;
  const points: PointItem[] = [
    ...measure.directions.map((d) => ({ offset: d.offset, write: (el: XmlNode) => writeDirection(el, part, d) })),
    ...measure.clefs
      .filter((c) => compare(c.offset, ZERO) > 0)
      .map((c) => ({ offset: c.offset, write: (el: XmlNode) => writeClef(el.ele('attributes'), part, c) })),
  ].sort((a, b) => compare(a.offset, b.offset));

  let pos = ZERO;
  const moveTo = (t: Fraction) => {
    const delta = sub(t, pos);
    if (delta.n > 0) m.ele('forward').ele('duration').txt(String(ticks(delta)));
    else if (delta.n < 0) m.ele('backup').ele('duration').txt(String(-ticks(delta)));
    pos = t;
  };
  let next = 0;
  const flushPoints = (upTo: Fraction | undefined) => {
    while (next < points.length && (!upTo || compare(points[next]!.offset, upTo) <= 0)) {
      moveTo(points[next]!.offset);
      points[next]!.write(m);
      next++;
    }
  };

  measure.voices.forEach((voice, vi) => {
    moveTo(ZERO);
    for (const event of voice.events) {
      if (vi === 0) {
        const start = pos;
        flushPoints(start);
        moveTo(start);
      }
      writeEvent(m, part, voice.id, event, ticks);
      pos = add(pos, event.duration);
    }
  });
  flushPoints(undefined);
}

function writeEvent(m: XmlNode, part: Part, voice: string, event: VoiceEvent, ticks: (f: Fraction) => number): void {
  const staff = part.staves > 1 ? String(event.staff) : undefined;
  // A hidden rest with a notated type was an invisible rest in the source; without one it is a gap.
  if (event.kind === 'rest' && event.hidden && !event.type) {
    if (event.duration.n === 0) return;
    const f = m.ele('forward');
    f.ele('duration').txt(String(ticks(event.duration)));
    f.ele('voice').txt(voice);
    if (staff) f.ele('staff').txt(staff);
    return;
  }
  if (event.kind === 'rest') {
    const n = m.ele('note', event.hidden ? { 'print-object': 'no' } : {});
    const rest = n.ele('rest', event.measureRest ? { measure: 'yes' } : {});
    if (event.displayStep && event.displayOctave !== undefined) {
      rest.ele('display-step').txt(event.displayStep);
      rest.ele('display-octave').txt(String(event.displayOctave));
    }
    n.ele('duration').txt(String(ticks(event.duration)));
    n.ele('voice').txt(voice);
    writeNotation(n, event, staff);
    if (event.tuplet?.start || event.tuplet?.stop) writeTupletMarks(n.ele('notations'), event);
    return;
  }
  event.notes.forEach((note, i) => {
    const n = m.ele('note');
    const cueOnly = !!event.cue;
    if (event.grace) n.ele('grace', event.grace.slash ? { slash: 'yes' } : {});
    if (cueOnly) n.ele('cue');
    if (i > 0) n.ele('chord');
    if (note.unpitched) {
      const u = n.ele('unpitched');
      u.ele('display-step').txt(note.pitch.step);
      u.ele('display-octave').txt(String(note.pitch.octave));
    } else {
      const p = n.ele('pitch');
      p.ele('step').txt(note.pitch.step);
      if (note.pitch.alter) p.ele('alter').txt(String(note.pitch.alter));
      p.ele('octave').txt(String(note.pitch.octave));
    }
    if (!event.grace) n.ele('duration').txt(String(ticks(event.duration)));
    // The schema allows <tie> only on ordinary and grace notes, not cue notes; <tied> below carries it for all.
    if (!cueOnly) {
      if (note.tieStop) n.ele('tie', { type: 'stop' });
      if (note.tieStart) n.ele('tie', { type: 'start' });
    }
    n.ele('voice').txt(voice);
    writeNotation(n, event, staff, note);
    const first = i === 0;
    if (first) event.beams?.forEach((value, level) => n.ele('beam', { number: String(level + 1) }).txt(value));
    const articulations = first ? (event.articulations ?? []) : [];
    const hasTuplet = first && (event.tuplet?.start || event.tuplet?.stop);
    const slurs = first ? (event.slurs ?? []) : [];
    const ornaments = first ? (event.ornaments ?? []).filter((o) => ORNAMENTS.has(o)) : [];
    const technical = first ? (event.technical ?? []).filter((t) => TECHNICAL.has(t)) : [];
    const wavyLine = first ? event.wavyLine : undefined;
    const tremolo = first && event.tremolo && Number.isInteger(event.tremolo.marks) && event.tremolo.marks >= 0 && event.tremolo.marks <= 8 ? event.tremolo : undefined;
    const hasOrnaments = ornaments.length > 0 || wavyLine !== undefined || tremolo !== undefined;
    // An arpeggio spans the chord: every head carries it, as engravers write it.
    if (note.tieStart || note.tieStop || hasTuplet || articulations.length || slurs.length || hasOrnaments || technical.length || event.arpeggiate) {
      const notations = n.ele('notations');
      if (note.tieStop) notations.ele('tied', { type: 'stop' });
      if (note.tieStart) notations.ele('tied', { type: 'start' });
      for (const slur of slurs) {
        notations.ele('slur', { type: slur.type, number: String(numberLevel(slur.number)), ...(slur.placement && { placement: slur.placement }) });
      }
      if (hasTuplet) writeTupletMarks(notations, event);
      if (hasOrnaments) {
        const orn = notations.ele('ornaments');
        for (const o of ornaments) orn.ele(o);
        if (wavyLine) orn.ele('wavy-line', { type: wavyLine, number: '1' });
        if (tremolo) orn.ele('tremolo', { type: tremolo.type }).txt(String(tremolo.marks));
      }
      if (technical.length) {
        const tech = notations.ele('technical');
        for (const t of technical) tech.ele(t);
      }
      const marks = articulations.filter((a) => a !== 'fermata');
      if (marks.length) {
        const arts = notations.ele('articulations');
        for (const a of marks) arts.ele(a);
      }
      if (articulations.includes('fermata')) notations.ele('fermata', { type: 'upright' });
      if (event.arpeggiate) notations.ele('arpeggiate');
    }
    if (first) writeLyrics(n, event);
  });
}

/** type, dots, accidental, time-modification, stem, notehead, staff — in schema order. */
function writeNotation(n: XmlNode, event: VoiceEvent, staff: string | undefined, note?: NoteEvent['notes'][number]): void {
  if (event.type) n.ele('type').txt(event.type);
  for (let d = 0; d < event.dots; d++) n.ele('dot');
  if (note?.accidental) {
    const { sign, cautionary, parentheses } = note.accidental;
    n.ele('accidental', { ...(cautionary && { cautionary: 'yes' }), ...(parentheses && { parentheses: 'yes' }) }).txt(sign);
  }
  if (event.tuplet) {
    const tm = n.ele('time-modification');
    tm.ele('actual-notes').txt(String(event.tuplet.actual));
    tm.ele('normal-notes').txt(String(event.tuplet.normal));
    if (event.tuplet.normalType) tm.ele('normal-type').txt(event.tuplet.normalType);
  }
  if (event.kind === 'note' && event.stem) n.ele('stem').txt(event.stem);
  if (note?.notehead && NOTEHEADS.has(note.notehead)) n.ele('notehead').txt(note.notehead);
  if (staff) n.ele('staff').txt(staff);
}

/** The tuplet's start and stop; one the page leaves implied is written so that it stays unprinted. */
function writeTupletMarks(notations: XmlNode, event: VoiceEvent): void {
  const unprinted = event.tuplet?.implied ? { bracket: 'no', 'show-number': 'none' } : {};
  if (event.tuplet?.start) notations.ele('tuplet', { type: 'start', ...unprinted });
  if (event.tuplet?.stop) notations.ele('tuplet', { type: 'stop', ...unprinted });
}

function writeLyrics(n: XmlNode, event: NoteEvent): void {
  for (const lyric of event.lyrics) {
    const l = n.ele('lyric', { number: String(lyric.verse) });
    l.ele('syllabic').txt(lyric.syllabic);
    lyric.text.split('\u203f').forEach((text, i) => {
      if (i > 0) l.ele('elision').txt('\u203f');
      l.ele('text').txt(text);
    });
    if (lyric.extend) l.ele('extend');
  }
}

/**
 * Direction types in the order they read: rehearsal mark and segno/coda
 * first, then the text; a hairpin that ends here before the dynamic that
 * ends it, one that starts here after the dynamic it starts from; the pedal last.
 */
function writeDirection(m: XmlNode, part: Part, dir: Direction): void {
  const visible =
    dir.words !== undefined || dir.dynamics !== undefined || dir.metronome !== undefined ||
    dir.wedge !== undefined || dir.pedal !== undefined || dir.rehearsal !== undefined || dir.sign !== undefined ||
    dir.octaveShift !== undefined;
  const sound = soundOf(dir);
  if (!visible) {
    if (sound) m.ele('sound', sound);
    return;
  }
  const d = m.ele('direction', dir.placement ? { placement: dir.placement } : {});
  if (dir.rehearsal !== undefined) d.ele('direction-type').ele('rehearsal').txt(dir.rehearsal);
  if (dir.sign) d.ele('direction-type').ele(dir.sign);
  const wedge = dir.wedge && { type: dir.wedge.type, number: String(numberLevel(dir.wedge.number)) };
  const wedgeEnds = wedge && (wedge.type === 'stop' || wedge.type === 'continue');
  if (wedge && wedgeEnds) d.ele('direction-type').ele('wedge', wedge);
  if (dir.words !== undefined) d.ele('direction-type').ele('words').txt(dir.words);
  if (dir.dynamics !== undefined) {
    const dyn = d.ele('direction-type').ele('dynamics');
    if (DYNAMICS.has(dir.dynamics)) dyn.ele(dir.dynamics);
    else dyn.ele('other-dynamics').txt(dir.dynamics);
  }
  if (wedge && !wedgeEnds) d.ele('direction-type').ele('wedge', wedge);
  if (dir.metronome) {
    const met = d.ele('direction-type').ele('metronome');
    met.ele('beat-unit').txt(dir.metronome.beatUnit);
    for (let i = 0; i < dir.metronome.dots; i++) met.ele('beat-unit-dot');
    met.ele('per-minute').txt(String(dir.metronome.perMinute));
  }
  if (dir.octaveShift) d.ele('direction-type').ele('octave-shift', { type: dir.octaveShift.type, size: String(dir.octaveShift.size) });
  if (dir.pedal) {
    // Pedal changes and continuations are notches and runs of a pedal line; a part without them marks Ped. and *.
    const line = pedalLines(part);
    d.ele('direction-type').ele('pedal', { type: dir.pedal, line: line ? 'yes' : 'no', ...(line && { sign: dir.pedal === 'start' ? 'yes' : 'no' }) });
  }
  if (part.staves > 1) d.ele('staff').txt(String(dir.staff));
  if (sound) d.ele('sound', sound);
}

/** What a direction tells playback: its tempo, and a D.C. or Fine; undefined when nothing. */
function soundOf(dir: Direction): Record<string, string> | undefined {
  const sound: Record<string, string> = {};
  if (dir.tempo !== undefined) sound.tempo = String(dir.tempo);
  if (dir.jump === 'daCapo') sound.dacapo = 'yes';
  if (dir.jump === 'fine') sound.fine = 'yes';
  return Object.keys(sound).length ? sound : undefined;
}

/** A MusicXML number-level (1–16) for slurs and wedges; 1 for anything else. */
function numberLevel(n: number): number {
  return Number.isInteger(n) && n >= 1 && n <= 16 ? n : 1;
}

const pedalLineCache = new WeakMap<Part, boolean>();

/** Whether the part's pedal marks are drawn with lines: they are when it has pedal changes or continuations. */
function pedalLines(part: Part): boolean {
  let lines = pedalLineCache.get(part);
  if (lines === undefined) {
    lines = part.measures.some((m) => m.directions.some((d) => d.pedal === 'change' || d.pedal === 'continue'));
    pedalLineCache.set(part, lines);
  }
  return lines;
}
