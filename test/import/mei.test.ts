/**
 * The MEI reader: a hand-written document read into an exact model; real
 * Humdrum from the Polish corpus through Verovio (checked against the
 * `**kern` source itself); round trips through MusicXML; and the corpus
 * converted as a whole.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { writeMusicXml } from '../../src/exports/musicxml.js';
import { readMei } from '../../src/import/mei/read-mei.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { frac, ZERO } from '../../src/score/fraction.js';
import type { Accidental, Lyric, NoteEvent, Score, VoiceEvent } from '../../src/score/model.js';
import { soundingMidiNumber } from '../../src/score/pitch.js';
import { placedNotes } from '../../src/score/timeline.js';
import { humdrumToMei } from '../../training/data/humdrum.js';
import { CORPUS_DIR, sample } from '../support/corpus.js';
import { noteContent } from '../support/note-content.js';
import { note, rest } from '../support/score-builder.js';
import { validateMusicXmlFiles } from '../support/xsd.js';
import { yieldToRunner } from '../support/yield-to-runner.js';

const SMALL = `<?xml version="1.0" encoding="UTF-8"?>
<mei xmlns="http://www.music-encoding.org/ns/mei" meiversion="5.0">
  <meiHead>
    <fileDesc>
      <titleStmt>
        <title>Little Test Piece</title>
        <respStmt>
          <persName role="composer">Anna Komponistka</persName>
          <persName role="lyricist">Jan Poeta</persName>
        </respStmt>
      </titleStmt>
      <pubStmt><availability><useRestrict>CC BY 4.0</useRestrict></availability></pubStmt>
    </fileDesc>
  </meiHead>
  <music><body><mdiv><score>
    <scoreDef>
      <staffGrp>
        <staffGrp symbol="bracket" bar.thru="true">
          <label>Voices</label>
          <staffDef n="1" lines="5">
            <label>Soprano</label>
            <labelAbbr>S.</labelAbbr>
            <clef shape="G" line="2"/>
            <keySig sig="1s"/>
            <meterSig count="3" unit="4"/>
          </staffDef>
          <staffDef n="2" lines="5" clef.shape="G" clef.line="2" clef.dis="8" clef.dis.place="below" key.sig="1s" meter.count="3" meter.unit="4">
            <label>Tenor</label>
          </staffDef>
        </staffGrp>
        <staffGrp symbol="brace" bar.thru="true">
          <label>Piano</label>
          <staffDef n="3" lines="5"><clef shape="G" line="2"/><keySig sig="1s"/><meterSig count="3" unit="4"/></staffDef>
          <staffDef n="4" lines="5"><clef shape="F" line="4"/><keySig sig="1s"/><meterSig count="3" unit="4"/></staffDef>
        </staffGrp>
      </staffGrp>
    </scoreDef>
    <section>
      <measure n="1">
        <staff n="1"><layer n="1">
          <note xml:id="s1" dur="4" pname="c" oct="5"><verse n="1"><syl wordpos="i" con="d">Hal</syl></verse></note>
          <note dur="4" pname="f" oct="5"><verse n="1"><syl wordpos="m" con="d">le</syl></verse></note>
          <note dur="4" pname="f" oct="5" accid="n"><verse n="1"><syl wordpos="t" con="u">lu</syl></verse></note>
        </layer></staff>
        <staff n="2"><layer n="1">
          <chord dur="2" dots="1">
            <note pname="g" oct="4"/>
            <note pname="e" oct="4"/>
            <note pname="b" oct="3"><accid accid="f" func="caution"/></note>
          </chord>
        </layer></staff>
        <staff n="3">
          <layer n="1">
            <tuplet num="3" numbase="2">
              <beam>
                <note dur="8" pname="c" oct="5" accid="s"/>
                <note dur="8" pname="d" oct="5"/>
                <note dur="8" pname="c" oct="5"/>
              </beam>
            </tuplet>
            <note dur="4" pname="c" oct="4"/>
            <rest dur="4"/>
          </layer>
          <layer n="2">
            <space dur="2"/>
            <note dur="4" pname="g" oct="4" stem.dir="down"/>
          </layer>
        </staff>
        <staff n="4"><layer n="1"><note xml:id="t1" dur="2" dots="1" pname="g" oct="2"/></layer></staff>
        <tie startid="#t1" endid="#t2"/>
        <dynam staff="1" startid="#s1" place="below">p</dynam>
        <tempo staff="1" tstamp="1" mm="96" mm.unit="4" place="above">Allegro</tempo>
        <dir staff="3" tstamp="2" place="above">dolce</dir>
        <dir staff="1" tstamp="3" type="problem">⚠</dir>
      </measure>
      <measure n="2" right="rptend">
        <staff n="1"><layer n="1">
          <note grace="acc" dur="8" pname="e" oct="5"/>
          <note dur="2" dots="1" pname="d" oct="5" tie="i"/>
        </layer></staff>
        <staff n="2"><layer n="1"><mRest/></layer></staff>
        <staff n="3"><layer n="1">
          <beam>
            <note dur="8" pname="b" oct="4"/>
            <note dur="16" pname="a" oct="4"/>
            <note dur="16" pname="g" oct="4"/>
          </beam>
          <note dur="4" pname="f" oct="4"><accid accid="n"/></note>
          <note dur="4" pname="f" oct="4"/>
        </layer></staff>
        <staff n="4"><layer n="1">
          <note xml:id="t2" dur="4" pname="g" oct="2"/>
          <clef shape="C" line="4"/>
          <note dur="2" pname="c" oct="3"/>
        </layer></staff>
      </measure>
      <measure n="3">
        <staff n="1"><layer n="1"><note dur="2" dots="1" pname="d" oct="5" tie="t"/></layer></staff>
        <staff n="2"><layer n="1"><multiRest num="3"/></layer></staff>
        <staff n="3"><layer n="1"><multiRest num="3"/></layer></staff>
        <staff n="4"><layer n="1"><multiRest num="3"/></layer></staff>
      </measure>
      <scoreDef key.sig="2f" meter.count="2" meter.unit="4"/>
      <ending n="1">
        <measure n="6" right="end">
          <staff n="1"><layer n="1"><note dur="2" pname="b" oct="4"/></layer></staff>
          <staff n="2"><layer n="1"><note dur="4" pname="e" oct="4"/><note dur="4" pname="e" oct="4" accid.ges="n"/></layer></staff>
          <staff n="3"><layer n="1"><mRest/></layer></staff>
          <staff n="4"><layer n="1"><mRest/></layer></staff>
        </measure>
      </ending>
    </section>
  </score></mdiv></body></music>
</mei>`;

/** A builder note with what the builder does not set: accidentals per head, lyrics, beams, stem. */
function n(
  pitches: string | string[],
  type: Parameters<typeof note>[1],
  extra: { acc?: (Accidental | undefined)[]; lyric?: Lyric; beams?: NoteEvent['beams']; stem?: NoteEvent['stem'] } & Parameters<typeof note>[2] = {},
): NoteEvent {
  const { acc, lyric, beams, stem, ...options } = extra;
  const event = note(pitches, type, options);
  acc?.forEach((a, i) => {
    if (a) event.notes[i]!.accidental = a;
  });
  if (lyric) event.lyrics.push(lyric);
  if (beams) event.beams = beams;
  if (stem) event.stem = stem;
  return event;
}

