/**
 * Reading uploads in the parse worker: the same scores and page counts as
 * the calling thread, errors with their codes, and a file past the heap cap
 * or the time budget ending only its worker, with `FILE_TOO_LARGE`.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { writeMidi } from '../../src/exports/midi.js';
import { writeMxl } from '../../src/exports/mxl.js';
import type { Score } from '../../src/score/model.js';
import { createParseWorker } from '../../src/workers/parse-pool.js';
import { createInProcessParser } from '../../src/workers/parse-service.js';
import { largeMusicXml } from '../support/large-score.js';
import { buildPdf } from '../support/pdf-build.js';
import { rejection } from '../support/rejection.js';

const melody = new Uint8Array(readFileSync(new URL('../fixtures/recognition/melody.musicxml', import.meta.url)));
const local = createInProcessParser();

describe('the parse worker', () => {
  const parser = createParseWorker();
  afterAll(() => parser.close());

  it('reads MusicXML, MXL and MIDI into the scores the calling thread reads, as their JSON text', async () => {
    const text = await local.readScore({ kind: 'musicxml', data: melody });
    const score = JSON.parse(text.json) as Score;
    expect(score.parts).toHaveLength(1);
    expect(text.title).toBe(score.credits.title ?? '');
    const mxl = writeMxl(score);
    const midi = writeMidi(score);
    const before = melody.slice();
    expect(await parser.readScore({ kind: 'musicxml', data: melody })).toEqual(text);
    expect(await parser.readScore({ kind: 'mxl', data: mxl })).toEqual(await local.readScore({ kind: 'mxl', data: mxl }));
    expect(await parser.readScore({ kind: 'midi', data: midi })).toEqual(await local.readScore({ kind: 'midi', data: midi }));
    // A title given replaces the file's.
    expect(JSON.parse((await parser.readScore({ kind: 'midi', data: midi }, { title: 'Given' })).json).credits.title).toBe('Given');
    // The worker got a copy: the caller's bytes are neither detached nor changed.
    expect(melody).toEqual(before);
  });

  it('counts a PDF’s pages; failures keep their codes', async () => {
    const pdf = buildPdf([{ width: 72, height: 72 }, { width: 144, height: 72 }, { width: 72, height: 144 }]);
    expect(await parser.countPages({ filename: 'three.pdf', data: pdf })).toBe(3);
    expect(await rejection(parser.countPages({ filename: 'broken.pdf', data: pdf.subarray(0, 40) }))).toMatchObject({ code: 'CORRUPTED_FILE' });
    expect(await rejection(parser.readScore({ kind: 'musicxml', data: new TextEncoder().encode('<opus/>') }))).toMatchObject({ code: 'INVALID_MUSICXML' });
  });
});

describe('a file past the parse worker’s bounds', () => {
  it('one that outgrows the heap cap ends the worker with FILE_TOO_LARGE; the next call gets a fresh worker', { timeout: 60_000 }, async () => {
    const parser = createParseWorker({ maxHeapMb: 24 });
    try {
      const error = await rejection(parser.readScore({ kind: 'musicxml', data: largeMusicXml(4e6) }));
      expect(error).toMatchObject({ code: 'FILE_TOO_LARGE', status: 413 });
      expect(error.message).toMatch(/more than the 24 MiB of memory/);
      expect(JSON.parse((await parser.readScore({ kind: 'musicxml', data: melody })).json).parts).toHaveLength(1);
    } finally {
      await parser.close();
    }
  });

  it('one that runs past the time budget ends the worker with FILE_TOO_LARGE; calls queued behind it still run', { timeout: 60_000 }, async () => {
    const parser = createParseWorker({ timeoutMs: 300 });
    try {
      const slow = parser.readScore({ kind: 'musicxml', data: largeMusicXml(8e6) });
      const next = parser.readScore({ kind: 'musicxml', data: melody });
      const error = await rejection(slow);
      expect(error).toMatchObject({ code: 'FILE_TOO_LARGE' });
      expect(error.message).toMatch(/longer than the 0.3 s/);
      expect(JSON.parse((await next).json).parts).toHaveLength(1);
    } finally {
      await parser.close();
    }
  });

  it('close() rejects the call running and those after it', async () => {
    const parser = createParseWorker();
    const running = rejection(parser.readScore({ kind: 'musicxml', data: melody }));
    await parser.close();
    expect(await running).toMatchObject({ code: 'INTERNAL_ERROR', status: 503 });
    expect(await rejection(parser.countPages({ filename: 'a.pdf', data: new Uint8Array(1) }))).toMatchObject({ status: 503 });
  });
});
