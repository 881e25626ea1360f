/**
 * Compressed MusicXML (.mxl): a zip whose `META-INF/container.xml` names the
 * root score file. Sizes are checked before and after inflating, so a zip
 * bomb is refused instead of filling memory.
 */
import { unzipSync } from 'fflate';
import { OmrError } from '../errors.js';
import { child, children, parseXml } from './xml-tree.js';

/** The largest score we inflate from an .mxl; real orchestral scores stay far below. */
export const MAX_MXL_SCORE_BYTES = 256 * 1024 * 1024;

const CONTAINER_PATH = 'META-INF/container.xml';

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** Returns the bytes of the score file inside an .mxl archive. */
export function extractMxlScore(bytes: Uint8Array): Uint8Array {
  const container = unzipEntries(bytes, (name) => name === CONTAINER_PATH);
  let rootPath: string | undefined;
  const containerXml = container[CONTAINER_PATH];
  if (containerXml) {
    const root = parseXml(containerXml, { maxBytes: 1024 * 1024, maxDepth: 16 }, 'CORRUPTED_FILE');
    const rootfile = children(child(root, 'rootfiles'), 'rootfile')
      .map((el) => ({ path: el.attrs['full-path'], type: el.attrs['media-type'] }))
      .find((r) => r.path && (!r.type || r.type.includes('musicxml') || r.type === 'application/xml'));
    rootPath = rootfile?.path;
  }
  // Archives without a container (written by some tools) hold one score at the top level.
  const wanted = (name: string) =>
    rootPath !== undefined ? name === rootPath : !name.includes('/') && /\.(musicxml|xml)$/i.test(name);
  const files = unzipEntries(bytes, wanted);
  const name = Object.keys(files)[0];
  if (name === undefined) {
    throw new OmrError(
      'CORRUPTED_FILE',
      rootPath ? `The .mxl archive names ${rootPath} as its score, but that file is missing.` : 'The .mxl archive contains no MusicXML score.',
    );
  }
  return files[name]!;
}

function unzipEntries(bytes: Uint8Array, wanted: (name: string) => boolean): Record<string, Uint8Array> {
  let result: Record<string, Uint8Array>;
  try {
    result = unzipSync(bytes, {
      filter: (file) => {
        if (!wanted(file.name)) return false;
        if (file.originalSize > MAX_MXL_SCORE_BYTES) {
          throw new OmrError('FILE_TOO_LARGE', `${file.name} inflates to ${file.originalSize} bytes; at most ${MAX_MXL_SCORE_BYTES} are accepted.`);
        }
        return true;
      },
    });
  } catch (err) {
    if (err instanceof OmrError) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    throw new OmrError('CORRUPTED_FILE', `The .mxl file is not a readable zip archive (${detail}).`, { cause: err });
  }
  for (const [name, data] of Object.entries(result)) {
    if (data.byteLength > MAX_MXL_SCORE_BYTES) {
      throw new OmrError('FILE_TOO_LARGE', `${name} inflates to more than ${MAX_MXL_SCORE_BYTES} bytes.`);
    }
  }
  return result;
}
