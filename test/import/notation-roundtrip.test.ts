/**
 * Slurs, ornaments, wavy lines, tremolos, arpeggios, hairpins, pedal marks,
 * octave lines, rehearsal marks and segno/coda: the MusicXML reader fills the model's
 * fields for them, the writer writes them back valid against the XSD, and on
 * real quartets nothing is lost on the way in or out.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMusicXml } from '../../src/exports/musicxml.js';
import { extractMxlScore } from '../../src/import/mxl-container.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { frac, ZERO } from '../../src/score/fraction.js';
import type { Direction, Measure, NoteEvent, Score } from '../../src/score/model.js';
import { excerpt } from '../../training/data/excerpt.js';
import { CORPUS_DIR, readBytes } from '../support/corpus.js';
import { direction, measure, note, numbered, part, rest, score } from '../support/score-builder.js';
import { validateMusicXmlFiles } from '../support/xsd.js';
import { yieldToRunner } from '../support/yield-to-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'scoresight-notation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function validate(xml: string, name = `${Math.random().toString(36).slice(2)}.musicxml`): string[] {
  const path = join(dir, name);
  writeFileSync(path, xml);
  return validateMusicXmlFiles([path]);
}

/** The reader records the `<divisions>` it met; the writer chooses its own, so they are not content. */
function withoutDivisions(s: Score): Score {
  return { ...s, parts: s.parts.map((p) => ({ ...p, measures: p.measures.map(({ divisions: _d, ...m }) => m as Measure) })) };
}

const noteEvents = (m: Measure): NoteEvent[] => m.voices.flatMap((v) => v.events.filter((e): e is NoteEvent => e.kind === 'note'));

const pitch = (step: string, octave: number) => `<pitch><step>${step}</step><octave>${octave}</octave></pitch>`;
const quarter = (step: string, notations = '', extra = '') =>
  `<note>${extra.includes('<chord/>') ? '<chord/>' : ''}${pitch(step, 4)}<duration>1</duration><voice>1</voice><type>quarter</type>${notations && `<notations>${notations}</notations>`}</note>`;
const dirType = (content: string, attrs = '') => `<direction${attrs}><direction-type>${content}</direction-type></direction>`;

/** Every new element, hand-written as other programs write them. */
const HAND_WRITTEN = `<?xml version="1.0" encoding="UTF-8"?>
<score-partwise version="4.0">
  <part-list><score-part id="P1"><part-name>Violin</part-name></score-part></part-list>
  <part id="P1">
    <measure number="1">
      <attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time></attributes>
      ${dirType('<rehearsal font-weight="bold">A</rehearsal>', ' placement="above"')}
      ${dirType('<segno/>')}
      ${dirType('<wedge type="crescendo"/>', ' placement="below"')}
      ${quarter('C', '<slur type="start" placement="above"/><ornaments><trill-mark/><accidental-mark>flat</accidental-mark><wavy-line type="start" number="1"/></ornaments><fermata type="upright"/>')}
      ${quarter('D', '<slur type="continue" number="1"/><slur type="start" number="2" placement="below"/><ornaments><mordent/><inverted-mordent long="yes"/><other-ornament>x</other-ornament><wavy-line type="stop" number="1"/></ornaments>')}
      ${dirType('<wedge type="stop" number="1"/>')}
      ${dirType('<dynamics><f/></dynamics>')}
      ${quarter('E', '<slur type="stop"/><ornaments><turn/><inverted-turn/><delayed-turn/><delayed-inverted-turn/><vertical-turn/><shake/><schleifer/><haydn/></ornaments><articulations><staccato/></articulations>')}
      ${dirType('<wedge type="diminuendo" number="2"/>')}
      ${quarter('F', '<slur type="stop" number="2"/><ornaments><tremolo type="single">3</tremolo></ornaments>')}
    </measure>
    <measure number="2">
      ${dirType('<wedge type="continue" number="2"/>')}
      ${dirType('<pedal type="start" line="no"/>')}
      ${quarter('C', '<arpeggiate/>')}
      ${quarter('E', '<arpeggiate/><slur type="start"/>', '<chord/>')}
      ${quarter('G', '<arpeggiate/>', '<chord/>')}
      ${dirType('<pedal type="change" line="yes"/>')}
      ${quarter('D', '<ornaments><tremolo>2</tremolo></ornaments>')}
      ${dirType('<pedal type="continue"/>')}
      ${quarter('E', '<slur type="stop"/><ornaments><tremolo type="start">1</tremolo></ornaments>')}
      ${dirType('<pedal type="stop"/>')}
      ${dirType('<wedge type="stop" number="2"/>')}
      ${quarter('F', '<ornaments><tremolo type="stop">1</tremolo></ornaments>')}
    </measure>
    <measure number="3">
      ${dirType('<pedal type="sostenuto"/>')}
      ${dirType('<octave-shift type="down" size="8"/>', ' placement="above"')}
      ${quarter('C', '<ornaments><tremolo type="unmeasured">0</tremolo></ornaments>')}
      ${dirType('<pedal type="discontinue"/>')}
      ${quarter('D')}
      ${dirType('<pedal type="resume"/>')}
      ${dirType('<coda/>')}
      ${quarter('E')}
      ${dirType('<pedal type="bogus"/><wedge type="bogus"/><octave-shift type="bogus"/>')}
      ${dirType('<octave-shift type="stop" size="15"/>')}
      ${quarter('F')}
    </measure>
  </part>
</score-partwise>`;

