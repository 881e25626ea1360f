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

/** A zip starts with a local file header, or, when it holds no files, with the end-of-directory record. */
export function isZip(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) return false;
  return (bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06);
}

/**
 * Returns the bytes of the score file inside an .mxl archive. `maxBytes`
 * bounds what one entry may inflate to.
 */
export function extractMxlScore(bytes: Uint8Array, maxBytes = MAX_MXL_SCORE_BYTES): Uint8Array {
  const container = unzipEntries(bytes, (name) => name === CONTAINER_PATH, maxBytes);
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
  const files = unzipEntries(bytes, wanted, maxBytes);
  const name = Object.keys(files)[0];
  if (name === undefined) {
    throw new OmrError(
      'CORRUPTED_FILE',
      rootPath ? `The .mxl archive names ${rootPath} as its score, but that file is missing.` : 'The .mxl archive contains no MusicXML score.',
    );
  }
  return files[name]!;
}

/**
 * Inflates the wanted entries. fflate sizes each output by the size the
 * archive declares and never writes past it, so checking that size before
 * inflating bounds memory even when the archive lies about it.
 */
function unzipEntries(bytes: Uint8Array, wanted: (name: string) => boolean, maxBytes: number): Record<string, Uint8Array> {
  let result: Record<string, Uint8Array>;
  try {
    result = unzipSync(bytes, {
      filter: (file) => {
        if (!wanted(file.name)) return false;
        if (file.originalSize > maxBytes) {
          throw new OmrError('FILE_TOO_LARGE', `${file.name} inflates to ${file.originalSize} bytes; at most ${maxBytes} are accepted.`);
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
    if (data.byteLength > maxBytes) {
      throw new OmrError('FILE_TOO_LARGE', `${name} inflates to more than ${maxBytes} bytes.`);
    }
  }
  return result;
}