const measureRest = (quarters: number, staff = 1): VoiceEvent => ({ kind: 'rest', duration: frac(quarters), dots: 0, staff, measureRest: true });

describe('readMei: a hand-written document', () => {
  const score = readMei(SMALL);
  const [soprano, tenor, piano] = score.parts;

  it('reads the header, the parts, the grand staff and the groups', () => {
    expect(score.credits).toEqual({ title: 'Little Test Piece', composer: 'Anna Komponistka', lyricist: 'Jan Poeta', rights: 'CC BY 4.0' });
    expect(score.parts.map((p) => [p.id, p.name, p.abbreviation, p.staves, p.instrumentId, p.measures.length])).toEqual([
      ['P1', 'Soprano', 'S.', 1, 'voice.soprano', 6],
      ['P2', 'Tenor', undefined, 1, 'voice.tenor', 6],
      ['P3', 'Piano', undefined, 2, 'keyboard.piano', 6],
    ]);
    // The brace around the piano staves is the part itself, not a group of parts.
    expect(score.partGroups).toEqual([{ first: 0, last: 1, symbol: 'bracket', barlinesConnected: true, name: 'Voices' }]);
    expect(piano!.measures.map((m) => m.number)).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('starts with clef, key and time; the tenor clef sounds an octave lower', () => {
    const [m1] = soprano!.measures;
    expect([m1!.key, m1!.time]).toEqual([{ fifths: 1 }, { beats: 3, beatType: 4 }]);
    expect(tenor!.measures[0]!.clefs).toEqual([{ sign: 'G', line: 2, octaveChange: -1, staff: 1, offset: ZERO }]);
    expect(piano!.measures[0]!.clefs).toEqual([
      { sign: 'G', line: 2, staff: 1, offset: ZERO },
      { sign: 'F', line: 4, staff: 2, offset: ZERO },
    ]);
    expect(soprano!.measures.slice(1, 5).every((m) => !m.key && !m.time && !m.clefs.length)).toBe(true);
  });

  it('reads accidentals as printed and pitches as sounding: key, earlier accidentals in the measure, accid.ges', () => {
    expect(soprano!.measures[0]!.voices).toEqual([
      {
        id: '1',
        events: [
          n('C5', 'quarter', { lyric: { verse: 1, text: 'Hal', syllabic: 'begin' } }),
          // F sharp from the key signature, nothing printed.
          n('F#5', 'quarter', { lyric: { verse: 1, text: 'le', syllabic: 'middle' } }),
          n('F5', 'quarter', { acc: [{ sign: 'natural' }], lyric: { verse: 1, text: 'lu', syllabic: 'end', extend: true } }),
        ],
      },
    ]);
    // Chord notes lowest first; a cautionary accidental from a child <accid func="caution">.
    expect(tenor!.measures[0]!.voices).toEqual([{ id: '1', events: [n(['Bb3', 'E4', 'G4'], 'half', { dots: 1, acc: [{ sign: 'flat', cautionary: true }] })] }]);
    // Two flats from m. 6: E flat from the key, then E natural from accid.ges without a printed sign.
    expect(tenor!.measures[5]!.voices[0]!.events).toEqual([n('Eb4', 'quarter'), n('E4', 'quarter')]);
    expect(soprano!.measures[5]!.voices[0]!.events).toEqual([n('Bb4', 'half')]);
  });

  it('reads a tuplet under a beam, an accidental holding for the measure, and a second layer with a gap', () => {
    const triplet = { actual: 3, normal: 2 };
    expect(piano!.measures[0]!.voices).toEqual([
      {
        id: '1',
        events: [
          n('C#5', 'eighth', { tuplet: { ...triplet, start: true }, acc: [{ sign: 'sharp' }], beams: ['begin'] }),
          n('D5', 'eighth', { tuplet: triplet, beams: ['continue'] }),
          // The sharp earlier in the measure still applies; another octave is not affected.
          n('C#5', 'eighth', { tuplet: { ...triplet, stop: true }, beams: ['end'] }),
          n('C4', 'quarter'),
          rest('quarter'),
        ],
      },
      { id: '2', events: [{ kind: 'rest', duration: frac(2), dots: 0, staff: 1, hidden: true }, n('G4', 'quarter', { stem: 'down' })] },
      // The left hand's first layer is voice 5; the tie comes from a <tie> element.
      { id: '5', events: [n('G2', 'half', { dots: 1, staff: 2, tieStart: true })] },
    ]);
    expect(piano!.measures[1]!.voices).toEqual([
      {
        id: '1',
        events: [
          n('B4', 'eighth', { beams: ['begin'] }),
          n('A4', '16th', { beams: ['continue', 'begin'] }),
          n('G4', '16th', { beams: ['end', 'end'] }),
          n('F4', 'quarter', { acc: [{ sign: 'natural' }] }),
          n('F4', 'quarter'),
        ],
      },
      { id: '5', events: [n('G2', 'quarter', { staff: 2, tieStop: true }), n('C3', 'half', { staff: 2 })] },
    ]);
    expect(piano!.measures[1]!.clefs).toEqual([{ sign: 'C', line: 4, staff: 2, offset: frac(1) }]);
  });

  it('reads grace notes, ties by attribute, and whole-measure rests as long as the measure', () => {
    expect(soprano!.measures[1]!.voices[0]!.events).toEqual([
      { ...n('E5', 'eighth', { grace: true }), grace: { slash: true } },
      n('D5', 'half', { dots: 1, tieStart: true }),
    ]);
    expect(soprano!.measures[2]!.voices[0]!.events).toEqual([n('D5', 'half', { dots: 1, tieStop: true })]);
    expect(tenor!.measures[1]!.voices).toEqual([{ id: '1', events: [measureRest(3)] }]);
    expect(piano!.measures[5]!.voices).toEqual([
      { id: '1', events: [measureRest(2)] },
      { id: '5', events: [measureRest(2, 2)] },
    ]);
  });

  it('expands a multi-measure rest into that many measures, the first carrying the count', () => {
    expect(piano!.measures.slice(2, 5).map((m) => [m.number, m.multiRest, m.voices])).toEqual(
      [3, 4, 5].map((number, i) => [
        String(number),
        i === 0 ? 3 : undefined,
        [
          { id: '1', events: [measureRest(3)] },
          { id: '5', events: [measureRest(3, 2)] },
        ],
      ]),
    );
    // The soprano sings in m. 3 and rests in the measures the others spend in the multi-rest.
    expect(soprano!.measures[2]!.multiRest).toBeUndefined();
    expect(soprano!.measures[3]!.voices).toEqual([{ id: '1', events: [measureRest(3)] }]);
  });

  it('reads barlines, voltas, key and meter changes between measures, and directions', () => {
    expect(soprano!.measures[1]!.rightBarline).toEqual({ style: 'light-heavy', repeat: { direction: 'backward' } });
    const last = piano!.measures[5]!;
    expect([last.key, last.time]).toEqual([{ fifths: -2 }, { beats: 2, beatType: 4 }]);
    expect(last.leftBarline).toEqual({ style: 'regular', ending: { number: '1', type: 'start' } });
    expect(last.rightBarline).toEqual({ style: 'light-heavy', ending: { number: '1', type: 'stop' } });
    expect(soprano!.measures[0]!.directions).toEqual([
      { offset: ZERO, staff: 1, placement: 'below', dynamics: 'p' },
      { offset: ZERO, staff: 1, placement: 'above', words: 'Allegro', metronome: { beatUnit: 'quarter', dots: 0, perMinute: 96 }, tempo: 96 },
    ]);
    expect(piano!.measures[0]!.directions).toEqual([{ offset: frac(1), staff: 1, placement: 'above', words: 'dolce' }]);
  });

  it('refuses what is not MEI, and names the measure of malformed content', () => {
    expect(() => readMei('<score-partwise version="4.0"/>')).toThrow(OmrError);
    expect(() => readMei('<score-partwise version="4.0"/>')).toThrow(/not <mei>/);
    expect(() => readMei('<mei><music')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => readMei('')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    const broken = SMALL.replace('<note dur="4" pname="c" oct="4"/>', '<note dur="4" pname="h" oct="4"/>');
    expect(() => readMei(broken)).toThrow(/measure 1: a note has an invalid pitch/);
    const noDur = SMALL.replace('<note dur="4" pname="f" oct="4"/>', '<note pname="f" oct="4"/>');
    expect(() => readMei(noDur)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^measure 2: /) }));
  });

  it('reads bytes, prefixed element names, and skips what it does not know', () => {
    expect(readMei(new TextEncoder().encode(SMALL))).toEqual(score);
    const prefixed = SMALL.replace(/<(\/?)(?!\?)([A-Za-z])/g, '<$1mei:$2').replace('<mei:mei xmlns=', '<mei:mei xmlns:mei=');
    expect(readMei(prefixed)).toEqual(score);
    const extra = SMALL.replace('<rest dur="4"/>', '<custos pname="c" oct="5"/><rest dur="4"/><barLine form="dbl"/>').replace(
      '<tie startid="#t1" endid="#t2"/>',
      '<tie startid="#t1" endid="#t2"/><slur startid="#s1" endid="#t1"/><hairpin staff="1" tstamp="1" tstamp2="0m+3" form="cres"/>',
    );
    expect(readMei(extra)).toEqual(score);
    // Verovio's Humdrum import now and then writes an attribute twice; the first value holds.
    const doubled = SMALL.replace('<staffGrp symbol="bracket" bar.thru="true">', '<staffGrp symbol="bracket" bar.thru="true" symbol="brace">');
    expect(() => readMei(doubled.replace('<mei ', '<mei x="1" x="2" ').replace('<music>', '<music><'))).toThrow(OmrError);
    expect(readMei(doubled)).toEqual(score);
  });
});

