/**
 * Built-in instrument table.
 *
 * Recognition reads part names off the page ("Violino I", "Clarinetto in Sib",
 * "Pno.") and has to turn them into something the score model can carry: an
 * `instrumentId`, a General MIDI program for playback and MIDI export, the
 * default clefs and staff count to expect on the staves, and the transposition
 * that turns written into sounding pitch. The review step offers the same
 * table as the list of instruments a user can pick from, and the MIDI and
 * MusicXML readers use it to name a part from a program number.
 *
 * Conventions:
 * - `id` is `<group>.<instrument>`, lowercase (`wind.clarinet-bflat`).
 * - `midiProgram` is the 0-based General MIDI (GM1) program. Unpitched
 *   percussion is `percussion: true` (MIDI channel 10) with program 0.
 * - `transposition` is written → sounding as in {@link Transposition}:
 *   sounding = written + chromatic + 12 × octaveChange. Whole octaves go in
 *   `octaveChange`, so `diatonic`/`chromatic` stay within an octave.
 * - A clef with `octaveChange` already places written notes in the octave
 *   they sound (tenor voice, guitar), so such entries carry no octave
 *   transposition on top.
 * - `aliases` are names and abbreviations as printed on scores in English,
 *   German, French, Italian, Spanish and Latin. An alias with a full stop is
 *   an abbreviation; matching an abbreviation is less certain than a name.
 *
 * The module is pure data plus lookups; the lookup maps are built once, on
 * first use.
 */
import type { Clef, Transposition } from './model.js';

export interface Instrument {
  /** Dotted `<group>.<instrument>` identifier, lowercase, e.g. `strings.violin`. */
  readonly id: string;
  /** English display name. */
  readonly name: string;
  /** English abbreviation, e.g. `Vln.`. */
  readonly abbreviation: string;
  /** General MIDI program, 0–127 (0-based, GM1). */
  readonly midiProgram: number;
  /** Unpitched percussion: plays on MIDI channel 10. */
  readonly percussion?: true;
  /** Default clef of each staff, top staff first. */
  readonly clefs: readonly Clef[];
  /** Written-to-sounding interval; absent for instruments that sound as written. */
  readonly transposition?: Transposition;
  /** Number of staves (2 for a grand staff). */
  readonly staves: 1 | 2;
  /** Names and abbreviations as printed on scores, in several languages. */
  readonly aliases: readonly string[];
}

// ---------------------------------------------------------------------------
// Table helpers

const CLEFS: Record<string, Clef> = {
  G: { sign: 'G', line: 2 },
  G8vb: { sign: 'G', line: 2, octaveChange: -1 },
  F: { sign: 'F', line: 4 },
  C1: { sign: 'C', line: 1 },
  C3: { sign: 'C', line: 3 },
  C4: { sign: 'C', line: 4 },
  P: { sign: 'percussion', line: 3 },
};

function tr(diatonic: number, chromatic: number, octaveChange = 0): Transposition {
  return octaveChange === 0 ? { diatonic, chromatic } : { diatonic, chromatic, octaveChange };
}

// Written C sounds …
const OCT_UP = tr(0, 0, 1); // an octave higher
const OCT2_UP = tr(0, 0, 2); // two octaves higher
const OCT_DOWN = tr(0, 0, -1); // an octave lower
const IN_BB = tr(-1, -2); // B♭: a major second lower
const IN_A = tr(-2, -3); // A: a minor third lower
const IN_F = tr(-4, -7); // F: a perfect fifth lower
const IN_G = tr(-3, -5); // G: a perfect fourth lower
const IN_EB_LOW = tr(-5, -9); // E♭ (alto): a major sixth lower
const IN_EB_HIGH = tr(2, 3); // E♭ (soprano): a minor third higher
const IN_D_HIGH = tr(1, 2); // D: a major second higher
const IN_BB_LOW = tr(-1, -2, -1); // B♭ (tenor, bass): a major ninth lower
const IN_EB_LOWER = tr(-5, -9, -1); // E♭ (baritone): an octave and a major sixth lower
const IN_BB_LOWEST = tr(-1, -2, -2); // B♭ (bass, contrabass): two octaves and a major second lower

/**
 * One table row: id, name, abbreviation, GM program, clefs (space-separated
 * codes, one per staff), aliases ('|'-separated), transposition.
 */
function I(
  id: string,
  name: string,
  abbreviation: string,
  midiProgram: number,
  clefs: string,
  aliases: string,
  transposition?: Transposition,
): Instrument {
  const clefList = clefs.split(' ').map((code) => {
    const clef = CLEFS[code];
    if (!clef) throw new Error(`instruments: unknown clef code ${code} for ${id}`);
    return { ...clef };
  });
  return {
    id,
    name,
    abbreviation,
    midiProgram,
    clefs: clefList,
    ...(transposition ? { transposition: { ...transposition } } : {}),
    staves: clefList.length === 2 ? 2 : 1,
    aliases: aliases.split('|'),
  };
}

/** Unpitched percussion: channel 10, program 0, percussion clef. */
function P(id: string, name: string, abbreviation: string, aliases: string): Instrument {
  return { ...I(id, name, abbreviation, 0, 'P', aliases), percussion: true };
}

// ---------------------------------------------------------------------------
// The table, in score order. Where several entries share a program, the first
// is the one `instrumentForProgram` returns; where several share an alias, the
// first wins (full names before abbreviations).

