/**
 * Pixel classes of the symbol segmentation model (mask value = class index):
 * what a recogniser needs to tell apart to rebuild the music — notehead kinds
 * (duration), flag and rest kinds (duration), accidentals and clefs (pitch),
 * time-signature glyphs, and the lines everything hangs on. The training
 * labels (training/data/symbol-classes.ts) and the model's output share them.
 */
export const SYMBOL_CLASSES = [
  'background',
  'staffLine',
  'ledgerLine',
  'barline',
  'stem',
  'beam',
  'noteheadBlack',
  'noteheadHalf',
  'noteheadWhole',
  'flag8',
  'flag16',
  'flag32',
  'flag64',
  'restWhole',
  'restHalf',
  'restQuarter',
  'rest8',
  'rest16',
  'rest32',
  'rest64',
  'restMulti',
  'augmentationDot',
  'sharp',
  'flat',
  'natural',
  'doubleSharp',
  'doubleFlat',
  'clefG',
  'clefF',
  'clefC',
  'clefOther',
  'timeDigit',
  'timeCommon',
  'tieSlur',
  'tuplet',
  'text',
  'dynamics',
  'articulation',
  'braceBracket',
  'repeatDot',
] as const;

export type SymbolClass = (typeof SYMBOL_CLASSES)[number];

export const CLASS_INDEX: Readonly<Record<SymbolClass, number>> = Object.fromEntries(
  SYMBOL_CLASSES.map((c, i) => [c, i]),
) as Record<SymbolClass, number>;
