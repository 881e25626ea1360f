/**
 * Pixel classes of the segmentation labels (mask value = class index), and
 * how Verovio's SVG maps onto them: SMuFL glyphs by code point, drawn shapes
 * (stems, beams, lines) by the class of their SVG group.
 *
 * The classes are what a recogniser needs to tell apart to rebuild the music:
 * notehead kinds (duration), flag and rest kinds (duration), accidentals and
 * clefs (pitch), time-signature glyphs, and the lines everything hangs on.
 */
import { CLASS_INDEX, type SymbolClass } from '../../src/symbols/symbol-classes.js';

export { CLASS_INDEX, SYMBOL_CLASSES, type SymbolClass } from '../../src/symbols/symbol-classes.js';

/** SMuFL code point (upper-case hex) → class, for the glyphs Verovio draws with `<use>`. */
export function glyphClass(codepoint: string): SymbolClass | undefined {
  const cp = parseInt(codepoint, 16);
  if (!Number.isFinite(cp)) return undefined;
  const exact: Record<number, SymbolClass> = {
    0xe0a0: 'noteheadWhole', // double whole
    0xe0a2: 'noteheadWhole',
    0xe0a3: 'noteheadHalf',
    0xe0a4: 'noteheadBlack',
    0xe260: 'flat',
    0xe261: 'natural',
    0xe262: 'sharp',
    0xe263: 'doubleSharp',
    0xe264: 'doubleFlat',
    0xe08a: 'timeCommon',
    0xe08b: 'timeCommon',
    0xe4e1: 'restWhole', // longa
    0xe4e2: 'restWhole', // breve
    0xe4e3: 'restWhole',
    0xe4e4: 'restHalf',
    0xe4e5: 'restQuarter',
    0xe4e6: 'rest8',
    0xe4e7: 'rest16',
    0xe4e8: 'rest32',
    0xe4e9: 'rest64',
    0xe4ea: 'rest64',
    0xe4eb: 'rest64',
    0xe4ee: 'restMulti',
    0xe4ef: 'restMulti',
    0xe4f0: 'restMulti',
    0xe000: 'braceBracket',
    0xe002: 'braceBracket',
    0xe003: 'braceBracket',
    0xe1e7: 'augmentationDot',
    0xe043: 'repeatDot',
    0xe044: 'repeatDot',
  };
  if (exact[cp]) return exact[cp];
  if (cp >= 0xe050 && cp <= 0xe058) return 'clefG';
  if (cp >= 0xe05c && cp <= 0xe061) return 'clefC';
  if (cp >= 0xe062 && cp <= 0xe068) return 'clefF';
  // SMuFL's clef-change glyphs (smaller clefs inside a staff) are the clefs they change to.
  if (cp === 0xe07a) return 'clefG';
  if (cp === 0xe07b) return 'clefC';
  if (cp === 0xe07c) return 'clefF';
  if (cp >= 0xe069 && cp <= 0xe07f) return 'clefOther';
  if (cp >= 0xe080 && cp <= 0xe089) return 'timeDigit';
  if (cp >= 0xe0a0 && cp <= 0xe0ff) return 'noteheadBlack'; // other notehead shapes
  if (cp === 0xe240 || cp === 0xe241) return 'flag8';
  if (cp === 0xe242 || cp === 0xe243) return 'flag16';
  if (cp === 0xe244 || cp === 0xe245) return 'flag32';
  if (cp >= 0xe246 && cp <= 0xe24f) return 'flag64';
  if (cp >= 0xe265 && cp <= 0xe26f) return 'natural'; // parentheses, combined accidentals
  if (cp >= 0xe4a0 && cp <= 0xe4df) return 'articulation'; // articulations, fermatas
  if (cp >= 0xe520 && cp <= 0xe54f) return 'dynamics';
  if (cp >= 0xe880 && cp <= 0xe8ff) return 'tuplet'; // tuplet digits
  return 'articulation'; // ornaments and other marks: drawn, not pitch or rhythm
}

/** Class of a drawn shape (path, polygon, rect, ellipse) from its nearest classed SVG group. */
export function shapeClass(groupClasses: readonly string[]): SymbolClass | undefined {
  for (let i = groupClasses.length - 1; i >= 0; i--) {
    const c = groupClasses[i]!;
    switch (c) {
      case 'staff':
        return 'staffLine';
      case 'ledgerLines':
        return 'ledgerLine';
      case 'barLine':
      case 'system': // the line joining a system's staves at its left edge
      case 'measure':
        return 'barline';
      case 'stem':
        return 'stem';
      case 'beam':
      case 'fTrem':
      case 'bTrem':
        return 'beam';
      case 'dots':
        return 'augmentationDot';
      case 'tie':
      case 'slur':
      case 'lv':
        return 'tieSlur';
      case 'tuplet':
      case 'tupletBracket':
      case 'tupletNum':
        return 'tuplet';
      case 'multiRest':
      case 'mRpt':
        return 'restMulti';
      case 'grpSym':
        return 'braceBracket';
      case 'hairpin':
      case 'dynam':
        return 'dynamics';
      case 'ending':
      case 'octave':
      case 'pedal':
      case 'trill':
      case 'dir':
      case 'tempo':
      case 'verse':
      case 'syl':
      case 'harm':
      case 'reh':
      case 'pgHead':
      case 'pgFoot':
      case 'label':
      case 'labelAbbr':
      case 'mNum':
      case 'fing':
        return 'text';
      default:
        break;
    }
  }
  return undefined;
}