const TABLE: Instrument[] = [
  // Flutes
  I('wind.flute', 'Flute', 'Fl.', 73, 'G', 'Flöte|Grosse Flöte|Querflöte|Flûte|Grande flûte|Flauto|Flauto traverso|Traverso|Flauta|Flauta travesera|Transverse flute|Fl.|Flt.|Fte.|Gr. Fl.|Fl. gr.'),
  I('wind.piccolo', 'Piccolo', 'Picc.', 72, 'G', 'Flauto piccolo|Ottavino|Kleine Flöte|Piccoloflöte|Pikkoloflöte|Petite flûte|Flautín|Piccolo flute|Picc.|Pic.|Kl. Fl.|Ott.|Fl. picc.|Pte. fl.', OCT_UP),
  I('wind.alto-flute', 'Alto Flute', 'A. Fl.', 73, 'G', 'Flute in G|Altflöte|Flûte alto|Flûte en sol|Flauto contralto|Flauto in sol|Flauta alto|Flauta contralto|Alt-Fl.|Fl. alto|Fl. c.|Afl.', IN_G),
  I('wind.bass-flute', 'Bass Flute', 'B. Fl.', 73, 'G', 'Bassflöte|Flûte basse|Flauto basso|Flauta baja|Bs. Fl.', OCT_DOWN),
  // Oboes
  I('wind.oboe', 'Oboe', 'Ob.', 68, 'G', 'Hoboe|Hautbois|Oboè|Ob.|Hb.|Hautb.|Obs.'),
  I('wind.oboe-damore', "Oboe d'amore", "Ob. d'am.", 68, 'G', "Oboe d'amour|Hautbois d'amour|Liebesoboe|Ob. d'amore|Ob. am.", IN_A),
  I('wind.cor-anglais', 'Cor Anglais', 'Eng. Hn.', 69, 'G', 'English horn|Englischhorn|Englisch Horn|Corno inglese|Corno inglés|Cor angl.|C. ingl.|Cor. ingl.|E. H.|E. Hn.|Ehr.|Engl. Hr.|C. A.|C. ang.', IN_F),
  I('wind.oboe-da-caccia', 'Oboe da caccia', 'Ob. d. c.', 69, 'G', 'Hautbois de chasse|Jagdoboe|Ob. da cacc.', IN_F),
  I('wind.heckelphone', 'Heckelphone', 'Hph.', 68, 'G', 'Heckelphon|Heckelfono|Heckel.', OCT_DOWN),
  I('wind.bass-oboe', 'Bass Oboe', 'B. Ob.', 68, 'G', 'Bassoboe|Hautbois baryton|Oboe basso|Bar. Ob.', OCT_DOWN),
  // Clarinets: B♭ first, the default for a name without a key
  I('wind.clarinet-bflat', 'Clarinet in B♭', 'Cl.', 71, 'G', 'Clarinet|B♭ Clarinet|Clarinet in B-flat|Klarinette|Klarinette in B|B-Klarinette|Clarinette|Clarinette en Si♭|Clarinetto|Clarinetto in Sib|Clarinete|Clarinete en Si♭|Cl.|Clar.|Clt.|Kl.|Klar.|Cl. in B♭|Cl. (Sib)|Clar. in B♭', IN_BB),
  I('wind.clarinet-a', 'Clarinet in A', 'Cl. (A)', 71, 'G', 'A Clarinet|Klarinette in A|A-Klarinette|Clarinette en La|Clarinetto in La|Clarinete en La|Cl. in A|Kl. in A|Clar. in A', IN_A),
  I('wind.clarinet-eflat', 'Clarinet in E♭', 'E♭ Cl.', 71, 'G', 'E♭ Clarinet|Clarinet in E-flat|Klarinette in Es|Es-Klarinette|Petite clarinette|Clarinette en Mi♭|Clarinetto piccolo|Clarinetto in Mib|Requinto|Cl. picc.|Cl. in E♭|Kl. in Es', IN_EB_HIGH),
  I('wind.clarinet-d', 'Clarinet in D', 'D Cl.', 71, 'G', 'D Clarinet|Klarinette in D|D-Klarinette|Clarinette en Ré|Clarinetto in Re|Cl. in D|Kl. in D', IN_D_HIGH),
  I('wind.clarinet-c', 'Clarinet in C', 'C Cl.', 71, 'G', 'C Clarinet|Klarinette in C|C-Klarinette|Clarinette en Ut|Clarinetto in Do|Cl. in C|Kl. in C'),
  I('wind.basset-horn', 'Basset Horn', 'Bst. Hn.', 71, 'G', 'Bassetthorn|Cor de basset|Corno di bassetto|Corno de basseto|Bthn.|Bassetthr.|C. di b.|Cor. di bass.', IN_F),
  I('wind.alto-clarinet', 'Alto Clarinet', 'A. Cl.', 71, 'G', 'Altklarinette|Clarinette alto|Clarinetto contralto|Clarinete alto|Alto Cl.', IN_EB_LOW),
  I('wind.bass-clarinet', 'Bass Clarinet', 'B. Cl.', 71, 'G', 'Bassklarinette|Clarinette basse|Clarinetto basso|Clarinete bajo|Clarone|B. Kl.|Bkl.|Bs. Cl.|Cl. b.|Cl. basso|Cl. bas.|Bass Cl.|Clar. b.', IN_BB_LOW),
  I('wind.contrabass-clarinet', 'Contrabass Clarinet', 'Cb. Cl.', 71, 'G', 'Kontrabassklarinette|Clarinette contrebasse|Clarinetto contrabbasso|Clarinete contrabajo|Kb. Kl.|Cbcl.', IN_BB_LOWEST),
  // Bassoons
  I('wind.bassoon', 'Bassoon', 'Bsn.', 70, 'F', 'Fagott|Fagotto|Basson|Fagot|Fg.|Fag.|Fgt.|Bn.|Bon.|Bssn.'),
  I('wind.contrabassoon', 'Contrabassoon', 'Cbsn.', 70, 'F', 'Double bassoon|Kontrafagott|Contrafagotto|Controfagotto|Contrebasson|Contrafagot|Cfg.|Kfg.|C. Fg.|Cfag.|Kontra-Fg.|Dbl. Bsn.|Cbn.', OCT_DOWN),
  // Saxophones: the alto is the default for a bare "Saxophone"
  I('wind.soprano-saxophone', 'Soprano Saxophone', 'S. Sax.', 64, 'G', 'Soprano sax|Sopransaxophon|Saxophone soprano|Sassofono soprano|Saxofón soprano|Saxofono soprano|Sop. Sax.|S. Sx.|Ssax.', IN_BB),
  I('wind.sopranino-saxophone', 'Sopranino Saxophone', 'Sno. Sax.', 64, 'G', 'Sopranino sax|Sopraninosaxophon|Saxophone sopranino|Sassofono sopranino|Saxofón sopranino|Sno. Sx.', IN_EB_HIGH),
  I('wind.alto-saxophone', 'Alto Saxophone', 'A. Sax.', 65, 'G', 'Alto sax|Saxophone|Saxophon|Sax|Altsaxophon|Alt-Saxophon|Saxophone alto|Sassofono contralto|Saxofono contralto|Saxofón alto|Saxofón contralto|Alto Sax.|A. Sx.|Sax. alto|Asax.|Sax.', IN_EB_LOW),
  I('wind.tenor-saxophone', 'Tenor Saxophone', 'T. Sax.', 66, 'G', 'Tenor sax|Tenorsaxophon|Tenor-Saxophon|Saxophone ténor|Sassofono tenore|Saxofón tenor|Saxofono tenore|Ten. Sax.|T. Sx.|Tsax.|Sax. ten.', IN_BB_LOW),
  I('wind.baritone-saxophone', 'Baritone Saxophone', 'Bar. Sax.', 67, 'G', 'Baritone sax|Baritonsaxophon|Bariton-Saxophon|Saxophone baryton|Sassofono baritono|Saxofón barítono|Bari sax|Bari. Sax.|B. Sx.|Bsax.|Sax. bar.', IN_EB_LOWER),
  I('wind.bass-saxophone', 'Bass Saxophone', 'B. Sax.', 67, 'G', 'Bass sax|Basssaxophon|Saxophone basse|Sassofono basso|Saxofón bajo|Bs. Sax.', IN_BB_LOWEST),
  // Recorders: a bare "Recorder" is the soprano (descant); Italian "Flauto dolce" is the baroque alto
  I('wind.recorder-soprano', 'Soprano Recorder', 'S. Rec.', 74, 'G', 'Recorder|Descant recorder|Blockflöte|Sopranblockflöte|Flûte à bec|Flûte à bec soprano|Flauto dolce soprano|Flauto diritto|Flauta dulce|Flauta dulce soprano|Flauta de pico|Fistula|Rec.|Desc. Rec.|Bfl.|S. Bfl.|Blfl.', OCT_UP),
  I('wind.recorder-sopranino', 'Sopranino Recorder', 'Sno. Rec.', 74, 'G', 'Sopraninoblockflöte|Flûte à bec sopranino|Flauto dolce sopranino|Flautino|Flauta dulce sopranino|Sno. Bfl.', OCT_UP),
  I('wind.recorder-alto', 'Alto Recorder', 'A. Rec.', 74, 'G', 'Treble recorder|Altblockflöte|Flûte à bec alto|Flûte douce|Flauto dolce|Flauto dolce contralto|Flauta dulce contralto|Flauta dulce alto|A. Bfl.|Tr. Rec.|Fl. dolce'),
  I('wind.recorder-tenor', 'Tenor Recorder', 'T. Rec.', 74, 'G', 'Tenorblockflöte|Flûte à bec ténor|Flauto dolce tenore|Flauta dulce tenor|T. Bfl.'),
  I('wind.recorder-bass', 'Bass Recorder', 'B. Rec.', 74, 'F', 'Bassblockflöte|Flûte à bec basse|Flauto dolce basso|Flauta dulce bajo|B. Bfl.', OCT_UP),
  // Other flutes, reeds, folk and early winds
  I('wind.fife', 'Fife', 'Fife', 72, 'G', 'Querpfeife|Schwegel|Fifre|Piffero|Pífano|Pifano', OCT_UP),
  I('wind.tin-whistle', 'Tin Whistle', 'T. Wh.', 78, 'G', 'Whistle|Penny whistle|Irish whistle|Blechflöte|Flageolet|Tin Wh.', OCT_UP),
  I('wind.pan-flute', 'Pan Flute', 'Pan Fl.', 75, 'G', 'Panpipes|Pan pipes|Panflöte|Flûte de Pan|Flauto di Pan|Flauta de Pan|Siringa|Syrinx|Zampoña|Nai|Pan-Fl.'),
  I('wind.shakuhachi', 'Shakuhachi', 'Shak.', 77, 'G', 'Shakuhachi|Shk.'),
  I('wind.ocarina', 'Ocarina', 'Oc.', 79, 'G', 'Okarina|Ocarine|Ocar.'),
  I('wind.harmonica', 'Harmonica', 'Hmca.', 22, 'G', 'Mouth organ|Mundharmonika|Harmonica à bouche|Armonica|Armonica a bocca|Armónica|Blues harp|Hca.|Hmc.'),
  I('wind.melodica', 'Melodica', 'Mel.', 22, 'G', 'Melodika|Mélodica|Pianica|Melodion|Mldc.'),
  I('wind.bagpipes', 'Bagpipes', 'Bagp.', 109, 'G', 'Bagpipe|Highland bagpipe|Great Highland bagpipe|Dudelsack|Sackpfeife|Cornemuse|Cornamusa|Zampogna|Gaita|Gaita gallega|Pipes|Bgp.'),
  I('wind.crumhorn', 'Crumhorn', 'Crh.', 68, 'G', 'Krummhorn|Cromorne|Cromorno|Orlo|Krh.'),
  I('wind.shawm', 'Shawm', 'Shm.', 68, 'G', 'Schalmei|Schalmey|Chalemie|Bombarde|Ciaramella|Chirimía|Pommer|Piffaro|Bomb.'),
  I('wind.dulcian', 'Dulcian', 'Dulc.', 70, 'F', 'Dulzian|Curtal|Douçaine|Bajón|Dulcianum|Dulz.'),
  I('wind.shehnai', 'Shehnai', 'Shn.', 111, 'G', 'Shahnai|Shanai|Sheh.'),

  // Horns: F first, the default for a name without a key
  I('brass.horn-f', 'Horn in F', 'Hn.', 60, 'G', 'Horn|French horn|F Horn|Waldhorn|Ventilhorn|Corno|Corno in Fa|Cor|Cor en Fa|Cor d\'harmonie|Cor chromatique|Trompa|Trompa en Fa|Cornu|Hn.|Hr.|Hrn.|Cor.|Cr.|Tpa.|Hn. in F|Hr. in F', IN_F),
  I('brass.horn-eflat', 'Horn in E♭', 'Hn.', 60, 'G', 'E♭ Horn|Horn in Es|Corno in Mib|Cor en Mi♭|Trompa en Mi♭|Hn. in E♭|Hr. in Es', IN_EB_LOW),
  I('brass.horn-d', 'Horn in D', 'Hn.', 60, 'G', 'D Horn|Corno in Re|Cor en Ré|Trompa en Re|Hn. in D|Hr. in D', tr(-6, -10)),
  I('brass.horn-e', 'Horn in E', 'Hn.', 60, 'G', 'E Horn|Corno in Mi|Cor en Mi|Trompa en Mi|Hn. in E|Hr. in E', tr(-5, -8)),
  I('brass.horn-g', 'Horn in G', 'Hn.', 60, 'G', 'G Horn|Corno in Sol|Cor en Sol|Trompa en Sol|Hn. in G|Hr. in G', IN_G),
  I('brass.horn-c', 'Horn in C', 'Hn.', 60, 'G', 'Horn in C basso|C Horn|Corno in Do|Corno in C|Cor en Ut|Trompa en Do|Hn. in C|Hr. in C', OCT_DOWN),
  I('brass.horn-bflat-basso', 'Horn in B♭ basso', 'Hn.', 60, 'G', 'Horn in B basso|Corno in Sib basso|Cor en Si♭ grave|Hn. in B♭', IN_BB_LOW),
  I('brass.horn-a', 'Horn in A', 'Hn.', 60, 'G', 'Horn in A basso|Corno in La|Cor en La|Trompa en La|Hn. in A|Hr. in A', tr(-2, -3, -1)),
  // Trumpets: B♭ first, the default for a name without a key
  I('brass.trumpet-bflat', 'Trumpet in B♭', 'Tpt.', 56, 'G', 'Trumpet|B♭ Trumpet|Trumpet in B-flat|Trompete|Trompete in B|B-Trompete|Tromba|Tromba in Sib|Trompette|Trompette en Si♭|Trompeta|Trompeta en Si♭|Tpt.|Trp.|Tr.|Trpt.|Tpte.|Trba.|Trbe.|Trpa.|Tpt. in B♭', IN_BB),
  I('brass.trumpet-c', 'Trumpet in C', 'Tpt.', 56, 'G', 'C Trumpet|Trompete in C|C-Trompete|Tromba in Do|Trompette en Ut|Trompeta en Do|Tpt. in C|Trp. in C'),
  I('brass.trumpet-d', 'Trumpet in D', 'Tpt.', 56, 'G', 'D Trumpet|Trompete in D|Tromba in Re|Trompette en Ré|Trompeta en Re|Clarino|Tpt. in D', IN_D_HIGH),
  I('brass.trumpet-eflat', 'Trumpet in E♭', 'Tpt.', 56, 'G', 'E♭ Trumpet|Trompete in Es|Tromba in Mib|Trompette en Mi♭|Trompeta en Mi♭|Tpt. in E♭', IN_EB_HIGH),
  I('brass.trumpet-e', 'Trumpet in E', 'Tpt.', 56, 'G', 'E Trumpet|Trompete in E|Tromba in Mi|Trompette en Mi|Trompeta en Mi|Tpt. in E', tr(2, 4)),
  I('brass.trumpet-f', 'Trumpet in F', 'Tpt.', 56, 'G', 'F Trumpet|Trompete in F|Tromba in Fa|Trompette en Fa|Trompeta en Fa|Tpt. in F', tr(3, 5)),
  I('brass.trumpet-a', 'Trumpet in A', 'Tpt.', 56, 'G', 'A Trumpet|Trompete in A|Tromba in La|Trompette en La|Trompeta en La|Tpt. in A', IN_A),
  I('brass.piccolo-trumpet', 'Piccolo Trumpet in B♭', 'Picc. Tpt.', 56, 'G', 'Piccolo trumpet|Piccolotrompete|Trompette piccolo|Tromba piccola|Trompeta piccolo|Picc. Trp.', tr(6, 10)),
  I('brass.cornet-bflat', 'Cornet in B♭', 'Cnt.', 56, 'G', 'Cornet|B♭ Cornet|Cornet à pistons|Kornett|Cornetta|Corneta|Piston|Kornett in B|Cornetta in Sib|Crt.|Cor. à p.|Kor.|Korn.|Cnt. in B♭', IN_BB),
  I('brass.cornet-eflat', 'Soprano Cornet in E♭', 'Sop. Cnt.', 56, 'G', 'Soprano cornet|E♭ Cornet|Cornet in E♭|Kornett in Es|Sop. Cor.|Sop. Crt.', IN_EB_HIGH),
  I('brass.flugelhorn', 'Flugelhorn', 'Flghn.', 56, 'G', 'Flügelhorn|Bugle|Flicorno|Flicorno soprano|Fliscorno|Flgh.|Flhn.|Flg.|Flghrn.', IN_BB),
  I('brass.alto-horn', 'Alto Horn in E♭', 'A. Hn.', 60, 'G', 'Alto horn|Tenor horn|E♭ Horn (alto)|Althorn|Saxhorn alto|Flicorno contralto|Bugle alto|Ten. Hn.|T. Hn.', IN_EB_LOW),
  I('brass.mellophone', 'Mellophone', 'Mello.', 60, 'G', 'Mellophon|Mellofono|Mellófono|Mellph.', IN_F),
  // Trombones and low brass (bass clef, concert pitch)
  I('brass.trombone', 'Trombone', 'Tbn.', 57, 'F', 'Tenor trombone|Posaune|Tenorposaune|Trombone ténor|Trombone tenore|Trombón|Trombón tenor|Tuba ductilis|Trb.|Pos.|Tromb.|Trbn.|Trne.|Tbne.'),
  I('brass.alto-trombone', 'Alto Trombone', 'A. Tbn.', 57, 'C3', 'Altposaune|Trombone alto|Trombone contralto|Trombón alto|A. Pos.|A. Trb.|Trb. alto'),
  I('brass.bass-trombone', 'Bass Trombone', 'B. Tbn.', 57, 'F', 'Bassposaune|Trombone basse|Trombone basso|Trombón bajo|B. Pos.|B. Trb.|Trb. basso|Bs. Tbn.'),
  I('brass.contrabass-trombone', 'Contrabass Trombone', 'Cb. Tbn.', 57, 'F', 'Kontrabassposaune|Trombone contrebasse|Trombone contrabbasso|Trombón contrabajo|Kb. Pos.|Cb. Trb.'),
  I('brass.sackbut', 'Sackbut', 'Sackb.', 57, 'F', 'Sacqueboute|Saqueboute|Sacabuche|Trombone antico|Sackb.'),
  I('brass.euphonium', 'Euphonium', 'Euph.', 58, 'F', 'Euphonion|Euphonie|Eufonio|Bombardino|Eup.|Euphon.'),
  I('brass.baritone-horn', 'Baritone Horn', 'Bar. Hn.', 58, 'F', 'Tenorhorn|Baritonhorn|Saxhorn baryton|Flicorno baritono|Bombardino barítono|Bar. Hrn.|Bari. Hn.|Thr.'),
  I('brass.tuba', 'Tuba', 'Tba.', 58, 'F', 'Bass tuba|Basstuba|Tuba basse|Tuba bassa|Tuba contrabbasso|Tuba contrabajo|Tb.|Tu.|Btb.|B. Tba.'),
  I('brass.sousaphone', 'Sousaphone', 'Sous.', 58, 'F', 'Sousaphon|Sousafono|Sousáfono|Sphn.'),
  I('brass.ophicleide', 'Ophicleide', 'Oph.', 58, 'F', 'Ophikleide|Ophicléide|Oficleide|Figle|Ophicl.'),
  I('brass.serpent', 'Serpent', 'Serp.', 58, 'F', 'Serpentone|Serpentón|Serpent d\'église'),
  I('brass.cornett', 'Cornett', 'Ctt.', 56, 'G', 'Cornetto|Zink|Cornet à bouquin|Corneta renacentista|Ctto.|Zk.'),
  I('brass.ensemble', 'Brass', 'Brs.', 61, 'G F', 'Brass section|Brass ensemble|Blechbläser|Blech|Cuivres|Ottoni|Metales|Brass Ens.'),

  // Pitched percussion
  I('pitched-percussion.timpani', 'Timpani', 'Timp.', 47, 'F', 'Kettledrums|Kettle drums|Pauken|Pauke|Timbales|Timballes|Tympani|Tympanum|Tympana|Timpano|Timbal|Timp.|Pk.|Pauk.|Timb.|Tim.|Tymp.'),
  I('pitched-percussion.glockenspiel', 'Glockenspiel', 'Glock.', 9, 'G', 'Orchestra bells|Bells|Campanelli|Campanelli a tastiera|Jeu de timbres|Carillon|Lira|Juego de timbres|Carillón|Glsp.|Glk.|Camp.|Campli.', OCT2_UP),
  I('pitched-percussion.xylophone', 'Xylophone', 'Xyl.', 13, 'G', 'Xylophon|Xilofono|Xilófono|Xylo|Xil.|Xylo.', OCT_UP),
  I('pitched-percussion.marimba', 'Marimba', 'Mar.', 12, 'G F', 'Marimbaphon|Marimbaphone|Marimbafono|Marimbáfono|Mrb.|Mba.|Mrmb.'),
  I('pitched-percussion.vibraphone', 'Vibraphone', 'Vib.', 11, 'G', 'Vibraphon|Vibrafono|Vibráfono|Vibes|Vibraharp|Vibr.|Vbr.|Vibes.'),
  I('pitched-percussion.tubular-bells', 'Tubular Bells', 'Tub. B.', 14, 'G', 'Chimes|Orchestral chimes|Röhrenglocken|Glocken|Campane|Campane tubolari|Cloches|Cloches tubulaires|Campanas|Campanas tubulares|T. Bells|Tub. Bells|Chm.|Gl.|Cloch.|Rgl.|Röhrengl.'),
  I('pitched-percussion.crotales', 'Crotales', 'Crot.', 9, 'G', 'Antique cymbals|Antike Zimbeln|Cymbales antiques|Crotali|Crótalos|Crtl.', OCT2_UP),
  I('pitched-percussion.handbells', 'Handbells', 'Hndbl.', 14, 'G F', 'Hand bells|Handglocken|Clochettes|Campanelle|Campanas de mano|Hdbl.', OCT_UP),
  I('pitched-percussion.steel-drums', 'Steel Drums', 'St. Dr.', 114, 'G', 'Steel drum|Steelpan|Steel pan|Steelpans|Pans|Steel Dr.|Stpn.'),
  I('pitched-percussion.kalimba', 'Kalimba', 'Kal.', 108, 'G', 'Mbira|Thumb piano|Sansa|Likembe|Klb.'),
  I('pitched-percussion.hammered-dulcimer', 'Hammered Dulcimer', 'H. Dulc.', 15, 'G', 'Dulcimer|Hackbrett|Tympanon|Salterio|Salterio tedesco|Ham. Dulc.|Hbrett.'),
  I('pitched-percussion.cimbalom', 'Cimbalom', 'Cimb.', 15, 'G F', 'Zymbal|Cymbalum|Cimbalon|Czimbalom|Ungarisches Hackbrett|Cymbalom|Cimbalón|Cbm.'),
  I('pitched-percussion.music-box', 'Music Box', 'M. Box', 10, 'G', 'Spieldose|Spieluhr|Boîte à musique|Carillon à musique|Caja de música|Scatola musicale|M. Bx.'),

  // Unpitched percussion (channel 10)
  P('percussion.drum-set', 'Drum Set', 'Dr.', 'Drum kit|Drums|Drumset|Kit|Batterie|Batteria|Batería|Jazz drums|Dr. Set|Dms.|Drs.'),
  P('percussion.snare-drum', 'Snare Drum', 'S. D.', 'Snare|Side drum|Kleine Trommel|Caisse claire|Tambour|Tambour militaire|Tamburo|Tamburo militare|Tamburo piccolo|Rullante|Caja|Caja clara|Tambor|Redoblante|S.D.|SD.|Sn. Dr.|Sn.|Kl. Tr.|K. Tr.|Tamb. mil.|Tamb. picc.|Sn. D.'),
  P('percussion.bass-drum', 'Bass Drum', 'B. D.', 'Grosse Trommel|Grosse caisse|Gran cassa|Grancassa|Cassa|Bombo|Gran Casa|Bass Dr.|BD.|B. Dr.|Gr. Tr.|Gr. C.|Gr. cassa|G. C.|Gr. Trom.'),
  P('percussion.cymbals', 'Cymbals', 'Cym.', 'Crash cymbals|Clash cymbals|Pair of cymbals|Cymbal|Becken|Beckenpaar|Cymbales|Piatti|Piatto|Platillos|Platillo|Platos|Cymb.|Cyms.|Bck.|Beck.|Pti.|Ptti.|Plat.|Cymbs.'),
  P('percussion.suspended-cymbal', 'Suspended Cymbal', 'Sus. Cym.', 'Hängendes Becken|Becken (hängend)|Cymbale suspendue|Piatto sospeso|Platillo suspendido|S. Cym.|Susp. Cym.|P. sosp.|Sosp.|Cymb. susp.|Hg. Beck.'),
  P('percussion.hi-hat', 'Hi-Hat', 'H.-H.', 'Hihat|Hi hat|Hi-hat cymbals|Charleston|Charleston-Becken|Cinelli charleston|Charles.|HH.|H. H.|Hh.'),
  P('percussion.finger-cymbals', 'Finger Cymbals', 'Fing. Cym.', 'Zills|Zils|Fingerzimbeln|Fingerbecken|Cymbales digitales|Cimbalini|Chinchines|F. Cym.'),
  P('percussion.triangle', 'Triangle', 'Tri.', 'Triangel|Triangolo|Triángulo|Trgl.|Trg.|Tgl.|Triang.'),
  P('percussion.tambourine', 'Tambourine', 'Tamb.', 'Tamburin|Schellentrommel|Tambour de basque|Tamburello|Tamburino|Tamburo basco|Pandereta|Pandero|Tbr.|Tamb. b.|Tambn.|Tamb. de b.'),
  P('percussion.tam-tam', 'Tam-tam', 'T.-t.', 'Tamtam|Tam tam|Tam-tams|Tam.|T.t.'),
  P('percussion.gong', 'Gong', 'Gng.', 'Gongs|Chinese gong|Gong chinois|Gong cinese'),
  P('percussion.woodblock', 'Wood Block', 'W. B.', 'Woodblock|Wood blocks|Woodblocks|Holzblock|Holzblocktrommel|Holzblöcke|Bloc de bois|Blocco di legno|Blocchi di legno|Caja china|Bloque de madera|W. Bl.|Wdblk.|Wd. Bl.|Hzbl.|Hbl.|Bl. d. b.'),
  P('percussion.temple-blocks', 'Temple Blocks', 'T. Bl.', 'Temple block|Tempelblöcke|Tempelblock|Tempel-Blöcke|Blocs chinois|Temple-blocks|Blocchi cinesi|Templeblocks|Bloques de templo|Tbl.|Tmp. Bl.|Tpl. Bl.'),
  P('percussion.castanets', 'Castanets', 'Cast.', 'Kastagnetten|Castagnettes|Nacchere|Castañuelas|Castagnette|Castanet|Kast.|Nacch.|Cstg.'),
  P('percussion.claves', 'Claves', 'Clv.', 'Klanghölzer|Legnetti|Baguettes de bois'),
  P('percussion.maracas', 'Maracas', 'Mrcs.', 'Maraca|Rumbakugeln|Rumba-Kugeln|Marac.|Mrc.'),
  P('percussion.guiro', 'Guiro', 'Gui.', 'Güiro|Guero|Reco-reco|Gro.'),
  P('percussion.cowbell', 'Cowbell', 'Cowb.', 'Cowbells|Kuhglocke|Kuhglocken|Almglocken|Cloches de vache|Cloches-de-vache|Campanaccio|Campanacci|Cencerro|Cencerros|Cbl.|Kuhgl.|Cowbl.'),
  P('percussion.bongos', 'Bongos', 'Bgo.', 'Bongo|Bongó|Bongós|Bong.|Bgs.'),
  P('percussion.congas', 'Congas', 'Cga.', 'Conga|Tumbadora|Tumbadoras|Cgas.|Cong.'),
  P('percussion.timbales', 'Latin Timbales', 'Timbs.', 'Timbales latinos|Timbales (Latin)|Pailas|Pailas criollas|Timbalitos|Timbal. lat.'),
  P('percussion.tom-toms', 'Tom-toms', 'Tom-t.', 'Tom-tom|Toms|Tomtoms|Tom toms|Tom|Tomtom|T.-toms|Tom.'),
  P('percussion.tenor-drum', 'Tenor Drum', 'T. D.', 'Rührtrommel|Caisse roulante|Tamburo rullante|Tambor tenor|Field drum|Military drum|Ten. Dr.|Rührtr.|C. roul.'),
  P('percussion.whip', 'Whip', 'Whp.', 'Slapstick|Slap stick|Peitsche|Holzklapper|Fouet|Frusta|Látigo|Slapst.'),
  P('percussion.ratchet', 'Ratchet', 'Rat.', 'Ratsche|Crécelle|Raganella|Matraca|Rattle|Rtch.'),
  P('percussion.sleigh-bells', 'Sleigh Bells', 'Sl. B.', 'Jingle bells|Schellen|Schellengeläut|Grelots|Sonagli|Sonagliera|Cascabeles|Sl. Bells|Schell.'),
  P('percussion.wind-chimes', 'Wind Chimes', 'W. Ch.', 'Mark tree|Bar chimes|Windspiel|Carillon éolien|Campanelli eolici|Móvil de viento|Mk. Tr.'),
  P('percussion.bell-tree', 'Bell Tree', 'B. Tr.', 'Schellenbaum|Arbre à cloches|Albero di campanelli|Árbol de campanas|Bell Tr.'),
  P('percussion.anvil', 'Anvil', 'Anv.', 'Amboss|Ambos|Enclume|Incudine|Yunque'),
  P('percussion.vibraslap', 'Vibraslap', 'Vslp.', 'Quijada|Jawbone|Vibra-slap'),
  P('percussion.cabasa', 'Cabasa', 'Cab.', 'Afuche|Afoxé|Cabaza'),
  P('percussion.shaker', 'Shaker', 'Shkr.', 'Egg shaker|Shakers|Chocalho|Ganzá|Schüttelrohr'),
  P('percussion.cajon', 'Cajón', 'Caj.', 'Cajon|Kistentrommel|Caixa'),
  P('percussion.djembe', 'Djembe', 'Djb.', 'Djembé|Jembe|Djembes'),
  P('percussion.taiko', 'Taiko Drum', 'Tk.', 'Taiko|Taiko drums|O-daiko|Taiko-Trommel'),
  P('percussion.bodhran', 'Bodhrán', 'Bod.', 'Bodhran|Bodh.'),
  P('percussion.thunder-sheet', 'Thunder Sheet', 'Thund.', 'Donnerblech|Tôle|Tôle à tonnerre|Lastra del tuono|Lámina de trueno|Thund. Sh.'),
  P('percussion.wind-machine', 'Wind Machine', 'Wind M.', 'Windmaschine|Éoliphone|Machine à vent|Macchina del vento|Eolifono|Máquina de viento|Wind Mach.'),
  P('percussion.percussion', 'Percussion', 'Perc.', 'Schlagzeug|Schlagwerk|Percussions|Percussioni|Percusión|Percussion ensemble|Schlz.|Schlagz.|Percs.|Schl.'),

  // Keyboards
  I('keyboard.piano', 'Piano', 'Pno.', 0, 'G F', 'Pianoforte|Klavier|Flügel|Grand piano|Fortepiano|Hammerklavier|Piano à queue|Gran coda|Piano de cola|Clavier|Pf.|Pfte.|Pft.|Pn.|Pia.|Klav.|Pianof.'),
  I('keyboard.electric-piano', 'Electric Piano', 'E. Pno.', 4, 'G F', 'E-Piano|Rhodes|Fender Rhodes|Wurlitzer|Piano électrique|Piano elettrico|Piano eléctrico|El. Pno.|EP.|E.Pno.|El. Piano'),
  I('keyboard.harpsichord', 'Harpsichord', 'Hpschd.', 6, 'G F', 'Cembalo|Clavicembalo|Clavecin|Clavicémbalo|Kielflügel|Gravicembalo|Hpsd.|Hpcd.|Cemb.|Cem.|Clavec.|Clvcmb.|Cmb.'),
  I('keyboard.virginal', 'Virginal', 'Virg.', 6, 'G F', 'Virginals|Virginale|Spinet|Spinett|Épinette|Spinetta|Espineta|Spin.'),
  I('keyboard.clavinet', 'Clavinet', 'Clvt.', 7, 'G F', 'Clavi|Hohner Clavinet|Clvnt.'),
  I('keyboard.clavichord', 'Clavichord', 'Clvd.', 7, 'G F', 'Klavichord|Clavicorde|Clavicordo|Clavicordio|Clch.|Clvchd.'),
  I('keyboard.celesta', 'Celesta', 'Cel.', 8, 'G F', 'Célesta|Celeste|Céleste|Celes.|Clst.', OCT_UP),
  I('keyboard.organ', 'Organ', 'Org.', 19, 'G F', 'Pipe organ|Church organ|Pedal|Pedale|Pédale|Organ pedal|Orgel|Orgue|Organo|Órgano|Organum|Orgl.|Org. man.'),
  I('keyboard.positive-organ', 'Positive Organ', 'Pos. Org.', 19, 'G F', 'Positive|Chamber organ|Positiv|Positivorgel|Orgue positif|Positif|Organo positivo|Órgano positivo|Organetto|Portative organ|Portativ|Org. pos.'),
  I('keyboard.hammond-organ', 'Hammond Organ', 'Hm. Org.', 16, 'G F', 'Hammond|Drawbar organ|Electric organ|Electronic organ|E-Orgel|Elektronische Orgel|Orgue Hammond|Orgue électrique|Organo Hammond|Organo elettrico|Órgano Hammond|Órgano eléctrico|Ham. Org.|E. Org.|El. Org.'),
  I('keyboard.harmonium', 'Harmonium', 'Harm.', 20, 'G F', 'Reed organ|Pump organ|American organ|Armonium|Armonio|Harmonio|Physharmonika|Hrm.|Harmon.|Hmn.'),
  I('keyboard.accordion', 'Accordion', 'Acc.', 21, 'G F', 'Akkordeon|Accordéon|Fisarmonica|Acordeón|Acordeon|Ziehharmonika|Handharmonika|Schifferklavier|Accord.|Akk.|Fisarm.|Acdn.|Akkord.'),
  I('keyboard.bandoneon', 'Bandoneon', 'Bdn.', 23, 'G F', 'Bandonéon|Bandoneón|Bandonion|Bandonium|Bandon.|Bndn.'),
  I('keyboard.concertina', 'Concertina', 'Conc.', 21, 'G', 'Konzertina|Concertina anglaise|Konz.|Cnc.'),
  I('keyboard.continuo', 'Continuo', 'B. c.', 6, 'F', 'Basso continuo|Basse continue|Bajo continuo|Generalbass|Basso generale|Thoroughbass|Thorough bass|Figured bass|Bezifferter Bass|Bassus continuus|Bassus generalis|Bc.|Cont.|Contin.|B. cont.|Basso cont.|B.c.'),

  // Plucked strings
  I('plucked.harp', 'Harp', 'Hp.', 46, 'G F', 'Harfe|Harpe|Arpa|Harpa|Concert harp|Pedal harp|Doppelpedalharfe|Hf.|Hrp.|Hpe.|Arp.|Hfe.|Hrf.'),
  I('plucked.guitar', 'Guitar', 'Gtr.', 24, 'G8vb', 'Classical guitar|Nylon guitar|Nylon-string guitar|Spanish guitar|Acoustic guitar (nylon)|Gitarre|Konzertgitarre|Guitare|Guitare classique|Chitarra|Chitarra classica|Guitarra|Guitarra clásica|Guitarra española|Git.|Guit.|Gt.|Chit.'),
  I('plucked.acoustic-guitar', 'Acoustic Guitar', 'Ac. Gtr.', 25, 'G8vb', 'Steel-string guitar|Steel-string acoustic guitar|Folk guitar|Westerngitarre|Akustikgitarre|Guitare acoustique|Guitare folk|Chitarra acustica|Guitarra acústica|A. Gtr.|Ac. Gt.|Ac. Guit.|Ak. Git.'),
  I('plucked.electric-guitar', 'Electric Guitar', 'El. Gtr.', 27, 'G8vb', 'E-Gitarre|Elektrische Gitarre|Elektrogitarre|Guitare électrique|Chitarra elettrica|Guitarra eléctrica|E. Gtr.|E-Git.|E.Gtr.|Elec. Gtr.|E. Git.|El. Guit.'),
  I('plucked.jazz-guitar', 'Jazz Guitar', 'J. Gtr.', 26, 'G8vb', 'Jazzgitarre|Guitare jazz|Chitarra jazz|Guitarra jazz|Archtop guitar|Jz. Gtr.'),
  I('plucked.bass-guitar', 'Bass Guitar', 'B. Gtr.', 33, 'F', 'Electric bass|Electric bass guitar|E-Bass|Elektrischer Bass|Elektrobass|Bassgitarre|Basse électrique|Guitare basse|Basso elettrico|Bajo eléctrico|E. B.|El. B.|E-B.|Bs. Gtr.|Bass Gtr.|El. Bass|E. Bass|E.B.', OCT_DOWN),
  I('plucked.fretless-bass', 'Fretless Bass', 'Frtl. B.', 35, 'F', 'Fretless bass guitar|Fretless|Bundloser Bass|Fretless-Bass|Basse fretless|Basso fretless|Bajo sin trastes|Fretl. B.', OCT_DOWN),
  I('plucked.acoustic-bass', 'Acoustic Bass', 'Ac. B.', 32, 'F', 'Acoustic bass guitar|Akustikbass|Akustische Bassgitarre|Basse acoustique|Basso acustico|Bajo acústico|Ac. Bass|A. B.', OCT_DOWN),
  I('plucked.mandolin', 'Mandolin', 'Mand.', 25, 'G', 'Mandoline|Mandolino|Mandolina|Mdn.|Mdl.|Mandol.'),
  I('plucked.lute', 'Lute', 'Lt.', 24, 'G8vb', 'Laute|Luth|Liuto|Laúd|Laud|Testudo|Lte.|Liu.'),
  I('plucked.theorbo', 'Theorbo', 'Theo.', 24, 'F', 'Theorbe|Théorbe|Tiorba|Chitarrone|Archlute|Arciliuto|Erzlaute|Archiluth|Archilaúd|Tiorb.|Thb.'),
  I('plucked.banjo', 'Banjo', 'Bjo.', 105, 'G', 'Banjo (5-string)|Five-string banjo|Tenor banjo|Bj.|Bnj.|Banj.', OCT_DOWN),
  I('plucked.ukulele', 'Ukulele', 'Uke.', 24, 'G', 'Ukelele|Uke|Ukulélé|Uk.|Ukl.|Ukul.'),
  I('plucked.sitar', 'Sitar', 'Sit.', 104, 'G', 'Sitare|Sitār'),
  I('plucked.koto', 'Koto', 'Kt.', 107, 'G', 'Japanese zither|Sō'),
  I('plucked.shamisen', 'Shamisen', 'Sham.', 106, 'G', 'Samisen|Sangen|Shms.'),
  I('plucked.zither', 'Zither', 'Zith.', 15, 'G', 'Zitter|Konzertzither|Cithare|Cetra|Cítara|Cithara|Concert zither|Zth.'),
  I('plucked.balalaika', 'Balalaika', 'Bal.', 25, 'G', 'Balalaïka|Balalaica|Balalajka|Blk.'),
  I('plucked.bouzouki', 'Bouzouki', 'Bzk.', 25, 'G8vb', 'Buzuki|Busuki|Buzuq|Irish bouzouki|Bouz.'),

  // Solo voices
  I('voice.soprano', 'Soprano', 'S.', 52, 'G', 'Sopran|Soprano voice|Sopranstimme|Canto|Cantus|Discantus|Superius|Dessus|Tiple|Sop.|Sopr.|Sp.|Spr.'),
  I('voice.mezzo-soprano', 'Mezzo-soprano', 'Mz.', 52, 'G', 'Mezzosoprano|Mezzosopran|Mezzo|Mezzo soprano|Mez.|Ms.|M.-S.|Mzs.|Mezz.|M.S.'),
  I('voice.alto', 'Alto', 'A.', 52, 'G', 'Alt|Altus|Alto voice|Altstimme|Alt.|Alto.'),
  I('voice.contralto', 'Contralto', 'Ctr.', 52, 'G', 'Kontraalt|Contralt|Contralto voice|Cntr.'),
  I('voice.countertenor', 'Countertenor', 'Ct.', 52, 'G', 'Counter-tenor|Counter tenor|Countertenore|Contratenor|Contre-ténor|Haute-contre|Controtenore|Sopranista|C.-T.|Cten.|Ctn.'),
  I('voice.tenor', 'Tenor', 'T.', 52, 'G8vb', 'Tenore|Ténor|Tenorstimme|Tenor voice|Taille|Ten.|Tnr.|Tn.|Te.'),
  I('voice.baritone', 'Baritone', 'Bar.', 52, 'F', 'Bariton|Baritono|Barítono|Baryton|Baritone voice|Baritonstimme|Bari.|Bt.|Btn.|Brt.'),
  I('voice.bass-baritone', 'Bass-baritone', 'B.-Bar.', 52, 'F', 'Bass baritone|Bassbariton|Basso-baritono|Basso baritono|Baryton-basse|Bajo-barítono|Bs.-Bar.'),
  I('voice.bass', 'Bass', 'B.', 52, 'F', 'Basso|Basse|Bajo|Bassus|Bass voice|Bassstimme|Basso profondo|Basse chantante|Bs.|Bas.|Bss.|Bass.|Bsso.'),
  I('voice.treble', 'Treble', 'Treb.', 52, 'G', 'Boy soprano|Treble voice|Knabensopran|Knabenstimme|Voix d\'enfant|Voce bianca|Soprano (boy)|Tiple infantil|Trbl.|Boy S.'),
  I('voice.voice', 'Voice', 'Vo.', 53, 'G', 'Vocal|Vocals|Singstimme|Gesangsstimme|Stimme|Gesang|Voix|Voce|Voce sola|Voz|Vox|Vocal line|Lead vocal|Lead vocals|Solo voice|Sing.|Sgst.|Voc.|Vx.|Sst.'),
  // Choir
  I('choir.mixed', 'Choir', 'Ch.', 52, 'G F', 'Chorus|Mixed choir|Mixed chorus|Chor|Gemischter Chor|Chœur|Chœur mixte|Coro|Coro misto|Coro mixto|Chorus SATB|Choir SATB|SATB|Chr.|Cho.'),
  I('choir.soprano', 'Choir Soprano', 'Ch. S.', 52, 'G', 'Chorus soprano|Choral soprano|Soprano (choir)|Soprano (chorus)|Soprano choir|Chor Sopran|Chorsopran|Sopran (Chor)|Coro soprano|Coro soprani|Soprani (coro)|Soprano (coro)|Chœur soprano|Soprano (chœur)|Coro S.|Ch. Sop.|Ch. Sopr.'),
  I('choir.alto', 'Choir Alto', 'Ch. A.', 52, 'G', 'Chorus alto|Choral alto|Alto (choir)|Alto (chorus)|Alto choir|Chor Alt|Choralt|Alt (Chor)|Coro alto|Coro alti|Coro contralto|Contralto (coro)|Alto (coro)|Chœur alto|Alto (chœur)|Coro A.|Ch. Alt.'),
  I('choir.tenor', 'Choir Tenor', 'Ch. T.', 52, 'G8vb', 'Chorus tenor|Choral tenor|Tenor (choir)|Tenor (chorus)|Tenor choir|Chor Tenor|Chortenor|Tenor (Chor)|Coro tenore|Coro tenori|Tenore (coro)|Chœur ténor|Ténor (chœur)|Coro T.|Ch. Ten.'),
  I('choir.bass', 'Choir Bass', 'Ch. B.', 52, 'F', 'Chorus bass|Choral bass|Bass (choir)|Bass (chorus)|Bass choir|Chor Bass|Chorbass|Bass (Chor)|Coro basso|Coro bassi|Basso (coro)|Chœur basse|Basse (chœur)|Coro B.|Ch. Bs.'),
  I('choir.children', "Children's Choir", 'Ch. Ch.', 52, 'G', "Children's chorus|Childrens choir|Kinderchor|Knabenchor|Chœur d'enfants|Maîtrise|Coro di voci bianche|Voci bianche|Coro infantil|Coro de niños|Boys' choir|Kinderch."),

  // Bowed strings
  I('strings.violin', 'Violin', 'Vln.', 40, 'G', 'Violine|Geige|Violon|Violino|Violín|Violinum|Violinus|Vl.|Vn.|Viol.|Vno.|Vlno.|Vio.|V.|Vi.|Violi.|Vlni.'),
  I('strings.viola', 'Viola', 'Vla.', 41, 'C3', 'Bratsche|Viola da braccio|Violetta|Alto (viola)|Va.|Vle.|Br.|Brat.|Bratsch.|Vl-a.|Vlas.'),
  I('strings.cello', 'Cello', 'Vc.', 42, 'F', 'Violoncello|Violoncelle|Violonchelo|Violoncel|Violoncellum|Vcl.|Vlc.|Vcello.|Vcll.|Vclo.|Vcs.|Vcelle.|Violonc.|Vlcl.'),
  I('strings.double-bass', 'Double Bass', 'Db.', 43, 'F', 'Contrabass|Kontrabass|Contrebasse|Contrabbasso|Contrabasso|Contrabajo|String bass|Upright bass|Bass viol|Contrabassus|Cb.|Kb.|D.B.|D. B.|Cbs.|Cbb.|Kbs.|C.B.|Ctrb.|K.-B.|Kontrab.|Cbass.|Contrab.|Cbasso.', OCT_DOWN),
  I('strings.ensemble', 'Strings', 'Str.', 48, 'G F', 'String ensemble|String orchestra|String section|Streicher|Streichorchester|Cordes|Orchestre à cordes|Archi|Orchestra d\'archi|Cuerdas|Orquesta de cuerdas|Strs.'),
  I('strings.viola-da-gamba', 'Viola da gamba', 'Gamb.', 42, 'F', 'Gamba|Gambe|Viola de gamba|Viole de gambe|Basse de viole|Bass gamba|Kniegeige|V. d. g.|Vdg.|Vla. da g.|Va. da g.|Vla. d. g.'),
  I('strings.viola-damore', "Viola d'amore", "Va. d'am.", 41, 'C3', "Viole d'amour|Liebesgeige|Viola de amor|Viola d'amour|Vla. d'am.|V. d'am.|Vdam."),
  I('strings.violone', 'Violone', 'Vne.', 43, 'F', 'Grossbassgeige|Grosse Bassgeige|Contrabasso di viola|Violone grosso|Violo.', OCT_DOWN),
  I('strings.fiddle', 'Fiddle', 'Fdl.', 110, 'G', 'Fidel|Fiedel|Folk fiddle|Hardanger fiddle|Hardingfele|Fid.'),
  I('strings.erhu', 'Erhu', 'Erhu', 110, 'G', 'Èrhú|Huqin|Chinese violin|Er-hu|Erh.'),
  I('strings.hurdy-gurdy', 'Hurdy-gurdy', 'Hgy.', 110, 'G', 'Drehleier|Vielle à roue|Vielle|Ghironda|Zanfona|Organistrum|Lira tedesca|H.-g.'),
  I('strings.nyckelharpa', 'Nyckelharpa', 'Nyck.', 110, 'C3', 'Schlüsselfidel'),

  // Synthesizers and sound effects: generic entries for GM programs without a classical instrument
  I('synth.lead', 'Synth Lead', 'Synth.', 80, 'G', 'Synthesizer|Synthesiser|Synth|Lead synth|Square lead|Synthétiseur|Sintetizzatore|Sintetizador|Syn.|Synt.|Syn. Ld.'),
  I('synth.pad', 'Synth Pad', 'Pad', 88, 'G F', 'Pad|Pads|Synthesizer pad|Synth. pad|Syn. Pad'),
  I('synth.effects', 'Synth Effects', 'Syn. FX', 96, 'G', 'Synth FX|Synthesizer effects|Atmosphere|Syn. Fx.'),
  I('synth.strings', 'Synth Strings', 'Syn. Str.', 50, 'G F', 'Synthesizer strings|Synth. strings|String pad|Syn. Strs.'),
  I('synth.brass', 'Synth Brass', 'Syn. Br.', 62, 'G F', 'Synthesizer brass|Synth. brass|Syn. Brs.'),
  I('synth.bass', 'Synth Bass', 'Syn. B.', 38, 'F', 'Synthesizer bass|Synthbass|Synth. bass|Syn. Bass'),
  I('synth.voice', 'Synth Voice', 'Syn. Vox', 54, 'G', 'Synth vox|Synth choir|Synthesizer voice|Syn. Vx.'),
  I('synth.sound-effects', 'Sound Effects', 'SFX', 120, 'G', 'Effects|Sound FX|FX|Effets sonores|Effetti sonori|Effekte|Geräusche|Efectos|Efectos sonoros|S.F.X.'),
];

