/**
 * What `scoresight convert` reads: a score in MusicXML, compressed MusicXML,
 * MIDI or MEI, told by its bytes first (as every input of ScoreSight), then
 * by its name. Anything else is refused with the formats it does read — and,
 * for pages, a pointer to `recognize`.
 */
import { OmrError } from '../errors.js';
import { detectFileType, extensionsOf, type FileType } from '../input/file-type.js';
import { fileLabel } from '../input/input-error.js';
import { readMei } from '../import/mei/read-mei.js';
import { readMidi } from '../import/midi/read-midi.js';
import { isMidiFile } from '../import/midi/smf-scan.js';
import { readMusicXml } from '../import/musicxml/read-score.js';
import type { Score } from '../score/model.js';

/** Extensions of Standard MIDI Files. */
const MIDI_EXTENSIONS = ['mid', 'midi', 'smf'];
/** Extensions of MEI documents. */
const MEI_EXTENSIONS = ['mei'];
/** The page types `recognize` reads, for the pointer to it. */
const PAGE_FILE_TYPES: readonly FileType[] = ['pdf', 'png', 'jpeg', 'heic', 'webp', 'tiff'];

/** The formats convert reads, as its help and its refusals name them. */
export const CONVERT_INPUTS = `MusicXML (${dotted(extensionsOf(['musicxml']))}), compressed MusicXML (.mxl), MIDI (${dotted(MIDI_EXTENSIONS)}) and MEI (.mei)`;

/** The page formats `recognize` reads, for its help. */
export const RECOGNIZE_INPUTS = `PDF, PNG, JPEG, HEIC, WebP and TIFF (${dotted(extensionsOf(PAGE_FILE_TYPES))})`;

/**
 * Reads a score file into the model. Throws `UNSUPPORTED_FILE_TYPE` (or
 * `OMR_MIME_REQUIRED`) for a file that is no score convert reads, and the
 * readers' own errors (`INVALID_MUSICXML`, `CORRUPTED_FILE`, `FILE_TOO_LARGE`)
 * for a broken one.
 */
export function readScoreFile(filename: string, data: Uint8Array): Score {
  if (isMidiFile(data)) return readMidi(data);
  if (isMei(data)) return readMei(data);
  let type: FileType;
  try {
    type = detectFileType({ filename, data });
  } catch (err) {
    const error = OmrError.from(err);
    if (error.code !== 'UNSUPPORTED_FILE_TYPE' && error.code !== 'OMR_MIME_REQUIRED') throw error;
    // Named as MIDI or MEI but not one: the reader says what is wrong with it.
    const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? '';
    if (MIDI_EXTENSIONS.includes(extension)) return readMidi(data);
    if (MEI_EXTENSIONS.includes(extension)) return readMei(data);
    // The detector names what the file is; its list of accepted types is recognition's, so convert's replaces it.
    const what = error.message.replace(/,? which ScoreSight does not read\..*$|;.*$|\. Accepted:.*$/s, '');
    throw new OmrError(error.code, `${what}. convert reads ${CONVERT_INPUTS}.`, { cause: err });
  }
  if (type === 'musicxml' || type === 'mxl') return readMusicXml(data);
  throw new OmrError(
    'UNSUPPORTED_FILE_TYPE',
    `${fileLabel(filename)} is a page (${type.toUpperCase()}), not a score. convert reads ${CONVERT_INPUTS}; recognise pages with \`scoresight recognize\`.`,
  );
}

/** An XML document whose root is `<mei>` (the detector knows MEI only to refuse it). */
function isMei(data: Uint8Array): boolean {
  const head = new TextDecoder().decode(data.subarray(0, 4096));
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<\?[\s\S]*?\?>\s*|<!DOCTYPE[^>]*>\s*)*<mei[\s>]/.test(head.replace(/^\uFEFF/, ''));
}

function dotted(extensions: readonly string[]): string {
  return extensions.map((e) => `.${e}`).join(', ');
}
