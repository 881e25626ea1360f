/**
 * The split of the OpenScore String Quartets (`../shared/corpus/quartets/`)
 * between training and measurement, decided once, by work.
 *
 * A work is a `<composer>/<work>` folder; all its movements (its .mxl and
 * .pdf files) fall on the same side. The rule that made the list, applied
 * once to the 92 works the corpus held: sort the folder names, and every
 * fifth from the first (indices 0, 5, 10, …) may be trained on; the rest,
 * about 80 %, are held out: engraved by MuseScore 4, a program the project
 * never runs, they measure how recognition carries over to an unseen
 * engraver, and are never trained on or tuned against.
 *
 * The list is literal so that it never changes: a work the corpus gains
 * later is in neither list, and counts as held out until a person decides.
 */

export type QuartetSide = 'train' | 'heldout';

export const QUARTET_SPLIT: Readonly<Record<string, QuartetSide>> = {
  'Beethoven,_Ludwig_van/Grosse_Fuge_in_B-flat_major,_Op.133': 'train',
  'Beethoven,_Ludwig_van/String_Quartet_No.12,_Op.127': 'heldout',
  'Beethoven,_Ludwig_van/String_Quartet_No.2,_Op.18_No.2': 'heldout',
  'Beethoven,_Ludwig_van/String_Quartet_No.3,_Op.18_No.3': 'heldout',
  'Beethoven,_Ludwig_van/String_Quartet_No.5,_Op.18_No.5': 'heldout',
  'Beethoven,_Ludwig_van/String_Quartet_No.6,_Op.18_No.6': 'train',
  'Beethoven,_Ludwig_van/String_Quartet_No.9,_Op.59_No.3': 'heldout',
  'Boccherini,_Luigi/String_Quartet_in_A_major,_G.213_(Op.39)': 'heldout',
  'Borodin,_Alexander/String_Quartet_No.1': 'heldout',
  'Borodin,_Alexander/String_Quartet_No.2': 'heldout',
  'Brahms,_Johannes/String_Quartet_No.1,_Op.51_No.1': 'train',
  'Brahms,_Johannes/String_Quartet_No.3,_Op.67': 'heldout',
  'Bridge,_Frank/String_Quartet_No.1,_H.70': 'heldout',
  'Bridge,_Frank/String_Quartet_No.2,_H.115': 'heldout',
  'Busoni,_Ferruccio/String_Quartet_No.1,_Op.19,_BV_208': 'heldout',
  'Cherubini,_Luigi/String_Quartet_No.1': 'train',
  'Debussy,_Claude/String_Quartet_in_G_minor,_Op.10': 'heldout',
  'Delius,_Frederick/String_Quartet_in_E_minor': 'heldout',
  'Elgar,_Edward/String_Quartet,_Op.83': 'heldout',
  'Glazunov,_Alexander/String_Quartet_No.1,_Op.1': 'heldout',
  'Glinka,_Mikhail/String_Quartet': 'train',
  'Gounod,_Charles/String_Quartet_No.3_in_A_minor': 'heldout',
  'Grieg,_Edvard/String_Quartet_No.1,_Op.27': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_A_major,_Hob.III24,_Op.9_No.6': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_A_major,_Hob.III36,_Op.20_No.6': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_B-flat_major,_Hob.III5,_Op.1_No.5': 'train',
  'Haydn,_Joseph/String_Quartet_in_B-flat_major,_Hob.III67,_Op.64_No.3': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_B_minor,_Hob.III68,_Op.64_No.2': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_C_major,_Hob.III19,_Op.9_No.1': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_C_major,_Hob.III32,_Op.20_No.2': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_C_major,_Hob.III6,_Op.1_No.6': 'train',
  'Haydn,_Joseph/String_Quartet_in_C_major,_Hob.III65,_Op.64_No.1': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_C_major,_Hob.III72,_Op.74_No.1': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_D_major,_Hob.III3,_Op.1_No.3': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_D_major,_Hob.III34,_Op.20_No.4': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_D_minor,_Hob.III22,_Op.9_No.4': 'train',
  'Haydn,_Joseph/String_Quartet_in_D_minor,_Hob.III76,_Op.76_No.2': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_E-flat_major,_Hob.III2,_Op.1_No.2': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_E-flat_major,_Hob.III20,_Op.9_No.2': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_E-flat_major,_Hob.III31,_Op.20_No.1': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_E-flat_major,_Hob.III64,_Op.64_No.6': 'train',
  'Haydn,_Joseph/String_Quartet_in_F_major,_Hob.III73,_Op.74_No.2': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_F_minor,_Hob.III35,_Op.20_No.5': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_G_major,_Hob.III21,_Op.9_No.3': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_G_major,_Hob.III4,_Op.1_No.4': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_G_major,_Hob.III66,_Op.64,_No.4': 'train',
  'Haydn,_Joseph/String_Quartet_in_G_major,_Hob.III75,_Op.76_No.1': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_G_minor,_Hob.III33,_Op.20_No.3': 'heldout',
  'Haydn,_Joseph/String_Quartet_in_G_minor,_Hob.III74,_Op.74_No.3_(The_Horseman)': 'heldout',
  'Hensel,_Fanny_(Mendelssohn)/String_Quartet_in_E-flat_major,_Op._277': 'heldout',
  'Hoffmeister,_Franz_Anton/String_Quartet_No.9_in_D_major': 'train',
  'Kalliwoda,_Johann_Wenzel/String_Quartet_No.3,_Op.90': 'heldout',
  'Maier,_Amanda/String_Quartet_in_A_major': 'heldout',
  'Mayer,_Emilie/String_Quartet_in_A_Major': 'heldout',
  'Mayer,_Emilie/String_Quartet_in_D_Major': 'heldout',
  'Mayer,_Emilie/String_Quartet_in_E_minor': 'train',
  'Mayer,_Emilie/String_Quartet_in_G_minor,_Op.14': 'heldout',
  'Mendelssohn,_Felix/String_Quartet_No.1,_Op.12': 'heldout',
  'Mendelssohn,_Felix/String_Quartet_No.2,_Op.13': 'heldout',
  'Mendelssohn,_Felix/String_Quartet_No.4_in_E_minor,_Op.44_No.2': 'heldout',
  'Mendelssohn,_Felix/String_Quartet_No._6_in_F_Minor,_Op.80': 'train',
  'Moeran,_Ernest_John/String_Quartet_in_A_minor': 'heldout',
  'Mozart,_Wolfgang_Amadeus/String_Quartet_No.14_in_G_major,_K.387_(Op._10,_No._1)': 'heldout',
  'Mozart,_Wolfgang_Amadeus/String_Quartet_No.15_in_D_minor,_K.421417b_(Op._10,_No._2)': 'heldout',
  'Mozart,_Wolfgang_Amadeus/String_Quartet_No.16_in_E-flat_major,_K.428421b_(Op._10,_No._4)': 'heldout',
  'Mozart,_Wolfgang_Amadeus/String_Quartet_No.17_in_B-flat_major,_K.458_(Op._10,_No._3)': 'train',
  'Mozart,_Wolfgang_Amadeus/String_Quartet_No.18_in_A_major,_K.464_(Op._10,_No._5)': 'heldout',
  'Mozart,_Wolfgang_Amadeus/String_Quartet_No.19_in_C_major,_K.465_(Op._10,_No._6)': 'heldout',
  'Mozart,_Wolfgang_Amadeus/String_Quartet_No.1_in_G_major,_K.8073f': 'heldout',
  'Mozart,_Wolfgang_Amadeus/String_Quartet_No.21_in_D_major,_K.575': 'heldout',
  'Mozart,_Wolfgang_Amadeus/String_Quartet_No.22_in_B-flat_major,_K.589': 'train',
  'Mozart,_Wolfgang_Amadeus/String_Quartet_No.23_in_F_major,_K.590': 'heldout',
  'Mozart,_Wolfgang_Amadeus/String_Quartet_No.2_in_D_major,_K.155134a': 'heldout',
  'Mozart,_Wolfgang_Amadeus/String_Quartet_No.4_in_C_major,_K.157': 'heldout',
  'Nielsen,_Carl/String_Quartet_No.1,_Op.13': 'heldout',
  'Ravel,_Maurice/String_Quartet_in_F_major': 'train',
  'Reger,_Max/String_Quartet_No.1,_Op.54_No.1': 'heldout',
  'Saint-Georges,_Joseph_Bologne/String_Quartet_in_C_major,_Op.1_No.1': 'heldout',
  'Saint-Georges,_Joseph_Bologne/String_Quartet_in_C_minor,_Op.1_No.4': 'heldout',
  'Saint-Georges,_Joseph_Bologne/String_Quartet_in_D_major,_Op.1_No.6': 'heldout',
  'Saint-Georges,_Joseph_Bologne/String_Quartet_in_E-flat_major,_Op.1_No.2': 'train',
  'Saint-Georges,_Joseph_Bologne/String_Quartet_in_G_minor,_Op.1_No.3': 'heldout',
  'Saint-Georges,_Joseph_Bologne/String_Quartet_in_G_minor,_Op.1_No.5': 'heldout',
  'Schubert,_Franz/String_Quartet_in_C_minor,_D.703': 'heldout',
  'Schulhoff,_Erwin/String_Quartet_No.1': 'heldout',
  'Schumann,_Robert/String_Quartet_No.1,_Op.41_No.1': 'train',
  'Schumann,_Robert/String_Quartet_No.3,_Op.41_No.3': 'heldout',
  'Smyth,_Ethel/String_Quartet_in_E_minor': 'heldout',
  'Stanford,_Charles_Villiers/String_Quartet_No.1,_Op.44': 'heldout',
  'Strauss,_Richard/String_Quartet_in_A_major,_Op.2': 'heldout',
  'Wolf,_Hugo/Italian_Serenade': 'train',
  'Wolf,_Hugo/String_Quartet': 'heldout',
};

