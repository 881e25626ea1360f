/**
 * MusicXML → score model. Reads `.musicxml`/`.xml` (partwise, and timewise
 * by regrouping its measures) and `.mxl`. Used by score import, by the
 * accuracy benchmark and by the tests.
 *
 * Every failure is an `OmrError`: `INVALID_MUSICXML` for a document that is
 * not a usable score, `CORRUPTED_FILE` for a broken archive, `FILE_TOO_LARGE`
 * beyond the size limits.
 */
import { OmrError } from '../../errors.js';
import { instrumentById, instrumentForProgram, matchInstrumentName } from '../../score/instruments.js';
import type { Credits, Part, PartGroup, Score } from '../../score/model.js';
import { placedNotes } from '../../score/timeline.js';
import { MAX_SCORE_MEASURES, MAX_SCORE_NOTES, MAX_SCORE_PARTS } from '../limits.js';
import { extractMxlScore, isZip } from '../mxl-container.js';
import { child, children, childText, parseXml, type XmlElement } from '../xml-tree.js';
import { readMeasure, type PartReadState } from './read-measure.js';

/** Reads a MusicXML or compressed MusicXML document into a score. */
export function readMusicXml(input: Uint8Array | string): Score {
  if (input.length === 0) throw new OmrError('INVALID_MUSICXML', 'The file is empty: there is no MusicXML to read.');
  try {
    const bytes = typeof input === 'string' ? input : isZip(input) ? extractMxlScore(input) : input;
    const root = parseXml(bytes);
    if (root.name === 'score-timewise') return readPartwise(timewiseToPartwise(root));
    if (root.name !== 'score-partwise') {
      throw new OmrError('INVALID_MUSICXML', `The document's root element is <${root.name}>, not <score-partwise> or <score-timewise>: it is not a MusicXML score.`);
    }
    return readPartwise(root);
  } catch (err) {
    // Exact time arithmetic (`frac`) throws RangeError when hostile divisions
    // and durations outgrow safe integers: the file is at fault, so say so.
    if (err instanceof RangeError) {
      throw new OmrError('INVALID_MUSICXML', `The score holds numbers too large to compute with exactly (${err.message}).`, { cause: err });
    }
    throw err;
  }
}

function readPartwise(root: XmlElement): Score {
  const { infos, groups } = readPartList(child(root, 'part-list'));
  const byId = new Map(infos.map((p) => [p.id, p]));
  const parts: Part[] = [];
  const partIndexById = new Map<string, number>();
  const partEls = children(root, 'part');
  const size = new ScoreSize();
  size.addParts(partEls.length);
  for (const partEl of partEls) {
    const id = partEl.attrs.id ?? `P${parts.length + 1}`;
    if (partIndexById.has(id)) throw new OmrError('INVALID_MUSICXML', `Part id ${id} appears twice.`);
    const info = byId.get(id) ?? { id, name: '' };
    const state: PartReadState = { partId: id, divisions: 1, staves: 1, verseLabels: new Map() };
    const measureEls = children(partEl, 'measure');
    size.addMeasures(measureEls.length);
    const measures = measureEls.map((m) => {
      size.addNotes(m.children.reduce((n, c) => (c.name === 'note' ? n + 1 : n), 0));
      return readMeasure(m, state);
    });
    partIndexById.set(id, parts.length);
    const part = buildPart(info, state, measures);
    checkTimeline(part);
    parts.push(part);
  }
  if (!parts.length) throw new OmrError('INVALID_MUSICXML', 'The score has no parts.');
  const partGroups = groups
    .map((g) => ({ ...g, first: partIndexById.get(g.firstId) ?? -1, last: partIndexById.get(g.lastId) ?? -1 }))
    .filter((g) => g.first >= 0 && g.last >= g.first)
    .map(({ firstId: _f, lastId: _l, ...g }) => g as PartGroup);
  return { credits: readCredits(root), parts, partGroups };
}

