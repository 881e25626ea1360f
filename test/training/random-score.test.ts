/**
 * The random score generator for training data: deterministic per seed;
 * every score is musically well formed (full measures, balanced beams and
 * tuplets, ties between equal pitches, accidentals as an engraver prints
 * them); the MusicXML written from it validates, reads back to the same
 * score, and renders in Verovio; and over a few dozen seeds every feature it
 * promises shows up.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createVerovioModule from 'verovio/wasm';
import { enableLog, LOG_OFF, VerovioToolkit } from 'verovio/esm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMusicXml } from '../../src/exports/musicxml.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { add, compare, mul, toString, ZERO, type Fraction } from '../../src/score/fraction.js';
import type { Clef, Measure, NoteEvent, Part, Pitch, Score, TimeSignature, VoiceEvent } from '../../src/score/model.js';
import { diatonicIndex, keyAlter } from '../../src/score/pitch.js';
import { notatedDuration, timeSignatureLength, TYPE_QUARTERS } from '../../src/score/timeline.js';
import { generateRandomScore } from '../../training/data/random-score.js';
import { noteContent } from '../support/note-content.js';
import { validateMusicXmlFiles } from '../support/xsd.js';

const SEEDS = Array.from({ length: 40 }, (_, i) => i);

interface Case {
  seed: number;
  score: Score;
  xml: string;
}

let cases: Case[] = [];
let outDir: string;

beforeAll(() => {
  outDir = mkdtempSync(join(tmpdir(), 'scoresight-random-score-'));
  cases = SEEDS.map((seed) => {
    const score = generateRandomScore(seed);
    return { seed, score, xml: writeMusicXml(score, { encodingDate: '2026-01-01' }) };
  });
});

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

// ---------------------------------------------------------------------------
// Walking a score

interface EventSite {
  part: Part;
  partIndex: number;
  measure: Measure;
  measureIndex: number;
  voiceId: string;
  event: VoiceEvent;
  onset: Fraction;
  /** Time signature and key in force. */
  time: TimeSignature;
  fifths: number;
  /** Clef of the event's staff at its onset. */
  clef: Clef;
}

/** Every event of the score with what is in force where it stands. */
function* events(score: Score): Generator<EventSite> {
  for (const [partIndex, part] of score.parts.entries()) {
    let time: TimeSignature | undefined;
    let fifths = 0;
    const clefs = new Map<number, Clef>();
    for (const [measureIndex, measure] of part.measures.entries()) {
      if (measure.time) time = measure.time;
      if (measure.key) fifths = measure.key.fifths;
      const startClefs = new Map(clefs);
      for (const c of measure.clefs) if (c.offset.n === 0) startClefs.set(c.staff, c);
      for (const voice of measure.voices) {
        let onset = ZERO;
        for (const event of voice.events) {
          let clef = startClefs.get(event.staff)!;
          for (const c of measure.clefs) if (c.staff === event.staff && compare(c.offset, onset) <= 0) clef = c;
          yield { part, partIndex, measure, measureIndex, voiceId: voice.id, event, onset, time: time!, fifths, clef };
          onset = add(onset, event.duration);
        }
      }
      for (const c of measure.clefs) clefs.set(c.staff, c);
    }
  }
}

const where = (s: EventSite) => `part ${s.partIndex} measure ${s.measure.number} voice ${s.voiceId} @${toString(s.onset)}`;
const FLAGS: Record<string, number> = { eighth: 1, '16th': 2, '32nd': 3, '64th': 4 };
const CLEF_BOTTOM: Record<string, number> = { G: 32, F: 24, C: 28, percussion: 32 };

/** Staff position of a pitch: 0 = bottom line, 8 = top line. */
function staffPosition(clef: Clef, pitch: Pitch): number {
  const line = clef.sign === 'percussion' ? 2 : clef.line;
  return diatonicIndex(pitch) - (CLEF_BOTTOM[clef.sign]! - 2 * (line - 1) + 7 * (clef.octaveChange ?? 0));
}

function ledgerLines(clef: Clef, pitch: Pitch): number {
  const pos = staffPosition(clef, pitch);
  return pos < 0 ? Math.floor(-pos / 2) : pos > 8 ? Math.floor((pos - 8) / 2) : 0;
}

