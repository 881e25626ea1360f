/**
 * The text stage's reading of a page: each line cropped to its own glyphs,
 * wide gaps closed up so the reader spends no time on paper, positions
 * mapped back to the page, and every line sent to the OCR worker at once.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { decodePages } from '../../src/input/decode-pages.js';
import { CANONICAL_STAFF_SPACE, preparePage } from '../../src/preparation/prepare-page.js';
import { RECOGNITION_PDF_DPI } from '../../src/recognize/recognize-score.js';
import { detectStaves } from '../../src/staves/detect-staves.js';
import { groupSystems } from '../../src/staves/systems.js';
import { segmentSymbols } from '../../src/symbols/segment.js';
import type { OcrReader, OcrWord } from '../../src/text/ocr.js';
import { cropLine, readEarlyText, readPageText } from '../../src/text/page-text.js';
import type { TextLine, TextRegions } from '../../src/text/text-regions.js';

/** A 400 × 40 page with three ink blocks 10 px tall (labels 1–3) on a row, and a foreign speck (label 4) between the first two. */
function page() {
  const width = 400;
  const height = 40;
  const gray = { width, height, data: new Uint8Array(width * height).fill(250) };
  const labels = new Int32Array(width * height);
  const paint = (x0: number, x1: number, label: number) => {
    for (let y = 15; y < 25; y++) for (let x = x0; x < x1; x++) [gray.data[y * width + x], labels[y * width + x]] = [20, label];
  };
  paint(20, 40, 1);
  paint(48, 60, 2); // 8 px after the first: a letter's gap, kept
  paint(300, 330, 3); // 240 px after the second: closed up
  paint(150, 155, 4);
  const line: TextLine = { kind: 'lyrics', x0: 20, y0: 15, x1: 330, y1: 25, size: 10, glyphs: [1, 2, 3], spans: [[20, 40], [48, 60], [300, 330]] };
  const regions: TextRegions = { lines: [line], labels, width };
  return { gray, regions, line };
}

describe('cropLine', () => {
  it('closes up gaps wider than a letter height, keeps narrower ones, and maps crop columns back to the page', () => {
    const { gray, regions, line } = page();
    const crop = cropLine(gray, regions, line);
    // Letters 10 px tall are enlarged to 16: scale 1.6. Padding 4 on each side; the 240 px gap becomes 10.
    expect(crop.scale).toBeCloseTo(1.6);
    expect(crop.image.width).toBe(Math.round((4 + 20 + 8 + 12 + 10 + 30 + 4) * 1.6));
    // The first crop column at or right of a page column.
    const column = (pageX: number) => {
      let x = 0;
      while (x < crop.image.width && crop.toPage(x) < pageX) x++;
      return x;
    };
    // The blocks' left edges map back within a page pixel of where they are, with ink right there in the crop.
    for (const x of [20, 48, 300]) {
      const c = column(x);
      expect(crop.toPage(c) - x, `page x ${x}`).toBeLessThan(1);
      expect(crop.image.data[Math.round((20 - crop.y) * crop.scale) * crop.image.width + c + 1], `ink right of page x ${x}`).toBeLessThan(100);
    }
    expect(crop.toPage(crop.image.width)).toBeCloseTo(334, 0);
    // The foreign speck lay in the closed gap: no crop column shows it.
    expect(crop.toPage(column(150))).toBeGreaterThan(250);
  });

  it('keeps a line without wide gaps whole', () => {
    const { gray, regions } = page();
    const line: TextLine = { kind: 'title', x0: 20, y0: 15, x1: 60, y1: 25, size: 10, glyphs: [1, 2], spans: [[20, 40], [48, 60]] };
    const crop = cropLine(gray, regions, line);
    expect(crop.image.width).toBe(Math.round(48 * 1.6));
    expect(crop.toPage(0)).toBe(16);
    expect(crop.toPage(16)).toBeCloseTo(26);
  });
});

