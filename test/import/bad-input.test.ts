/**
 * Hostile and malformed input to the MusicXML reader. Every failure must be an
 * `OmrError` with the code the service reports and a message that says what
 * is wrong; nothing may hang, expand entities, overflow the stack or throw
 * anything else. Unusual but valid encodings and layouts must still read.
 */
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { extractMxlScore, MAX_MXL_SCORE_BYTES } from '../../src/import/mxl-container.js';
import { MAX_SCORE_MEASURES, MAX_SCORE_NOTES, MAX_SCORE_PARTS, MAX_XML_BYTES, MAX_XML_ELEMENTS } from '../../src/import/limits.js';
import { decodeXmlText, parseXml, type XmlElement } from '../../src/import/xml-tree.js';
import { frac } from '../../src/score/fraction.js';
import type { NoteEvent } from '../../src/score/model.js';
import { placedNotes } from '../../src/score/timeline.js';
import { corpusFiles, readBytes } from '../support/corpus.js';
import { concat } from '../support/png-build.js';

type Code = 'INVALID_MUSICXML' | 'CORRUPTED_FILE' | 'FILE_TOO_LARGE';

/** Runs `fn`, expecting an OmrError with `code` whose message matches `message`; returns the error. */
function expectOmrError(fn: () => unknown, code: Code, message: RegExp): OmrError {
  let thrown: unknown;
  try {
    fn();
  } catch (err) {
    thrown = err;
  }
  expect(thrown, 'expected an OmrError to be thrown').toBeInstanceOf(OmrError);
  const err = thrown as OmrError;
  expect({ code: err.code, message: err.message }).toEqual({ code, message: expect.stringMatching(message) });
  expect(err.message.trim().length).toBeGreaterThan(15);
  return err;
}

const HEADER = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" "http://www.musicxml.org/dtds/partwise.dtd">`;

/** A one-part, one-measure song with replaceable pieces. */
function song(o: { divisions?: string; fifths?: string; beats?: string; notes?: string; title?: string } = {}): string {
  const notes =
    o.notes ??
    `<note><pitch><step>C</step><octave>5</octave></pitch><duration>4</duration><voice>1</voice><type>whole</type></note>`;
  return `<score-partwise version="4.0">
  ${o.title === undefined ? '' : `<movement-title>${o.title}</movement-title>`}
  <part-list><score-part id="P1"><part-name>Voice</part-name></score-part></part-list>
  <part id="P1">
    <measure number="1">
      <attributes>
        <divisions>${o.divisions ?? '1'}</divisions>
        <key><fifths>${o.fifths ?? '0'}</fifths></key>
        <time><beats>${o.beats ?? '4'}</beats><beat-type>4</beat-type></time>
        <clef><sign>G</sign><line>2</line></clef>
      </attributes>
      ${notes}
    </measure>
  </part>
</score-partwise>`;
}

const note = (inner: string) => `<note>${inner}<voice>1</voice></note>`;
const c5 = '<pitch><step>C</step><octave>5</octave></pitch>';

/** Deterministic pseudo-random bytes. */
function randomBytes(length: number, seed: number): Uint8Array {
  let a = seed >>> 0;
  return Uint8Array.from({ length }, () => {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    return a >>> 24;
  });
}

/** Sets the uncompressed size of every entry, in its local header and in the central directory. */
function withDeclaredSize(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let i = 0; i + 4 <= out.length; i++) {
    const signature = view.getUint32(i, true);
    if (signature === 0x04034b50) view.setUint32(i + 22, size, true);
    if (signature === 0x02014b50) view.setUint32(i + 24, size, true);
  }
  return out;
}

const CONTAINER = (path: string) =>
  strToU8(`<?xml version="1.0" encoding="UTF-8"?>
<container><rootfiles><rootfile full-path="${path}" media-type="application/vnd.recordare.musicxml+xml"/></rootfiles></container>`);

const realSong = corpusFiles('lieder')[0]!;

