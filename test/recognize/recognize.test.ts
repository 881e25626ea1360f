/**
 * Recognition regression: committed pages through the whole engine with the
 * committed model, compared note for note with the score they were engraved
 * from. Any change that loses a note, a pitch or a duration fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { encodePng } from '../../src/image/png-encode.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { recognizeScore, type PageReport } from '../../src/recognize/recognize-score.js';
import { decodePng } from '../../src/input/png.js';
import { orientRaster } from '../../src/input/orientation.js';
import type { Score } from '../../src/score/model.js';
import { noteContent } from '../support/note-content.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/recognition');
const fixture = (name: string) => ({ filename: name, data: new Uint8Array(readFileSync(join(FIXTURES, name))) });
const truth = readMusicXml(fixture('melody.musicxml').data);

function signatures(score: Score) {
  const first = score.parts[0]!.measures[0]!;
  return { key: first.key?.fifths, time: first.time && [first.time.beats, first.time.beatType], clef: first.clefs.map((c) => `${c.sign}${c.line}`) };
}

describe('recognition of committed pages', () => {
  it.each(['melody.pdf', 'melody-300dpi.png'])('reads %s exactly: every pitch, duration and onset', { timeout: 60_000 }, async (name) => {
    const score = await recognizeScore([fixture(name)]);
    expect(score.parts).toHaveLength(1);
    expect(score.parts[0]!.measures).toHaveLength(8);
    expect(signatures(score)).toEqual({ key: 2, time: [4, 4], clef: ['G2'] });
    expect(noteContent(score)).toEqual(noteContent(truth));
    expect(score.parts[0]!.measures[7]!.rightBarline?.style).toBe('light-heavy');
  });

  it('gives every note and measure evidence: a box on the page it came from and a confidence', { timeout: 60_000 }, async () => {
    const pages: { width: number; height: number }[] = [];
    const score = await recognizeScore([fixture('melody-300dpi.png')], { onFirstPage: (r) => pages.push(r) });
    const { width, height } = pages[0]!;
    let notes = 0;
    for (const measure of score.parts[0]!.measures) {
      const mbox = measure.evidence!.box;
      // A measure of one staff: wider than tall, inside the page.
      expect(mbox.width).toBeGreaterThan(mbox.height);
      expect(mbox.x + mbox.width).toBeLessThanOrEqual(width);
      for (const voice of measure.voices) {
        for (const event of voice.events) {
          expect(event.evidence).toBeDefined();
          if (event.kind !== 'note') continue;
          for (const note of event.notes) {
            const { page, box, confidence } = note.evidence!;
            expect(page).toBe(0);
            expect(box.x).toBeGreaterThanOrEqual(0);
            expect(box.y).toBeGreaterThanOrEqual(0);
            expect(box.x + box.width).toBeLessThanOrEqual(width);
            expect(box.y + box.height).toBeLessThanOrEqual(height);
            // A notehead at 300 dpi is a few dozen pixels across, not a page region.
            expect(box.width).toBeGreaterThan(5);
            expect(box.width).toBeLessThan(80);
            expect(confidence).toBeGreaterThan(0.5);
            expect(confidence).toBeLessThanOrEqual(1);
            notes++;
          }
        }
      }
    }
    expect(notes).toBe(29);
  });

  it('refuses a page without music with NO_MUSIC_DETECTED', async () => {
    const blank = { width: 600, height: 800, channels: 4 as const, data: new Uint8Array(600 * 800 * 4).fill(255) };
    const error = await recognizeScore([{ filename: 'blank.png', data: encodePng(blank) }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OmrError);
    expect((error as OmrError).code).toBe('NO_MUSIC_DETECTED');
  });

  it('skips a page without music among pages of music, and says so', { timeout: 60_000 }, async () => {
    const blank = { width: 600, height: 800, channels: 4 as const, data: new Uint8Array(600 * 800 * 4).fill(255) };
    const reports: PageReport[] = [];
    const score = await recognizeScore([{ filename: 'title.png', data: encodePng(blank) }, fixture('melody-300dpi.png')], { onPage: (r) => reports.push(r) });
    expect(noteContent(score)).toEqual(noteContent(truth));
    expect(reports.map((r) => [r.page, r.skipped?.code])).toEqual([[0, 'NO_MUSIC_DETECTED'], [1, undefined]]);
    expect(reports[1]!.confidence).toBeGreaterThan(0.8);
  });

  it.each(['salt and pepper', 'gray'])('refuses a page of %s noise with NO_MUSIC_DETECTED instead of reading music into it', { timeout: 60_000 }, async (kind) => {
    // A seeded noise page the size of an A4 scan at 150 dpi: ink everywhere, lines nowhere.
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const [width, height] = [1240, 1754];
    const data = new Uint8Array(width * height).map(() => (kind === 'gray' ? Math.round(random() * 255) : random() < 0.5 ? 0 : 255));
    const reports: PageReport[] = [];
    const error = await recognizeScore([{ filename: 'noise.png', data: encodePng({ width, height, channels: 1, data }) }], { onPage: (r) => reports.push(r) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NO_MUSIC_DETECTED' });
    expect(reports.map((r) => [r.page, r.confidence, r.skipped?.code])).toEqual([[0, 0, 'NO_MUSIC_DETECTED']]);
  });

  it('refuses ruled lines with text between them: staves with no clef or note are not music', { timeout: 60_000 }, async () => {
    const error = await recognizeScore([fixture('ruled-form.png')]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NO_MUSIC_DETECTED', message: expect.stringMatching(/no clefs or notes/) });
  });

  it('reads a page that came upside down as if it came upright, and reports the turn', { timeout: 60_000 }, async () => {
    const upsideDown = orientRaster(decodePng(fixture('melody-300dpi.png').data), 3);
    const reports: PageReport[] = [];
    const score = await recognizeScore([{ filename: 'turned.png', data: encodePng(upsideDown) }], { onPage: (r) => reports.push(r) });
    expect(noteContent(score)).toEqual(noteContent(truth));
    expect(reports).toMatchObject([{ page: 0, turned: 180 }]);
  });
});
