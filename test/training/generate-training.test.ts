/** A focused training split changes how pages are engraved and degraded, never which music a sample draws. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPLIT, generateSample, trainingCorpusFiles, trainingHumdrumFiles, type TrainingLabels } from '../../training/data/generate-training.js';

const out = mkdtempSync(join(tmpdir(), 'scoresight-split-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function sample(name: string, split = DEFAULT_SPLIT): Promise<{ labels: TrainingLabels; musicXml: string }> {
  const dir = join(out, name);
  const files = { musicXml: trainingCorpusFiles(), humdrum: trainingHumdrumFiles() };
  mkdirSync(dir, { recursive: true });
  // Sample 3 of seed 1 is a short random score: quick to engrave.
  await generateSample(1, 3, files, dir, split);
  const base = join(dir, '000003-1');
  return { labels: JSON.parse(readFileSync(`${base}.json`, 'utf8')) as TrainingLabels, musicXml: readFileSync(`${base}.musicxml`, 'utf8') };
}

describe('generateSample with a focused split', () => {
  it('draws the same music, engraved within the split’s staff sizes and beam slope, in its conditions', async () => {
    const plain = await sample('plain');
    const focused = await sample('focused', { staffSpace: [5, 6], conditions: [0, 0, 1], beamMaxSlope: 20 });
    expect(focused.labels.source).toEqual(plain.labels.source);
    expect(focused.musicXml).toBe(plain.musicXml);
    expect(plain.labels.render.staffSpacePx).toBeGreaterThanOrEqual(8);
    expect(plain.labels.render.beamMaxSlope).toBeUndefined();
    expect(focused.labels.render.staffSpacePx).toBeGreaterThanOrEqual(5);
    expect(focused.labels.render.staffSpacePx).toBeLessThanOrEqual(6);
    expect(focused.labels.render.beamMaxSlope).toBe(20);
    expect(focused.labels.condition).toBe('photo');
  }, 120_000);
});