describe('reading the new notations', () => {
  const read = readMusicXml(HAND_WRITTEN);
  const [m1, m2, m3] = read.parts[0]!.measures as [Measure, Measure, Measure];

  it('reads slurs, ornaments, wavy lines, tremolos and arpeggios onto their strokes', () => {
    const [c, d, e, f] = noteEvents(m1);
    expect(c!.slurs).toEqual([{ type: 'start', number: 1, placement: 'above' }]);
    expect(c!.ornaments).toEqual(['trill-mark']);
    expect(c!.wavyLine).toBe('start');
    expect(c!.articulations).toEqual(['fermata']);
    expect(d!.slurs).toEqual([{ type: 'continue', number: 1 }, { type: 'start', number: 2, placement: 'below' }]);
    // <other-ornament> is not in the model; <accidental-mark> after the trill is skipped without harm.
    expect(d!.ornaments).toEqual(['mordent', 'inverted-mordent']);
    expect(d!.wavyLine).toBe('stop');
    expect(e!.slurs).toEqual([{ type: 'stop', number: 1 }]);
    expect(e!.ornaments).toEqual(['turn', 'inverted-turn', 'delayed-turn', 'delayed-inverted-turn', 'vertical-turn', 'shake', 'schleifer', 'haydn']);
    expect(e!.articulations).toEqual(['staccato']);
    expect(f!.tremolo).toEqual({ marks: 3, type: 'single' });
    expect(f!.slurs).toEqual([{ type: 'stop', number: 2 }]);
    expect(f!.wavyLine).toBeUndefined();

    const [chord, d2, e2, f2] = noteEvents(m2);
    expect(chord!.notes).toHaveLength(3);
    expect(chord!.arpeggiate).toBe(true);
    // A slur on the chord's second head belongs to the stroke.
    expect(chord!.slurs).toEqual([{ type: 'start', number: 1 }]);
    expect(d2!.tremolo).toEqual({ marks: 2, type: 'single' });
    expect(d2!.arpeggiate).toBeUndefined();
    expect(e2!.tremolo).toEqual({ marks: 1, type: 'start' });
    expect(f2!.tremolo).toEqual({ marks: 1, type: 'stop' });

    // Unmeasured tremolos are not in the model; a plain note gains no empty fields.
    const [c3, d3] = noteEvents(m3);
    expect(c3!.tremolo).toBeUndefined();
    expect(Object.keys(d3!).sort()).toEqual(['dots', 'duration', 'kind', 'lyrics', 'notes', 'staff', 'type']);
  });

  it('keeps directions that hold only a hairpin, a pedal mark, an octave line, a rehearsal mark or a sign', () => {
    const strip = (ds: Direction[]) => ds.map(({ offset, ...rest }) => ({ at: offset.n / offset.d, ...rest }));
    expect(strip(m1.directions)).toEqual([
      { at: 0, staff: 1, placement: 'above', rehearsal: 'A' },
      { at: 0, staff: 1, sign: 'segno' },
      { at: 0, staff: 1, placement: 'below', wedge: { type: 'crescendo', number: 1 } },
      { at: 2, staff: 1, wedge: { type: 'stop', number: 1 } },
      { at: 2, staff: 1, dynamics: 'f' },
      { at: 3, staff: 1, wedge: { type: 'diminuendo', number: 2 } },
    ]);
    expect(strip(m2.directions)).toEqual([
      { at: 0, staff: 1, wedge: { type: 'continue', number: 2 } },
      { at: 0, staff: 1, pedal: 'start' },
      { at: 1, staff: 1, pedal: 'change' },
      { at: 2, staff: 1, pedal: 'continue' },
      { at: 3, staff: 1, pedal: 'stop' },
      { at: 3, staff: 1, wedge: { type: 'stop', number: 2 } },
    ]);
    // Sostenuto goes down like a damper pedal; a discontinued line ends and a resumed one starts; unknown types are dropped with their direction.
    expect(strip(m3.directions)).toEqual([
      { at: 0, staff: 1, pedal: 'start' },
      { at: 0, staff: 1, placement: 'above', octaveShift: { type: 'down', size: 8 } },
      { at: 1, staff: 1, pedal: 'stop' },
      { at: 2, staff: 1, pedal: 'start' },
      { at: 2, staff: 1, sign: 'coda' },
      { at: 3, staff: 1, octaveShift: { type: 'stop', size: 15 } },
    ]);
  });

  it('reads words printed with a dynamic as one mark ("f risoluto") as the dynamic and the words', () => {
    const withWords = (dynamics: string, words = '') =>
      readMusicXml(HAND_WRITTEN.replace('<dynamics><f/></dynamics>', `${words}<dynamics>${dynamics}</dynamics>`)).parts[0]!.measures[0]!.directions[4];
    expect(withWords('<f/><other-dynamics> risoluto</other-dynamics>')).toMatchObject({ dynamics: 'f', words: 'risoluto' });
    expect(withWords('<pp/><other-dynamics>molto tranquillo</other-dynamics>', '<words>sempre</words>')).toMatchObject({ dynamics: 'pp', words: 'sempre molto tranquillo' });
    // Words alone in the dynamics style stay the dynamic's text; the metric reads them as words.
    expect(withWords('<other-dynamics>più</other-dynamics>')).toMatchObject({ dynamics: 'più' });
    expect(withWords('<other-dynamics>più</other-dynamics>')!.words).toBeUndefined();
  });

  it('survives the excerpt cutter: a cut measure keeps its strokes’ and directions’ new fields', () => {
    const cut = excerpt(read, { measures: [1, 3] });
    const [c2, c3] = cut.parts[0]!.measures as [Measure, Measure];
    expect(c2.voices).toEqual(m2.voices);
    expect(c2.directions).toEqual(m2.directions);
    expect(c3.directions).toEqual(m3.directions);
    expect(noteEvents(c2)[0]!.arpeggiate).toBe(true);
  });

  it('round-trips what it read exactly, and the written file validates against the XSD', () => {
    const xml = writeMusicXml(read);
    expect(validate(xml)).toEqual([]);
    expect(withoutDivisions(readMusicXml(xml))).toEqual(withoutDivisions(read));
  });
});