/** The works of the split (`<composer>/<work>`), sorted; those of one side when it is given. */
export function quartetWorks(side?: QuartetSide): string[] {
  return Object.keys(QUARTET_SPLIT)
    .filter((work) => side === undefined || QUARTET_SPLIT[work] === side)
    .sort();
}

/**
 * The work (`<composer>/<work>`) a quartet corpus path belongs to: a path with
 * a `quartets/` folder in it (relative to the corpus, or absolute), or one
 * relative to `quartets/` itself. Undefined for paths outside the quartets.
 */
export function quartetWorkOf(path: string): string | undefined {
  const normal = path.replace(/\\/g, '/');
  const inCorpus = /(?:^|\/)quartets\/([^/]+)\/([^/]+)/.exec(normal);
  if (inCorpus) return `${inCorpus[1]}/${inCorpus[2]}`;
  const [composer, work] = normal.split('/');
  const key = `${composer}/${work}`;
  return work !== undefined && key in QUARTET_SPLIT ? key : undefined;
}

/** True for a quartet file (or work folder) that is held out: never to be trained on. Works not in the list count as held out. */
export function isHeldOutQuartet(path: string): boolean {
  const work = quartetWorkOf(path);
  return work !== undefined && QUARTET_SPLIT[work] !== 'train';
}