/** All built-in instruments, in score order. */
export const INSTRUMENTS: readonly Instrument[] = deepFreeze(TABLE);

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value as object)) deepFreeze(inner);
  }
  return value;
}

// ---------------------------------------------------------------------------
// Lookup by id and by program

let byId: Map<string, Instrument> | undefined;

export function instrumentById(id: string): Instrument | undefined {
  byId ??= new Map(INSTRUMENTS.map((instrument) => [instrument.id, instrument]));
  return byId.get(id);
}

/**
 * The entry for a program where the first entry with that program is not the
 * best representative, or where no entry has the program (then the closest
 * instrument of the same GM family stands in).
 */
const PROGRAM_CHOICES: Record<number, string> = {
  1: 'keyboard.piano', // Bright Acoustic Piano
  2: 'keyboard.piano', // Electric Grand Piano
  3: 'keyboard.piano', // Honky-tonk Piano
  5: 'keyboard.electric-piano', // Electric Piano 2
  17: 'keyboard.hammond-organ', // Percussive Organ
  18: 'keyboard.hammond-organ', // Rock Organ
  28: 'plucked.electric-guitar', // Electric Guitar (muted)
  29: 'plucked.electric-guitar', // Overdriven Guitar
  30: 'plucked.electric-guitar', // Distortion Guitar
  31: 'plucked.electric-guitar', // Guitar Harmonics
  34: 'plucked.bass-guitar', // Electric Bass (pick)
  36: 'plucked.bass-guitar', // Slap Bass 1
  37: 'plucked.bass-guitar', // Slap Bass 2
  39: 'synth.bass', // Synth Bass 2
  44: 'strings.ensemble', // Tremolo Strings
  45: 'strings.ensemble', // Pizzicato Strings
  49: 'strings.ensemble', // String Ensemble 2
  51: 'synth.strings', // Synth Strings 2
  52: 'choir.mixed', // Choir Aahs (not the first voice in the table)
  55: 'synth.effects', // Orchestra Hit
  58: 'brass.tuba', // Tuba (not the euphonium before it)
  59: 'brass.trumpet-bflat', // Muted Trumpet
  63: 'synth.brass', // Synth Brass 2
  76: 'wind.pan-flute', // Blown Bottle
};