/** A two-staff part using every new field, built directly in the model. */
function notationScore(): Score {
  const a = note('C5', 'quarter');
  a.slurs = [{ type: 'start', number: 1, placement: 'above' }, { type: 'start', number: 3 }];
  a.ornaments = ['trill-mark', 'turn'];
  a.wavyLine = 'start';
  a.articulations = ['accent', 'fermata'];
  const b = note('D5', 'quarter');
  b.wavyLine = 'stop';
  b.slurs = [{ type: 'continue', number: 1 }];
  const c = note('E5', 'eighth');
  c.tremolo = { marks: 1, type: 'start' };
  c.beams = ['begin'];
  const d = note('C5', 'eighth');
  d.tremolo = { marks: 1, type: 'stop' };
  d.beams = ['end'];
  d.slurs = [{ type: 'stop', number: 1 }, { type: 'stop', number: 3 }];
  const chord = note(['C3', 'G3', 'E4'], 'half', { staff: 2 });
  chord.arpeggiate = true;
  chord.slurs = [{ type: 'start', number: 1, placement: 'below' }];
  chord.tremolo = { marks: 3, type: 'single' };
  const grace = note('B2', 'eighth', { grace: true, staff: 2 });
  grace.ornaments = ['mordent', 'inverted-mordent', 'shake', 'schleifer', 'haydn', 'vertical-turn', 'inverted-vertical-turn', 'delayed-turn', 'delayed-inverted-turn', 'inverted-turn'];
  const last = note('C3', 'quarter', { staff: 2 });
  last.slurs = [{ type: 'stop', number: 1 }];
  const piano = part(
    numbered([
      measure([[a, b, c, d], [chord, grace, last]], {
        time: { beats: 3, beatType: 4 },
        clefs: [
          { sign: 'G', line: 2, staff: 1, offset: ZERO },
          { sign: 'F', line: 4, staff: 2, offset: ZERO },
        ],
        directions: [
          direction(ZERO, { rehearsal: 'A', placement: 'above' }),
          direction(ZERO, { sign: 'segno', words: 'dolce', tempo: 90 }),
          direction(ZERO, { dynamics: 'p', wedge: { type: 'crescendo', number: 1 }, placement: 'below' }),
          direction(ZERO, { pedal: 'start', staff: 2, placement: 'below' }),
          direction(frac(1), { wedge: { type: 'diminuendo', number: 2 } }),
          direction(frac(2), { pedal: 'change', staff: 2 }),
          direction(frac(5, 2), { wedge: { type: 'stop', number: 1 }, dynamics: 'f' }),
          direction(frac(3), { wedge: { type: 'stop', number: 2 } }),
        ],
      }),
      measure([[rest('half', { dots: 1 })], [note('C3', 'half', { staff: 2, dots: 1 })]], {
        directions: [
          direction(ZERO, { pedal: 'continue', staff: 2 }),
          direction(ZERO, { wedge: { type: 'continue', number: 1 } }),
          direction(frac(2), { pedal: 'stop', staff: 2 }),
          direction(frac(2), { sign: 'coda' }),
        ],
        rightBarline: { style: 'light-heavy' },
      }),
    ]),
    { staves: 2 },
  );
  return score(piano);
}

