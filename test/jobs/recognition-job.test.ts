/**
 * A real job through the public interface: the committed page recognised
 * by the committed models in a worker thread, followed by long-poll, read
 * back through every export — the same notes the engine reads directly.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { waitForJob } from '../../src/jobs/follow.js';
import { createClient } from '../../src/jobs/local-client.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { createRecognitionPool } from '../../src/workers/worker-pool.js';
import { noteContent } from '../support/note-content.js';
import { rejection } from '../support/rejection.js';

const pdf = readFileSync('test/fixtures/recognition/melody.pdf');
const truth = readMusicXml(readFileSync('test/fixtures/recognition/melody.musicxml'));
const pool = createRecognitionPool({ size: 1 });
const client = createClient({ store: createMemoryStore(), pool, sweepIntervalMs: 0 });

afterAll(async () => {
  await client.close();
  await pool.close();
});

describe('a recognition job in a worker', () => {
  it('reads the committed PDF exactly, with progress per page, a details step and every export', { timeout: 120_000 }, async () => {
    const job = await client.createJob({ output: 'musicxml', interactiveSteps: ['details'], files: [{ file: pdf.toString('base64'), filename: 'melody.pdf' }], autoStart: true });
    expect(job.estimatedCredits).toBe(1);
    const keys = new Set<string>();
    const paused = await waitForJob(client, job.id, { onUpdate: (j) => j.progress && keys.add(j.progress.key) });
    expect(paused.status).toBe('awaitingInput');
    expect([...keys]).toEqual(expect.arrayContaining(['OMR_DETECTING_STAVES', 'OMR_READING_NOTES']));
    const { instruments } = paused.pendingStep!.data;
    expect(instruments).toHaveLength(1);
    expect(instruments[0]!.resolvedConfidence).not.toBe('high'); // no printed name was read
    await client.submitJobStep(job.id, 'details', { step: 'details', title: 'Melody', instruments: [{ index: 0, instrumentId: 'wind.flute' }] });
    const done = await waitForJob(client, job.id);
    expect(done.status).toBe('done');

    const xml = await client.exportJob(job.id, 'musicxml');
    expect(xml.filename).toBe('Melody.musicxml');
    const score = readMusicXml(xml.data);
    expect(noteContent(score)).toEqual(noteContent(truth));
    expect(score.parts[0]!.instrumentId).toBe('wind.flute');
    expect(new TextDecoder().decode(xml.data)).toMatch(/symbols-\d+\+digits-\d+/);
    const mxl = await client.exportJob(job.id, 'mxl');
    expect(noteContent(readMusicXml(new Uint8Array(await extract(mxl.data))))).toEqual(noteContent(truth));
    expect((await client.exportJob(job.id, 'midi')).data.length).toBeGreaterThan(50);
    const thumbnail = await client.exportJob(job.id, 'thumbnail.png');
    expect([...thumbnail.data.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
    const page = await client.getJobFile(job.id, 0);
    expect(page).toMatchObject({ contentType: 'image/png', filename: 'melody.png' });
  });

  it('a corrupt or encrypted PDF is refused as it is sent, with CORRUPTED_FILE or ENCRYPTED_PDF, before a job is made', async () => {
    const broken = new Uint8Array(pdf.subarray(0, 600));
    expect(await rejection(client.createJob({ output: 'musicxml', files: [{ file: broken, filename: 'broken.pdf' }], autoStart: true }))).toMatchObject({ code: 'CORRUPTED_FILE' });
    const encrypted = readFileSync('test/fixtures/input/encrypted-aes256.pdf');
    expect(await rejection(client.createJob({ output: 'musicxml', files: [{ file: encrypted, filename: 'locked.pdf' }], autoStart: true }))).toMatchObject({ code: 'ENCRYPTED_PDF' });
  });
});

async function extract(mxl: Uint8Array): Promise<Uint8Array> {
  const { extractMxlScore } = await import('../../src/import/mxl-container.js');
  return extractMxlScore(mxl);
}