/** GM families of eight programs, and the entry that stands for a family. */
const FAMILY_STAND_INS = [
  'keyboard.piano', // 0–7 Piano
  'pitched-percussion.glockenspiel', // 8–15 Chromatic Percussion
  'keyboard.organ', // 16–23 Organ
  'plucked.guitar', // 24–31 Guitar
  'plucked.bass-guitar', // 32–39 Bass
  'strings.violin', // 40–47 Strings
  'strings.ensemble', // 48–55 Ensemble
  'brass.trumpet-bflat', // 56–63 Brass
  'wind.alto-saxophone', // 64–71 Reed
  'wind.flute', // 72–79 Pipe
  'synth.lead', // 80–87 Synth Lead
  'synth.pad', // 88–95 Synth Pad
  'synth.effects', // 96–103 Synth Effects
  'plucked.sitar', // 104–111 Ethnic
  'pitched-percussion.steel-drums', // 112–119 Percussive
  'synth.sound-effects', // 120–127 Sound Effects
];

let byProgram: Instrument[] | undefined;

function programTable(): Instrument[] {
  if (byProgram) return byProgram;
  const first = new Map<number, Instrument>();
  for (const instrument of INSTRUMENTS) {
    if (!instrument.percussion && !first.has(instrument.midiProgram)) first.set(instrument.midiProgram, instrument);
  }
  const table: Instrument[] = [];
  for (let program = 0; program < 128; program++) {
    const choice = PROGRAM_CHOICES[program];
    table.push(choice ? mustGet(choice) : (first.get(program) ?? mustGet(FAMILY_STAND_INS[program >> 3])));
  }
  byProgram = table;
  return table;
}

