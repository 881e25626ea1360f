/**
 * Performance words as scores print them, to correct what the OCR makes of
 * them. The lexicon (music-lexicon.ts) is counted from the training corpus
 * (training/data/build-word-lexicon.ts): every tempo, expression and
 * technique word printed in enough works, with its usual spelling. Italic
 * words on a busy page come out of the OCR a letter off ("plzz.", "resc.",
 * "oco"); a reading one letter away from a common word, and itself no word
 * of the lexicon, is taken for that word.
 */
import { MUSIC_WORDS } from './music-lexicon.js';

/** A reading is corrected only to a word printed in at least this many training works. */
const CORRECTION_MIN_WORKS = 10;
/** … and only a reading of at least this many letters (two letters are anything's neighbour). */
const CORRECTION_MIN_LETTERS = 3;

interface Entry {
  letters: string;
  /** Its letters with accents dropped ("più" → "piu"), as a word before a mark is matched. */
  plain: string;
  printed: string;
  works: number;
}

const letterOnly = (text: string) => text.toLowerCase().replace(/[^\p{L}]/gu, '');
const ENTRIES: Entry[] = MUSIC_WORDS.map(([printed, works]) => ({ letters: letterOnly(printed), plain: plainLetters(printed), printed, works }));
const KNOWN = new Set(ENTRIES.map((e) => e.letters));
/** Performance words scores print abbreviated ("cresc.", "dim.", "espress."), by their letters. */
const ABBREVIATED = new Set(ENTRIES.filter((e) => e.printed.endsWith('.') && e.works >= CORRECTION_MIN_WORKS).map((e) => e.letters));

/**
 * Whether a reading is performance words only, which a row of lyrics never is however it is spread
 * along a staff: every word of two letters or more a word of the lexicon (a letter off at most), and
 * either two such words ("arco … pizz. … arco", "cresc. poco") or one printed abbreviated ("cresc.").
 * Single letters are a dynamic's or an accent's ink as often as words; a single unabbreviated word
 * ("dolce") may be a sung one.
 */
export function musicWordsOnly(text: string): boolean {
  const words = text.split(/\s+/).filter((w) => letterOnly(w).length >= 2);
  const letters = words.map((w) => letterOnly(correctToken(w)));
  if (!words.length || !letters.every((l) => KNOWN.has(l))) return false;
  return words.length >= 2 || words.every((w, k) => /\p{L}\./u.test(w) && ABBREVIATED.has(letters[k]!));
}

/** The marks a word may be printed before ("più f", "poco p", "sempre pp"), by their letters. */
const MARKS_AFTER_WORDS = ['pppp', 'ppp', 'pp', 'p', 'mp', 'mf', 'f', 'ff', 'fff', 'ffff', 'sf', 'sfz', 'sffz', 'sfp', 'fp', 'fz', 'rf', 'rfz'];
/** The letters dynamics are spelled with: a reading of only these is a mark, or a mark misread, and no performance word. */
export const MARK_LETTERS = /^[pfmrszn]+$/;

/**
 * A reading of a word printed just before a dynamic mark ("più f", read run together as "puf" or "pocof"),
 * as the word, in the lexicon's spelling, and the mark: where the letters end in a mark's and those before
 * it are a performance word of the lexicon, or (`lettersOff`, the default) one letter off a common one, its
 * accents aside. The word's letters are `letters` long in the reading.
 */
export function wordBeforeMark(text: string, options: { lettersOff?: boolean } = {}): { word: string; mark: string; letters: number } | undefined {
  const letters = plainLetters(text);
  // A word of the lexicon whole ("rinf.") is one word.
  if (ENTRIES.some((e) => e.plain === letters)) return undefined;
  const cuts = MARKS_AFTER_WORDS.filter((m) => letters.endsWith(m))
    .map((mark) => ({ mark, head: letters.slice(0, letters.length - mark.length) }))
    .filter(({ head }) => head.length >= 2 && !MARK_LETTERS.test(head));
  const find = (lettersOff: boolean) => {
    for (const { mark, head } of cuts) {
      const entry = ENTRIES.find((e) =>
        !MARK_LETTERS.test(e.letters) &&
        (lettersOff ? e.works >= CORRECTION_MIN_WORKS && e.letters.length >= CORRECTION_MIN_LETTERS && oneEditApart(head, e.plain) : e.plain === head));
      if (entry) return { word: entry.printed, mark, letters: head.length };
    }
    return undefined;
  };
  // A word read letter for letter before any reading one letter off.
  return find(false) ?? ((options.lettersOff ?? true) ? find(true) : undefined);
}