/**
 * Counts what the score holds as it is read, refusing it with
 * `FILE_TOO_LARGE` before the model grows past the limits in ../limits.ts.
 */
class ScoreSize {
  private measures = 0;
  private notes = 0;

  addParts(count: number): void {
    if (count > MAX_SCORE_PARTS) throw tooLarge(`${count} parts`, `${MAX_SCORE_PARTS} parts`);
  }

  addMeasures(count: number): void {
    this.measures += count;
    if (this.measures > MAX_SCORE_MEASURES) throw tooLarge(`more than ${MAX_SCORE_MEASURES} measures over all its parts`, `${MAX_SCORE_MEASURES} (parts × measures)`);
  }

  addNotes(count: number): void {
    this.notes += count;
    if (this.notes > MAX_SCORE_NOTES) throw tooLarge(`more than ${MAX_SCORE_NOTES} notes and rests`, `${MAX_SCORE_NOTES} notes and rests`);
  }
}

function tooLarge(what: string, limit: string): OmrError {
  return new OmrError('FILE_TOO_LARGE', `The score has ${what}; at most ${limit} are read.`);
}

/**
 * Walks the part's timeline as every consumer will. Each measure reads
 * exactly, but measures with unrelated `<divisions>` (several large primes)
 * add up to denominators beyond safe integers; such a file is refused here
 * rather than failing later in a writer or a comparison.
 */
function checkTimeline(part: Part): void {
  try {
    for (const _ of placedNotes({ credits: {}, parts: [part], partGroups: [] }));
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    throw new OmrError('INVALID_MUSICXML', `Part ${part.id}: its measures' durations add up to times too fine to keep exactly (${err.message}).`, { cause: err });
  }
}

interface PartInfo {
  id: string;
  name: string;
  abbreviation?: string;
  instrumentName?: string;
  sound?: string;
  program?: number;
  percussion?: boolean;
}

type PendingGroup = Omit<PartGroup, 'first' | 'last'> & { firstId: string; lastId: string };

function readPartList(el: XmlElement | undefined): { infos: PartInfo[]; groups: PendingGroup[] } {
  const infos: PartInfo[] = [];
  const groups: PendingGroup[] = [];
  // Open groups by number, with the index of the first part after their start.
  const open = new Map<string, { group: PendingGroup; from: number }>();
  for (const c of el?.children ?? []) {
    if (c.name === 'score-part') {
      const id = c.attrs.id ?? `P${infos.length + 1}`;
      const info: PartInfo = { id, name: cleanText(childText(c, 'part-name') ?? '') };
      const abbreviation = cleanText(childText(c, 'part-abbreviation') ?? '');
      if (abbreviation) info.abbreviation = abbreviation;
      const instrument = child(c, 'score-instrument');
      const instrumentName = childText(instrument, 'instrument-name');
      if (instrumentName) info.instrumentName = instrumentName;
      const sound = childText(instrument, 'instrument-sound');
      if (sound) info.sound = sound;
      const midi = child(c, 'midi-instrument');
      const program = Number(childText(midi, 'midi-program'));
      // MusicXML numbers programs 1–128; the model uses General MIDI's 0–127.
      if (Number.isInteger(program) && program >= 1 && program <= 128) info.program = program - 1;
      if (childText(midi, 'midi-channel') === '10' || childText(midi, 'midi-unpitched') !== undefined) info.percussion = true;
      infos.push(info);
    } else if (c.name === 'part-group') {
      const number = c.attrs.number ?? '1';
      if (c.attrs.type === 'start') {
        const symbol = childText(c, 'group-symbol');
        const group: PendingGroup = {
          firstId: '',
          lastId: '',
          symbol: symbol === 'brace' || symbol === 'bracket' || symbol === 'line' || symbol === 'square' ? symbol : 'none',
          barlinesConnected: childText(c, 'group-barline') === 'yes',
        };
        const name = cleanText(childText(c, 'group-name') ?? '');
        if (name) group.name = name;
        open.set(number, { group, from: infos.length });
      } else if (c.attrs.type === 'stop') {
        const started = open.get(number);
        open.delete(number);
        // A group spans the parts listed between its start and its stop; an empty one is dropped.
        if (started && started.from < infos.length) {
          started.group.firstId = infos[started.from]!.id;
          started.group.lastId = infos[infos.length - 1]!.id;
          groups.push(started.group);
        }
      }
    }
  }
  return { infos, groups };
}