const samePitch = (a: Pitch, b: Pitch) => a.step === b.step && a.alter === b.alter && a.octave === b.octave;

// ---------------------------------------------------------------------------

describe('random score generator', () => {
  it('is deterministic per seed and differs between seeds', () => {
    expect(generateRandomScore(7)).toEqual(generateRandomScore(7));
    expect(generateRandomScore(7, { staves: 12, measures: 9 })).toEqual(generateRandomScore(7, { staves: 12, measures: 9 }));
    expect(noteContent(generateRandomScore(1))).not.toEqual(noteContent(generateRandomScore(2)));
    expect(generateRandomScore(3)).not.toEqual(generateRandomScore(4));
  });

  it('honours the staff and measure options', () => {
    for (const [staves, measures] of [[1, 4], [2, 32], [3, 7], [5, 12], [16, 5], [24, 6]] as const) {
      for (const seed of [0, 1, 2]) {
        const score = generateRandomScore(seed, { staves, measures });
        expect(score.parts.reduce((n, p) => n + p.staves, 0)).toBe(staves);
        for (const part of score.parts) expect(part.measures).toHaveLength(measures);
      }
    }
  });

  it('writes no rare notation when rareFeatureRate is 0', () => {
    for (const seed of [0, 1, 2, 3, 4, 5]) {
      const score = generateRandomScore(seed, { rareFeatureRate: 0 });
      for (const s of events(score)) {
        expect(s.event.tuplet, where(s)).toBeUndefined();
        if (s.event.kind === 'note') {
          expect(s.event.grace, where(s)).toBeUndefined();
          expect(s.event.cue, where(s)).toBeUndefined();
          for (const n of s.event.notes) expect(Math.abs(n.pitch.alter - keyAlter(s.fifths, n.pitch.step)), where(s)).toBeLessThanOrEqual(1);
        }
      }
      for (const part of score.parts) {
        for (const m of part.measures) {
          expect(m.multiRest).toBeUndefined();
          expect(m.clefs.filter((c) => compare(c.offset, ZERO) > 0 || m !== part.measures[0])).toEqual([]);
        }
      }
    }
  });

  it('keeps all parts in step: same measure count, numbers, meters and barlines', () => {
    for (const { seed, score } of cases) {
      const [first, ...rest] = score.parts;
      const frame = (p: Part) => p.measures.map((m) => [m.number, m.implicit, m.time, m.leftBarline, m.rightBarline, m.multiRest]);
      expect(first!.measures.length, `seed ${seed}`).toBeGreaterThanOrEqual(4);
      expect(first!.measures.length, `seed ${seed}`).toBeLessThanOrEqual(32);
      for (const part of rest) expect(frame(part), `seed ${seed}`).toEqual(frame(first!));
      first!.measures.forEach((m, i) => {
        expect(typeof m.number).toBe('string');
        if (i > 0) expect(m.implicit).toBeUndefined();
      });
      expect(first!.measures.at(-1)!.rightBarline?.style, `seed ${seed}`).toBe('light-heavy');
      expect(score.parts.reduce((n, p) => n + p.staves, 0)).toBeLessThanOrEqual(24);
    }
  });

  it('fills every voice of every measure exactly, with durations that match the notation', () => {
    for (const { seed, score } of cases) {
      for (const part of score.parts) {
        let time: TimeSignature | undefined;
        for (const m of part.measures) {
          if (m.time) time = m.time;
          const full = timeSignatureLength(time!);
          expect(m.voices.length).toBeGreaterThan(0);
          const lengths = m.voices.map((v) => v.events.reduce((t, e) => add(t, e.duration), ZERO));
          for (const len of lengths) {
            if (m.implicit) {
              expect(compare(len, ZERO), `seed ${seed} pickup`).toBeGreaterThan(0);
              expect(compare(len, full), `seed ${seed} pickup`).toBeLessThan(0);
              expect(len).toEqual(lengths[0]);
            } else {
              expect(len, `seed ${seed} ${part.id} measure ${m.number}`).toEqual(full);
            }
          }
        }
      }
      for (const s of events(score)) {
        const e = s.event;
        if (e.kind === 'note' && e.grace) {
          expect(e.duration, where(s)).toEqual(ZERO);
        } else if (e.kind === 'rest' && e.measureRest) {
          expect(e.type, where(s)).toBeUndefined();
          expect(e.duration).toEqual(s.measure.implicit ? e.duration : timeSignatureLength(s.time));
        } else {
          expect(e.type, where(s)).toBeDefined();
          expect(e.duration, `seed ${seed} ${where(s)}`).toEqual(notatedDuration(e.type!, e.dots, e.tuplet));
          expect(compare(e.duration, TYPE_QUARTERS['64th']), where(s)).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });

  it('keeps staff numbers within each part', () => {
    for (const { score } of cases) {
      for (const part of score.parts) {
        expect([1, 2]).toContain(part.staves);
        for (const m of part.measures) {
          for (const staff of [...m.clefs, ...m.directions].map((x) => x.staff)) {
            expect(staff).toBeGreaterThanOrEqual(1);
            expect(staff).toBeLessThanOrEqual(part.staves);
          }
        }
      }
      for (const s of events(score)) {
        expect(s.event.staff, where(s)).toBeGreaterThanOrEqual(1);
        expect(s.event.staff, where(s)).toBeLessThanOrEqual(s.part.staves);
        // MusicXML convention: voices 1–4 on the first staff, 5–8 on the second.
        expect(s.event.staff, where(s)).toBe(Number(s.voiceId) >= 5 ? 2 : 1);
      }
    }
  });

  it('balances beams level by level, one level per flag, never over rests', () => {
    for (const { seed, score } of cases) {
      for (const part of score.parts) {
        for (const m of part.measures) {
          for (const v of m.voices) {
            const open: boolean[] = [];
            const ctx = `seed ${seed} ${part.id} measure ${m.number} voice ${v.id}`;
            for (const e of v.events) {
              if (e.kind === 'rest' || !e.beams) {
                expect(open.some(Boolean), ctx).toBe(false);
                continue;
              }
              expect(e.beams.length, ctx).toBe(FLAGS[e.type!]);
              e.beams.forEach((b, level) => {
                if (b === 'begin') {
                  expect(open[level], ctx).toBeFalsy();
                  open[level] = true;
                } else if (b === 'continue' || b === 'end') {
                  expect(open[level], ctx).toBe(true);
                  if (b === 'end') open[level] = false;
                } else {
                  expect(level, `${ctx}: a hook needs a primary beam`).toBeGreaterThan(0);
                }
              });
              // A level the note lacks cannot stay open across it.
              for (let level = e.beams.length; level < open.length; level++) expect(open[level], ctx).toBeFalsy();
            }
            expect(open.some(Boolean), ctx).toBe(false);
          }
        }
      }
    }
  });

  it('closes every tuplet inside its measure, spanning exactly its normal notes', () => {
    for (const { seed, score } of cases) {
      for (const part of score.parts) {
        for (const m of part.measures) {
          for (const v of m.voices) {
            let group: { actual: number; normal: number; normalType?: string; sum: Fraction } | undefined;
            const ctx = `seed ${seed} ${part.id} measure ${m.number} voice ${v.id}`;
            for (const e of v.events) {
              if (e.kind === 'note' && e.grace) continue; // grace notes may stand inside a tuplet
              const t = e.tuplet;
              if (!t) {
                expect(group, ctx).toBeUndefined();
                continue;
              }
              if (t.start) {
                expect(group, ctx).toBeUndefined();
                group = { actual: t.actual, normal: t.normal, normalType: t.normalType, sum: ZERO };
              }
              expect(group, ctx).toBeDefined();
              expect([t.actual, t.normal, t.normalType], ctx).toEqual([group!.actual, group!.normal, group!.normalType]);
              group!.sum = add(group!.sum, e.duration);
              if (t.stop) {
                expect(group!.sum, ctx).toEqual(mul(TYPE_QUARTERS[group!.normalType as 'eighth'], { n: group!.normal, d: 1 }));
                group = undefined;
              }
            }
            expect(group, ctx).toBeUndefined();
          }
        }
      }
    }
  });

  it('ties only equal pitches, within a voice and over barlines', () => {
    let ties = 0;
    for (const { seed, score } of cases) {
      // Each voice's sounding events in order, across measures.
      const lanes = new Map<string, EventSite[]>();
      for (const s of events(score)) {
        if (s.event.kind === 'note' && s.event.grace) continue;
        const key = `${s.partIndex}:${s.voiceId}`;
        if (!lanes.has(key)) lanes.set(key, []);
        lanes.get(key)!.push(s);
      }
      for (const lane of lanes.values()) {
        lane.forEach((s, i) => {
          if (s.event.kind !== 'note') return;
          const next = lane[i + 1];
          const prev = lane[i - 1];
          for (const n of s.event.notes) {
            if (n.tieStart) {
              ties++;
              expect(next?.event.kind, `seed ${seed} ${where(s)}`).toBe('note');
              expect(next!.measureIndex - s.measureIndex).toBeLessThanOrEqual(1);
              if (next!.measureIndex !== s.measureIndex) expect(compare(next!.onset, ZERO)).toBe(0);
              expect((next!.event as NoteEvent).notes.some((x) => x.tieStop && samePitch(x.pitch, n.pitch)), `seed ${seed} ${where(s)}`).toBe(true);
            }
            if (n.tieStop) {
              expect(prev?.event.kind, `seed ${seed} ${where(s)}`).toBe('note');
              expect((prev!.event as NoteEvent).notes.some((x) => x.tieStart && samePitch(x.pitch, n.pitch)), `seed ${seed} ${where(s)}`).toBe(true);
              expect(n.accidental, `seed ${seed} ${where(s)}: a tied-over note shows no accidental`).toBeUndefined();
            }
          }
        });
      }
    }
    expect(ties).toBeGreaterThan(50);
  });

  it('prints an accidental exactly where key and measure do not already imply the alteration', () => {
    let printed = 0;
    for (const { seed, score } of cases) {
      // Per part, staff and measure: the notes in time order (grace notes before their main note).
      const groups = new Map<string, { onset: Fraction; grace: boolean; i: number; site: EventSite }[]>();
      let i = 0;
      for (const s of events(score)) {
        if (s.event.kind !== 'note' || s.part.percussion) continue;
        const key = `${s.partIndex}:${s.measureIndex}:${s.event.staff}`;
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key)!.push({ onset: s.onset, grace: !!s.event.grace, i: i++, site: s });
      }
      for (const list of groups.values()) {
        list.sort((a, b) => compare(a.onset, b.onset) || Number(b.grace) - Number(a.grace) || a.i - b.i);
        const state = new Map<string, number>();
        for (const { site } of list) {
          for (const n of (site.event as NoteEvent).notes) {
            const { step, octave, alter } = n.pitch;
            const key = `${step}${octave}`;
            const ctx = `seed ${seed} ${where(site)} ${key} alter ${alter}`;
            if (n.tieStop) {
              expect(n.accidental, ctx).toBeUndefined();
              continue;
            }
            const expected = state.get(key) ?? keyAlter(site.fifths, step);
            if (alter !== expected) {
              printed++;
              expect(n.accidental?.cautionary, ctx).toBeUndefined();
              expect(n.accidental?.sign, ctx).toBe({ [-2]: 'flat-flat', [-1]: 'flat', 0: 'natural', 1: 'sharp', 2: 'double-sharp' }[alter]);
              state.set(key, alter);
            } else if (n.accidental) {
              expect(n.accidental.cautionary, `${ctx}: an accidental the key and measure imply must be a courtesy one`).toBe(true);
            }
          }
        }
      }
    }
    expect(printed).toBeGreaterThan(100);
  });

  it('rests all parts together in a multi-measure rest', () => {
    for (const { seed, score } of cases) {
      score.parts[0]!.measures.forEach((m, i) => {
        if (!m.multiRest) return;
        expect(m.multiRest).toBeGreaterThanOrEqual(2);
        for (const part of score.parts) {
          for (let k = i; k < i + m.multiRest; k++) {
            const measure = part.measures[k]!;
            expect(measure.voices, `seed ${seed} measure ${measure.number}`).toHaveLength(part.staves);
            for (const v of measure.voices) expect(v.events.map((e) => e.kind === 'rest' && e.measureRest)).toEqual([true]);
          }
        }
      });
    }
  });

  it('points stems up in the upper voice and down in the lower one', () => {
    for (const { score } of cases) {
      for (const s of events(score)) {
        if (s.event.kind !== 'note' || s.event.grace || s.event.type === 'whole' || s.event.type === 'breve') continue;
        const onStaff = s.measure.voices.filter((v) => v.events[0]?.staff === s.event.staff);
        if (onStaff.length !== 2) continue;
        expect(s.event.stem, where(s)).toBe(onStaff[0]!.id === s.voiceId ? 'up' : 'down');
      }
    }
  });

  it('writes MusicXML that validates against the MusicXML 4.0 XSD', { timeout: 120_000 }, () => {
    const paths = cases.map(({ seed, xml }) => {
      const path = join(outDir, `random-${seed}.musicxml`);
      writeFileSync(path, xml);
      return path;
    });
    expect(validateMusicXmlFiles(paths)).toEqual([]);
  });

  it('reads back to the same note content and the same score', () => {
    for (const { seed, score, xml } of cases) {
      const again = readMusicXml(xml);
      expect(noteContent(again), `seed ${seed}`).toEqual(noteContent(score));
      // Beyond the notes: everything the model holds, but the <divisions> the writer chose.
      const parts = again.parts.map((p) => ({ ...p, measures: p.measures.map(({ divisions: _d, ...m }) => m) }));
      expect(parts, `seed ${seed}`).toEqual(score.parts);
      expect(again.credits).toEqual(score.credits);
      const order = (gs: Score['partGroups']) => [...gs].sort((a, b) => a.first - b.first || b.last - a.last || a.symbol.localeCompare(b.symbol));
      expect(order(again.partGroups)).toEqual(order(score.partGroups));
    }
  });

  it('loads in Verovio, which renders notes on page 1', { timeout: 120_000 }, async () => {
    const module = await createVerovioModule();
    enableLog(LOG_OFF, module);
    const tk = new VerovioToolkit(module);
    tk.setOptions({ pageHeight: 2970, pageWidth: 2100, scale: 40 });
    for (const { seed, xml } of cases) {
      expect(tk.loadData(xml), `seed ${seed}`).toBeTruthy();
      expect(tk.getPageCount(), `seed ${seed}`).toBeGreaterThan(0);
      expect(tk.renderToSVG(1), `seed ${seed}`).toContain('class="note');
    }
  });

  it('covers every promised feature over the test seeds', () => {
    const seen = new Set<string>();
    const see = (feature: string, yes: unknown) => {
      if (yes) seen.add(feature);
    };
    for (const { score } of cases) {
      const staves = score.parts.reduce((n, p) => n + p.staves, 0);
      see('10+ staves', staves >= 10);
      see('grand staff', score.parts.some((p) => p.staves === 2));
      see('transposing part', score.parts.some((p) => p.transposition));
      see('bracket', score.partGroups.some((g) => g.symbol === 'bracket'));
      for (const [field, text] of Object.entries(score.credits)) see(`credit ${field}`, text);
      for (const part of score.parts) {
        part.measures.forEach((m, i) => {
          see('pickup', m.implicit);
          see('multi-measure rest', m.multiRest);
          see('key change', i > 0 && m.key);
          see('time change', i > 0 && m.time);
          see('double barline', m.rightBarline?.style === 'light-light');
          see('forward repeat', m.leftBarline?.repeat?.direction === 'forward');
          see('backward repeat', m.rightBarline?.repeat?.direction === 'backward');
          see('volta 1', m.leftBarline?.ending?.number === '1');
          see('volta 2', m.leftBarline?.ending?.number === '2');
          if (m.key) {
            see(`fifths ${m.key.fifths}`, true);
            see(`mode ${m.key.mode}`, m.key.mode);
          }
          if (m.time) {
            see(`time ${m.time.beats}/${m.time.beatType}`, true);
            see(`symbol ${m.time.symbol}`, m.time.symbol);
          }
          for (const c of m.clefs) {
            see(`clef ${c.sign}${c.line}${c.octaveChange ? (c.octaveChange > 0 ? '8va' : '8vb') : ''}`, c.sign !== 'percussion');
            see('clef percussion', c.sign === 'percussion');
            see('clef change at a measure start', i > 0 && c.offset.n === 0);
            see('clef change mid-measure', compare(c.offset, ZERO) > 0);
          }
          for (const d of m.directions) {
            see('tempo words', d.words && d.tempo === undefined);
            see('metronome', d.metronome);
            see('dynamics', d.dynamics);
          }
        });
      }
      for (const s of events(score)) {
        const e = s.event;
        see(`type ${e.type}`, e.type);
        see(`dots ${e.dots}`, e.dots > 0);
        if (e.tuplet) see(`tuplet ${e.tuplet.actual}:${e.tuplet.normal}`, true);
        if (e.kind === 'rest') {
          see('measure rest', e.measureRest);
          see('displaced rest', e.displayStep);
          see(`rest ${e.type}`, e.type);
          continue;
        }
        see('chord', e.notes.length >= 2);
        see('4-note chord', e.notes.length === 4);
        see('two voices', s.voiceId === '2' || s.voiceId === '6');
        see('grace', e.grace && !e.grace.slash);
        see('grace slash', e.grace?.slash);
        see('cue', e.cue);
        see('lyrics', e.lyrics.length);
        see('lyrics verse 3', e.lyrics.some((l) => l.verse === 3));
        see('lyric extend', e.lyrics.some((l) => l.extend));
        see('stem up', e.stem === 'up');
        see('stem down', e.stem === 'down');
        see('hook', e.beams?.some((b) => b.endsWith('hook')));
        for (const n of e.notes) {
          see('tie', n.tieStart);
          see('double sharp', n.pitch.alter === 2 && n.accidental?.sign === 'double-sharp');
          see('double flat', n.pitch.alter === -2 && n.accidental?.sign === 'flat-flat');
          see('cautionary', n.accidental?.cautionary);
          see('unpitched', n.unpitched);
          if (!n.unpitched) see('4+ ledger lines', ledgerLines(s.clef, n.pitch) >= 4);
        }
      }
      // Ties over a barline: a measure's first event that continues a tie.
      for (const s of events(score)) {
        if (s.event.kind === 'note' && s.onset.n === 0 && !s.event.grace && s.event.notes.some((n) => n.tieStop)) see('tie over barline', true);
      }
    }
    const expected = [
      '10+ staves', 'grand staff', 'transposing part', 'bracket', 'credit title', 'credit subtitle', 'credit composer',
      'credit lyricist', 'pickup', 'multi-measure rest', 'key change',
      'time change', 'double barline', 'forward repeat', 'backward repeat', 'volta 1', 'volta 2', 'mode major', 'mode minor',
      ...Array.from({ length: 15 }, (_, i) => `fifths ${i - 7}`),
      ...['2/4', '3/4', '4/4', '5/4', '6/8', '9/8', '12/8', '2/2', '3/8', '7/8', '5/8', '6/4', '3/2'].map((t) => `time ${t}`),
      'symbol common', 'symbol cut',
      ...['G2', 'F4', 'C1', 'C2', 'C3', 'C4', 'C5', 'F3', 'G1', 'G28vb', 'G28va', 'F48vb'].map((c) => `clef ${c}`), 'clef percussion',
      'clef change at a measure start', 'clef change mid-measure', 'tempo words', 'metronome', 'dynamics',
      ...['whole', 'half', 'quarter', 'eighth', '16th', '32nd', '64th', 'breve'].map((t) => `type ${t}`),
      'dots 1', 'dots 2', 'tuplet 3:2', 'tuplet 5:4', 'tuplet 6:4', 'tuplet 7:8',
      'measure rest', 'displaced rest', 'rest quarter', 'rest eighth', 'rest 16th', 'rest 32nd', 'rest 64th',
      'chord', '4-note chord', 'two voices', 'grace', 'grace slash', 'cue', 'lyrics', 'lyrics verse 3', 'lyric extend',
      'stem up', 'stem down', 'hook', 'tie', 'tie over barline', 'double sharp', 'double flat', 'cautionary', 'unpitched',
      '4+ ledger lines',
    ];
    expect(expected.filter((f) => !seen.has(f))).toEqual([]);
  });
});