// ---------------------------------------------------------------------------
// Real data: the Polish Humdrum corpus through Verovio.

const POLISH = join(CORPUS_DIR, 'polish');
const krnFiles = readdirSync(POLISH)
  .filter((f) => f.endsWith('.krn'))
  .sort();

/**
 * Sounding MIDI numbers of the notes a `**kern` file attacks — not grace
 * notes, not invisible ones (`yy`), not tie continuations — read straight
 * from the Humdrum, where every pitch is spelled absolutely: an independent
 * check of durations, repeats and the accidental logic of the reader.
 */
function kernAttacks(humdrum: string): number[] {
  const steps: Record<string, number> = { c: 0, d: 2, e: 4, f: 5, g: 7, a: 9, b: 11 };
  let spines: string[] = [];
  const out: number[] = [];
  for (const line of humdrum.split(/\r?\n/)) {
    if (!line || line.startsWith('!!')) continue;
    const tokens = line.split('\t');
    if (line.startsWith('**')) {
      spines = tokens;
    } else if (line.startsWith('*')) {
      // Spine splits (*^), joins (*v), ends (*-), additions (*+) and exchanges (*x).
      const next: string[] = [];
      tokens.forEach((t, i) => {
        const type = spines[i] ?? '';
        if (t === '*^') next.push(type, type);
        else if (t === '*v') {
          if (i === 0 || tokens[i - 1] !== '*v') next.push(type);
        } else if (t === '*+') next.push(type, '');
        else if (t.startsWith('**')) next.push(t);
        else if (t !== '*-') next.push(type);
      });
      const exchanged = tokens.flatMap((t, i) => (t === '*x' ? [i] : []));
      if (exchanged.length === 2 && next.length === tokens.length) {
        const [a, b] = exchanged as [number, number];
        [next[a], next[b]] = [next[b]!, next[a]!];
      }
      spines = next;
    } else if (!line.startsWith('!') && !line.startsWith('=')) {
      tokens.forEach((token, i) => {
        if (spines[i] !== '**kern' || token === '.') return;
        for (const sub of token.split(' ')) {
          if (/[qQr_\]]/.test(sub) || sub.includes('yy')) continue;
          const letters = /([a-gA-G])\1*/.exec(sub);
          if (!letters) continue;
          const name = letters[0];
          const octave = name[0] === name[0]!.toLowerCase() ? 3 + name.length : 4 - name.length;
          const accidental = /^(#+|-+)?/.exec(sub.slice(letters.index + name.length))![0];
          const alter = accidental.startsWith('#') ? accidental.length : -accidental.length;
          out.push((octave + 1) * 12 + steps[name[0]!.toLowerCase()]! + alter);
        }
      });
    }
  }
  return out;
}

