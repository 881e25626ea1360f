/**
 * The mark model (models/marks.onnx) on cells cut from engraved pages that
 * were not among its training pages (test/fixtures/marks: one cell per mark
 * kind, then other ink), through the engine's own path: cell cut, model run,
 * class list, and "none" dropped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodePng } from '../../src/input/png.js';
import { classifyMarks, staccatosAmongDots, type MarkCandidate } from '../../src/symbols/marks.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/marks');

/** The fixture strip as a gray page, its labels, and one candidate centred on each cell (with `extra` fields). */
function fixtureCells(extra: Partial<MarkCandidate> = {}) {
  const fixture = JSON.parse(readFileSync(join(FIXTURES, 'cells.json'), 'utf8')) as { cellWidth: number; cellHeight: number; labels: string[] };
  const strip = decodePng(readFileSync(join(FIXTURES, 'cells.png')));
  const gray = { width: strip.width, height: strip.height, data: strip.data };
  const candidates: MarkCandidate[] = fixture.labels.map((_, i) => {
    const x = fixture.cellWidth * i + fixture.cellWidth / 2;
    const y = fixture.cellHeight / 2;
    return { x0: x - 2, y0: y - 2, x1: x + 2, y1: y + 2, x, y, staff: 0, confidence: 1, ...extra };
  });
  return { strip, gray, labels: fixture.labels, candidates };
}

describe('the mark classifier', () => {
  it('reads each fixture cell as its mark kind, and other ink as no mark', { timeout: 60_000 }, async () => {
    const { strip, gray, labels, candidates } = fixtureCells();
    expect(strip.channels).toBe(1);
    const marks = await classifyMarks(gray, candidates, 12);
    const read = labels.map((_, i) => marks.find((m) => Math.abs(m.x - candidates[i]!.x) < 1)?.kind ?? 'none');
    expect(read).toEqual(labels);
  });

  it('reads only ornaments from ink painted as lettering (dynamics)', { timeout: 60_000 }, async () => {
    const { gray, candidates } = fixtureCells({ lettering: true });
    const marks = await classifyMarks(gray, candidates, 12);
    expect(marks.map((m) => m.kind).sort()).toEqual(['inverted-mordent', 'mordent', 'trill-mark', 'turn']);
    expect(marks.every((m) => m.probability >= 0.5 && m.probability <= 1 && m.lettering)).toBe(true);
  });

  it('reads only bowing marks from ink painted as text (a lone letter reads as none)', { timeout: 60_000 }, async () => {
    const { gray, candidates } = fixtureCells({ lettered: true });
    const marks = await classifyMarks(gray, candidates, 12);
    expect(marks.map((m) => m.kind).sort()).toEqual(['down-bow', 'up-bow']);
    expect(marks.every((m) => m.lettered)).toBe(true);
  });

  it('reads only staccato dots from ink touching a slur (a slur\'s end reads as an accent, a tenuto or an arc)', { timeout: 60_000 }, async () => {
    const { gray, labels, candidates } = fixtureCells({ onSlur: true });
    const marks = await classifyMarks(gray, candidates, 12);
    expect(labels.filter((l) => l !== 'none' && l !== 'staccato').length).toBeGreaterThan(5);
    expect(marks.map((m) => m.kind)).toEqual(labels.filter((l) => l === 'staccato'));
  });

  it('takes out of the augmentation dots those it reads as staccatos, and leaves other ink a dot', { timeout: 60_000 }, async () => {
    const { gray, labels, candidates } = fixtureCells();
    const { staccatos, dots } = await staccatosAmongDots(gray, candidates, [], 12);
    expect(staccatos.map((m) => labels[candidates.findIndex((c) => c.x === m.x)])).toEqual(['staccato']);
    expect(staccatos[0]!.probability).toBeGreaterThanOrEqual(0.9);
    expect(dots).toHaveLength(candidates.length - 1);
    // Where a dotted note's dot stands, right of a head at its height, it stays a dot.
    const dot = staccatos[0]!;
    const head = { x1: dot.x - 10, y0: dot.y - 6, y1: dot.y + 6, staff: 0 };
    expect((await staccatosAmongDots(gray, candidates, [head], 12)).staccatos).toEqual([]);
  });
});
