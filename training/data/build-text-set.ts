/**
 * Builds the committed text set (bench/text-set/): short songs written for
 * ScoreSight with a title, credits, a part name and lyrics in the languages
 * the dev set lacks (Latin, Italian, Polish) and in German with two verses,
 * engraved by MuseScore 3 and degraded into scans and photos exactly like
 * the dev set (build-dev-set.ts).
 *
 *   npx tsx training/data/build-text-set.ts
 *
 * The texts are traditional or long out of copyright; the melodies are
 * plain stepwise tunes written here, one note per syllable. No subtitle is
 * printed: MuseScore 3 sets an imported subtitle over the title.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { frac } from '../../src/score/fraction.js';
import type { Lyric, Measure, NoteEvent, Score, Step, VoiceEvent } from '../../src/score/model.js';
import { engraveDocument } from './build-dev-set.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const TEXT_SET_DIR = join(ROOT, 'bench/text-set');

interface Song {
  id: string;
  locales: string[];
  title: string;
  composer: string;
  lyricist: string;
  partName: string;
  instrumentId: string;
  /** The accompaniment's name, in the song's language (MuseScore prints no name for a lone part). */
  pianoName: string;
  /** Verses as printed under the notes, syllables joined by " -- " within words. */
  verses: string[];
}

const SONGS: Song[] = [
  {
    id: 'text-abendlied',
    locales: ['de'],
    title: 'Abendlied',
    composer: 'Anonymous',
    lyricist: 'Matthias Claudius',
    partName: 'Sopran',
    instrumentId: 'voice.soprano',
    pianoName: 'Klavier',
    verses: [
      'Der Mond ist auf -- ge -- gan -- gen, die gold -- nen Stern -- lein pran -- gen am Him -- mel hell und klar;',
      'Wie ist die Welt so stil -- le und in der Dämm -- rung Hül -- le so trau -- lich und so hold!',
    ],
  },
  {
    id: 'text-ave-verum',
    locales: ['la'],
    title: 'Ave verum corpus',
    composer: 'Anonymous',
    lyricist: 'Traditional',
    partName: 'Cantus',
    instrumentId: 'voice.soprano',
    pianoName: 'Organum',
    verses: ['A -- ve ve -- rum cor -- pus na -- tum de Ma -- ri -- a vir -- gi -- ne, ve -- re pas -- sum im -- mo -- la -- tum in cru -- ce pro ho -- mi -- ne.'],
  },
  {
    id: 'text-ninna-nanna',
    locales: ['it'],
    title: 'Ninna nanna',
    composer: 'Anonymous',
    lyricist: 'Traditional',
    partName: 'Canto',
    instrumentId: 'voice.soprano',
    pianoName: 'Pianoforte',
    verses: ['Fa la nin -- na, fa la nan -- na, dor -- mi pre -- sto, bam -- bi -- no mi -- o, che la lu -- na già s’af -- fac -- cia.'],
  },
  {
    id: 'text-wlazl-kotek',
    locales: ['pl'],
    title: 'Wlazł kotek na płotek',
    composer: 'Anonymous',
    lyricist: 'Traditional',
    partName: 'Głos',
    instrumentId: 'voice.voice',
    pianoName: 'Fortepian',
    verses: ['Wlazł ko -- tek na pło -- tek i mru -- ga, ład -- na to pio -- sen -- ka, nie dłu -- ga, nie dłu -- ga.'],
  },
];

/** A stepwise tune over a ninth (E4–F5), no ledger lines. */
const TUNE: [Step, number][] = [
  ['G', 4], ['A', 4], ['B', 4], ['C', 5], ['D', 5], ['C', 5], ['B', 4], ['A', 4], ['G', 4], ['E', 4], ['F', 4], ['G', 4], ['A', 4], ['B', 4], ['C', 5], ['E', 5],
  ['D', 5], ['C', 5], ['B', 4], ['C', 5], ['D', 5], ['E', 5], ['F', 5], ['E', 5], ['D', 5], ['C', 5], ['B', 4], ['A', 4], ['G', 4], ['A', 4], ['B', 4], ['C', 5],
];

/** A verse's syllables: words split at " -- ", each syllable with its place in its word. */
function syllables(verse: string): { text: string; syllabic: Lyric['syllabic'] }[] {
  const tokens: { text: string; joinNext: boolean }[] = [];
  for (const token of verse.split(/\s+/)) {
    if (token === '--') tokens[tokens.length - 1]!.joinNext = true;
    else tokens.push({ text: token, joinNext: false });
  }
  return tokens.map((s, i) => {
    const joined = i > 0 && tokens[i - 1]!.joinNext;
    return { text: s.text, syllabic: joined ? (s.joinNext ? 'middle' : 'end') : s.joinNext ? 'begin' : 'single' };
  });
}

