/** Quartet pages: a MuseScore 4 PDF cut into pages with exactly their truth, and the split of the quartets by work. */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeMusicXml } from '../../src/exports/musicxml.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import type { Score } from '../../src/score/model.js';
import { isDevPiece } from '../../training/data/dev-split.js';
import { excerpt } from '../../training/data/excerpt.js';
import { cutPages, mapSystems, pageRanges, quartetFiles, readQuartet, type QuartetMovement } from '../../training/data/quartet-pages.js';
import { isHeldOutQuartet, QUARTET_SPLIT, quartetWorkOf, quartetWorks } from '../../training/data/quartet-split.js';
import { CORPUS_DIR } from '../support/corpus.js';
import { noteContent } from '../support/note-content.js';

const DEV_SET = resolve(import.meta.dirname, '../../bench/dev-set');
/** Six pages; it opens with a pickup, has a repeat's uncounted `X1` measure and a second movement. */
const WORK = 'quartets/Saint-Georges,_Joseph_Bologne/String_Quartet_in_C_major,_Op.1_No.1';
const MOVEMENT = `${WORK}/sq8437358`;

/** Note heads in measures [from, to) of every part. */
function notesIn(score: Score, from: number, to: number): number {
  let n = 0;
  for (const part of score.parts) {
    for (const m of part.measures.slice(from, to)) for (const v of m.voices) for (const e of v.events) if (e.kind === 'note') n += e.notes.length;
  }
  return n;
}

describe('quartet pages', () => {
  let movement: QuartetMovement;
  const read = async () => (movement ??= await readQuartet(join(CORPUS_DIR, `${MOVEMENT}.pdf`), join(CORPUS_DIR, `${MOVEMENT}.mxl`)));

  it('finds every page of music, with contiguous measure ranges covering the movement', async () => {
    const { pages, score, layout } = await read();
    const count = score.parts[0]!.measures.length;
    expect(layout.pageCount).toBe(6);
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pages[0]!.measures[0]).toBe(0);
    expect(pages.at(-1)!.measures[1]).toBe(count);
    for (let i = 0; i < pages.length; i++) {
      expect(pages[i]!.measures[1]).toBeGreaterThan(pages[i]!.measures[0]);
      if (i > 0) expect(pages[i]!.measures[0]).toBe(pages[i - 1]!.measures[1]);
    }
    // Printed numbers mark the systems: every numbered system starts at the measure with that number.
    const { starts } = mapSystems(layout, score);
    layout.systems.forEach((s, k) => {
      if (s.number !== undefined) expect(score.parts[0]!.measures[starts[k]!]!.number).toBe(s.number);
    });
    // The PDF alone gives the same pages as with the truth's recorded layout to help.
    expect(pageRanges(layout, score, { useTruthLayout: false })).toEqual(pages);
  });

  it("cuts page 2's truth: every part, the same notes as those measures of the whole truth", async () => {
    const m = await read();
    const page2 = m.pages.find((p) => p.page === 2)!;
    const { measures, truth } = cutPages(m, 2);
    expect(measures).toEqual(page2.measures);
    expect(truth.parts.length).toBe(4);
    for (const part of truth.parts) expect(part.measures.length).toBe(measures[1] - measures[0]);
    const expected = notesIn(m.score, ...measures);
    expect(expected).toBeGreaterThan(50);
    expect(notesIn(truth, 0, truth.parts[0]!.measures.length)).toBe(expected);
    // The title block is printed on the first page only.
    expect(cutPages(m, 1).truth.credits.title).toBe(m.score.credits.title);
    expect(truth.credits.title).toBeUndefined();
  });
});

describe('the quartet split', () => {
  const files = quartetFiles(CORPUS_DIR);

  it('lists every work of the corpus, about 80 % held out, and is stable', () => {
    expect(new Set(files.map((f) => f.work))).toEqual(new Set(quartetWorks()));
    expect(quartetWorks().length).toBe(92);
    expect(quartetWorks('heldout').length).toMatchInlineSnapshot(`73`);
    expect(quartetWorks('train').length).toMatchInlineSnapshot(`19`);
  });

  it('puts every movement of a work on the same side, and training never sees the held-out ones', () => {
    const side = new Map<string, boolean>();
    for (const f of files) {
      for (const path of [f.mxl, f.pdf, join(CORPUS_DIR, f.mxl)]) {
        const held = isHeldOutQuartet(path);
        expect(held, path).toBe(QUARTET_SPLIT[f.work] === 'heldout');
        expect(isDevPiece(path), path).toBe(held);
        expect(side.get(f.work) ?? held, path).toBe(held);
        side.set(f.work, held);
      }
    }
    expect(quartetWorkOf(`${MOVEMENT}.mxl`)).toBe(WORK.slice('quartets/'.length));
    // A work the corpus gains later is held out until someone decides.
    expect(isHeldOutQuartet('quartets/Nobody,_Somebody/String_Quartet_No.99/sq1.mxl')).toBe(true);
    expect(isHeldOutQuartet('lieder/Schubert,_Franz__Die_schone_Mullerin,_D.795__8_Morgengru__lc5025982.mxl')).toBe(false);
  });
});

describe('the committed quartet pages', () => {
  interface Entry {
    id: string;
    engraver: string;
    split: string;
    source: string;
    sourcePages?: [number, number];
    measures: [number, number];
    pages: number;
    files: { pdf: string; truth: string; scan: string[]; photo: string[] };
  }
  const documents = (JSON.parse(readFileSync(join(DEV_SET, 'manifest.json'), 'utf8')) as { documents: Entry[] }).documents;

  it('are three held-out single pages whose truth is exactly their measures of the source', () => {
    const quartets = documents.filter((d) => d.engraver === 'musescore4');
    expect(quartets.length).toBe(3);
    for (const d of quartets) {
      expect(d.split).toBe('heldout');
      expect(isHeldOutQuartet(d.source), d.source).toBe(true);
      expect(d.pages).toBe(1);
      expect(d.sourcePages![1]).toBe(d.sourcePages![0]);
      for (const f of [d.files.pdf, d.files.truth, ...d.files.scan, ...d.files.photo]) expect(existsSync(join(DEV_SET, f)), f).toBe(true);
      const truth = readMusicXml(new Uint8Array(readFileSync(join(DEV_SET, d.files.truth))));
      const source = readMusicXml(new Uint8Array(readFileSync(join(CORPUS_DIR, d.source))));
      expect(noteContent(truth), d.id).toEqual(noteContent(readMusicXml(writeMusicXml(excerpt(source, { measures: d.measures })))));
    }
    // Everything else in the committed set is the engraved, tuned documents.
    for (const d of documents.filter((e) => e.engraver !== 'musescore4')) expect(d.split, d.id).toBe('tuned');
  });
});
