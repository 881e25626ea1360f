/**
 * The HTML accuracy report: an index worst first, a page per document with its
 * source images beside both engravings and the errors, all text escaped, and a
 * score Verovio cannot engrave shown as an error rather than thrown.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHtmlReport, type ReportDocument } from '../../bench/evaluate/html-report.js';
import { encodePng } from '../../src/image/png-encode.js';
import { decodePng } from '../../src/input/png.js';

const MELODY_PDF = resolve(import.meta.dirname, '../fixtures/recognition/melody.pdf');

function musicXml(step: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<score-partwise version="4.0">
  <part-list><score-part id="P1"><part-name>Voice</part-name></score-part></part-list>
  <part id="P1">
    <measure number="1">
      <attributes><divisions>1</divisions><key><fifths>0</fifths></key><time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes>
      <note><pitch><step>${step}</step><octave>4</octave></pitch><duration>4</duration><type>whole</type></note>
    </measure>
  </part>
</score-partwise>`;
}

function gray(width: number, height: number): Uint8Array {
  return encodePng({ width, height, channels: 1, data: new Uint8Array(width * height).fill(200) });
}

describe('writeHtmlReport', () => {
  let dir: string;
  let out: string;
  let index: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'html-report-'));
    out = join(dir, 'report');
    await writeFile(join(dir, 'small.png'), gray(40, 20));
    await writeFile(join(dir, 'wide.png'), gray(1800, 30));
    const base = { set: 'tuned', category: 'monophonic', engraver: 'musescore', truthXml: musicXml('C') } as const;
    const documents: ReportDocument[] = [
      {
        ...base,
        id: 'good',
        condition: 'scan',
        sources: [join(dir, 'small.png'), join(dir, 'wide.png')],
        predictedXml: musicXml('D'),
        errorRate: 0.1,
        noteF1: 0.9,
        errors: [{ part: 0, measure: 0, number: '1', edits: ['staff 1: expected C4 whole, read <D4> whole & more'] }],
      },
      {
        ...base,
        id: 'broken',
        condition: 'photo',
        sources: [join(dir, 'missing.jpg')],
        predictedXml: 'this is not MusicXML',
        errorRate: 0.75,
        noteF1: 0.2,
        errors: [],
      },
      { ...base, id: 'clean<pdf>', condition: 'clean', sources: [MELODY_PDF], predictedXml: musicXml('C'), errorRate: 0, noteF1: 1, errors: [] },
    ];
    index = await writeHtmlReport(documents, 'category  F1\nall  <0.5>', out);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lists the documents worst first, each linked to its page, under the escaped summary', async () => {
    expect(index).toBe(join(out, 'index.html'));
    const html = await readFile(index, 'utf8');
    expect(html).toContain('all  &#60;0.5&#62;');
    const order = ['broken-photo', 'good-scan', 'clean_pdf_-clean'].map((folder) => html.indexOf(`href="${folder}/index.html"`));
    expect(order.every((at) => at > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(html).toContain('75.0%');
    expect(html).toContain('clean&#60;pdf&#62;');
    for (const folder of ['broken-photo', 'good-scan', 'clean_pdf_-clean']) expect(existsSync(join(out, folder, 'index.html'))).toBe(true);
  });

  it('shows the source images, both engravings and the escaped errors', async () => {
    const html = await readFile(join(out, 'good-scan', 'index.html'), 'utf8');
    expect(html.match(/<svg class="engraving"/g)).toHaveLength(2);
    expect(html).toContain('read &#60;D4&#62; whole &#38; more');
    expect(html).not.toContain('<D4>');
    // A narrow image is copied; a wide one is scaled to 1200 px.
    expect(html).toContain('src="source-1.png"');
    expect(html).toContain('src="source-2.png"');
    expect(existsSync(join(out, 'good-scan', 'source-1.png'))).toBe(true);
    const wide = decodePng(await readFile(join(out, 'good-scan', 'source-2.png')));
    expect(wide.width).toBe(1200);
  });

  it('shows an error instead of an engraving that fails, and a source that cannot be read', async () => {
    const html = await readFile(join(out, 'broken-photo', 'index.html'), 'utf8');
    expect(html.match(/<svg class="engraving"/g)).toHaveLength(1);
    expect(html).toMatch(/<div class="error">Verovio engraved no measure: [^<]*\S/);
    expect(html).toMatch(/<div class="error">[^<]*missing\.jpg/);
  });

  it('rasterises a PDF source to PNG pages', async () => {
    const html = await readFile(join(out, 'clean_pdf_-clean', 'index.html'), 'utf8');
    expect(html).toContain('src="source-p1.png"');
    const page = decodePng(await readFile(join(out, 'clean_pdf_-clean', 'source-p1.png')));
    expect(page.width).toBeLessThanOrEqual(1200);
    expect(page.width).toBeGreaterThan(500);
  });
});
