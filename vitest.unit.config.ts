/**
 * `npm run test:unit`: the fast part of the suite, for contributors on any OS. It needs no build, no
 * Debian packages (xmllint, chromium, tesseract data), no shared corpus beside the project and no
 * recognition model run: the pure parts, the readers and writers, the job engine, storage and server.
 * `npm test` runs everything, these included.
 */
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        'node_modules/**',
        // A real browser, the built package, spawned scripts and worker threads.
        'test/browser/**',
        'test/package/**',
        'test/cli/**',
        'test/workers/**',
        // Whole recognitions with the models, and text reading with tesseract.
        'test/recognize/**',
        'test/jobs/recognition-job.test.ts',
        'test/symbols/segment.test.ts',
        'test/symbols/backends.test.ts',
        'test/symbols/digits.test.ts',
        'test/symbols/mark-classifier.test.ts',
        'test/text/page-text.test.ts',
        'test/text/recognize-text.test.ts',
        'test/text/ocr-kept.test.ts',
        'test/text/text-regions.test.ts',
        'test/bench/**',
        'test/training/**',
        // The shared corpus and the MusicXML schema (xmllint).
        'test/import/corpus-read.test.ts',
        'test/import/fuzz.test.ts',
        'test/import/bad-input.test.ts',
        'test/import/mei.test.ts',
        'test/import/notation-roundtrip.test.ts',
        'test/import/midi/corpus-midi.test.ts',
        'test/import/midi/fuzz-midi.test.ts',
        'test/roundtrip/**',
        'test/exports/musicxml.test.ts',
      ],
    },
  }),
);
