/** Checks on scores read from MIDI, shared by the reader's tests. */
import { add, sub, toString, type Fraction } from '../../../src/score/fraction.js';
import type { Score } from '../../../src/score/model.js';
import { soundingMidiNumber } from '../../../src/score/pitch.js';
import { measureStarts, placedNotes, timeSignatureLength, voiceLength } from '../../../src/score/timeline.js';

/**
 * Why a score's measures are not exactly full, or undefined: every voice of
 * every measure lasts as long as the time signature in force says, and all
 * parts have the same measures.
 */
export function measureProblem(score: Score): string | undefined {
  const counts = new Set(score.parts.map((p) => p.measures.length));
  if (counts.size > 1) return `parts have ${[...counts].join(', ')} measures`;
  for (const part of score.parts) {
    let time = part.measures[0]?.time;
    if (!time) return `${part.id} has no time signature in its first measure`;
    for (const [m, measure] of part.measures.entries()) {
      time = measure.time ?? time;
      const expected = timeSignatureLength(time);
      if (!measure.voices.length) return `${part.id} measure ${m + 1} has no voices`;
      for (const voice of measure.voices) {
        const length = voiceLength(voice.events);
        if (toString(length) !== toString(expected)) {
          return `${part.id} measure ${m + 1} voice ${voice.id} lasts ${toString(length)}, not ${toString(expected)}`;
        }
      }
    }
  }
  const starts = score.parts.map((p) => measureStarts(p).map(toString).join());
  if (new Set(starts).size > 1) return 'parts disagree on where measures start';
  return undefined;
}

/**
 * Every sounding note of a score as `p<part> @<onset> d<duration> k<key>`,
 * sorted: tied notes joined into one (as MIDI plays them), at sounding pitch,
 * grace and cue notes left out (MIDI files do not have them).
 */
export function soundingNotes(score: Score): string[] {
  const notes: { part: number; key: number; onset: Fraction; end: Fraction }[] = [];
  const open = new Map<string, (typeof notes)[number]>();
  for (const n of placedNotes(score)) {
    if (n.grace || n.event.cue) continue;
    const key = soundingMidiNumber(n.pitch, score.parts[n.part]!.transposition);
    const chain = `${n.part} ${n.staff} ${n.voice} ${key}`;
    const end = add(n.onset, n.duration);
    let note = n.note.tieStop ? open.get(chain) : undefined;
    if (note && toString(note.end) === toString(n.onset)) {
      note.end = end;
    } else {
      note = { part: n.part, key, onset: n.onset, end };
      notes.push(note);
    }
    if (n.note.tieStart) open.set(chain, note);
    else open.delete(chain);
  }
  return notes.map((n) => `p${n.part} @${toString(n.onset)} d${toString(sub(n.end, n.onset))} k${n.key}`).sort();
}