describe('empty and random input', () => {
  it('refuses an empty file', () => {
    expectOmrError(() => readMusicXml(new Uint8Array(0)), 'INVALID_MUSICXML', /empty/);
    expectOmrError(() => readMusicXml(''), 'INVALID_MUSICXML', /empty/);
  });

  it('refuses whitespace and a bare XML declaration', () => {
    expectOmrError(() => readMusicXml('  \n '), 'INVALID_MUSICXML', /not well-formed XML.*root element/);
    expectOmrError(() => readMusicXml('<?xml version="1.0"?>'), 'INVALID_MUSICXML', /not well-formed XML.*root element/);
  });

  it('refuses random bytes', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      expectOmrError(() => readMusicXml(randomBytes(4096, seed)), 'INVALID_MUSICXML', /not well-formed XML/);
    }
  });

  it('refuses random bytes behind a zip signature as a broken archive', () => {
    const bytes = randomBytes(4096, 9);
    bytes.set([0x50, 0x4b, 0x03, 0x04]);
    expectOmrError(() => readMusicXml(bytes), 'CORRUPTED_FILE', /not a readable zip archive/);
  });

  it('refuses text that is not XML', () => {
    expectOmrError(() => readMusicXml('%PDF-1.7\n%âãÏÓ'), 'INVALID_MUSICXML', /not well-formed XML/);
    expectOmrError(() => readMusicXml('{"score": []}'), 'INVALID_MUSICXML', /not well-formed XML/);
  });
});

describe('truncated files', () => {
  const mxl = readBytes(realSong);
  const xml = new TextDecoder().decode(extractMxlScore(mxl));

  it('reads the untruncated song', () => {
    expect(readMusicXml(xml).parts.length).toBeGreaterThan(0);
  });

  it('refuses MusicXML cut in the middle of an element', () => {
    for (const marker of ['<part-list', '<measure number="2"', '<pitch>', '</note>', '</part>', '</score-partwise>']) {
      const at = xml.indexOf(marker);
      expect(at, marker).toBeGreaterThan(0);
      for (const cut of [at + 3, at + marker.length - 1]) {
        expectOmrError(() => readMusicXml(xml.slice(0, cut)), 'INVALID_MUSICXML', /not well-formed XML/);
      }
    }
    expectOmrError(() => readMusicXml(strToU8(xml.slice(0, xml.length / 2))), 'INVALID_MUSICXML', /not well-formed XML/);
  });

  it('refuses an .mxl cut at any of several points', () => {
    for (const cut of [4, 30, 100, Math.floor(mxl.length / 3), Math.floor(mxl.length / 2), mxl.length - 23, mxl.length - 1]) {
      expectOmrError(() => readMusicXml(mxl.slice(0, cut)), 'CORRUPTED_FILE', /not a readable zip archive/);
    }
  });
});

describe('archives that hold no MusicXML', () => {
  it('refuses a zip without a container and without an XML file', () => {
    const zip = zipSync({ 'readme.txt': strToU8('hello'), 'image.png': randomBytes(100, 3) });
    expectOmrError(() => readMusicXml(zip), 'CORRUPTED_FILE', /contains no MusicXML score/);
  });

  it('refuses an empty zip', () => {
    expectOmrError(() => readMusicXml(zipSync({})), 'CORRUPTED_FILE', /contains no MusicXML score/);
  });

  it('refuses a container that names a missing score', () => {
    const zip = zipSync({ 'META-INF/container.xml': CONTAINER('scores/song.musicxml'), 'other.musicxml': strToU8(song()) });
    expectOmrError(() => readMusicXml(zip), 'CORRUPTED_FILE', /names scores\/song\.musicxml as its score, but that file is missing/);
  });

  it('refuses a container that is not well-formed', () => {
    const zip = zipSync({ 'META-INF/container.xml': strToU8('<container><rootfiles>'), 'song.musicxml': strToU8(song()) });
    expectOmrError(() => readMusicXml(zip), 'CORRUPTED_FILE', /not well-formed XML/);
  });

  it('refuses a zip whose XML is not a score', () => {
    const zip = zipSync({ 'data.xml': strToU8('<?xml version="1.0"?><inventory><item/></inventory>') });
    expectOmrError(() => readMusicXml(zip), 'INVALID_MUSICXML', /root element is <inventory>/);
  });

  it('reads a zip whose container names the score', () => {
    const zip = zipSync({ 'META-INF/container.xml': CONTAINER('song.musicxml'), 'song.musicxml': strToU8(song()) });
    expect(readMusicXml(zip).parts).toHaveLength(1);
  });
});

