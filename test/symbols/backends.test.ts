/**
 * The two inference backends (env.backend: onnxruntime-web's WebAssembly,
 * onnxruntime-node's native CPU) run the same committed models: the symbol
 * model's class map on a committed page's window agrees pixel for pixel but
 * for float rounding, and the page reads to the same notes on both.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-web';
import { afterEach, describe, expect, it } from 'vitest';
import { env } from '../../src/env.js';
import { decodePng } from '../../src/input/png.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { CANONICAL_STAFF_SPACE, preparePage } from '../../src/preparation/prepare-page.js';
import { recognizeScore } from '../../src/recognize/recognize-score.js';
import { detectStaves } from '../../src/staves/detect-staves.js';
import { activeBackend, onnxModel } from '../../src/symbols/onnx-model.js';
import { SYMBOL_MODEL_FILE } from '../../src/symbols/segment.js';
import { noteContent } from '../support/note-content.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/recognition');
const fixture = (name: string) => ({ filename: name, data: new Uint8Array(readFileSync(join(FIXTURES, name))) });

/** Share of pixels whose best class must agree between the backends: float rounding flips only near-ties. */
const MIN_ARGMAX_AGREEMENT = 0.999;

/** The symbol model's logits and best class per pixel for one input window, on the given backend. */
async function classes(backend: 'wasm' | 'native', input: Float32Array, height: number, width: number) {
  env.backend = backend;
  expect(await activeBackend()).toBe(backend);
  const model = await onnxModel(SYMBOL_MODEL_FILE);
  const output = await model.run({ image: new ort.Tensor('float32', input, [1, 1, height, width]) });
  const logits = output.logits!.data as Float32Array;
  const [, count, h2, w2] = output.logits!.dims as [number, number, number, number];
  const plane = h2 * w2;
  const best = new Uint8Array(plane);
  for (let i = 0; i < plane; i++) {
    for (let c = 1; c < count; c++) if (logits[c * plane + i]! > logits[best[i]! * plane + i]!) best[i] = c;
  }
  // The model's head (training/model/top_two.py) gives the same best class, and the two best logits.
  const head = output.best!.data as Uint8Array;
  const top = output.top!.data as Float32Array;
  let headAgrees = 0;
  let topAgrees = 0;
  for (let i = 0; i < plane; i++) {
    if (head[i] === best[i]) headAgrees++;
    let second = -Infinity;
    for (let c = 0; c < count; c++) if (c !== best[i] && logits[c * plane + i]! > second) second = logits[c * plane + i]!;
    if (top[i] === logits[best[i]! * plane + i] && top[plane + i] === second) topAgrees++;
  }
  return { best, dims: [count, h2, w2], headAgrees: headAgrees / plane, topAgrees: topAgrees / plane };
}

/** The committed window the backend tests read: the melody's first staff, cut as segmentation cuts it. */
function melodyWindow() {
  const prepared = preparePage(decodePng(fixture('melody-300dpi.png').data));
  const staff = detectStaves(prepared.ink, { staffSpace: CANONICAL_STAFF_SPACE })[0]!;
  const [y0, height, x0, width] = [Math.max(0, Math.floor(staff.lines[0]![0]! - 96) & ~15), 256, Math.max(0, Math.floor(staff.x0) & ~15), 768];
  const input = new Float32Array(width * height).fill(1);
  for (let y = 0; y < height && y0 + y < prepared.gray.height; y++) {
    for (let x = 0; x < width && x0 + x < prepared.gray.width; x++) input[y * width + x] = prepared.gray.data[(y0 + y) * prepared.gray.width + x0 + x]! / 255;
  }
  return { input, height, width };
}

describe('inference backends', () => {
  const initial = env.backend;
  afterEach(() => void (env.backend = initial));

  it('give the same class map for a window of a committed page', { timeout: 120_000 }, async () => {
    // The first staff of the melody, as segmentation cuts a window: prepared, on the model's 16-pixel grid.
    const { input, height, width } = melodyWindow();
    const wasm = await classes('wasm', input, height, width);
    const native = await classes('native', input, height, width);
    expect(native.dims).toEqual(wasm.dims);
    // The window holds music, not only paper.
    expect(wasm.best.filter((c) => c !== 0).length).toBeGreaterThan(wasm.best.length / 20);
    let agree = 0;
    for (let i = 0; i < wasm.best.length; i++) if (wasm.best[i] === native.best[i]) agree++;
    expect(agree / wasm.best.length).toBeGreaterThanOrEqual(MIN_ARGMAX_AGREEMENT);
  });

  it("the symbol model's head gives, on each backend, the best class and the two best logits of every pixel", { timeout: 120_000 }, async () => {
    const { input, height, width } = melodyWindow();
    for (const backend of ['wasm', 'native'] as const) {
      const { headAgrees, topAgrees } = await classes(backend, input, height, width);
      expect(headAgrees, backend).toBe(1);
      expect(topAgrees, backend).toBe(1);
    }
  });

  it('read a committed page to the same notes', { timeout: 120_000 }, async () => {
    const notes = async (backend: 'wasm' | 'native') => {
      env.backend = backend;
      return noteContent(await recognizeScore([fixture('melody.pdf')]));
    };
    const wasm = await notes('wasm');
    expect(await notes('native')).toEqual(wasm);
    // The notes are the page's: the reading compared is a real one.
    expect(wasm).toEqual(noteContent(readMusicXml(fixture('melody.musicxml').data)));
  });
});
