/**
 * The held-out dev set, decided once, by file.
 *
 * Every corpus file named here (and every movement of the orchestral works
 * named here) is excluded from training, whatever part of it the dev set
 * uses. Training data generation calls {@link isDevPiece} on each corpus file
 * and skips those that match; a test keeps the two sides apart.
 *
 * Dev pages are engraved by MuseScore 3 and LilyPond, never by Verovio, which
 * renders all training pages: the dev set measures how recognition carries
 * over to engravers it has never seen.
 */
import { isHeldOutQuartet } from './quartet-split.js';

export type DevCategory = 'monophonic' | 'piano' | 'voice-piano' | 'choir' | 'chamber' | 'orchestral';

export const DEV_CATEGORIES: readonly DevCategory[] = ['monophonic', 'piano', 'voice-piano', 'choir', 'chamber', 'orchestral'];

export type Engraver = 'musescore' | 'lilypond';

export interface DevDocument {
  /** Stable id, also the folder name under bench/dev-set/. */
  id: string;
  category: DevCategory;
  /** Corpus file, relative to ../shared/corpus. */
  source: string;
  /** Which parts to keep: instrument-id prefixes (`strings.`), or part indices; all when absent. */
  parts?: readonly (string | number)[];
  /** Measure range by index, [from, to). */
  measures: readonly [number, number];
  engraver: Engraver;
  /** Languages of its text (lyrics, title), as a job would declare them; English when absent. */
  locales?: readonly string[];
}

const L = (file: string) => `lieder/${file}.mxl`;
const O = (file: string) => `orchestral/${file}.mxl`;

const MULLERIN = L('Schubert,_Franz__Die_schone_Mullerin,_D.795__8_Morgengru__lc5025982');
const AMOROSO = L('Chaminade,_Cecile_____Amoroso__lc4999292');
const QUEEN_MARY = L('Elgar,_Edward__7_Lieder__2_Queen_Marys_Song__lc6236150');
const BOTSCHAFT = L('Brahms,_Johannes__5_Lieder,_Op.47__1_Botschaft__lc5656522');
const RHEINLEGENDCHEN = L('Mahler,_Gustav__Des_Knaben_Wunderhorn__7_Rheinlegendchen__lc29746856');
const IL_PLEURE = L('Debussy,_Claude__Ariettes_Oubliees__2_Il_pleure_dans_mon_coeur__lc5060918');
const SUR_LA_PLAGE = L('Chaminade,_Cecile_____Sur_la_plage__lc5000363');
const KINDERTOTEN = L('Mahler,_Gustav__Kindertotenlieder__1_Nun_will_die_Sonn_so_hell_aufgehn__lc5054519');
const FISCHERMADCHEN = L('Schubert,_Franz__Schwanengesang,_D.957__10_Das_Fischermadchen__lc5098612');
const DAMASK_ROSE = L('Elgar,_Edward__7_Lieder__1_Like_to_the_Damask_Rose__lc6236149');
const AUBADE = L('Chaminade,_Cecile_____Aubade__lc6262515');
const ENGLISCHE_GRUSS = L('Brahms,_Johannes__Marienlieder,_Op.22__1_Der_englische_Gruss__lc8707581');
const JAGER = L('Brahms,_Johannes__Marienlieder,_Op.22__4_Der_Jager__lc8712405');
const GARTENLIED = L('Hensel,_Fanny__Gartenlieder,_Op.3__1_Horst_du_nicht_die_Baume_rauschen__lc6022950');
const GLEE = L('Arne,_Thomas_____A_Favorite_Glee__To_Soften_Care___lc29161331');
const HAYDN_104 = O('Haydn,_Franz__Symphony_No.104__1__Haydn_104_1');
const SCHUBERT_5 = O('Schubert,_Franz__Symphony_No.5,_D.485__1__Schubert_D.485_1');
const BRAHMS_3 = (n: number) => O(`Brahms,_Johannes__Symphony_No.3,_Op.90__${n}__Brahms_Op.90_${n}`);

/** The dev pieces, by name: the generated documents (dev-extended.ts) cut other measures of the same ones. */
export const DEV_PIECES = { MULLERIN, AMOROSO, QUEEN_MARY, BOTSCHAFT, RHEINLEGENDCHEN, IL_PLEURE, SUR_LA_PLAGE, KINDERTOTEN, FISCHERMADCHEN, DAMASK_ROSE, AUBADE, ENGLISCHE_GRUSS, JAGER, GARTENLIED, GLEE, HAYDN_104, SCHUBERT_5, BRAHMS_3 };