/** Letters only, lower case, accents dropped ("Più" → "piu"). */
function plainLetters(text: string): string {
  return text.normalize('NFKD').toLowerCase().replace(/[^a-z]/g, '');
}

/** Whether a token is a performance word of the lexicon, letter for letter ("cresc.", "dim.", "dolce"), of three letters or more. */
export function exactMusicWord(token: string): boolean {
  const letters = letterOnly(token);
  return letters.length >= 3 && KNOWN.has(letters);
}

/**
 * The words of a direction with each misread word corrected to the performance word it is one letter off,
 * an abbreviation's lost period put back, and the dashes or line that continue the words dropped.
 */
export function correctMusicWords(text: string): string {
  const tokens = text.replace(CONTINUATION, '').split(/\s+/).filter(Boolean).map(correctToken);
  // The dashes after an abbreviation ("cresc. - - - -") come out of the OCR as figures and runs of e's and l's ("2 2. eee").
  let last = tokens.length - 1;
  while (last >= 0 && !ABBREVIATED.has(letterOnly(tokens[last]!))) last--;
  if (last >= 0 && tokens.slice(last + 1).every((t) => DASHES_READ.test(t))) {
    tokens.splice(last + 1);
    tokens[last] = tokens[last]!.replace(/(\p{L}\.)[.\d]+$/u, '$1');
  }
  const end = tokens.length - 1;
  const wordsBefore = tokens.slice(0, end).every((t) => letterOnly(t).length < 2 || KNOWN.has(letterOnly(t)));
  if (end >= 0 && wordsBefore) tokens[end] = completedAbbreviation(tokens[end]!);
  return tokens.join(' ');
}

/** What continues a direction's words to the right ("cresc. - - -", "dim. ___"), as read after them. */
const CONTINUATION = /[\s_~—–-]+$/u;
/** A continuation's dashes as the OCR reads them: figures, dashes and points, or a run of e's, i's, l's and o's. */
const DASHES_READ = /^(?:[\d.,:;'"`~_—–=°-]+|[eilo]{2,}[.,]?)$/iu;

/**
 * A direction's last word cut short ("dim." read as "di", its "m." painted as a dynamic), as the abbreviation
 * it starts: the one printed in the most works. Only a reading of two letters or more that is no word itself,
 * after words of the lexicon.
 */
function completedAbbreviation(token: string): string {
  const letters = letterOnly(token);
  if (letters.length < 2 || KNOWN.has(letters) || !/^\p{L}+\.?$/u.test(token)) return token;
  const entry = ENTRIES.find((e) => e.works >= CORRECTION_MIN_WORKS && ABBREVIATED.has(e.letters) && e.letters.startsWith(letters));
  return entry ? withCapitalOf(token, entry.printed) : token;
}

/** A word of the lexicon with the capital of the reading it stands for ("Accel" → "Accel."). */
function withCapitalOf(reading: string, word: string): string {
  return /^\p{Lu}/u.test(reading) ? word[0]!.toUpperCase() + word.slice(1) : word;
}

function correctToken(token: string): string {
  // An italic "a" alone ("poco a poco", "a tempo") is read as an at sign, which no direction has.
  if (token === '@') return 'a';
  const letters = letterOnly(token);
  if (letters.length < CORRECTION_MIN_LETTERS) return token;
  if (KNOWN.has(letters)) return ABBREVIATED.has(letters) ? withPeriod(token) : token;
  let best: Entry | undefined;
  for (const entry of ENTRIES) {
    if (entry.works < CORRECTION_MIN_WORKS || (best && entry.works <= best.works)) continue;
    if (oneEditApart(letters, entry.letters)) best = entry;
  }
  if (!best) return token;
  // The token's own punctuation around the word stays; the word takes the lexicon's spelling and the token's capital.
  const lead = /^[^\p{L}]*/u.exec(token)![0];
  const trail = /[^\p{L}]*$/u.exec(token)![0];
  const word = best.printed.endsWith('.') && trail.startsWith('.') ? best.printed.slice(0, -1) : best.printed;
  return lead + withCapitalOf(token.slice(lead.length), word) + trail;
}

/** An abbreviation with the period the OCR lost or read as a comma put back after its last letter ("dim" → "dim.", "cresc," → "cresc."). */
function withPeriod(token: string): string {
  const [, word, trail] = /^(.*\p{L})([^\p{L}]*)$/u.exec(token)!;
  return trail!.startsWith('.') ? token : `${word}.${trail!.replace(/^,/, '')}`;
}

/** Whether one letter changed, added or left out turns a into b. */
export function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
