/**
 * Which tesseract traineddata reads a job's text, from the locales it
 * declares (`locales`, or the details step's `mainLanguage`).
 *
 * Every one of the service's 65 locales maps to its tesseract language(s)
 * and its script. What a host has installed decides the rest: a language
 * with no data falls back to the script's own model (`Latin`, `Cyrillic` …)
 * or to another installed language written in that script, and the list
 * always ends with English (or the Latin script model), which reads the
 * Latin-script words every page carries: tempo marks, Italian directions,
 * instrument names. An unknown or unsupported locale is never an error.
 */

/** Writing systems, named as tesseract's script models are (`script/<name>.traineddata`). */
export type Script =
  | 'Latin'
  | 'Cyrillic'
  | 'Greek'
  | 'Arabic'
  | 'Devanagari'
  | 'Bengali'
  | 'Kannada'
  | 'Tamil'
  | 'Telugu'
  | 'Thai'
  | 'HanS'
  | 'HanT'
  | 'Japanese'
  | 'Hangul';

export interface LocaleLanguages {
  /** Tesseract language codes, best first (Serbian is printed in Cyrillic and in Latin letters). */
  languages: readonly string[];
  script: Script;
}

const L = (languages: string | readonly string[], script: Script = 'Latin'): LocaleLanguages => ({
  languages: typeof languages === 'string' ? [languages] : languages,
  script,
});

/** The service's 65 locales (src/jobs/locales.ts), keyed by their BCP 47 codes. */
export const LOCALE_LANGUAGES: Readonly<Record<string, LocaleLanguages>> = Object.freeze({
  af: L('afr'),
  sq: L('sqi'),
  ar: L('ara', 'Arabic'),
  az: L(['aze', 'aze_cyrl']),
  bn: L('ben', 'Bengali'),
  bs: L('bos'),
  bg: L('bul', 'Cyrillic'),
  'zh-HK': L('chi_tra', 'HanT'),
  'zh-Hans': L('chi_sim', 'HanS'),
  'zh-TW': L('chi_tra', 'HanT'),
  hr: L('hrv'),
  cs: L('ces'),
  da: L('dan'),
  nl: L('nld'),
  'en-GB': L('eng'),
  en: L('eng'),
  et: L('est'),
  // Tesseract 4 calls Filipino `fil`; older data sets have only Tagalog.
  fil: L(['fil', 'tgl']),
  fi: L('fin'),
  fr: L('fra'),
  'fr-CA': L('fra'),
  de: L('deu'),
  el: L('ell', 'Greek'),
  hi: L('hin', 'Devanagari'),
  hu: L('hun'),
  is: L('isl'),
  id: L('ind'),
  ga: L('gle'),
  it: L('ita'),
  ja: L('jpn', 'Japanese'),
  // Lyrics printed in hiragana only: the Japanese model reads kana.
  'ja-HIRA': L('jpn', 'Japanese'),
  kn: L('kan', 'Kannada'),
  ko: L('kor', 'Hangul'),
  // Kurdish as printed in Turkey and Syria (Kurmanji, Latin letters); Sorani would be `ckb`.
  ku: L(['kmr', 'ckb']),
  la: L('lat'),
  lv: L('lav'),
  lt: L('lit'),
  ms: L('msa'),
  mt: L('mlt'),
  mi: L('mri'),
  mr: L('mar', 'Devanagari'),
  ne: L('nep', 'Devanagari'),
  nb: L('nor'),
  oc: L('oci'),
  fa: L('fas', 'Arabic'),
  pl: L('pol'),
  pt: L('por'),
  'pt-BR': L('por'),
  ro: L('ron'),
  ru: L('rus', 'Cyrillic'),
  sr: L(['srp', 'srp_latn'], 'Cyrillic'),
  sk: L('slk'),
  sl: L('slv'),
  es: L('spa'),
  sw: L('swa'),
  sv: L('swe'),
  ta: L('tam', 'Tamil'),
  te: L('tel', 'Telugu'),
  th: L('tha', 'Thai'),
  tr: L('tur'),
  uk: L('ukr', 'Cyrillic'),
  ur: L('urd', 'Arabic'),
  uz: L(['uzb', 'uzb_cyrl']),
  vi: L('vie'),
  cy: L('cym'),
});

/** Installed languages that stand in for a script whose own model is missing, closest first. */
const SCRIPT_STAND_INS: Readonly<Record<Script, readonly string[]>> = {
  Latin: ['eng', 'lat', 'fra', 'deu', 'ita', 'spa', 'por', 'pol'],
  Cyrillic: ['rus', 'ukr', 'bul', 'srp', 'mkd', 'bel'],
  Greek: ['ell', 'grc'],
  Arabic: ['ara', 'fas', 'urd'],
  Devanagari: ['hin', 'mar', 'nep', 'san'],
  Bengali: ['ben', 'asm'],
  Kannada: ['kan'],
  Tamil: ['tam'],
  Telugu: ['tel'],
  Thai: ['tha'],
  HanS: ['chi_sim', 'chi_tra'],
  HanT: ['chi_tra', 'chi_sim'],
  Japanese: ['jpn', 'chi_tra'],
  Hangul: ['kor'],
};

/** Every tesseract recognition pass costs time; more than three models per page buys nothing. */
export const MAX_LANGUAGES = 3;

/** A locale's languages: its own entry, else its language subtag's (`de-AT` → `de`), else none. */
export function localeLanguages(locale: string): LocaleLanguages | undefined {
  const exact = Object.keys(LOCALE_LANGUAGES).find((code) => code.toLowerCase() === locale.toLowerCase());
  if (exact) return LOCALE_LANGUAGES[exact];
  const base = locale.split('-')[0]!.toLowerCase();
  return LOCALE_LANGUAGES[base];
}

export interface LanguageChoice {
  /** Tesseract models to load, in order (joined with `+` for tesseract). */
  languages: string[];
  /** Locales read through a stand-in (their script's model or a sibling language), not their own data. */
  fallbacks: string[];
}

/**
 * The models to load for a job's locales, given the models a host has. Each
 * locale contributes its own language(s) where installed, else its script's
 * model, else the closest installed language of that script, else nothing;
 * English, or failing it the Latin script, comes last. Pure and total: any
 * locale list, any installed set.
 */
export function chooseLanguages(locales: readonly string[], available: ReadonlySet<string>): LanguageChoice {
  const languages: string[] = [];
  const fallbacks: string[] = [];
  const add = (code: string) => {
    if (!languages.includes(code)) languages.push(code);
  };
  for (const locale of locales) {
    const entry = localeLanguages(locale);
    if (!entry) {
      fallbacks.push(locale);
      continue;
    }
    const own = entry.languages.filter((code) => available.has(code));
    if (own.length) {
      own.forEach(add);
      continue;
    }
    fallbacks.push(locale);
    const standIn = [entry.script, ...SCRIPT_STAND_INS[entry.script]].find((code) => available.has(code));
    if (standIn) add(standIn);
  }
  const latin = ['eng', 'Latin', ...SCRIPT_STAND_INS.Latin].find((code) => available.has(code));
  // English last, but never pushed out by the cap: keep room for it.
  const chosen = languages.filter((code) => code !== latin).slice(0, latin ? MAX_LANGUAGES - 1 : MAX_LANGUAGES);
  if (latin) chosen.push(latin);
  else if (!chosen.length) {
    const any = [...available].sort()[0];
    if (any) chosen.push(any);
  }
  return { languages: chosen, fallbacks };
}
