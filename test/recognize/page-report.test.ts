/** The sentences a job's result and the command line give about its pages. */
import { describe, expect, it } from 'vitest';
import { pageWarnings } from '../../src/recognize/page-report.js';

describe('pageWarnings', () => {
  it('says nothing of pages read upright at an ordinary size', () => {
    expect(pageWarnings([{ page: 0, turned: 0, confidence: 0.9 }])).toEqual([]);
  });

  it('names a page whose staves are too small to read well, with their staff space, and what reads better', () => {
    const [warning, ...rest] = pageWarnings([{ page: 1, turned: 0, confidence: 0.4, tinyStaffSpace: 3.34 }]);
    expect(rest).toEqual([]);
    expect(warning).toContain('Page 2 ');
    expect(warning).toContain('3.3 pixels apart');
    expect(warning).toContain('closer');
  });

  it('gives a turned page of small staves both sentences, and a skipped page only why it was skipped', () => {
    expect(pageWarnings([{ page: 0, turned: 90, confidence: 0.5, tinyStaffSpace: 4 }])).toHaveLength(2);
    expect(pageWarnings([{ page: 2, turned: 0, confidence: 0, skipped: { code: 'NO_MUSIC_DETECTED', message: 'No staves.' } }])).toEqual(['Page 3 was skipped: No staves.']);
  });

  it('names a page whose text could not be read, saying its music was', () => {
    expect(pageWarnings([{ page: 3, turned: 0, confidence: 0.9, textUnread: true }])).toEqual([
      'The text of page 4 (title, part names, words, dynamics, lyrics) could not be read; its music was.',
    ]);
  });
});
