/** The reader must accept every real score of the lieder and orchestral corpora. */
import { describe, expect, it } from 'vitest';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { placedNotes } from '../../src/score/timeline.js';
import { corpusFiles, readBytes } from '../support/corpus.js';
import { yieldToRunner } from '../support/yield-to-runner.js';

describe.each(['lieder', 'orchestral'] as const)('reading every %s score', (folder) => {
  it('reads without error and finds notes in every part', { timeout: 600_000 }, async () => {
    const files = corpusFiles(folder);
    expect(files.length).toBeGreaterThan(folder === 'lieder' ? 1000 : 50);
    const failures: string[] = [];
    let notes = 0;
    for (const file of files) {
      await yieldToRunner();
      try {
        const score = readMusicXml(readBytes(file));
        if (!score.parts.length || !score.parts[0]!.measures.length) failures.push(`${file}: empty score`);
        for (const _ of placedNotes(score)) notes++;
      } catch (err) {
        failures.push(`${file}: ${(err as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
    expect(notes).toBeGreaterThan(files.length * 50);
  });
});