describe('documents that are not MusicXML scores', () => {
  it.each([
    ['HTML', '<!DOCTYPE html><html><head><title>x</title></head><body><p>hi</p></body></html>', /<html>/],
    ['MEI', '<?xml version="1.0"?><mei xmlns="http://www.music-encoding.org/ns/mei" meiversion="5.0"><music/></mei>', /<mei>/],
    ['an opus', '<opus><title>Collection</title></opus>', /<opus>/],
    ['a lone part', '<part id="P1"><measure number="1"/></part>', /<part>/],
  ])('refuses %s', (_, text, root) => {
    const err = expectOmrError(() => readMusicXml(text), 'INVALID_MUSICXML', root);
    expect(err.message).toMatch(/not a MusicXML score/);
  });

  it('refuses a score without parts', () => {
    const empty = '<score-partwise version="4.0"><part-list><score-part id="P1"><part-name>V</part-name></score-part></part-list></score-partwise>';
    expectOmrError(() => readMusicXml(empty), 'INVALID_MUSICXML', /no parts/);
    expectOmrError(() => readMusicXml('<score-timewise version="4.0"><part-list/></score-timewise>'), 'INVALID_MUSICXML', /no parts/);
  });

  it('refuses a part id used twice', () => {
    const twice = song().replace('</score-partwise>', '<part id="P1"><measure number="1"/></part></score-partwise>');
    expectOmrError(() => readMusicXml(twice), 'INVALID_MUSICXML', /Part id P1 appears twice/);
  });
});

