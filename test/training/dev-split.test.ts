/** The dev set stays out of training, and the committed dev set is what the split says. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeMusicXml } from '../../src/exports/musicxml.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { DEV_CATEGORIES, DEV_DOCUMENTS, DEV_FILES, isDevPiece } from '../../training/data/dev-split.js';
import { excerpt } from '../../training/data/excerpt.js';
import { trainingCorpusFiles } from '../../training/data/generate-training.js';
import { CORPUS_DIR } from '../support/corpus.js';
import { noteContent } from '../support/note-content.js';

const DEV_SET = resolve(import.meta.dirname, '../../bench/dev-set');

interface Entry {
  id: string;
  category: string;
  pages: number;
  split?: string;
  files: { pdf: string; truth: string; scan: string[]; photo: string[] };
}

const manifest = JSON.parse(readFileSync(join(DEV_SET, 'manifest.json'), 'utf8')) as { documents: Entry[] };

describe('the dev split', () => {
  it('names existing corpus files, and training never sees them', () => {
    for (const f of DEV_FILES) expect(existsSync(join(CORPUS_DIR, f)), f).toBe(true);
    const training = trainingCorpusFiles();
    expect(training.length).toBeGreaterThan(1300);
    for (const f of training) expect(isDevPiece(f), f).toBe(false);
    for (const f of DEV_FILES) expect(training).not.toContain(f);
  });

  it('keeps every movement of a dev orchestral work out of training', () => {
    expect(isDevPiece('orchestral/Brahms,_Johannes__Symphony_No.3,_Op.90__4__Brahms_Op.90_4.mxl')).toBe(true);
    expect(isDevPiece('/abs/path/shared/corpus/orchestral/Brahms,_Johannes__Symphony_No.3,_Op.90__1__Brahms_Op.90_1.mxl')).toBe(true);
    expect(isDevPiece('orchestral/Brahms,_Johannes__Symphony_No.4,_Op.98__1__Brahms_Op.98_1.mxl')).toBe(false);
  });

  it('covers six categories with at least four documents each', () => {
    for (const c of DEV_CATEGORIES) expect(DEV_DOCUMENTS.filter((d) => d.category === c).length, c).toBeGreaterThanOrEqual(4);
    expect(new Set(DEV_DOCUMENTS.map((d) => d.engraver))).toEqual(new Set(['musescore', 'lilypond']));
  });
});

describe('the committed dev set', () => {
  it('holds every document of the split, clean, scanned and photographed, with ground truth', () => {
    expect(manifest.documents.filter((d) => d.split !== 'heldout').map((d) => d.id)).toEqual(DEV_DOCUMENTS.map((d) => d.id));
    expect(manifest.documents.filter((d) => d.split === 'heldout').length).toBeGreaterThan(0);
    for (const d of manifest.documents) {
      expect(d.pages).toBeGreaterThan(0);
      expect(d.files.scan.length).toBe(d.pages);
      expect(d.files.photo.length).toBe(d.pages);
      for (const f of [d.files.pdf, d.files.truth, ...d.files.scan, ...d.files.photo]) expect(existsSync(join(DEV_SET, f)), f).toBe(true);
      expect(readFileSync(join(DEV_SET, d.files.pdf)).subarray(0, 5).toString()).toBe('%PDF-');
    }
  });

  it('ground truth is exactly the excerpt of the corpus piece it names', () => {
    for (const doc of DEV_DOCUMENTS) {
      const entry = manifest.documents.find((d) => d.id === doc.id)!;
      const truth = readMusicXml(new Uint8Array(readFileSync(join(DEV_SET, entry.files.truth))));
      const expected = excerpt(readMusicXml(new Uint8Array(readFileSync(join(CORPUS_DIR, doc.source)))), doc);
      expect(noteContent(truth), doc.id).toEqual(noteContent(readMusicXml(writeMusicXml(expected))));
      expect(noteContent(truth).length).toBeGreaterThan(20);
    }
  });

  it('stays within 40 MB', () => {
    let bytes = 0;
    for (const d of manifest.documents) {
      for (const f of [d.files.pdf, d.files.truth, ...d.files.scan, ...d.files.photo]) bytes += statSync(join(DEV_SET, f)).size;
    }
    expect(bytes).toBeLessThan(40 * 1024 * 1024);
  });
});
