import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importNodeCanvas, NODE_CANVAS_PACKAGE } from '../../src/input/pdf-platform.js';
import { rejection } from '../support/rejection.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'test/fixtures/recognition');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** Runs the built command line as an install without the canvas package would. */
const withoutCanvas = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', join(ROOT, 'test/package/hide-packages.mjs'), join(ROOT, 'bin/scoresight.js'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, HIDE_PACKAGES: NODE_CANVAS_PACKAGE },
  });

describe('the native canvas is optional', () => {
  const out = mkdtempSync(join(tmpdir(), 'scoresight-no-canvas-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('is an optional dependency, which an install with --omit=optional leaves out', () => {
    expect(Object.keys(pkg.dependencies)).not.toContain(NODE_CANVAS_PACKAGE);
    expect(Object.keys(pkg.optionalDependencies)).toContain(NODE_CANVAS_PACKAGE);
  });

  it('loads when installed', async () => {
    expect(typeof (await importNodeCanvas()).createCanvas).toBe('function');
  });

  it('says which package to install when it is missing', async () => {
    const missing = '@napi-rs/canvas-not-installed';
    const error = await rejection(importNodeCanvas(missing));
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).toContain(`npm install ${missing}`);
  });

  it('without it, the built command line refuses a PDF with that message and still reads an image', { timeout: 60_000 }, () => {
    const pdf = withoutCanvas('recognize', join(FIXTURES, 'melody.pdf'), '--out', out);
    expect(pdf.status).toBe(1);
    expect(pdf.stderr).toMatch(/^error INTERNAL_ERROR: Reading PDFs in Node needs the optional package @napi-rs\/canvas.*npm install @napi-rs\/canvas/);
    const png = withoutCanvas('recognize', join(FIXTURES, 'melody-300dpi.png'), '--out', out);
    expect(png.status, png.stderr).toBe(0);
    expect(readFileSync(join(out, 'melody-300dpi.musicxml'), 'utf8')).toContain('<score-partwise');
  });
});
