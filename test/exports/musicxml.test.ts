/**
 * The MusicXML writer on a score that uses every feature of the model:
 * what it writes validates against the XSD and reads back to the same model.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeMusicXml } from '../../src/exports/musicxml.js';
import { writeMxl } from '../../src/exports/mxl.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { frac, ZERO } from '../../src/score/fraction.js';
import type { Measure, Score } from '../../src/score/model.js';
import { LIBRARY_VERSION } from '../../src/version.js';
import { direction, measure, note, numbered, part, rest, score } from '../support/score-builder.js';
import { validateMusicXmlFiles } from '../support/xsd.js';

const dir = mkdtempSync(join(tmpdir(), 'scoresight-musicxml-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function validate(xml: string): string[] {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.musicxml`);
  writeFileSync(path, xml);
  return validateMusicXmlFiles([path]);
}

/** The reader records the `<divisions>` it met; the writer chooses its own, so they are not content. */
function withoutDivisions(s: Score): Score {
  return { ...s, parts: s.parts.map((p) => ({ ...p, measures: p.measures.map(({ divisions: _d, ...m }) => m as Measure) })) };
}

const triplet = (start: boolean, stop: boolean) => ({ actual: 3, normal: 2, ...(start && { start }), ...(stop && { stop }) });

function kitchenSink(): Score {
  const chord = note(['C4', 'E4', 'G4'], 'half', { staff: 1 });
  chord.stem = 'up';
  chord.articulations = ['accent', 'fermata'];
  const sung = note('A4', 'quarter');
  sung.lyrics = [
    { verse: 1, text: 'di\u203fa', syllabic: 'begin' },
    { verse: 2, text: 'Herz', syllabic: 'single', extend: true },
  ];
  const t1 = note('D5', 'eighth', { tuplet: triplet(true, false) });
  const t2 = note('E5', 'eighth', { tuplet: triplet(false, false) });
  const t3 = note('F5', 'eighth', { tuplet: triplet(false, true) });
  t1.beams = ['begin'];
  t2.beams = ['continue'];
  t3.beams = ['end'];
  const cautionary = note('F#4', 'quarter');
  cautionary.notes[0]!.accidental = { sign: 'sharp', cautionary: true, parentheses: true };
  const doubleSharp = note('C##5', 'quarter');
  doubleSharp.notes[0]!.accidental = { sign: 'double-sharp' };
  const x = note('B4', 'quarter');
  x.notes[0]!.notehead = 'x';
  // Every mark the mark classifier reads: articulations, ornaments and bowing.
  cautionary.articulations = ['staccato', 'strong-accent'];
  cautionary.ornaments = ['trill-mark', 'mordent'];
  cautionary.technical = ['up-bow'];
  x.articulations = ['tenuto', 'staccatissimo'];
  x.ornaments = ['inverted-mordent', 'turn'];
  x.technical = ['down-bow'];

  const piano = part(
    numbered([
      measure([[note('G4', 'quarter')], [note('C3', 'quarter', { staff: 2 })]], {
        implicit: true,
        key: { fifths: -3, mode: 'minor' },
        time: { beats: 3, beatType: 4 },
        clefs: [
          { sign: 'G', line: 2, staff: 1, offset: ZERO },
          { sign: 'F', line: 4, staff: 2, offset: ZERO },
        ],
        directions: [
          direction(ZERO, { words: 'Allegro', metronome: { beatUnit: 'quarter', dots: 1, perMinute: 88 }, placement: 'above', tempo: 132 }),
        ],
      }),
      measure(
        [
          [note('B3', 'eighth', { grace: true }), chord, sung],
          [rest('quarter'), t1, t2, t3, note('G4', 'quarter', { tieStart: true })],
          [note('C3', 'half', { staff: 2 }), note('B2', 'quarter', { staff: 2 })],
        ],
        {
          clefs: [{ sign: 'G', line: 2, staff: 2, offset: frac(2) }],
          directions: [direction(frac(1), { dynamics: 'mf', placement: 'below' }), direction(frac(2), { dynamics: 'sfz', staff: 2 })],
          systemBreak: true,
        },
      ),
      measure([[note('G4', 'half', { tieStop: true }), cautionary], [note('C3', 'half', { staff: 2, dots: 1 })]], {
        leftBarline: { style: 'heavy-light', repeat: { direction: 'forward' }, ending: { number: '1', type: 'start' } },
        rightBarline: { style: 'light-heavy', repeat: { direction: 'backward', times: 2 }, ending: { number: '1', type: 'stop' } },
        time: { beats: 3, beatType: 4, symbol: 'single-number' },
      }),
      measure([[doubleSharp, x, note('E4', 'quarter', { cue: true })], [rest('half', { staff: 2, dots: 1 })]], {
        leftBarline: { style: 'regular', ending: { number: '2', type: 'start', text: '2.' } },
        rightBarline: { style: 'regular', ending: { number: '2', type: 'discontinue' } },
      }),
      measure([{ kind: 'rest', duration: frac(3), dots: 0, staff: 1, measureRest: true }], { multiRest: 2 }),
      measure([{ kind: 'rest', duration: frac(3), dots: 0, staff: 1, measureRest: true }], {
        rightBarline: { style: 'light-heavy' },
        directions: [direction(ZERO, { words: 'Fine', jump: 'fine', placement: 'above' }), direction(frac(2), { words: 'D.C. al Fine', jump: 'daCapo', placement: 'below' })],
      }),
    ]),
    { id: 'P1', name: 'Piano', abbreviation: 'Pno.', staves: 2 },
  );
  const clarinet = part(
    numbered([
      measure([note('D5', 'quarter')], { clefs: [{ sign: 'G', line: 2, staff: 1, offset: ZERO }], key: { fifths: -1 }, time: { beats: 3, beatType: 4 }, implicit: true }),
      measure([note('D5', '16th', { dots: 2 }), note('E5', '64th'), note('F5', 'eighth'), note('G5', 'half')]),
      measure([note('A5', 'half', { dots: 1 })]),
      measure([rest('quarter'), rest('quarter', { hidden: true }), note('C6', 'quarter')]),
      measure([{ kind: 'rest', duration: frac(3), dots: 0, staff: 1, measureRest: true }], { multiRest: 2 }),
      measure([{ kind: 'rest', duration: frac(3), dots: 0, staff: 1, measureRest: true }]),
    ]),
    { id: 'P2', name: 'Clarinet in B♭', instrumentId: 'wind.clarinet-bflat', midiProgram: 71, transposition: { diatonic: -1, chromatic: -2 } },
  );
  return {
    credits: { title: 'Kitchen Sink', subtitle: 'for testing', composer: 'A. Composer', lyricist: 'B. Poet', rights: 'CC0' },
    parts: [piano, clarinet],
    partGroups: [{ first: 0, last: 1, symbol: 'bracket', barlinesConnected: true, name: 'Ensemble' }],
  };
}