describe('writing the new notations', () => {
  it('round-trips every new field exactly', () => {
    const original = notationScore();
    expect(withoutDivisions(readMusicXml(writeMusicXml(original)))).toEqual(original);
  });

  it('writes a file that validates against the MusicXML 4.0 XSD', () => {
    expect(validate(writeMusicXml(notationScore()))).toEqual([]);
  });

  it('puts slurs, ornaments and tremolos on a chord’s first head and the arpeggio on every head', () => {
    const xml = writeMusicXml(notationScore());
    // The chord is the first half note on the lower staff.
    const chordNotes = xml.match(/<note>[\s\S]*?<\/note>/g)!.filter((n) => n.includes('<staff>2</staff>') && n.includes('<type>half</type>'));
    expect(chordNotes.slice(0, 3).map((n) => [n.includes('<arpeggiate/>'), n.includes('<slur '), n.includes('<tremolo ')])).toEqual([
      [true, true, true],
      [true, false, false],
      [true, false, false],
    ]);
  });

  it('writes trills, wavy lines and tremolos inside one <ornaments>, and hairpins and pedals as direction types', () => {
    const xml = writeMusicXml(notationScore());
    expect(xml).toMatch(/<ornaments>\s*<trill-mark\/>\s*<turn\/>\s*<wavy-line type="start" number="1"\/>\s*<\/ornaments>/);
    expect(xml).toMatch(/<ornaments>\s*<tremolo type="single">3<\/tremolo>\s*<\/ornaments>/);
    expect(xml).toContain('<slur type="start" number="1" placement="above"/>');
    // A hairpin that starts with a dynamic follows it; one that ends in a dynamic precedes it.
    expect(xml).toMatch(/<dynamics>\s*<p\/>\s*<\/dynamics>\s*<\/direction-type>\s*<direction-type>\s*<wedge type="crescendo" number="1"\/>/);
    expect(xml).toMatch(/<wedge type="stop" number="1"\/>\s*<\/direction-type>\s*<direction-type>\s*<dynamics>\s*<f\/>/);
    expect(xml).toMatch(/<direction placement="above">\s*<direction-type>\s*<rehearsal>A<\/rehearsal>/);
    expect(xml).toMatch(/<direction-type>\s*<segno\/>\s*<\/direction-type>\s*<direction-type>\s*<words>dolce<\/words>[\s\S]*?<sound tempo="90"\/>/);
    // This part has pedal changes, so its pedal marks are drawn with lines; Ped. marks the start.
    expect(xml).toContain('<pedal type="start" line="yes" sign="yes"/>');
    expect(xml).toContain('<pedal type="change" line="yes" sign="no"/>');
  });

  it('marks pedals with Ped. and * signs, without lines, in a part that has no pedal changes', () => {
    const s = score(part([measure([note('C4', 'half'), note('D4', 'half')], {
      directions: [direction(ZERO, { pedal: 'start' }), direction(frac(2), { pedal: 'stop' })],
    })]));
    const xml = writeMusicXml(s);
    expect(xml).toContain('<pedal type="start" line="no"/>');
    expect(xml).toContain('<pedal type="stop" line="no"/>');
    expect(validate(xml)).toEqual([]);
    expect(withoutDivisions(readMusicXml(xml))).toEqual(s);
  });

  it('leaves out what the schema cannot hold: unknown ornaments, tremolo marks past 8, slur numbers past 16', () => {
    const n = note('C4', 'whole');
    n.ornaments = ['trill-mark', 'not-an-ornament'];
    n.tremolo = { marks: 9, type: 'single' };
    n.slurs = [{ type: 'start', number: 40 }];
    const xml = writeMusicXml(score(part([measure([n])])));
    expect(validate(xml)).toEqual([]);
    const again = noteEvents(readMusicXml(xml).parts[0]!.measures[0]!)[0]!;
    expect(again.ornaments).toEqual(['trill-mark']);
    expect(again.tremolo).toBeUndefined();
    expect(again.slurs).toEqual([{ type: 'start', number: 1 }]);
  });
});