export function songScore(song: Song): Score {
  const verses = song.verses.map(syllables);
  const count = Math.max(...verses.map((v) => v.length));
  const measures: Measure[] = [];
  for (let m = 0; m * 4 < count; m++) {
    const events: VoiceEvent[] = [];
    for (let k = 0; k < 4; k++) {
      const i = m * 4 + k;
      if (i >= count) {
        events.push({ kind: 'rest', duration: frac(1), type: 'quarter', dots: 0, staff: 1 });
        continue;
      }
      const [step, octave] = TUNE[i % TUNE.length]!;
      const lyrics: Lyric[] = verses.flatMap((v, n) => (v[i] ? [{ verse: n + 1, text: v[i]!.text, syllabic: v[i]!.syllabic }] : []));
      const note: NoteEvent = { kind: 'note', duration: frac(1), type: 'quarter', dots: 0, staff: 1, notes: [{ pitch: { step, alter: 0, octave } }], lyrics };
      events.push(note);
    }
    measures.push({
      number: String(m + 1),
      clefs: m === 0 ? [{ sign: 'G', line: 2, staff: 1, offset: frac(0) }] : [],
      ...(m === 0 ? { key: { fifths: 0 }, time: { beats: 4, beatType: 4 } } : {}),
      voices: [{ id: '1', events }],
      directions: [],
    });
  }
  measures[measures.length - 1]!.rightBarline = { style: 'light-heavy' };
  // The accompaniment: a tonic or dominant chord per measure, half notes over a whole-note bass.
  const piano: Measure[] = measures.map((m, i) => {
    const dominant = i % 2 === 1;
    const chord = (steps: [Step, number][], type: 'half' | 'whole', staff: number): NoteEvent => ({
      kind: 'note',
      duration: frac(type === 'half' ? 2 : 4),
      type,
      dots: 0,
      staff,
      notes: steps.map(([step, octave]) => ({ pitch: { step, alter: 0, octave } })),
      lyrics: [],
    });
    const right = dominant ? chord([['B', 3], ['D', 4], ['G', 4]], 'half', 1) : chord([['C', 4], ['E', 4], ['G', 4]], 'half', 1);
    return {
      number: m.number,
      clefs: i === 0 ? [{ sign: 'G', line: 2, staff: 1, offset: frac(0) }, { sign: 'F', line: 4, staff: 2, offset: frac(0) }] : [],
      ...(i === 0 ? { key: { fifths: 0 }, time: { beats: 4, beatType: 4 } } : {}),
      ...(m.rightBarline ? { rightBarline: m.rightBarline } : {}),
      voices: [
        { id: '1', events: [right, structuredClone(right)] },
        { id: '5', events: [chord([[dominant ? 'G' : 'C', 3]], 'whole', 2)] },
      ],
      directions: [],
    };
  });
  return {
    credits: { title: song.title, composer: song.composer, lyricist: song.lyricist },
    parts: [
      { id: 'P1', name: song.partName, instrumentId: song.instrumentId, midiProgram: 52, staves: 1, measures },
      { id: 'P2', name: song.pianoName, instrumentId: 'keyboard.piano', midiProgram: 0, staves: 2, measures: piano },
    ],
    partGroups: [{ first: 1, last: 1, symbol: 'brace', barlinesConnected: true }],
  };
}

function main(): void {
  mkdirSync(TEXT_SET_DIR, { recursive: true });
  const documents = SONGS.map((song) => {
    const { pages, files } = engraveDocument({ id: song.id, engraver: 'musescore' }, songScore(song), TEXT_SET_DIR);
    console.log(`${song.id}: ${pages} page(s)`);
    return { id: song.id, category: 'voice-piano', engraver: 'musescore', locales: song.locales, licence: 'CC0 1.0 (written for ScoreSight; texts traditional or public domain)', pages, files };
  });
  const manifest = {
    description: 'ScoreSight text set: short songs with titles, credits, part names and lyrics in Latin, Italian, Polish and German, engraved by MuseScore 3, each as PDF, scan and photo pages, with MusicXML ground truth (training/data/build-text-set.ts).',
    documents,
  };
  writeFileSync(join(TEXT_SET_DIR, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