function mustGet(id: string | undefined): Instrument {
  const instrument = id === undefined ? undefined : instrumentById(id);
  if (!instrument) throw new Error(`instruments: no entry ${String(id)}`);
  return instrument;
}

/**
 * The best representative of a General MIDI program (0-based). Always returns
 * an entry: a program without an instrument of its own gets the closest member
 * of its GM family, or a generic entry (`synth.lead`, `synth.sound-effects` …).
 * With `percussion: true` (MIDI channel 10) the program selects a drum kit, so
 * the answer is the drum set.
 */
export function instrumentForProgram(program: number, opts?: { percussion?: boolean }): Instrument {
  if (opts?.percussion) return mustGet('percussion.drum-set');
  const p = Number.isFinite(program) ? Math.min(127, Math.max(0, Math.round(program))) : 0;
  return programTable()[p] as Instrument;
}

// ---------------------------------------------------------------------------
// Matching printed part names

export type MatchConfidence = 'high' | 'medium' | 'low';

export interface InstrumentMatch {
  instrument: Instrument;
  confidence: MatchConfidence;
}

/**
 * Instruments that differ only in key. A name that states a key picks the
 * member in that key; a name without one picks the first (the common default).
 */
const KEY_FAMILIES: readonly (readonly string[])[] = [
  ['wind.clarinet-bflat', 'wind.clarinet-a', 'wind.clarinet-eflat', 'wind.clarinet-d', 'wind.clarinet-c'],
  ['wind.flute', 'wind.alto-flute'],
  ['wind.oboe', 'wind.oboe-damore'],
  ['brass.horn-f', 'brass.horn-eflat', 'brass.horn-d', 'brass.horn-e', 'brass.horn-g', 'brass.horn-c', 'brass.horn-bflat-basso', 'brass.horn-a'],
  ['brass.trumpet-bflat', 'brass.trumpet-c', 'brass.trumpet-d', 'brass.trumpet-eflat', 'brass.trumpet-e', 'brass.trumpet-f', 'brass.trumpet-a'],
  ['brass.cornet-bflat', 'brass.cornet-eflat'],
];