// --- Real quartets ---------------------------------------------------------

const ORNAMENT = /<(trill-mark|mordent|inverted-mordent|turn|inverted-turn|delayed-turn|delayed-inverted-turn|vertical-turn|inverted-vertical-turn|shake|schleifer|haydn)\b/g;

interface Counts {
  slurStarts: number;
  hairpins: number;
  ornaments: number;
  tiedStarts: number;
  wavyLineStarts: number;
  tremolos: number;
}

/**
 * Counts in a MusicXML text. Slurs on rests are left out: the model keeps
 * slurs on strokes only (rests have none).
 */
function countXml(xml: string): Counts {
  const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;
  const notes = (xml.match(/<note\b[\s\S]*?<\/note>/g) ?? []).filter((n) => !/<rest\b/.test(n)).join('\n');
  return {
    slurStarts: count(notes, /<slur\b[^>]*\btype="start"/g),
    hairpins: count(xml, /<wedge\b[^>]*\btype="(crescendo|diminuendo)"/g),
    ornaments: count(notes, ORNAMENT),
    tiedStarts: count(notes, /<tied\b[^>]*\btype="start"/g),
    wavyLineStarts: count(notes, /<wavy-line\b[^>]*\btype="start"/g),
    tremolos: count(notes, /<tremolo\b[^>]*\btype="(single|start|stop)"/g),
  };
}

