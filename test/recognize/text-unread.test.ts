/**
 * A page whose text stage fails keeps its music, and its report says its text was lost: text is an
 * extra that never fails a job, but the loss is not silent.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { recognizeScore, type PageReport } from '../../src/recognize/recognize-score.js';
import { pageWarnings } from '../../src/recognize/page-report.js';

vi.mock('../../src/text/page-text.js', async (original) => ({
  ...(await original<typeof import('../../src/text/page-text.js')>()),
  readPageText: () => Promise.reject(new TypeError('a bug in the text stage')),
}));

const FIXTURES = join(import.meta.dirname, '../fixtures/recognition');
const melody = () => ({ filename: 'melody.png', data: new Uint8Array(readFileSync(join(FIXTURES, 'melody-300dpi.png'))) });

describe('a page whose text cannot be read', () => {
  it('keeps its music, and its report and warnings say its text was not read', { timeout: 90_000 }, async () => {
    const reports: PageReport[] = [];
    const score = await recognizeScore([melody(), melody()], { onPage: (r) => reports.push(r) });
    expect(score.parts[0]!.measures.length).toBeGreaterThan(10);
    expect(reports.map((r) => [r.page, r.textUnread])).toEqual([
      [0, true],
      [1, true],
    ]);
    expect(pageWarnings(reports)).toEqual([
      'The text of page 1 (title, part names, words, dynamics, lyrics) could not be read; its music was.',
      'The text of page 2 (title, part names, words, dynamics, lyrics) could not be read; its music was.',
    ]);
  });

  it('is not reported where no text was asked for', { timeout: 90_000 }, async () => {
    const reports: PageReport[] = [];
    await recognizeScore([melody()], { readText: false, onPage: (r) => reports.push(r) });
    expect(reports.map((r) => r.textUnread)).toEqual([undefined]);
  });
});