const PITCH_CLASS_NAMES = ['c', 'db', 'd', 'eb', 'e', 'f', 'gb', 'g', 'ab', 'a', 'bb', 'b'];

/** The key an instrument is "in": the sounding pitch class of a written C. */
function keyOf(instrument: Instrument): string {
  const chromatic = instrument.transposition?.chromatic ?? 0;
  return PITCH_CLASS_NAMES[((chromatic % 12) + 12) % 12] as string;
}

function isTransposing(instrument: Instrument): boolean {
  return !!instrument.transposition && instrument.transposition.chromatic % 12 !== 0;
}

interface AliasHit {
  instrument: Instrument;
  abbreviation: boolean;
}

interface Lookup {
  aliases: Map<string, AliasHit>;
  /** Alias keys of full names, for prefix and fuzzy matching, in table order. */
  fullNames: string[];
  families: Map<string, Map<string, Instrument>>;
}

let lookup: Lookup | undefined;

function buildLookup(): Lookup {
  const aliases = new Map<string, AliasHit>();
  const fullNames: string[] = [];
  const add = (text: string, instrument: Instrument, abbreviation: boolean) => {
    const key = canonical(parse(text));
    if (key === '' || aliases.has(key)) return;
    aliases.set(key, { instrument, abbreviation });
    if (!abbreviation) fullNames.push(key);
  };
  // Full names first, so that an abbreviation never shadows a name.
  for (const instrument of INSTRUMENTS) {
    add(instrument.name, instrument, false);
    for (const alias of instrument.aliases) if (!alias.includes('.')) add(alias, instrument, false);
  }
  for (const instrument of INSTRUMENTS) {
    add(instrument.abbreviation, instrument, true);
    for (const alias of instrument.aliases) if (alias.includes('.')) add(alias, instrument, true);
  }
  const families = new Map<string, Map<string, Instrument>>();
  for (const ids of KEY_FAMILIES) {
    const members = new Map<string, Instrument>();
    for (const id of ids) {
      const instrument = mustGet(id);
      if (!members.has(keyOf(instrument))) members.set(keyOf(instrument), instrument);
    }
    for (const id of ids) families.set(id, members);
  }
  return { aliases, fullNames, families };
}