export const DEV_DOCUMENTS: readonly DevDocument[] = [
  // One line: a voice with lyrics, string and wind parts (the clarinet transposes).
  { id: 'mono-damask-rose-voice', category: 'monophonic', source: DAMASK_ROSE, parts: [0], measures: [0, 28], engraver: 'musescore', locales: ['en'] },
  { id: 'mono-aubade-voice', category: 'monophonic', source: AUBADE, parts: [0], measures: [0, 32], engraver: 'lilypond', locales: ['fr'] },
  { id: 'mono-haydn104-violin1', category: 'monophonic', source: HAYDN_104, parts: [0], measures: [16, 64], engraver: 'musescore' },
  { id: 'mono-schubert5-cello', category: 'monophonic', source: SCHUBERT_5, parts: [10], measures: [0, 48], engraver: 'lilypond' },
  { id: 'mono-brahms3-clarinet', category: 'monophonic', source: BRAHMS_3(2), parts: [4], measures: [0, 40], engraver: 'musescore' },
  // Piano: the accompaniment alone, two staves.
  { id: 'piano-il-pleure', category: 'piano', source: IL_PLEURE, parts: ['keyboard.'], measures: [0, 16], engraver: 'musescore', locales: ['fr'] },
  { id: 'piano-sur-la-plage', category: 'piano', source: SUR_LA_PLAGE, parts: ['keyboard.'], measures: [0, 16], engraver: 'lilypond', locales: ['fr'] },
  { id: 'piano-kindertotenlieder', category: 'piano', source: KINDERTOTEN, parts: ['keyboard.'], measures: [0, 16], engraver: 'musescore', locales: ['de'] },
  { id: 'piano-fischermadchen', category: 'piano', source: FISCHERMADCHEN, parts: ['keyboard.'], measures: [0, 16], engraver: 'lilypond', locales: ['de'] },
  // Voice and piano with lyrics: German, French, English.
  { id: 'vp-morgengruss', category: 'voice-piano', source: MULLERIN, measures: [0, 14], engraver: 'musescore', locales: ['de'] },
  { id: 'vp-amoroso', category: 'voice-piano', source: AMOROSO, measures: [0, 14], engraver: 'lilypond', locales: ['fr', 'en'] },
  { id: 'vp-queen-marys-song', category: 'voice-piano', source: QUEEN_MARY, measures: [0, 14], engraver: 'musescore', locales: ['en'] },
  { id: 'vp-botschaft', category: 'voice-piano', source: BOTSCHAFT, measures: [0, 14], engraver: 'lilypond', locales: ['de'] },
  { id: 'vp-rheinlegendchen', category: 'voice-piano', source: RHEINLEGENDCHEN, measures: [0, 14], engraver: 'musescore', locales: ['de'] },
  // Choir: SATB a cappella, German and English.
  { id: 'choir-englische-gruss', category: 'choir', source: ENGLISCHE_GRUSS, measures: [0, 16], engraver: 'musescore', locales: ['de'] },
  { id: 'choir-jager', category: 'choir', source: JAGER, measures: [0, 16], engraver: 'lilypond', locales: ['de'] },
  { id: 'choir-gartenlied', category: 'choir', source: GARTENLIED, measures: [0, 16], engraver: 'musescore', locales: ['de'] },
  { id: 'choir-glee', category: 'choir', source: GLEE, measures: [0, 16], engraver: 'lilypond', locales: ['en'] },
  // Chamber: the string section of a symphony as a string quartet (double bass dropped).
  { id: 'chamber-haydn104-a', category: 'chamber', source: HAYDN_104, parts: ['strings.violin', 'strings.viola', 'strings.cello'], measures: [0, 16], engraver: 'musescore' },
  { id: 'chamber-haydn104-b', category: 'chamber', source: HAYDN_104, parts: ['strings.violin', 'strings.viola', 'strings.cello'], measures: [16, 36], engraver: 'lilypond' },
  { id: 'chamber-schubert5-a', category: 'chamber', source: SCHUBERT_5, parts: ['strings.violin', 'strings.viola', 'strings.cello'], measures: [0, 20], engraver: 'musescore' },
  { id: 'chamber-schubert5-b', category: 'chamber', source: SCHUBERT_5, parts: ['strings.violin', 'strings.viola', 'strings.cello'], measures: [20, 40], engraver: 'lilypond' },
  // Orchestral: full scores.
  { id: 'orch-brahms3-1', category: 'orchestral', source: BRAHMS_3(1), measures: [0, 6], engraver: 'musescore' },
  { id: 'orch-brahms3-2', category: 'orchestral', source: BRAHMS_3(2), measures: [0, 8], engraver: 'lilypond' },
  { id: 'orch-brahms3-3', category: 'orchestral', source: BRAHMS_3(3), measures: [0, 8], engraver: 'musescore' },
  { id: 'orch-brahms3-4', category: 'orchestral', source: BRAHMS_3(4), measures: [0, 6], engraver: 'lilypond' },
];

/** Orchestral works whose every movement stays out of training. */
const DEV_WORKS: readonly string[] = ['Brahms,_Johannes__Symphony_No.3,_Op.90__', 'Haydn,_Franz__Symphony_No.104__', 'Schubert,_Franz__Symphony_No.5,_D.485__'];

/** Corpus files (relative to ../shared/corpus) excluded from training. */
export const DEV_FILES: ReadonlySet<string> = new Set(DEV_DOCUMENTS.map((d) => d.source));

/**
 * True when a corpus file (path relative to ../shared/corpus, or absolute) belongs to the dev set,
 * including every movement of a held-out string-quartet work (quartet-split.ts).
 */
export function isDevPiece(path: string): boolean {
  if (isHeldOutQuartet(path)) return true;
  const rel = path.replace(/^.*?\b(lieder|orchestral|polish|mutopia)\//, '$1/');
  if (DEV_FILES.has(rel)) return true;
  const name = rel.slice(rel.indexOf('/') + 1);
  return rel.startsWith('orchestral/') && DEV_WORKS.some((work) => name.startsWith(work));
}