describe('entities', () => {
  const laughs = [
    '<!ENTITY lol "lol">',
    ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`),
  ].join('\n');

  it('refuses billion laughs without expanding them', () => {
    const inText = `<?xml version="1.0"?><!DOCTYPE score-partwise [${laughs}]>${song({ title: '&lol9;' })}`;
    const inAttribute = `<?xml version="1.0"?><!DOCTYPE score-partwise [${laughs}]>${song().replace('id="P1">', 'id="&lol9;">')}`;
    for (const doc of [inText, inAttribute]) {
      const err = expectOmrError(() => readMusicXml(doc), 'INVALID_MUSICXML', /undefined entity/);
      expect(err.message).not.toMatch(/lollol/);
    }
  });

  it('ignores entities that are declared but never used', () => {
    const doc = `<?xml version="1.0"?><!DOCTYPE score-partwise [${laughs}]>${song()}`;
    expect(readMusicXml(doc).parts).toHaveLength(1);
  });

  it('refuses an external entity without reading it', () => {
    for (const system of ['file:///etc/passwd', 'http://127.0.0.1:1/x.xml']) {
      const doc = `<?xml version="1.0"?><!DOCTYPE score-partwise [<!ENTITY x SYSTEM "${system}">]>${song({ title: '&x;' })}`;
      const err = expectOmrError(() => readMusicXml(doc), 'INVALID_MUSICXML', /undefined entity/);
      expect(err.message).not.toMatch(/root:/);
    }
  });

  it('still expands the five predefined entities and character references', () => {
    const score = readMusicXml(song({ title: 'A &amp; B &lt;&#x263A;&#9731;&gt;' }));
    expect(score.credits.title).toBe('A & B <☺☃>');
  });
});

describe('size and depth limits', () => {
  it('refuses 100,000 nested elements without overflowing the stack', () => {
    const depth = 100_000;
    const doc = `<score-partwise>${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</score-partwise>`;
    expectOmrError(() => readMusicXml(doc), 'INVALID_MUSICXML', /nests deeper than 64 levels/);
    // Unclosed, too.
    expectOmrError(() => readMusicXml(`<score-partwise>${'<a>'.repeat(depth)}`), 'INVALID_MUSICXML', /nests deeper/);
  });

  it('refuses an XML document beyond the size limit', () => {
    expectOmrError(() => parseXml('<a>' + ' '.repeat(100) + '</a>', { maxBytes: 100, maxDepth: 64 }), 'FILE_TOO_LARGE', /107 bytes; at most 100/);
  });

  it('refuses a zip bomb by the size it declares, before inflating', () => {
    const zip = withDeclaredSize(zipSync({ 'score.xml': strToU8(song()) }), MAX_MXL_SCORE_BYTES + 1);
    expectOmrError(() => readMusicXml(zip), 'FILE_TOO_LARGE', /score\.xml inflates to 67108865 bytes; at most 67108864/);
  });

  it('refuses a real zip bomb: 16 MiB of spaces in a 16 KiB archive, with a 1 MiB limit', () => {
    const bomb = zipSync({ 'score.xml': new Uint8Array(16 * 2 ** 20).fill(0x20) }, { level: 9 });
    expect(bomb.length).toBeLessThan(64 * 1024);
    expectOmrError(() => extractMxlScore(bomb, 2 ** 20), 'FILE_TOO_LARGE', /inflates to 16777216 bytes; at most 1048576/);
  });

  it('stops inflating once an entry passes the limit, whatever size it declares', () => {
    // Declares exactly the limit, holds 16 times as much.
    const bomb = withDeclaredSize(zipSync({ 'score.xml': new Uint8Array(16 * 2 ** 20).fill(0x20) }, { level: 9 }), 2 ** 20);
    expectOmrError(() => extractMxlScore(bomb, 2 ** 20), 'FILE_TOO_LARGE', /score\.xml inflates to more than 1048576 bytes, the most accepted/);
  });

  it('refuses a 100 KB .mxl that unpacks to 100 MiB of elements, before parsing any', () => {
    const unpacked = repeatedBytes('<a/>', 100 * 2 ** 20);
    const score = concat([strToU8('<score-partwise>'), unpacked, strToU8('</score-partwise>')]);
    const bomb = zipSync({ 'META-INF/container.xml': CONTAINER('score.xml'), 'score.xml': score }, { level: 9 });
    expect(bomb.length).toBeLessThan(200 * 1024);
    expectOmrError(() => readMusicXml(bomb), 'FILE_TOO_LARGE', /score\.xml inflates to 104857633 bytes; at most 67108864/);
    // The same archive declaring only as much as the limit allows is cut off while inflating, by its ratio.
    const liar = withDeclaredSize(bomb, MAX_MXL_SCORE_BYTES);
    expectOmrError(() => readMusicXml(liar), 'FILE_TOO_LARGE', /score\.xml inflates more than 400-fold/);
  });

  it('refuses an entry that inflates more than any score does, though it declares its size truly and stays under the limit', () => {
    const bomb = zipSync({ 'score.xml': new Uint8Array(32 * 2 ** 20).fill(0x20) }, { level: 9 });
    expectOmrError(() => extractMxlScore(bomb), 'FILE_TOO_LARGE', /score\.xml inflates more than 400-fold, as no score does/);
    // A few megabytes inflate whatever their ratio: refusing them would save nothing.
    const small = zipSync({ 'score.xml': new Uint8Array(3 * 2 ** 20).fill(0x20) }, { level: 9 });
    expect(extractMxlScore(small).length).toBe(3 * 2 ** 20);
  });

  it('refuses an archive whose entry inflates to more than it declares', () => {
    const content = strToU8(song() + ' '.repeat(8 * 2 ** 20));
    const liar = withDeclaredSize(zipSync({ 'score.xml': content }, { level: 9 }), 200);
    expectOmrError(() => extractMxlScore(liar), 'CORRUPTED_FILE', /score\.xml inflates to more than the 200 bytes it declares/);
    expectOmrError(() => readMusicXml(liar), 'CORRUPTED_FILE', /more than the 200 bytes it declares/);
  });

  it('refuses a document with more elements than the limit, counting them as they are read', () => {
    expectOmrError(() => parseXml(`<a>${'<b/>'.repeat(1000)}</a>`, { maxBytes: 2 ** 20, maxDepth: 8, maxElements: 1000 }), 'FILE_TOO_LARGE', /more than 1000 elements/);
    expect(parseXml(`<a>${'<b/>'.repeat(999)}</a>`, { maxBytes: 2 ** 20, maxDepth: 8, maxElements: 1000 }).children).toHaveLength(999);
    // 8 MB of empty elements, far below the byte limit, are refused by the default element limit.
    const doc = `<score-partwise>${'<b/>'.repeat(MAX_XML_ELEMENTS)}</score-partwise>`;
    expect(doc.length).toBeLessThan(MAX_XML_BYTES / 4);
    expectOmrError(() => readMusicXml(doc), 'FILE_TOO_LARGE', new RegExp(`more than ${MAX_XML_ELEMENTS} elements`));
  });

  it('keeps the parsed tree small: names, empty attributes and leaf children are shared, indentation dropped', () => {
    const root = parseXml('<a>\n  <note>\n    <step>C</step>\n  </note>\n  <note x="1"><step> </step></note>\n</a>');
    const [first, second] = root.children as [XmlElement, XmlElement];
    expect(first.name).toBe('note');
    expect(first.attrs).toBe(root.attrs);
    expect(second.attrs).toEqual({ x: '1' });
    expect(first.children[0]!.children).toBe(second.children[0]!.children);
    expect(first.children[0]!.children).toHaveLength(0);
    // Layout whitespace between elements is gone; the text of leaves, spaces included, is kept.
    expect([root.text, first.text, first.children[0]!.text, second.children[0]!.text]).toEqual(['', '', 'C', ' ']);
    const mixed = parseXml('<dir>cresc. <rend>poco</rend> a poco </dir>');
    expect(mixed.text).toBe('cresc.  a poco ');
  });

  it('refuses scores with more parts, measures or notes than the limits before reading them', () => {
    const parts = Array.from({ length: MAX_SCORE_PARTS + 1 }, (_, i) => `<part id="P${i}"/>`).join('');
    expectOmrError(() => readMusicXml(`<score-partwise>${parts}</score-partwise>`), 'FILE_TOO_LARGE', new RegExp(`${MAX_SCORE_PARTS + 1} parts; at most ${MAX_SCORE_PARTS}`));
    const measures = '<measure/>'.repeat(MAX_SCORE_MEASURES + 1);
    expectOmrError(() => readMusicXml(`<score-partwise><part id="P1">${measures}</part></score-partwise>`), 'FILE_TOO_LARGE', new RegExp(`more than ${MAX_SCORE_MEASURES} measures`));
    const notes = '<note/>'.repeat(MAX_SCORE_NOTES + 1);
    expectOmrError(() => readMusicXml(`<score-partwise><part id="P1"><measure>${notes}</measure></part></score-partwise>`), 'FILE_TOO_LARGE', new RegExp(`more than ${MAX_SCORE_NOTES} notes`));
  });
});

/** `pattern` repeated to `size` bytes, built by doubling rather than as one huge string. */
function repeatedBytes(pattern: string, size: number): Uint8Array {
  const out = new Uint8Array(size);
  out.set(strToU8(pattern));
  for (let filled = pattern.length; filled < size; filled *= 2) out.copyWithin(filled, 0, Math.min(filled, size - filled));
  return out;
}

describe('numbers out of range', () => {
  it.each([
    ['divisions 1e308', song({ divisions: '1e308' }), /part P1, measure 1: <divisions> "1e308" must be a whole number/],
    ['divisions 0', song({ divisions: '0' }), /<divisions> "0"/],
    ['divisions NaN', song({ divisions: 'NaN' }), /<divisions> "NaN"/],
    ['divisions empty', song({ divisions: '' }), /<divisions> ""/],
    ['fractional divisions', song({ divisions: '2.5' }), /<divisions> "2.5"/],
    ['a huge duration', song({ notes: note(`${c5}<duration>99999999999999999999</duration>`) }), /part P1, measure 1: duration "99999999999999999999" is out of range/],
    ['a negative duration', song({ notes: note(`${c5}<duration>-4</duration>`) }), /duration "-4" is out of range/],
    ['a NaN duration', song({ notes: note(`${c5}<duration>NaN</duration>`) }), /duration "NaN" is out of range/],
    ['an empty duration', song({ notes: note(`${c5}<duration></duration>`) }), /duration "" is out of range/],
    ['an Infinity backup', song({ notes: '<backup><duration>Infinity</duration></backup>' }), /duration "Infinity" is out of range/],
    ['a backup without duration', song({ notes: '<backup/>' }), /<backup> has no <duration>/],
    ['octave 1e9', song({ notes: note('<pitch><step>C</step><octave>1e9</octave></pitch><duration>4</duration>') }), /invalid pitch C1e9/],
    ['octave -1', song({ notes: note('<pitch><step>C</step><octave>-1</octave></pitch><duration>4</duration>') }), /invalid pitch C-1/],
    ['an empty octave', song({ notes: note('<pitch><step>C</step><octave></octave></pitch><duration>4</duration>') }), /invalid pitch C/],
    ['alter NaN', song({ notes: note('<pitch><step>C</step><alter>NaN</alter><octave>4</octave></pitch><duration>4</duration>') }), /invalid pitch C4 \(alter NaN\)/],
    ['alter 1e21', song({ notes: note('<pitch><step>C</step><alter>1e21</alter><octave>4</octave></pitch><duration>4</duration>') }), /alter 1e\+21/],
    ['step H', song({ notes: note('<pitch><step>H</step><octave>4</octave></pitch><duration>4</duration>') }), /invalid pitch H4/],
    ['fifths 999', song({ fifths: '999' }), /part P1, measure 1: key with 999 fifths/],
    ['fifths NaN', song({ fifths: 'NaN' }), /key with NaN fifths/],
    ['beats 1e400', song({ beats: '1e400' }), /part P1, measure 1: time signature beats "1e400" are invalid/],
    ['beats 0', song({ beats: '0' }), /time signature beats "0"/],
    ['staves 1e6', song().replace('<divisions>', '<staves>1000000</staves><divisions>'), /<staves> "1000000" is out of range/],
    ['a hundred dots', song({ notes: note(`${c5}<type>quarter</type>${'<dot/>'.repeat(100)}`) }), /a note has 100 dots; at most 8/],
    ['a note without duration or type', song({ notes: note(c5) }), /a note has neither <duration> nor <type>/],
    ['a note without pitch', song({ notes: note('<duration>4</duration>') }), /a note has neither <pitch>, <unpitched> nor <rest>/],
  ])('refuses %s', (_, doc, message) => {
    expectOmrError(() => readMusicXml(doc), 'INVALID_MUSICXML', message);
  });

  it('drops a tuplet ratio out of range and keeps the written duration', () => {
    for (const [actual, normal] of [['9007199254740993', '2'], ['3', '1e400'], ['0', '2'], ['-3', '2'], ['NaN', '2']]) {
      const tuplet = `<time-modification><actual-notes>${actual}</actual-notes><normal-notes>${normal}</normal-notes></time-modification>`;
      const score = readMusicXml(song({ notes: note(`${c5}<duration>4</duration><type>whole</type>${tuplet}`) }));
      const event = score.parts[0]!.measures[0]!.voices[0]!.events[0]! as NoteEvent;
      expect(event.duration).toEqual(frac(4));
      expect(event.tuplet).toBeUndefined();
    }
  });

  it('refuses durations whose sum in a measure outgrows exact arithmetic', () => {
    // Divisions that are large primes, changed mid-measure: the offsets' denominators multiply.
    const primes = ['999983', '999979', '999961', '999959'];
    const notes = primes
      .map((p) => `<attributes><divisions>${p}</divisions></attributes>${note(`${c5}<duration>1</duration>`)}`)
      .join('');
    expectOmrError(() => readMusicXml(song({ notes })), 'INVALID_MUSICXML', /numbers too large to compute with exactly/);
  });

  it('refuses measures whose lengths add up beyond exact arithmetic', () => {
    const measures = ['999983', '999979', '999961', '999959']
      .map((p, i) => `<measure number="${i + 2}"><attributes><divisions>${p}</divisions></attributes>${note(`${c5}<duration>1</duration>`)}</measure>`)
      .join('');
    const doc = song().replace('</measure>', `</measure>${measures}`);
    expectOmrError(() => readMusicXml(doc), 'INVALID_MUSICXML', /Part P1: its measures' durations add up to times too fine to keep exactly/);
  });

  it('keeps staff numbers within the staves of the part', () => {
    const notes = [
      note(`${c5}<duration>2</duration><staff>7</staff>`),
      `<direction><direction-type><words>dolce</words></direction-type><staff>99999999999999999999</staff></direction>`,
      note(`${c5}<duration>2</duration><staff>-1</staff>`),
    ].join('');
    const doc = song({ divisions: '1', notes }).replace('<key>', '<key number="5">');
    const measure = readMusicXml(doc).parts[0]!.measures[0]!;
    expect(measure.voices[0]!.events.map((e) => e.staff)).toEqual([1, 1]);
    expect(measure.directions.map((d) => d.staff)).toEqual([1]);
    expect(measure.key).toEqual({ fifths: 0 });
  });

  it('reads a few overlapping notes in one voice as extra lanes', () => {
    const overlapping = (n: number) =>
      Array.from({ length: n }, () => `${note(`${c5}<duration>4</duration>`)}<backup><duration>4</duration></backup>`).join('');
    const measure = readMusicXml(song({ notes: overlapping(3) })).parts[0]!.measures[0]!;
    expect(measure.voices.map((v) => v.id)).toEqual(['1', '1.1', '1.2']);
  });

  it('refuses a pile of 50,000 notes sounding at once in one voice', () => {
    const notes = `${note(`${c5}<duration>4</duration>`)}<backup><duration>4</duration></backup>`.repeat(50_000);
    expectOmrError(() => readMusicXml(song({ notes })), 'INVALID_MUSICXML', /part P1, measure 1: voice 1 has more than 64 notes sounding at once/);
  });
});

describe('pathological but well-formed content', () => {
  const partList = (inner: string) => song().replace(/<part-list>.*<\/part-list>/, `<part-list>${inner}</part-list>`);
  const scorePart = (id: string) => `<score-part id="${id}"><part-name>${id}</part-name></score-part>`;

  it('refuses a chord of 50,000 notes', () => {
    const chord = note(`${c5}<duration>4</duration>`) + note(`<chord/>${c5}<duration>4</duration>`).repeat(50_000);
    expectOmrError(() => readMusicXml(song({ notes: chord })), 'INVALID_MUSICXML', /part P1, measure 1: a chord has more than 64 notes/);
  });

  it('keeps at most 100 verses of 50,000 differently labelled lyrics', () => {
    const lyrics = Array.from({ length: 50_000 }, (_, i) => `<lyric number="v${i}"><text>la</text></lyric>`).join('');
    const event = readMusicXml(song({ notes: note(`${c5}<duration>4</duration>${lyrics}`) })).parts[0]!.measures[0]!.voices[0]!.events[0] as NoteEvent;
    expect(Math.max(...event.lyrics.map((l) => l.verse))).toBeLessThanOrEqual(100);
  });

  it('reads 20,000 part groups left open over 20,000 parts, dropping them', () => {
    const starts = Array.from({ length: 20_000 }, (_, i) => `<part-group number="${i}" type="start"/>`).join('');
    const parts = Array.from({ length: 20_000 }, (_, i) => scorePart(`Q${i}`)).join('');
    const groups = readMusicXml(partList(starts + scorePart('P1') + parts)).partGroups.length;
    expect(groups).toBe(0);
  });

  it('keeps part groups that span parts and drops empty or unmatched ones', () => {
    const doc = partList(
      '<part-group number="1" type="start"><group-symbol>bracket</group-symbol></part-group>' +
        '<part-group number="2" type="start"><group-symbol>brace</group-symbol></part-group>' +
        scorePart('P1') +
        '<part-group number="2" type="stop"/>' +
        '<part-group number="3" type="start"/><part-group number="3" type="stop"/>' +
        scorePart('P2') +
        '<part-group number="1" type="stop"/>' +
        '<part-group number="9" type="stop"/>',
    ).replace('</score-partwise>', '<part id="P2"><measure number="1"/></part></score-partwise>');
    expect(readMusicXml(doc).partGroups).toEqual([
      { first: 0, last: 0, symbol: 'brace', barlinesConnected: false },
      { first: 0, last: 1, symbol: 'bracket', barlinesConnected: false },
    ]);
  });
});

describe('encodings', () => {
  const title = 'Ständchen: Grüße an Müller';

  function utf16(text: string, littleEndian: boolean, bom = true): Uint8Array {
    const units = (bom ? '\ufeff' : '') + text;
    const view = new DataView(new ArrayBuffer(units.length * 2));
    for (let i = 0; i < units.length; i++) view.setUint16(i * 2, units.charCodeAt(i), littleEndian);
    return new Uint8Array(view.buffer);
  }

  it.each([
    ['UTF-16LE with BOM', true, true],
    ['UTF-16BE with BOM', false, true],
    ['UTF-16LE without BOM', true, false],
    ['UTF-16BE without BOM', false, false],
  ])('reads %s', (_, littleEndian, bom) => {
    const text = `<?xml version="1.0" encoding="UTF-16"?>\n${song({ title })}`;
    const score = readMusicXml(utf16(text, littleEndian, bom));
    expect(score.credits.title).toBe(title);
    expect([...placedNotes(score)].map((n) => n.pitch)).toEqual([{ step: 'C', alter: 0, octave: 5 }]);
  });

  it('reads ISO-8859-1 with umlauts in the title', () => {
    const text = `<?xml version="1.0" encoding="ISO-8859-1"?>\n${song({ title })}`;
    const bytes = Uint8Array.from(text, (ch) => ch.charCodeAt(0));
    expect(bytes.includes(0xfc)).toBe(true); // ü as one Latin-1 byte.
    expect(readMusicXml(bytes).credits.title).toBe(title);
  });

  it('reads UTF-8 with a BOM', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...strToU8(`${HEADER}\n${song({ title })}`)]);
    expect(readMusicXml(bytes).credits.title).toBe(title);
  });

  it('falls back to UTF-8 for an unknown declared encoding', () => {
    const bytes = strToU8(`<?xml version="1.0" encoding="x-no-such-charset"?>\n${song({ title })}`);
    expect(decodeXmlText(bytes)).toContain(title);
    expect(readMusicXml(bytes).credits.title).toBe(title);
  });
});

describe('timewise scores', () => {
  /** Regroups a partwise tree into the timewise layout. */
  function toTimewise(root: XmlElement): XmlElement {
    const parts = root.children.filter((c) => c.name === 'part');
    const measures: XmlElement[] = [];
    for (const part of parts) {
      part.children
        .filter((c) => c.name === 'measure')
        .forEach((m, i) => {
          measures[i] ??= { name: 'measure', attrs: m.attrs, children: [], text: '' };
          measures[i].children.push({ name: 'part', attrs: part.attrs, children: m.children, text: '' });
        });
    }
    const header = root.children.filter((c) => c.name !== 'part');
    return { name: 'score-timewise', attrs: root.attrs, children: [...header, ...measures], text: '' };
  }

  function serialize(el: XmlElement): string {
    const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    const attrs = Object.entries(el.attrs).map(([k, v]) => ` ${k}="${esc(v)}"`).join('');
    return `<${el.name}${attrs}>${esc(el.text)}${el.children.map(serialize).join('')}</${el.name}>`;
  }

  it('reads a timewise score to the same notes as its partwise equivalent', () => {
    const files = corpusFiles('lieder');
    for (const file of [files[0]!, files[500]!, files[1000]!]) {
      const partwise = parseXml(extractMxlScore(readBytes(file)));
      const fromPartwise = readMusicXml(serialize(partwise));
      const fromTimewise = readMusicXml(serialize(toTimewise(partwise)));
      expect(fromPartwise.parts.length).toBeGreaterThan(0);
      expect([...placedNotes(fromTimewise)].length).toBeGreaterThan(50);
      expect(fromTimewise).toEqual(fromPartwise);
    }
  });

  it('reads a small timewise score', () => {
    const timewise = `<score-timewise version="4.0">
      <part-list><score-part id="P1"><part-name>A</part-name></score-part><score-part id="P2"><part-name>B</part-name></score-part></part-list>
      <measure number="1">
        <part id="P1"><attributes><divisions>1</divisions></attributes>${note(`${c5}<duration>4</duration>`)}</part>
        <part id="P2"><attributes><divisions>2</divisions></attributes>${note('<pitch><step>E</step><octave>3</octave></pitch><duration>8</duration>')}</part>
      </measure>
      <measure number="2">
        <part id="P1">${note('<pitch><step>D</step><octave>5</octave></pitch><duration>4</duration>')}</part>
        <part id="P2">${note('<pitch><step>F</step><octave>3</octave></pitch><duration>8</duration>')}</part>
      </measure>
    </score-timewise>`;
    const partwise = `<score-partwise version="4.0">
      <part-list><score-part id="P1"><part-name>A</part-name></score-part><score-part id="P2"><part-name>B</part-name></score-part></part-list>
      <part id="P1">
        <measure number="1"><attributes><divisions>1</divisions></attributes>${note(`${c5}<duration>4</duration>`)}</measure>
        <measure number="2">${note('<pitch><step>D</step><octave>5</octave></pitch><duration>4</duration>')}</measure>
      </part>
      <part id="P2">
        <measure number="1"><attributes><divisions>2</divisions></attributes>${note('<pitch><step>E</step><octave>3</octave></pitch><duration>8</duration>')}</measure>
        <measure number="2">${note('<pitch><step>F</step><octave>3</octave></pitch><duration>8</duration>')}</measure>
      </part>
    </score-partwise>`;
    const notes = (xml: string) => [...placedNotes(readMusicXml(xml))].map((n) => `${n.part}:${n.pitch.step}${n.pitch.octave}@${n.onset.n}/${n.onset.d}`);
    expect(notes(timewise)).toEqual(['0:C5@0/1', '0:D5@4/1', '1:E3@0/1', '1:F3@4/1']);
    expect(readMusicXml(timewise)).toEqual(readMusicXml(partwise));
  });
});

describe('a real .mxl', () => {
  it('reads after its entries are rewritten in another order', () => {
    const entries = unzipSync(readBytes(realSong));
    const reversed = Object.fromEntries(Object.entries(entries).reverse());
    expect(readMusicXml(zipSync(reversed))).toEqual(readMusicXml(readBytes(realSong)));
  });
});