/** A normalised name: its words, and the key it states ("in B♭"), if any. */
interface Parsed {
  words: string[];
  key?: string;
}

function fold(text: string): string {
  return text
    .replace(/[♭𝄫]/g, 'b')
    .replace(/[♯𝄪]/g, '#')
    .replace(/♮/g, '')
    .replace(/[ßẞ]/g, 'ss')
    .replace(/[œŒ]/g, 'oe')
    .replace(/[æÆ]/g, 'ae')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

const ROMAN = new Set(['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii']);
const LEADING_ROMAN = new Set(['i', 'ii', 'iii', 'iv']);
const ORDINAL_WORDS = new Set([
  'primo', 'prima', 'primi', 'prime', 'secondo', 'seconda', 'secondi', 'seconde', 'terzo', 'terza', 'terzi',
  'quarto', 'quarta', 'first', 'second', 'third', 'fourth', 'erste', 'erster', 'ersten', 'zweite', 'zweiter',
  'zweiten', 'dritte', 'dritter', 'vierte', 'premier', 'premiere', 'premiers', 'premieres', 'deuxieme',
  'deuxiemes', 'troisieme', 'primero', 'primeros', 'segundo', 'segundos', 'tercero',
  'solo', 'soli', 'tutti', 'div', 'divisi', 'unis', 'principale', 'obbligato', 'obligato',
  'concertato', 'concertante', 'concertino', 'ripieno', 'ripieni',
]);
const CONNECTIVES = new Set(['e', 'et', 'und', 'and', 'y', 'u']);
/** Choir voicings ("Chor (SATB)"), dropped when they follow a name. */
const VOICINGS = new Set(['satb', 'ssa', 'ssaa', 'sab', 'sat', 'ttb', 'ttbb', 'tbb', 'ssatb', 'satbb', 'ssatbb', 'ssattb', 'ssaatb', 'ssaattbb']);
const NUMBER = /^\d+(st|nd|rd|th|o|a|e|er|re|eme|de|te)?$/;

/** Part numbering (1, 2., II, primo, solo …) is not part of an instrument's name. */
function stripNumbering(words: string[]): string[] {
  const numbering = words.map((word, i) => {
    if (NUMBER.test(word) || ORDINAL_WORDS.has(word)) return true;
    if (VOICINGS.has(word)) return i > 0;
    if (!ROMAN.has(word)) return false;
    return i > 0 || (LEADING_ROMAN.has(word) && words.length > 1);
  });
  // "1 & 2", "I e II": a connective between two numbers goes with them.
  for (let i = 1; i + 1 < words.length; i++) {
    if (CONNECTIVES.has(words[i] as string) && numbering[i - 1] && numbering[i + 1]) numbering[i] = true;
  }
  const kept = words.filter((_, i) => !numbering[i]);
  return kept.length > 0 ? kept : words.filter((w) => !NUMBER.test(w) && !ROMAN.has(w));
}

const LETTER_KEYS = new Map([
  ['c', 'c'], ['d', 'd'], ['e', 'e'], ['f', 'f'], ['g', 'g'], ['a', 'a'],
  ['b', 'bb'], // German B is B♭, and so is the B of a printed "in B"
  ['h', 'b'], // German H is B natural
]);
const SOLFEGE = new Map([['do', 'c'], ['ut', 'c'], ['re', 'd'], ['mi', 'e'], ['fa', 'f'], ['sol', 'g'], ['la', 'a'], ['si', 'b']]);
const GERMAN_KEYS = new Map([
  ['es', 'eb'], ['as', 'ab'], ['des', 'db'], ['ges', 'gb'], ['ces', 'cb'], ['fes', 'fb'],
  ['cis', 'c#'], ['dis', 'd#'], ['fis', 'f#'], ['gis', 'g#'], ['ais', 'a#'], ['eis', 'e#'],
]);
const FLAT_WORDS = new Set(['b', 'flat', 'bemol', 'bemolle']);
const SHARP_WORDS = new Set(['#', 'sharp', 'diese', 'diesis']);

/**
 * Reads a key at words[i] ("bb", "b flat", "es", "sib", "si bemol", "f#"),
 * canonical as a letter plus `b` or `#` ("bb", "eb", "f#"; "b" is B natural).
 * Returns the key and the index after it.
 */
function readKey(words: string[], i: number): { key: string; next: number } | undefined {
  const word = words[i];
  if (word === undefined) return undefined;
  const german = GERMAN_KEYS.get(word);
  if (german) return { key: german, next: i + 1 };
  let key = LETTER_KEYS.get(word);
  let m: RegExpExecArray | null;
  if (key === undefined && (m = /^([a-g])(b|#)$/.exec(word))) key = word;
  if (key === undefined && (m = /^(do|ut|re|mi|fa|sol|la|si)(b|#)?$/.exec(word))) key = `${SOLFEGE.get(m[1] as string)}${m[2] ?? ''}`;
  if (key === undefined) return undefined;
  let next = i + 1;
  const modifier = words[next];
  if (modifier !== undefined && key.length === 1) {
    if (FLAT_WORDS.has(modifier)) {
      key += 'b';
      next++;
    } else if (SHARP_WORDS.has(modifier)) {
      key += '#';
      next++;
    }
  } else if (modifier !== undefined && word === 'b' && FLAT_WORDS.has(modifier) && modifier !== 'b') {
    next++; // "B flat", "B-flat"
  }
  return { key, next };
}

function parse(text: string): Parsed {
  const words = stripNumbering(fold(text).split(/[^a-z0-9#]+/).filter((w) => w !== ''));
  // "in B♭", "en Si bémol", "in Es", "in D – A" (a timpani tuning: the first note counts).
  for (let i = 0; i + 1 < words.length; i++) {
    if (words[i] !== 'in' && words[i] !== 'en') continue;
    const first = readKey(words, i + 1);
    if (!first) continue;
    let end = first.next;
    for (let more = readKey(words, end); more; more = readKey(words, end)) end = more.next;
    if (words[end] === 'alto' || words[end] === 'basso' || words[end] === 'grave') end++;
    const rest = [...words.slice(0, i), ...words.slice(end)];
    if (rest.length === 0) break;
    return { words: rest, key: first.key };
  }
  return { words };
}

function canonical(parsed: Parsed): string {
  const base = parsed.words.join(' ');
  return parsed.key === undefined ? base : `${base} in ${parsed.key}`;
}

/** Singular forms a plural word might have (English, German, French, Italian, Spanish). */
function singulars(word: string): string[] {
  const out: string[] = [];
  const n = word.length;
  if (n >= 3 && word.endsWith('s') && !word.endsWith('ss')) out.push(word.slice(0, -1));
  if (n >= 4 && word.endsWith('es')) out.push(word.slice(0, -2));
  if (n >= 5 && word.endsWith('en')) out.push(word.slice(0, -1), word.slice(0, -2));
  if (n >= 5 && word.endsWith('er')) out.push(word.slice(0, -2));
  if (n >= 4 && word.endsWith('i')) out.push(`${word.slice(0, -1)}o`, `${word.slice(0, -1)}e`, `${word.slice(0, -1)}a`);
  if (n >= 4 && word.endsWith('e')) out.push(`${word.slice(0, -1)}a`, word.slice(0, -1));
  return out;
}

/** Word lists with one or more words made singular (at most a few dozen). */
function pluralVariants(words: readonly string[]): string[][] {
  let variants: string[][] = [[]];
  for (const word of words) {
    const forms = [word, ...singulars(word)];
    const next: string[][] = [];
    for (const variant of variants) for (const form of forms) if (next.length < 64) next.push([...variant, form]);
    variants = next;
  }
  return variants.slice(1); // the first is the words unchanged
}

/** Optimal string alignment distance, giving up once it exceeds `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const above = rows[i - 1] as number[];
      let d = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row.push(d);
      best = Math.min(best, d);
    }
    if (i > 0 && best > max) return max + 1;
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}

function lower(confidence: MatchConfidence): MatchConfidence {
  return confidence === 'high' ? 'medium' : 'low';
}

/** Picks the family member in the stated key. */
function resolveKey(found: InstrumentMatch, key: string | undefined, families: Lookup['families']): InstrumentMatch {
  if (key === undefined) return found;
  const members = families.get(found.instrument.id);
  if (members) {
    const member = members.get(key);
    if (member) return { instrument: member, confidence: found.confidence };
    return { instrument: found.instrument, confidence: lower(found.confidence) };
  }
  if (isTransposing(found.instrument) && keyOf(found.instrument) !== key) {
    return { instrument: found.instrument, confidence: lower(found.confidence) };
  }
  return found; // a key on a concert-pitch instrument (a timpani tuning) changes nothing
}

/** Whether a lone word at the start or end of a name can be a key ("B♭ Clarinet", "Horn F"). */
function edgeKey(word: string): string | undefined {
  if (/^([a-h]|[a-g][b#]|(do|ut|re|mi|fa|sol|la|si)[b#]?)$/.test(word) || GERMAN_KEYS.has(word)) {
    return readKey([word], 0)?.key;
  }
  return undefined;
}

/**
 * Matches a part name as printed on a score ("Violino I", "Clarinetto in Sib",
 * "Horns in F 1.2", "Pno.") to an instrument.
 *
 * Confidence: `high` when the name (without numbering) is a full name or alias
 * of the instrument; `medium` for an abbreviation, a plural, or a stated key the
 * table has no entry for; `low` for a prefix, a name inside longer text, or a
 * near miss (a misread letter). Returns undefined when nothing is close.
 */
export function matchInstrumentName(text: string): InstrumentMatch | undefined {
  lookup ??= buildLookup();
  const { aliases, fullNames, families } = lookup;
  const parsed = parse(text);
  if (parsed.words.length === 0) return undefined;
  const hit = (key: string): InstrumentMatch | undefined => {
    const found = aliases.get(key);
    return found && { instrument: found.instrument, confidence: found.abbreviation ? 'medium' : 'high' };
  };

  // 1. The whole name, key included, is an alias ("Clarinet in A").
  const exact = hit(canonical(parsed));
  if (exact) return exact;

  // The name without its key: an alias, or the plural of one ("2 Violins",
  // "Violini", "Hörner in F").
  const baseHit = (words: readonly string[]): InstrumentMatch | undefined => {
    const direct = hit(words.join(' '));
    if (direct) return direct;
    for (const variant of pluralVariants(words)) {
      const plural = hit(variant.join(' '));
      if (plural) return { instrument: plural.instrument, confidence: 'medium' };
    }
    return undefined;
  };
  const base = parsed.words;
  let key = parsed.key;

  // 2. A stated key ("in Sib") picks the family member in that key.
  let found = key === undefined ? undefined : baseHit(base);

  // 3. A key as a word of its own at either end ("B♭ Clarinet", "Tromba (Do)").
  if (!found && key === undefined && base.length > 1) {
    for (const [rest, edge] of [
      [base.slice(1), base[0]],
      [base.slice(0, -1), base[base.length - 1]],
    ] as const) {
      const edgeKeyName = edge === undefined ? undefined : edgeKey(edge);
      const candidate = edgeKeyName === undefined ? undefined : baseHit(rest);
      if (candidate && (families.has(candidate.instrument.id) || isTransposing(candidate.instrument))) {
        found = candidate;
        key = edgeKeyName;
        break;
      }
    }
  }

  // 4. No key: the name alone, or its plural.
  if (!found && key === undefined) found = baseHit(base);

  // 5. Near misses: a prefix of a name, a name inside longer text, a misread letter.
  if (!found) {
    const joined = base.join(' ');
    const fuzzy = prefixMatch(joined, fullNames) ?? containedMatch(base, fullNames) ?? nearMatch(joined, fullNames);
    const instrument = fuzzy === undefined ? undefined : aliases.get(fuzzy)?.instrument;
    if (instrument) found = { instrument, confidence: 'low' };
  }

  return found && resolveKey(found, key, families);
}

/** "Violonc" → "violoncello": the shortest full name the text begins. */
function prefixMatch(text: string, names: string[]): string | undefined {
  if (text.replace(/ /g, '').length < 4) return undefined;
  let best: string | undefined;
  for (const name of names) {
    // A cut-off word ("Violonc"), not a whole word that starts a longer name ("Pedal" ≠ "Pedal harp").
    const cut = name.length > text.length && name.startsWith(text) && name[text.length] !== ' ';
    if (cut && (best === undefined || name.length < best.length)) best = name;
  }
  return best;
}

/**
 * "Violoncelli e Bassi" → "violoncello": the earliest, then longest, name
 * among the words (plurals allowed).
 */
function containedMatch(words: string[], names: string[]): string | undefined {
  if (words.length < 2) return undefined;
  const forms = words.map((word) => new Set([word, ...singulars(word)]));
  let best: { name: string; at: number } | undefined;
  for (const name of names) {
    if (name.length < 4) continue;
    const nameWords = name.split(' ');
    for (let at = 0; at + nameWords.length <= words.length; at++) {
      if (!nameWords.every((w, k) => forms[at + k]?.has(w))) continue;
      if (!best || at < best.at || (at === best.at && name.length > best.name.length)) best = { name, at };
      break;
    }
  }
  return best?.name;
}

/** "Violln" → "violin": the closest full name within one or two edits. */
function nearMatch(text: string, names: string[]): string | undefined {
  if (text.length < 5) return undefined;
  const max = text.length >= 9 ? 2 : 1;
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    if (name.length < 4) continue;
    const distance = editDistance(text, name, max);
    if (distance <= max && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