describe('writeMusicXml', () => {
  it('writes a score that validates against the MusicXML 4.0 XSD', () => {
    expect(validate(writeMusicXml(kitchenSink()))).toEqual([]);
  });

  it('reads back to exactly the same model', () => {
    const original = kitchenSink();
    const again = readMusicXml(writeMusicXml(original));
    expect(withoutDivisions(again)).toEqual(original);
  });

  it('.mxl reads back to the same model as .musicxml', () => {
    const original = kitchenSink();
    expect(withoutDivisions(readMusicXml(writeMxl(original)))).toEqual(original);
  });

  it('names the library and the recognition model in <encoding>', () => {
    const xml = writeMusicXml(kitchenSink(), { modelVersion: 'omr-2026.11', encodingDate: '2026-11-21' });
    expect(xml).toContain(`<software>ScoreSight ${LIBRARY_VERSION}</software>`);
    expect(xml).toContain('<software>ScoreSight recognition model omr-2026.11</software>');
    expect(xml).toContain('<encoding-date>2026-11-21</encoding-date>');
    expect(writeMusicXml(kitchenSink())).not.toContain('recognition model');
  });

  it('derives divisions that express every duration exactly, and keeps compatible declared ones', () => {
    const s = kitchenSink();
    const xml = writeMusicXml(s);
    // Piano measure 2 has triplet eighths (1/3): 3 divisions, kept afterwards since they still suffice;
    // the clarinet's 64th after a double-dotted 16th needs 16.
    expect(xml.match(/<divisions>\d+<\/divisions>/g)).toEqual(['<divisions>1</divisions>', '<divisions>3</divisions>', '<divisions>1</divisions>', '<divisions>16</divisions>']);
    // A declared value that expresses everything (480 is a multiple of 16) is used throughout.
    s.parts[1]!.measures[0]!.divisions = 480;
    expect(writeMusicXml(s).match(/<divisions>\d+<\/divisions>/g)?.slice(2)).toEqual(['<divisions>480</divisions>']);
  });

  it('writes part groups, instruments and MIDI programs into the part list', () => {
    const xml = writeMusicXml(kitchenSink());
    expect(xml).toMatch(/<part-group type="start" number="1">\s*<group-name>Ensemble<\/group-name>\s*<group-symbol>bracket<\/group-symbol>/);
    expect(xml).toContain('<instrument-sound>wind.clarinet-bflat</instrument-sound>');
    expect(xml).toContain('<midi-program>72</midi-program>');
  });

  it('escapes text so that any title survives', () => {
    const s = kitchenSink();
    s.credits.title = 'Fish & <Chips> "quoted" \u00e9\u4e50';
    expect(readMusicXml(writeMusicXml(s)).credits.title).toBe(s.credits.title);
  });

  it('writes a single-note tremolo on a chord’s first note only and an arpeggio on every note, and validates', () => {
    const rolled = note(['C4', 'E4', 'G4'], 'half');
    rolled.tremolo = { type: 'single', marks: 2 };
    rolled.arpeggiate = true;
    const xml = writeMusicXml(score(part(numbered([measure([rolled, note('C5', 'half')], { time: { beats: 4, beatType: 4 } })]))));
    expect(xml.match(/<tremolo type="single">2<\/tremolo>/g)).toHaveLength(1);
    expect(xml.match(/<arpeggiate\/>/g)).toHaveLength(3);
    expect(validate(xml)).toEqual([]);
    const back = readMusicXml(xml).parts[0]!.measures[0]!.voices[0]!.events[0]!;
    expect(back).toMatchObject({ tremolo: { type: 'single', marks: 2 }, arpeggiate: true });
  });

  it('escapes an ampersand that already looks like an entity, so the text reads back as it was', () => {
    const s = kitchenSink();
    s.credits.title = 'R&amp;B &#38; &nbsp;';
    s.credits.composer = 'A&B';
    const xml = writeMusicXml(s);
    expect(xml).toContain('<work-title>R&amp;amp;B &amp;#38; &amp;nbsp;</work-title>');
    expect(validate(xml)).toEqual([]);
    expect(readMusicXml(xml).credits).toMatchObject({ title: s.credits.title, composer: 'A&B' });
  });

  it('drops characters XML cannot carry, so recognised text never makes the file unreadable', () => {
    const s = kitchenSink();
    s.credits.title = 'Sona\u0001ta\u000b';
    const xml = writeMusicXml(s);
    expect(validate(xml)).toEqual([]);
    expect(readMusicXml(xml).credits.title).toBe('Sonata');
  });

  it('writes the declaration, the partwise DOCTYPE and two-space indentation', () => {
    const lines = writeMusicXml(kitchenSink(), { encodingDate: '2020-01-01' }).split('\n');
    expect(lines.slice(0, 5)).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" "http://www.musicxml.org/dtds/partwise.dtd">',
      '<score-partwise version="4.0">',
      '  <work>',
      '    <work-title>Kitchen Sink</work-title>',
    ]);
    expect(lines.at(-1)).toBe('</score-partwise>');
  });
});

