/**
 * The locale → traineddata mapping and its fallbacks. Pure: the installed
 * sets are given, so this runs the same on any machine (CI included).
 */
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../src/jobs/locales.js';
import { chooseLanguages, LOCALE_LANGUAGES, localeLanguages, MAX_LANGUAGES } from '../../src/text/locale-languages.js';
import { pickFolder } from '../../src/text/ocr.js';

/** Every language code of tesseract's data sets (tessdata 4.0) and its script models. */
const TESSDATA = new Set(
  ('afr amh ara asm aze aze_cyrl bel ben bod bos bre bul cat ceb ces chi_sim chi_tra chr ckb cos cym dan deu div dzo ell eng enm epo est eus fao fas fil fin fra frk frm fry gla gle glg grc guj hat heb hin hrv hun hye iku ind isl ita ita_old jav jpn kan kat kat_old kaz khm kir kmr kor kor_vert lao lat lav lit ltz mal mar mkd mlt mon mri msa mya nep nld nor oci ori pan pol por pus que ron rus san sin slk slv snd spa spa_old sqi srp srp_latn sun swa swe syr tam tat tel tgk tgl tha tir ton tur uig ukr urd uzb uzb_cyrl vie yid yor ' +
    'Arabic Bengali Cyrillic Devanagari Greek HanS HanT Hangul Japanese Kannada Latin Tamil Telugu Thai').split(' '),
);

describe('locale → tesseract languages', () => {
  it('maps each of the 65 locales, and only those', () => {
    expect(LOCALES).toHaveLength(65);
    expect(Object.keys(LOCALE_LANGUAGES).sort()).toEqual([...LOCALES].sort());
  });

  it.each(LOCALES)('%s names tesseract languages and a script that exist', (locale) => {
    const entry = LOCALE_LANGUAGES[locale]!;
    expect(entry.languages.length).toBeGreaterThan(0);
    for (const code of entry.languages) expect(TESSDATA.has(code), code).toBe(true);
    expect(TESSDATA.has(entry.script)).toBe(true);
    // With everything installed, a locale is read in its own language, English last.
    const choice = chooseLanguages([locale], TESSDATA);
    expect(choice.fallbacks).toEqual([]);
    expect(choice.languages[0]).toBe(entry.languages[0]);
    expect(choice.languages[choice.languages.length - 1]).toBe('eng');
  });

  it('knows the special cases', () => {
    expect(LOCALE_LANGUAGES['zh-Hans']!.languages).toEqual(['chi_sim']);
    expect(LOCALE_LANGUAGES['zh-TW']!.languages).toEqual(['chi_tra']);
    expect(LOCALE_LANGUAGES['ja-HIRA']!.languages).toEqual(['jpn']);
    expect(LOCALE_LANGUAGES.sr!.languages).toEqual(['srp', 'srp_latn']);
    expect(LOCALE_LANGUAGES.ku!.languages[0]).toBe('kmr');
    expect(LOCALE_LANGUAGES.fil!.languages).toEqual(['fil', 'tgl']);
    expect(chooseLanguages(['sr'], TESSDATA).languages).toEqual(['srp', 'srp_latn', 'eng']);
  });

  it('reads a region subtag through its language and ignores case', () => {
    expect(localeLanguages('de-AT')).toBe(LOCALE_LANGUAGES.de);
    expect(localeLanguages('PT-br')).toBe(LOCALE_LANGUAGES['pt-BR']);
    expect(localeLanguages('zh-hans')).toBe(LOCALE_LANGUAGES['zh-Hans']);
    expect(localeLanguages('xx')).toBeUndefined();
  });
});

