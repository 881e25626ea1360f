/**
 * The generated part of the dev set (built into .data/dev-set/ by
 * `npm run data:dev-set`, not committed): longer excerpts of the same dev
 * pieces as the committed documents (dev-split.ts), so that nothing here was
 * ever trained on, engraved three ways:
 *
 * - by Verovio with LilyPond's Emmentaler music font (verovio-engraver.ts):
 *   Verovio's layout, which training knows, with glyph shapes it never saw;
 * - by MuseScore 3 and LilyPond, as the committed documents, in documents of
 *   several pages, two of them orchestral scores whose first page is a title
 *   page (the music starts on page 2) with transposing winds and brass.
 *
 * The held-out MuseScore 4 string quartets come beside these
 * (quartet-pages.ts, quartet-split.ts).
 */
import { DEV_PIECES, type DevDocument } from './dev-split.js';

export type ExtendedEngraver = 'musescore' | 'lilypond' | 'verovio-emmentaler';

/** A generated document: as a committed one (dev-split.ts), with one more engraver and an optional title page. */
export interface ExtendedDevDocument extends Omit<DevDocument, 'engraver'> {
  engraver: ExtendedEngraver;
  /** A page holding only the title comes first, as printed scores often have. */
  titlePage?: boolean;
}

const { MULLERIN, AMOROSO, QUEEN_MARY, BOTSCHAFT, RHEINLEGENDCHEN, IL_PLEURE, SUR_LA_PLAGE, KINDERTOTEN, FISCHERMADCHEN, DAMASK_ROSE, ENGLISCHE_GRUSS, JAGER, GARTENLIED, GLEE, HAYDN_104, SCHUBERT_5, BRAHMS_3 } = DEV_PIECES;
const STRINGS = ['strings.violin', 'strings.viola', 'strings.cello'];

export const EXTENDED_DEV_DOCUMENTS: readonly ExtendedDevDocument[] = [
  // Verovio's layout, Emmentaler's glyphs: every category.
  { id: 'v-mono-haydn104-violin1', category: 'monophonic', source: HAYDN_104, parts: [13], measures: [64, 150], engraver: 'verovio-emmentaler' },
  { id: 'v-mono-brahms3-cello', category: 'monophonic', source: BRAHMS_3(3), parts: [13], measures: [0, 80], engraver: 'verovio-emmentaler' },
  { id: 'v-mono-schubert5-cello', category: 'monophonic', source: SCHUBERT_5, parts: [10], measures: [48, 200], engraver: 'verovio-emmentaler' },
  { id: 'v-mono-damask-rose-voice', category: 'monophonic', source: DAMASK_ROSE, parts: [0], measures: [28, 60], engraver: 'verovio-emmentaler', locales: ['en'] },
  { id: 'v-piano-kindertotenlieder', category: 'piano', source: KINDERTOTEN, parts: ['keyboard.'], measures: [16, 48], engraver: 'verovio-emmentaler', locales: ['de'] },
  { id: 'v-piano-il-pleure', category: 'piano', source: IL_PLEURE, parts: ['keyboard.'], measures: [16, 40], engraver: 'verovio-emmentaler', locales: ['fr'] },
  { id: 'v-vp-botschaft', category: 'voice-piano', source: BOTSCHAFT, measures: [14, 40], engraver: 'verovio-emmentaler', locales: ['de'] },
  { id: 'v-vp-queen-marys-song', category: 'voice-piano', source: QUEEN_MARY, measures: [14, 36], engraver: 'verovio-emmentaler', locales: ['en'] },
  { id: 'v-choir-jager', category: 'choir', source: JAGER, measures: [16, 40], engraver: 'verovio-emmentaler', locales: ['de'] },
  { id: 'v-choir-englische-gruss', category: 'choir', source: ENGLISCHE_GRUSS, measures: [16, 40], engraver: 'verovio-emmentaler', locales: ['de'] },
  { id: 'v-chamber-haydn104', category: 'chamber', source: HAYDN_104, parts: STRINGS, measures: [36, 76], engraver: 'verovio-emmentaler' },
  { id: 'v-chamber-schubert5', category: 'chamber', source: SCHUBERT_5, parts: STRINGS, measures: [40, 80], engraver: 'verovio-emmentaler' },
  { id: 'v-orch-haydn104', category: 'orchestral', source: HAYDN_104, measures: [64, 80], engraver: 'verovio-emmentaler' },
  { id: 'v-orch-brahms3-4', category: 'orchestral', source: BRAHMS_3(4), measures: [6, 20], engraver: 'verovio-emmentaler' },
  { id: 'v-piano-fischermadchen', category: 'piano', source: FISCHERMADCHEN, parts: ['keyboard.'], measures: [16, 44], engraver: 'verovio-emmentaler', locales: ['de'] },
  { id: 'v-vp-rheinlegendchen', category: 'voice-piano', source: RHEINLEGENDCHEN, measures: [14, 40], engraver: 'verovio-emmentaler', locales: ['de'] },
  { id: 'v-orch-schubert5', category: 'orchestral', source: SCHUBERT_5, measures: [48, 64], engraver: 'verovio-emmentaler' },
  // MuseScore 3 and LilyPond: documents of several pages.
  { id: 'mono-schubert5-violin1-long', category: 'monophonic', source: SCHUBERT_5, parts: [7], measures: [48, 160], engraver: 'musescore' },
  { id: 'mono-haydn104-oboe-long', category: 'monophonic', source: HAYDN_104, parts: [2], measures: [0, 140], engraver: 'lilypond' },
  { id: 'mono-brahms3-flute-long', category: 'monophonic', source: BRAHMS_3(4), parts: [0], measures: [0, 120], engraver: 'lilypond' },
  { id: 'piano-sur-la-plage-long', category: 'piano', source: SUR_LA_PLAGE, parts: ['keyboard.'], measures: [16, 52], engraver: 'musescore', locales: ['fr'] },
  { id: 'piano-fischermadchen-long', category: 'piano', source: FISCHERMADCHEN, parts: ['keyboard.'], measures: [16, 48], engraver: 'musescore', locales: ['de'] },
  { id: 'vp-rheinlegendchen-long', category: 'voice-piano', source: RHEINLEGENDCHEN, measures: [14, 44], engraver: 'lilypond', locales: ['de'] },
  { id: 'vp-amoroso-long', category: 'voice-piano', source: AMOROSO, measures: [14, 40], engraver: 'musescore', locales: ['fr', 'en'] },
  { id: 'vp-morgengruss-long', category: 'voice-piano', source: MULLERIN, measures: [14, 25], engraver: 'lilypond', locales: ['de'] },
  { id: 'choir-gartenlied-long', category: 'choir', source: GARTENLIED, measures: [16, 48], engraver: 'lilypond', locales: ['de'] },
  { id: 'choir-glee-long', category: 'choir', source: GLEE, measures: [16, 42], engraver: 'musescore', locales: ['en'] },
  { id: 'chamber-schubert5-long', category: 'chamber', source: SCHUBERT_5, parts: STRINGS, measures: [100, 150], engraver: 'musescore' },
  { id: 'chamber-haydn104-long', category: 'chamber', source: HAYDN_104, parts: STRINGS, measures: [100, 150], engraver: 'lilypond' },
  { id: 'orch-brahms3-3-title', category: 'orchestral', source: BRAHMS_3(3), measures: [8, 28], engraver: 'musescore', titlePage: true },
  { id: 'orch-haydn104-title', category: 'orchestral', source: HAYDN_104, measures: [100, 116], engraver: 'lilypond', titlePage: true },
];