describe('tuplets in MusicXML', () => {
  /** 2/4: a triplet with its number printed, then one the page leaves implied; a violin's sextuplet and quarter. */
  function tuplets(): Score {
    const group = (pitches: string[], ratio: { actual: number; normal: number }, type: '16th' | 'eighth', implied: boolean) =>
      pitches.map((p, k) => note(p, type, { tuplet: { ...ratio, ...(k === 0 && { start: true }), ...(k === pitches.length - 1 && { stop: true }), ...(implied && { implied }) } }));
    const printed = group(['C5', 'D5', 'E5'], { actual: 3, normal: 2 }, 'eighth', false);
    const implied = group(['F5', 'E5', 'D5'], { actual: 3, normal: 2 }, 'eighth', true);
    const sextuplet = group(['G4', 'A4', 'B4', 'C5', 'D5', 'E5'], { actual: 6, normal: 4 }, '16th', true);
    return {
      credits: {},
      parts: [
        part(numbered([measure([...printed, ...implied], { clefs: [{ sign: 'G', line: 2, staff: 1, offset: ZERO }], key: { fifths: 0 }, time: { beats: 2, beatType: 4 } })]), { id: 'P1', name: 'Violin' }),
        part(numbered([measure([...sextuplet, note('F5', 'quarter')], { clefs: [{ sign: 'G', line: 2, staff: 1, offset: ZERO }], key: { fifths: 0 }, time: { beats: 2, beatType: 4 } })]), { id: 'P2', name: 'Violin' }),
      ],
      partGroups: [],
    };
  }

  it('writes time-modification on every note, tuplet start and stop on the first and last, unprinted where implied, and validates', () => {
    const xml = writeMusicXml(tuplets());
    expect(validate(xml)).toEqual([]);
    expect(xml.match(/<time-modification>/g)).toHaveLength(12);
    expect(xml.match(/<actual-notes>6<\/actual-notes>\s*<normal-notes>4<\/normal-notes>/g)).toHaveLength(6);
    const marks = [...xml.matchAll(/<tuplet [^>]*\/>/g)].map((m) => m[0]);
    expect(marks).toEqual([
      '<tuplet type="start"/>',
      '<tuplet type="stop"/>',
      '<tuplet type="start" bracket="no" show-number="none"/>',
      '<tuplet type="stop" bracket="no" show-number="none"/>',
      '<tuplet type="start" bracket="no" show-number="none"/>',
      '<tuplet type="stop" bracket="no" show-number="none"/>',
    ]);
  });

  it('reads implied tuplets back as implied', () => {
    const original = tuplets();
    expect(withoutDivisions(readMusicXml(writeMusicXml(original)))).toEqual(original);
  });
});

describe('the XSD check itself', () => {
  it('rejects an invalid document (so the validation tests can fail)', () => {
    const xml = writeMusicXml(score(part([measure([note('C4', 'whole')])])));
    const broken = xml.replace(/<pitch>([\s\S]*?)<\/pitch>\s*<duration>(\d+)<\/duration>/, '<duration>$2</duration><pitch>$1</pitch>');
    expect(broken).not.toBe(xml);
    expect(validate(broken).length).toBeGreaterThan(0);
  });
});