function countModel(s: Score): Counts {
  const c: Counts = { slurStarts: 0, hairpins: 0, ornaments: 0, tiedStarts: 0, wavyLineStarts: 0, tremolos: 0 };
  for (const p of s.parts) {
    for (const m of p.measures) {
      for (const d of m.directions) if (d.wedge?.type === 'crescendo' || d.wedge?.type === 'diminuendo') c.hairpins++;
      for (const e of noteEvents(m)) {
        c.slurStarts += (e.slurs ?? []).filter((x) => x.type === 'start').length;
        c.ornaments += e.ornaments?.length ?? 0;
        c.tiedStarts += e.notes.filter((n) => n.tieStart).length;
        if (e.wavyLine === 'start') c.wavyLineStarts++;
        if (e.tremolo) c.tremolos++;
      }
    }
  }
  return c;
}

function findMxl(folder: string, name: string): string {
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === name) return join(entry.parentPath, entry.name);
  }
  throw new Error(`${name} is not in ${folder}`);
}

// Haydn (trills, wavy lines, tremolos), Mayer (many hairpins), Saint-Georges (ornaments, tremolos): small files, quick to read.
const QUARTETS = ['sq8806881.mxl', 'sq7070319.mxl', 'sq8437358.mxl'];

describe('real quartets', () => {
  const cases: { name: string; raw: string; score: Score; written: string }[] = [];

  beforeAll(async () => {
    const folder = join(CORPUS_DIR, 'quartets');
    for (const name of QUARTETS) {
      await yieldToRunner();
      const bytes = readBytes(findMxl(folder, name));
      const raw = new TextDecoder().decode(extractMxlScore(bytes));
      const s = readMusicXml(bytes);
      cases.push({ name, raw, score: s, written: writeMusicXml(s, { encodingDate: '2026-01-01' }) });
    }
  }, 300_000);

  it('the reader keeps every slur start, hairpin, ornament and tie of the source', () => {
    expect(cases).toHaveLength(3);
    for (const c of cases) {
      const expected = countXml(c.raw);
      // The counts must be about something: each file has slurs, hairpins, ornaments and ties.
      expect(Math.min(expected.slurStarts, expected.hairpins, expected.ornaments, expected.tiedStarts), c.name).toBeGreaterThan(0);
      expect(countModel(c.score), c.name).toEqual(expected);
    }
  });

  it('the writer writes them all back, and reading the written file finds them again', async () => {
    for (const c of cases) {
      await yieldToRunner();
      const expected = countXml(c.raw);
      expect(countXml(c.written), c.name).toEqual(expected);
      expect(countModel(readMusicXml(c.written)), c.name).toEqual(expected);
    }
  });

  it('the written files validate against the MusicXML 4.0 XSD', { timeout: 120_000 }, () => {
    const paths = cases.map((c) => {
      const path = join(dir, basename(c.name, '.mxl') + '.musicxml');
      writeFileSync(path, c.written);
      return path;
    });
    expect(validateMusicXmlFiles(paths)).toEqual([]);
  });
});
