/** The versions the code writes into MusicXML are the versions of the committed models' cards. */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIGIT_MODEL_FILE, DIGIT_MODEL_VERSION } from '../../src/symbols/digits.js';
import { MARK_CLASSES } from '../../src/symbols/mark-cells.js';
import { MARK_MODEL_FILE, MARK_MODEL_VERSION } from '../../src/symbols/marks.js';
import { SYMBOL_MODEL_FILE, SYMBOL_MODEL_VERSION } from '../../src/symbols/segment.js';
import { DYNAMIC_CLASSES } from '../../src/text/dynamic-cells.js';
import { DYNAMICS_MODEL_FILE, DYNAMICS_MODEL_VERSION } from '../../src/text/read-dynamics.js';
import { PEDAL_CLASSES, PEDALS_MODEL_FILE, PEDALS_MODEL_VERSION } from '../../src/text/read-pedals.js';

const MODELS = join(import.meta.dirname, '../../models');

describe('model cards', () => {
  it.each([
    [SYMBOL_MODEL_FILE, SYMBOL_MODEL_VERSION],
    [DIGIT_MODEL_FILE, DIGIT_MODEL_VERSION],
    [MARK_MODEL_FILE, MARK_MODEL_VERSION],
    [DYNAMICS_MODEL_FILE, DYNAMICS_MODEL_VERSION],
    [PEDALS_MODEL_FILE, PEDALS_MODEL_VERSION],
  ])('%s has a card naming version %s', (file, version) => {
    const card = JSON.parse(readFileSync(join(MODELS, file.replace(/\.onnx$/, '.card.json')), 'utf8')) as { version: string; file: string };
    expect(card.version).toBe(version);
    expect(card.file).toBe(file);
  });

  it('reads the mark model outputs as the classes its card names, in order', () => {
    const card = JSON.parse(readFileSync(join(MODELS, MARK_MODEL_FILE.replace(/\.onnx$/, '.card.json')), 'utf8')) as { classes: string[]; output: { shape: [string, number] } };
    expect(card.classes).toEqual([...MARK_CLASSES]);
    expect(card.output.shape[1]).toBe(MARK_CLASSES.length);
  });

  it('reads the dynamics model outputs as the classes its card names, in order', () => {
    const card = JSON.parse(readFileSync(join(MODELS, DYNAMICS_MODEL_FILE.replace(/\.onnx$/, '.card.json')), 'utf8')) as { classes: string[]; output: { shape: [string, number] } };
    expect(card.classes).toEqual([...DYNAMIC_CLASSES]);
    expect(card.output.shape[1]).toBe(DYNAMIC_CLASSES.length);
  });

  it('reads the pedal model outputs as the classes its card names, in order', () => {
    const card = JSON.parse(readFileSync(join(MODELS, PEDALS_MODEL_FILE.replace(/\.onnx$/, '.card.json')), 'utf8')) as { classes: string[]; output: { shape: [string, number] } };
    expect(card.classes).toEqual([...PEDAL_CLASSES]);
    expect(card.output.shape[1]).toBe(PEDAL_CLASSES.length);
  });

  it('keeps all models together within 20 MB', () => {
    const total = [SYMBOL_MODEL_FILE, DIGIT_MODEL_FILE, MARK_MODEL_FILE, DYNAMICS_MODEL_FILE, PEDALS_MODEL_FILE].reduce((sum, f) => sum + statSync(join(MODELS, f)).size, 0);
    expect(total).toBeLessThan(20 * 2 ** 20);
  });
});