function buildPart(info: PartInfo, state: PartReadState, measures: Part['measures']): Part {
  // The dotted id we write ourselves comes back exactly; other files are matched by name, then by program.
  const instrument =
    (info.sound && instrumentById(info.sound)) ||
    matchInstrumentName(info.name)?.instrument ||
    (info.instrumentName && matchInstrumentName(info.instrumentName)?.instrument) ||
    instrumentForProgram(info.program ?? 0, { percussion: !!info.percussion });
  const part: Part = {
    id: info.id,
    name: info.name,
    instrumentId: instrument.id,
    midiProgram: info.program ?? instrument.midiProgram,
    staves: state.staves,
    measures,
  };
  if (info.abbreviation) part.abbreviation = info.abbreviation;
  if (info.percussion ?? instrument.percussion) part.percussion = true;
  if (state.transposition) part.transposition = state.transposition;
  return part;
}

function readCredits(root: XmlElement): Credits {
  const byType = new Map<string, string>();
  for (const credit of children(root, 'credit')) {
    const type = childText(credit, 'credit-type');
    const words = children(credit, 'credit-words').map((w) => cleanText(w.text)).filter(Boolean).join(' ');
    if (type && words && !byType.has(type)) byType.set(type, words);
  }
  const identification = child(root, 'identification');
  const creator = (type: string) =>
    children(identification, 'creator').find((c) => c.attrs.type === type && c.text.trim())?.text.trim();
  const workTitle = cleanText(childText(child(root, 'work'), 'work-title') ?? '');
  const movementTitle = cleanText(childText(root, 'movement-title') ?? '');
  const credits: Credits = {};
  // A song or movement of a collection names the collection as its work: the movement is the piece.
  const title = byType.get('title') || movementTitle || workTitle;
  if (title) credits.title = title;
  const subtitle = byType.get('subtitle') || (workTitle && workTitle !== title ? workTitle : '');
  if (subtitle) credits.subtitle = subtitle;
  const composer = creator('composer') || byType.get('composer');
  if (composer) credits.composer = cleanText(composer);
  const lyricist = creator('lyricist') || creator('poet') || byType.get('lyricist');
  if (lyricist) credits.lyricist = cleanText(lyricist);
  const arranger = creator('arranger') || byType.get('arranger');
  if (arranger) credits.arranger = cleanText(arranger);
  const rights = childText(identification, 'rights') || byType.get('rights');
  if (rights) credits.rights = cleanText(rights);
  return credits;
}

/** Collapses the line breaks and runs of spaces that engravers put into names and titles. */
function cleanText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Regroups `<measure><part>` into `<part><measure>` so one reader serves both layouts. */
function timewiseToPartwise(root: XmlElement): XmlElement {
  const parts = new Map<string, XmlElement>();
  for (const measure of children(root, 'measure')) {
    for (const part of children(measure, 'part')) {
      const id = part.attrs.id ?? '';
      let target = parts.get(id);
      if (!target) {
        target = { name: 'part', attrs: { id }, children: [], text: '' };
        parts.set(id, target);
      }
      target.children.push({ name: 'measure', attrs: measure.attrs, children: part.children, text: '' });
    }
  }
  const header = root.children.filter((c) => c.name !== 'measure');
  return { name: 'score-partwise', attrs: root.attrs, children: [...header, ...parts.values()], text: '' };
}