describe('fallback to installed data', () => {
  const debian = new Set(['eng', 'deu', 'fra', 'lat', 'ita', 'pol']);
  const bundled = new Set(['eng']);

  it('reads installed languages in their own data, English last', () => {
    expect(chooseLanguages(['de'], debian)).toEqual({ languages: ['deu', 'eng'], fallbacks: [] });
    expect(chooseLanguages(['fr', 'en'], debian)).toEqual({ languages: ['fra', 'eng'], fallbacks: [] });
    expect(chooseLanguages(['la', 'it'], debian)).toEqual({ languages: ['lat', 'ita', 'eng'], fallbacks: [] });
  });

  it('falls back to the closest script, never failing', () => {
    // Czech, with no Czech data: a Latin-script language stands in.
    expect(chooseLanguages(['cs'], debian)).toEqual({ languages: ['eng'], fallbacks: ['cs'] });
    // Ukrainian with Russian installed: the Cyrillic sibling.
    expect(chooseLanguages(['uk'], new Set(['eng', 'rus']))).toEqual({ languages: ['rus', 'eng'], fallbacks: ['uk'] });
    // A script model beats a sibling language.
    expect(chooseLanguages(['uk'], new Set(['eng', 'rus', 'Cyrillic'])).languages).toEqual(['Cyrillic', 'eng']);
    // Japanese with no Japanese data and no CJK at all: English only, still no error.
    expect(chooseLanguages(['ja-HIRA'], bundled)).toEqual({ languages: ['eng'], fallbacks: ['ja-HIRA'] });
    // Unknown and malformed locales are read as Latin script.
    expect(chooseLanguages(['tlh', 'x'], bundled)).toEqual({ languages: ['eng'], fallbacks: ['tlh', 'x'] });
    expect(chooseLanguages([], bundled)).toEqual({ languages: ['eng'], fallbacks: [] });
  });

  it('ends with the Latin script when English itself is missing, and uses whatever there is', () => {
    expect(chooseLanguages(['ru'], new Set(['rus', 'Latin'])).languages).toEqual(['rus', 'Latin']);
    expect(chooseLanguages(['ru'], new Set(['rus', 'deu'])).languages).toEqual(['rus', 'deu']);
    expect(chooseLanguages(['ja'], new Set(['jpn'])).languages).toEqual(['jpn']);
    expect(chooseLanguages(['en'], new Set(['kor'])).languages).toEqual(['kor']);
    expect(chooseLanguages(['en'], new Set())).toEqual({ languages: [], fallbacks: ['en'] });
  });

  it('loads at most a few models, keeping English', () => {
    const choice = chooseLanguages(['de', 'fr', 'it', 'la', 'pl'], debian);
    expect(choice.languages).toHaveLength(MAX_LANGUAGES);
    expect(choice.languages).toEqual(['deu', 'fra', 'eng']);
  });

  it('every locale against every installed set is total', () => {
    const sets = [new Set<string>(), bundled, debian, TESSDATA, new Set(['Cyrillic']), new Set(['chi_sim'])];
    for (const set of sets) {
      for (const locale of LOCALES) {
        const { languages } = chooseLanguages([locale], set);
        expect(languages.length).toBeLessThanOrEqual(MAX_LANGUAGES);
        for (const code of languages) expect(set.has(code)).toBe(true);
        if (set.size) expect(languages.length).toBeGreaterThan(0);
      }
    }
  });

  it('picks the folder that reads the locales in their own languages', () => {
    const folders = [
      { base: '/debian', languages: [...debian], gzip: false },
      { base: '/npm/eng', languages: ['eng'], gzip: true },
      { base: '/npm/fra', languages: ['fra'], gzip: true },
    ];
    expect(pickFolder(['de'], folders)?.folder.base).toBe('/debian');
    expect(pickFolder(['en'], folders)?.folder.base).toBe('/debian');
    expect(pickFolder(['fr'], folders.slice(1))?.folder.base).toBe('/npm/fra');
    expect(pickFolder(['cs'], folders.slice(1))).toMatchObject({ folder: { base: '/npm/eng' }, choice: { languages: ['eng'], fallbacks: ['cs'] } });
    expect(pickFolder(['de'], [])).toBeUndefined();
  });
});