describe('readPageText', () => {
  /** The committed text-set page (title, credits, two part names, two verses under the voice) up to its class map. */
  async function abendlied() {
    const pdf = new URL('../../bench/text-set/text-abendlied/score.pdf', import.meta.url);
    for await (const { raster } of decodePages([{ filename: 'score.pdf', data: new Uint8Array(readFileSync(pdf)) }], { dpi: RECOGNITION_PDF_DPI })) {
      const prepared = preparePage(raster);
      const staves = detectStaves(prepared.ink, { staffSpace: CANONICAL_STAFF_SPACE });
      const found = { gray: prepared.gray, ink: prepared.ink, staves, systems: groupSystems(staves, prepared.ink), space: CANONICAL_STAFF_SPACE, page: 0, transform: prepared.transform };
      return { found, map: await segmentSymbols(prepared.gray, staves) };
    }
    throw new Error('no page');
  }

  /** A reader that answers only when told, recording what it was asked. */
  function patientReader() {
    const asked: { width: number; answer: (words: OcrWord[]) => void }[] = [];
    const reader: OcrReader = {
      languages: ['eng'],
      fallbacks: [],
      readLine: (image) => new Promise((answer) => asked.push({ width: image.width, answer })),
      close: async () => {},
    };
    // Each line answers one word spanning its crop.
    const answerAll = () => asked.forEach(({ width, answer }) => answer([{ text: 'word', confidence: 90, x0: 0, y0: 0, x1: width, y1: 10, symbols: [] }]));
    return { asked, reader, answerAll };
  }

  it('sends every line to the reader before the first is answered, and places the words on the page', async () => {
    const { found, map } = await abendlied();
    const { asked, reader, answerAll } = patientReader();
    const reading = readPageText({ ...found, map }, reader);
    // Title, composer, lyricist, two part names and two verses under each of the voice's systems; the lines by the
    // staves go once the pedal model has read them, still before the reader has answered any.
    await vi.waitFor(() => expect(asked.length).toBeGreaterThanOrEqual(9));
    answerAll();
    const read = await reading;
    expect(read.lines).toHaveLength(asked.length);
    // A word spanning its crop lands on its line's box, padding included.
    for (const line of read.lines) {
      const [word] = line.words;
      const pad = Math.max(3, Math.round(line.size * 0.4));
      expect(line.x0 - word!.x0).toBeCloseTo(Math.min(pad, line.x0), 0);
      expect(word!.x1 - line.x1).toBeCloseTo(pad, 0);
    }
  }, 60_000);

  it('reads the title block and part names before segmentation, and does not read them again', async () => {
    const { found, map } = await abendlied();
    const { asked, reader, answerAll } = patientReader();
    const early = readEarlyText(found, reader);
    // Title, composer, lyricist and the two part names; no lyrics, which need the class map.
    expect(early.words.size).toBe(5);
    expect(asked).toHaveLength(5);
    const reading = readPageText({ ...found, map }, reader, early);
    // Then only what the class map finds: lyrics, and the words and dynamics among the staves.
    await vi.waitFor(() => expect(asked.length - 5).toBeGreaterThanOrEqual(4));
    const later = asked.length - 5;
    answerAll();
    const read = await reading;
    const earlyKinds = new Set(['title', 'subtitle', 'composer', 'lyricist', 'partName', 'abbreviation']);
    expect(read.lines.filter((l) => earlyKinds.has(l.kind))).toHaveLength(5);
    expect(read.lines.filter((l) => !earlyKinds.has(l.kind))).toHaveLength(later);
    expect(read.lines.filter((l) => l.kind === 'lyrics').length).toBeGreaterThanOrEqual(4);
  }, 60_000);

  it("takes a title that reads as a movement's number and name for the heading of the system under it", async () => {
    const { found, map } = await abendlied();
    const reader: OcrReader = {
      languages: ['eng'],
      fallbacks: [],
      readLine: async (image) => [{ text: 'II.', confidence: 90, x0: 0, y0: 0, x1: image.width / 4, y1: 10, symbols: [] }, { text: 'Menuetto', confidence: 90, x0: image.width / 3, y0: 0, x1: image.width, y1: 10, symbols: [] }],
      close: async () => {},
    };
    const read = await readPageText({ ...found, map }, reader);
    expect(read.lines.filter((l) => l.kind === 'title')).toHaveLength(0);
    const headings = read.lines.filter((l) => l.kind === 'heading');
    expect(headings.length).toBeGreaterThanOrEqual(1);
    expect(headings.every((l) => l.staff !== undefined && l.text === 'II. Menuetto')).toBe(true);
    // Part names and lyrics are no heading, whatever they read.
    expect(read.lines.filter((l) => l.kind === 'partName')).toHaveLength(2);
  }, 60_000);

  it('takes a row placed as lyrics that reads as abbreviated performance words for expression words', async () => {
    const { found, map } = await abendlied();
    const reader: OcrReader = {
      languages: ['eng'],
      fallbacks: [],
      readLine: async (image) => [{ text: 'cresc.', confidence: 90, x0: 0, y0: 0, x1: image.width / 3, y1: 10, symbols: [] }, { text: 'dim.', confidence: 90, x0: image.width / 2, y0: 0, x1: image.width, y1: 10, symbols: [] }],
      close: async () => {},
    };
    const read = await readPageText({ ...found, map }, reader);
    expect(read.lines.filter((l) => l.kind === 'lyrics')).toHaveLength(0);
    const words = read.lines.filter((l) => l.kind === 'expression');
    expect(words.length).toBeGreaterThanOrEqual(4);
    expect(words.every((l) => l.verse === undefined)).toBe(true);
  }, 60_000);

  it('takes no row for lyrics whose words the reader is unsure of (bowing marks and accents read as letters)', async () => {
    const { found, map } = await abendlied();
    const readerAt = (confidence: number): OcrReader => ({
      languages: ['eng'],
      fallbacks: [],
      readLine: async (image) => [{ text: 'mAmAmAAn', confidence, x0: 0, y0: 0, x1: image.width / 3, y1: 10, symbols: [] }, { text: 'RPre', confidence, x0: image.width / 2, y0: 0, x1: image.width, y1: 10, symbols: [] }],
      close: async () => {},
    });
    const lyrics = async (confidence: number) => (await readPageText({ ...found, map }, readerAt(confidence))).lines.filter((l) => l.kind === 'lyrics');
    expect((await lyrics(90)).length).toBeGreaterThanOrEqual(4);
    expect(await lyrics(20)).toHaveLength(0);
  }, 60_000);
});
