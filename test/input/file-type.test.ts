import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { encodePng } from '../../src/image/png-encode.js';
import { detectFileType, MIME_TYPES, type FileDescription } from '../../src/input/file-type.js';
import { buildPdf } from '../support/pdf-build.js';

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...ascii(p)] : p)));

const PNG = encodePng({ width: 1, height: 1, channels: 1, data: new Uint8Array([0]) });
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], 'JFIF');
const PDF = buildPdf([{ width: 10, height: 10 }]);
const MUSICXML = '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" "http://www.musicxml.org/dtds/partwise.dtd">\n<score-partwise version="4.0"/>';
const MXL = zipSync({
  mimetype: [strToU8('application/vnd.recordare.musicxml'), { level: 0 }],
  'META-INF/container.xml': strToU8('<container><rootfiles><rootfile full-path="score.xml"/></rootfiles></container>'),
  'score.xml': strToU8(MUSICXML),
});
const WORD = zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'word/document.xml': strToU8('<w:document/>') });

function refusal(file: FileDescription): OmrError {
  try {
    detectFileType(file);
  } catch (err) {
    expect(err).toBeInstanceOf(OmrError);
    return err as OmrError;
  }
  throw new Error(`expected ${file.filename ?? 'the file'} to be refused`);
}

describe('detectFileType', () => {
  it.each([
    ['PDF', PDF, 'pdf'],
    ['PDF with junk before the header', bytes([0, 0, 0], '%PDF-1.4\n'), 'pdf'],
    ['PNG', PNG, 'png'],
    ['JPEG', JPEG, 'jpeg'],
    ['MusicXML', ascii(MUSICXML), 'musicxml'],
    ['MusicXML without declaration', ascii('<score-timewise version="3.1">'), 'musicxml'],
    ['UTF-16 MusicXML with BOM', new Uint8Array([0xff, 0xfe, ...[...MUSICXML].flatMap((c) => [c.charCodeAt(0), 0])]), 'musicxml'],
    ['MXL', MXL, 'mxl'],
    ['WebP', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), 'webp'],
    ['TIFF (little-endian)', bytes('II*', [0, 8, 0, 0, 0]), 'tiff'],
    ['TIFF (big-endian)', bytes('MM', [0, 42, 0, 0, 0, 8]), 'tiff'],
    ['BigTIFF (which the decoder refuses by name)', bytes('II+', [0, 8, 0, 0, 0]), 'tiff'],
    ['HEIC', bytes([0, 0, 0, 24], 'ftypheic', [0, 0, 0, 0], 'mif1heic'), 'heic'],
    ['HEIF (mif1 brand only)', bytes([0, 0, 0, 20], 'ftypmif1', [0, 0, 0, 0], 'mif1'), 'heic'],
  ] as const)('recognises %s from its bytes alone', (_, data, type) => {
    expect(detectFileType({ data })).toBe(type);
  });

  it('trusts the bytes over the name and the MIME type', () => {
    expect(detectFileType({ filename: 'photo.jpg', mimeType: 'image/jpeg', data: PNG })).toBe('png');
    expect(detectFileType({ filename: 'score.png', data: PDF })).toBe('pdf');
    // A phone's HEIC saved under a JPEG name.
    expect(detectFileType({ filename: 'IMG_0042.jpg', mimeType: 'image/jpeg', data: bytes([0, 0, 0, 24], 'ftypheic', [0, 0, 0, 0], 'mif1heic') })).toBe('heic');
  });

  it.each([
    ['heic', ['IMG_0042.HEIC', 'a.heif', 'a.hif'], ['image/heic', 'image/heif', 'image/heic-sequence']],
    ['webp', ['page.webp'], ['image/webp']],
    ['tiff', ['scan.tif', 'SCAN.TIFF'], ['image/tiff', 'image/tiff-fx']],
  ] as const)('accepts %s files by name or MIME type when the bytes say nothing', (type, names, mimes) => {
    for (const filename of names) expect(detectFileType({ filename, data: bytes('??') })).toBe(type);
    for (const mimeType of mimes) expect(detectFileType({ filename: 'upload', mimeType, data: bytes('??') })).toBe(type);
    expect(MIME_TYPES[type]).toBe(`image/${type}`);
  });

  it('falls back to the extension, then the MIME type, when the bytes say nothing', () => {
    const unknown = bytes('????');
    expect(detectFileType({ filename: 'Scan 3.JPEG', data: unknown })).toBe('jpeg');
    expect(detectFileType({ filename: 'x.pdf', mimeType: 'image/png', data: unknown })).toBe('pdf');
    expect(detectFileType({ filename: 'upload', mimeType: 'image/png', data: unknown })).toBe('png');
    expect(detectFileType({ filename: 'upload', mimeType: 'application/PDF; charset=binary', data: unknown })).toBe('pdf');
    expect(detectFileType({ filename: 'song.xml', data: ascii('<?xml version="1.0"?><foo/>') })).toBe('musicxml');
    // A zip is an .mxl when its name or MIME type says so, even without a container.
    expect(detectFileType({ filename: 'a.mxl', data: zipSync({ 'a.xml': strToU8(MUSICXML) }) })).toBe('mxl');
    expect(detectFileType({ mimeType: 'application/vnd.recordare.musicxml', data: zipSync({ 'a.xml': strToU8(MUSICXML) }) })).toBe('mxl');
  });

  it.each([
    ['GIF', bytes('GIF89a', [1, 0, 1, 0]), 'a GIF image'],
    ['AVIF', bytes([0, 0, 0, 28], 'ftypavif', [0, 0, 0, 0], 'avifmif1miaf'), 'an AVIF image'],
    ['BMP', bytes('BM', [0x3a, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 40, 0, 0, 0]), 'a BMP image'],
    ['JPEG 2000', bytes([0, 0, 0, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a]), 'a JPEG 2000 image'],
    ['SVG', ascii('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'), 'an SVG image'],
    ['MEI', ascii('<?xml version="1.0"?>\n<mei xmlns="http://www.music-encoding.org/ns/mei"/>'), 'an MEI score'],
    ['a Word document', WORD, 'a ZIP archive'],
  ] as const)('refuses %s by name, saying what is accepted', (_, data, what) => {
    for (const filename of ['upload', 'upload.png']) {
      const err = refusal({ filename, data });
      expect(err.code).toBe('UNSUPPORTED_FILE_TYPE');
      expect(err.message).toContain(`"${filename}" is ${what}, which ScoreSight does not read`);
      expect(err.message).toMatch(/Accepted: PDF, PNG, JPEG, HEIC, WebP or TIFF files of pages, or MusicXML scores/);
    }
  });

  it('refuses unsupported types known only by name or MIME type', () => {
    expect(refusal({ filename: 'anim.gif', data: bytes('??') }).message).toMatch(/is a GIF image/);
    expect(refusal({ filename: 'x', mimeType: 'image/avif', data: bytes('??') }).message).toMatch(/is an AVIF image/);
    expect(refusal({ filename: 'notes.docx', data: bytes('??') }).message).toMatch(/is a \.docx file/);
    expect(refusal({ filename: 'x', mimeType: 'application/msword', data: bytes('??') }).message).toMatch(/is of type application\/msword/);
  });

  it('asks for the MIME type when nothing tells the type', () => {
    for (const file of [
      { filename: 'upload', data: bytes('????') },
      { filename: 'Op. 10', mimeType: 'application/octet-stream', data: bytes('????') },
      { data: bytes('<?xml version="1.0"?><unknown/>') },
      { data: new Uint8Array(0) },
    ]) {
      const err = refusal(file);
      expect(err.code).toBe('OMR_MIME_REQUIRED');
      expect(err.message).toMatch(/give its MIME type/);
    }
  });
});
