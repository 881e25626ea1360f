/**
 * Ties and slurs onto the score's notes, system by system in reading order,
 * once every stroke has its event and every head its pitch.
 *
 * - A tie joins two notes of one pitch; the tied note keeps the first one's
 *   accidental (a tie across a barline prints none, and the key must not undo
 *   it). A curve taken for a tie between different pitches is a slur: so is
 *   one to a note at the same place whose own accidental alters it otherwise
 *   (B flat to B natural), and one between notes of one pitch that bear
 *   staccato dots (portato: each note is struck again, which a tie forbids).
 * - A slur's ends get a number (1–16) that no slur open at the same time in
 *   the part uses, as MusicXML asks.
 * - A tie or slur that runs off a system is picked up by the first curve
 *   coming in from the left on the same part's next system (a tie at the same
 *   step and octave). A curve running off a system is cut short and flat, so
 *   it may look like a tie where it is the start of a slur: taken for a tie
 *   and met on the next system by no tie of its pitch but by another curve,
 *   it becomes a slur to that curve's note.
 */
import type { Note, NoteEvent } from '../score/model.js';
import type { Head } from '../symbols/read-symbols.js';
import type { CurveLink } from './curves.js';
import type { Stroke } from './strokes.js';

/** Dots that mark each note of a slurred pair struck again (portato): a curve joining such notes is no tie. */
const PORTATO_DOTS = new Set(['staccato', 'staccatissimo']);

/** Where a stroke went in the score: its event and the part it belongs to. */
export interface PlacedStroke {
  event: NoteEvent;
  part: number;
}

export interface NoteLookup {
  stroke(stroke: Stroke): PlacedStroke | undefined;
  note(head: Head, stroke: Stroke): Note | undefined;
}

/** A tie that runs on to the next system, from a note of this stroke's event. */
interface OpenTie {
  note: Note;
  event: NoteEvent;
  placement: 'above' | 'below';
}

interface OpenSlur {
  number: number;
  /** x where it stops on the current system; Infinity while it runs to the next. */
  stopX: number;
}

const MAX_SLUR_NUMBER = 16;

export class TiesAndSlurs {
  /** Per part: notes whose tie runs on to the next system. */
  private openTies = new Map<number, OpenTie[]>();
  /** Per part: slurs started on the current system (or carried into it), with where they stop. */
  private openSlurs = new Map<number, OpenSlur[]>();

  constructor(private readonly lookup: NoteLookup) {}

  /** Applies one system's curves; systems come in reading order. */
  system(links: readonly CurveLink[]): void {
    const carriedTies = this.openTies;
    const carriedSlurs = new Map([...this.openSlurs].map(([part, open]) => [part, open.filter((s) => s.stopX === Infinity)]));
    this.openTies = new Map();
    this.openSlurs = new Map();
    // Curves coming in from the previous system close what it left open, ties of their pitch first;
    // what they do not close is lost.
    const incoming = links.filter((l) => !l.from).sort((a, b) => a.curve.end.x - b.curve.end.x);
    const rest = incoming.filter((link) => !this.closeTie(link, carriedTies));
    for (const link of rest) this.closeSlur(link, carriedTies, carriedSlurs);
    for (const link of links.filter((l) => l.from).sort((a, b) => a.from!.x - b.from!.x)) this.outgoing(link);
  }

  /** An incoming tie that continues a carried one of its pitch; false where there is none. */
  private closeTie(link: CurveLink, carriedTies: Map<number, OpenTie[]>): boolean {
    const to = this.lookup.stroke(link.to!);
    const note = to && link.tie?.to && this.lookup.note(link.tie.to, link.to!);
    if (!to || !note) return false;
    const waiting = carriedTies.get(to.part) ?? [];
    const tied = waiting.find((t) => onePitch(t.note, note));
    if (!tied) return false;
    tie(tied.note, note);
    waiting.splice(waiting.indexOf(tied), 1);
    return true;
  }

  /** An incoming curve that continues a carried slur, or a carried curve that no tie of its pitch continued. */
  private closeSlur(link: CurveLink, carriedTies: Map<number, OpenTie[]>, carriedSlurs: Map<number, OpenSlur[]>): void {
    const to = this.lookup.stroke(link.to!);
    if (!to) return;
    const slur = carriedSlurs.get(to.part)?.shift();
    if (slur) {
      addSlur(to.event, { type: 'stop', number: slur.number });
      this.open(to.part).push({ number: slur.number, stopX: link.to!.x });
      return;
    }
    const taken = carriedTies.get(to.part)?.shift();
    if (!taken) return;
    const number = firstFree(this.open(to.part).map((s) => s.number));
    if (number === undefined) return;
    delete taken.note.tieStart;
    addSlur(taken.event, { type: 'start', number, placement: taken.placement });
    addSlur(to.event, { type: 'stop', number });
    this.open(to.part).push({ number, stopX: link.to!.x });
  }

  private outgoing(link: CurveLink): void {
    const from = this.lookup.stroke(link.from!);
    if (!from) return;
    if (link.tie?.from) {
      const first = this.lookup.note(link.tie.from, link.from!);
      const second = link.tie.to && link.to ? this.lookup.note(link.tie.to, link.to) : undefined;
      if (first && !link.to) {
        // A tie until the next system shows otherwise (see closeSlur).
        first.tieStart = true;
        const open: OpenTie = { note: first, event: from.event, placement: link.curve.over ? 'above' : 'below' };
        this.openTies.set(from.part, [...(this.openTies.get(from.part) ?? []), open]);
        return;
      }
      const restruck = [from.event, link.to && this.lookup.stroke(link.to)?.event].some((e) => e?.articulations?.some((a) => PORTATO_DOTS.has(a)));
      if (first && second && onePitch(first, second) && !restruck) {
        tie(first, second);
        return;
      }
    }
    const to = link.to && this.lookup.stroke(link.to);
    if (link.to && (!to || to.part !== from.part)) return;
    const x = link.from!.x;
    const live = this.open(from.part).filter((s) => s.stopX >= x);
    const number = firstFree(live.map((s) => s.number));
    if (number === undefined) return;
    addSlur(from.event, { type: 'start', number, placement: link.curve.over ? 'above' : 'below' });
    if (to) addSlur(to.event, { type: 'stop', number });
    this.open(from.part).push({ number, stopX: link.to ? link.to.x : Infinity });
  }

  private open(part: number): OpenSlur[] {
    let list = this.openSlurs.get(part);
    if (!list) this.openSlurs.set(part, (list = []));
    return list;
  }
}

function tie(first: Note, second: Note): void {
  first.tieStart = true;
  second.tieStop = true;
  // The tied note sounds the first one's pitch: a tie across a barline carries its accidental.
  if (!second.accidental) second.pitch = { ...second.pitch, alter: first.pitch.alter };
}

/**
 * Whether a tie may join two notes: at the same step and octave, the second one printing no accidental
 * (it holds the first one's) or one that keeps the first one's alteration (a courtesy sign).
 */
function onePitch(first: Note, second: Note): boolean {
  const [a, b] = [first.pitch, second.pitch];
  return a.step === b.step && a.octave === b.octave && (!second.accidental || b.alter === a.alter);
}

function addSlur(event: NoteEvent, slur: NonNullable<NoteEvent['slurs']>[number]): void {
  (event.slurs ??= []).push(slur);
}

function firstFree(used: readonly number[]): number | undefined {
  for (let n = 1; n <= MAX_SLUR_NUMBER; n++) if (!used.includes(n)) return n;
  return undefined;
}
