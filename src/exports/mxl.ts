/**
 * Compressed MusicXML (.mxl): `META-INF/container.xml` naming the score,
 * plus the score itself, zipped with fflate. The `mimetype` entry comes
 * first and stored, as the MusicXML container format asks.
 */
import { strToU8, zipSync } from 'fflate';
import type { Score } from '../score/model.js';
import { writeMusicXml, type MusicXmlWriteOptions } from './musicxml.js';

export const MXL_CONTENT_TYPE = 'application/vnd.recordare.musicxml';

const SCORE_PATH = 'score.musicxml';

const CONTAINER_XML = `<?xml version="1.0" encoding="UTF-8"?>
<container>
  <rootfiles>
    <rootfile full-path="${SCORE_PATH}" media-type="application/vnd.recordare.musicxml+xml"/>
  </rootfiles>
</container>
`;

/** A fixed timestamp keeps archives byte-identical for identical scores. */
const ZIP_DATE = new Date(Date.UTC(2020, 0, 1));

export function writeMxl(score: Score, options: MusicXmlWriteOptions = {}): Uint8Array {
  return zipSync(
    {
      mimetype: [strToU8(MXL_CONTENT_TYPE), { level: 0 }],
      'META-INF/container.xml': strToU8(CONTAINER_XML),
      [SCORE_PATH]: strToU8(writeMusicXml(score, options)),
    },
    { level: 6, mtime: ZIP_DATE },
  );
}