/** The same from the score: attacks (no grace notes, no tie continuations) at sounding pitch. */
function scoreAttacks(score: Score): number[] {
  const out: number[] = [];
  for (const p of placedNotes(score)) {
    if (!p.grace && !p.note.tieStop) out.push(soundingMidiNumber(p.pitch, score.parts[p.part]!.transposition));
  }
  return out;
}

/** How many of `ours` find a partner in `theirs` by pitch class (octave-displaced notes under 8va lines count). */
function pitchClassMatches(ours: number[], theirs: number[]): number {
  const left = new Map<number, number>();
  for (const m of theirs) left.set(m % 12, (left.get(m % 12) ?? 0) + 1);
  let matched = 0;
  for (const m of ours) {
    const c = left.get(m % 12) ?? 0;
    if (c > 0) {
      left.set(m % 12, c - 1);
      matched++;
    }
  }
  return matched;
}

interface RealCase {
  file: string;
  humdrum: string;
  mei: string;
  score: Score;
}

describe('readMei: Polish Humdrum through Verovio', () => {
  // 20 files spread over the sorted corpus.
  const files = sample(krnFiles, Math.floor(krnFiles.length / 20)).slice(0, 20);
  const cases: RealCase[] = [];
  let outDir: string;

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'scoresight-mei-'));
    for (const file of files) {
      const humdrum = readFileSync(join(POLISH, file), 'utf8');
      const mei = await humdrumToMei(humdrum);
      cases.push({ file, humdrum, mei, score: readMei(mei) });
    }
  }, 120_000);

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('reads 20 sampled files into scores with notes in their first part', () => {
    expect(krnFiles.length).toBeGreaterThanOrEqual(1000);
    expect(cases.length).toBe(20);
    for (const c of cases) {
      expect(c.score.parts.length, c.file).toBeGreaterThan(0);
      expect(scoreAttacks(c.score).length, c.file).toBeGreaterThan(20);
      const lengths = new Set(c.score.parts.map((p) => p.measures.length));
      expect(lengths.size, c.file).toBe(1);
    }
  });

  it('attacks as many notes as the **kern source, at the same pitches', () => {
    let exactCount = 0;
    let exactPitches = 0;
    for (const c of cases) {
      const theirs = kernAttacks(c.humdrum);
      const ours = scoreAttacks(c.score);
      // Tremolos whose unit Verovio's MEI does not state exactly may differ by a few notes.
      expect(Math.abs(ours.length - theirs.length), c.file).toBeLessThanOrEqual(Math.ceil(theirs.length * 0.02));
      expect(pitchClassMatches(ours, theirs), c.file).toBeGreaterThanOrEqual(Math.floor(Math.min(ours.length, theirs.length) * 0.98));
      if (ours.length === theirs.length) exactCount++;
      if (ours.slice().sort().join() === theirs.slice().sort().join()) exactPitches++;
    }
    expect(exactCount).toBeGreaterThanOrEqual(18);
    expect(exactPitches).toBeGreaterThanOrEqual(17);
  });

  it('keeps every note element of the MEI that is sounded and seen', () => {
    let checked = 0;
    for (const c of cases) {
      // Without tremolos or repeat signs, the MEI's own <note>s are the score's notes, less grace notes
      // and invisible notes (which take their time as hidden rests).
      if (/<(bTrem|fTrem|mRpt|beatRpt|halfmRpt|mRpt2|multiRpt)\b/.test(c.mei)) continue;
      const seen = c.mei.replace(/<chord\b[^>]*\svisible="false"[^>]*>[\s\S]*?<\/chord>/g, '');
      const elements = seen.match(/<note\b[^>]*>/g) ?? [];
      const expected = elements.filter((e) => !/\sgrace="|\svisible="false"/.test(e)).length;
      let notes = 0;
      for (const p of placedNotes(c.score)) if (!p.grace) notes++;
      expect(notes, c.file).toBe(expected);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('writes MusicXML that validates against the XSD and reads back with the same note content', () => {
    const paths: string[] = [];
    for (const [i, c] of cases.entries()) {
      const xml = writeMusicXml(c.score, { encodingDate: '2026-01-01' });
      const path = join(outDir, `${i}.musicxml`);
      writeFileSync(path, xml);
      paths.push(path);
      const again = readMusicXml(xml);
      expect(noteContent(again), c.file).toEqual(noteContent(c.score));
      expect(again.parts.map((p) => [p.name, p.staves, p.measures.length])).toEqual(c.score.parts.map((p) => [p.name, p.staves, p.measures.length]));
    }
    expect(validateMusicXmlFiles(paths)).toEqual([]);
  });
});

describe('readMei: the Polish corpus', () => {
  it('converts a fixed sample of at least 300 Humdrum files', { timeout: 300_000 }, async () => {
    // Every fourth file: the whole corpus takes Verovio alone about 80 s.
    const files = sample(krnFiles, 4);
    expect(files.length).toBeGreaterThanOrEqual(300);
    const verovioFailures: string[] = [];
    const readerFailures: string[] = [];
    let notes = 0;
    const started = performance.now();
    for (const file of files) {
      await yieldToRunner();
      let mei: string;
      try {
        mei = await humdrumToMei(readFileSync(join(POLISH, file), 'utf8'));
      } catch (err) {
        verovioFailures.push(`${file}: ${(err as Error).message}`);
        continue;
      }
      try {
        const score = readMei(mei);
        notes += scoreAttacks(score).length;
      } catch (err) {
        readerFailures.push(`${file}: ${(err as Error).message}`);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `MEI corpus sample: ${files.length} files, Verovio could not load ${verovioFailures.length}, the reader refused ${readerFailures.length}, ` +
        `${notes} notes, ${seconds.toFixed(1)} s\n${[...verovioFailures, ...readerFailures].join('\n')}`,
    );
    // Verovio's own failures are the input's problem; of what it loads, the reader must read 95 % or more.
    const loaded = files.length - verovioFailures.length;
    expect(loaded).toBeGreaterThanOrEqual(files.length * 0.95);
    expect(loaded - readerFailures.length).toBeGreaterThanOrEqual(loaded * 0.95);
    expect(notes).toBeGreaterThan(files.length * 100);
  });
});
