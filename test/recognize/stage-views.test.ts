/**
 * `scoresight recognize --debug <dir>`: a picture and a JSON summary of each
 * recognition stage per page, agreeing with what was recognised; and the
 * drawing surface they are drawn on.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RecognizeSummary } from '../../src/cli/recognize-command.js';
import { Drawing, textWidth } from '../../src/image/draw.js';
import { decodePng } from '../../src/input/png.js';
import { STAGE_VIEWS } from '../../src/recognize/stage-views.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/recognition');
const dir = mkdtempSync(join(tmpdir(), 'scoresight-stage-views-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scoresight recognize --debug', () => {
  it('writes a picture and a summary of every stage of the page, agreeing with the score read', { timeout: 120_000 }, async () => {
    let stdout = '';
    let stderr = '';
    const debug = join(dir, 'debug');
    const code = await main(['recognize', join(FIXTURES, 'melody-300dpi.png'), '--out', dir, '--no-text', '--json', '--debug', debug], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
    });
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(stdout) as RecognizeSummary;
    expect(summary.outputs).toContainEqual({ format: 'debug', path: debug });

    const names = STAGE_VIEWS.map((v, k) => `${k + 1}-${v.name}`);
    expect(readdirSync(join(debug, 'page-1')).sort()).toEqual(names.flatMap((n) => [`${n}.json`, `${n}.png`]).sort());
    const read = (name: string) => JSON.parse(readFileSync(join(debug, 'page-1', `${name}.json`), 'utf8')) as Record<string, any>;
    const pictures = names.map((n) => decodePng(new Uint8Array(readFileSync(join(debug, 'page-1', `${n}.png`)))));
    // Every picture is the prepared page, in colour, each one showing something different.
    for (const p of pictures) expect([p.width, p.height, p.channels]).toEqual([pictures[0]!.width, pictures[0]!.height, 3]);
    expect(new Set(pictures.map((p) => Buffer.from(p.data).toString('base64'))).size).toBe(pictures.length);

    expect(read('1-staves')).toMatchObject({ page: 1, turnedDegrees: 0, staves: 1, systems: [{ staves: [1] }] });
    expect(read('2-class-map').classes.noteheadBlack.pixels).toBeGreaterThan(0);
    expect(read('3-symbols').counts.heads).toBeGreaterThanOrEqual(summary.notes);
    expect(read('4-measures').systems).toEqual([expect.objectContaining({ system: 1, measures: summary.measures })]);
    const perVoice = read('5-voices').eventsPerVoice as Record<string, number>;
    const notes = read('6-notes').measures as Record<string, string[]>;
    expect(Object.values(perVoice).reduce((a, b) => a + b, 0)).toBe(Object.values(notes).flat().length);
    expect(Object.values(notes).flat().filter((e) => !e.startsWith('rest')).length).toBe(summary.notes);
    expect(Object.keys(notes)).toHaveLength(summary.measures);
  });

  it('is an option of recognize only', async () => {
    let stderr = '';
    const code = await main(['convert', join(FIXTURES, 'melody.musicxml'), '--out', dir, '--debug', dir], { stdout: () => {}, stderr: (t) => (stderr += t) });
    expect(code).toBe(2);
    expect(stderr).toMatch(/--debug is an option of recognize/);
  });
});

describe('Drawing', () => {
  const page = { width: 40, height: 20, data: new Uint8Array(40 * 20).fill(255) };

  it('fades the page and draws boxes outside, lines and text in colour', () => {
    const d = new Drawing({ ...page, data: new Uint8Array(40 * 20).fill(0) });
    // Black ink shows faded to gray.
    expect(d.data[0]).toBeGreaterThan(100);
    expect(d.data[0]).toBeLessThan(255);
    const white = new Drawing(page);
    white.box(10, 5, 12, 7, [255, 0, 0]);
    const at = (x: number, y: number) => [...white.data.slice((y * 40 + x) * 3, (y * 40 + x) * 3 + 3)];
    expect(at(9, 4)).toEqual([255, 0, 0]);
    expect(at(11, 6)).toEqual([255, 255, 255]);
    white.text(20, 2, 'b', [0, 0, 255], 1);
    // The flat's stem: the left column of the glyph, all five rows.
    for (let y = 2; y < 7; y++) expect(at(20, y)).toEqual([0, 0, 255]);
    expect(textWidth('C#5', 2)).toBe(22);
  });

  it('clips what falls outside the page instead of wrapping into the next row', () => {
    const d = new Drawing(page);
    const at = (x: number, y: number) => [...d.data.slice((y * 40 + x) * 3, (y * 40 + x) * 3 + 3)];
    // A line from beyond the left edge: its point at x = -1 would land on the row above's last pixel.
    d.line(-10, 5, 10, 5, [0, 0, 0]);
    d.fill(30, 15, 80, 80, [0, 0, 0]);
    expect(at(0, 5)).toEqual([0, 0, 0]);
    expect(at(39, 4)).toEqual([255, 255, 255]);
    // The fill stops at the right edge: row 16 starts white.
    expect(at(0, 16)).toEqual([255, 255, 255]);
    expect(at(39, 16)).toEqual([0, 0, 0]);
    expect(d.data.length).toBe(40 * 20 * 3);
  });
});
