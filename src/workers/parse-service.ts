/**
 * The parse API's one implementation, run inside the parse worker
 * (`parse-worker.ts`) or on the calling thread (`createInProcessParser`).
 */
import { env } from '../env.js';
import { readMusicXml } from '../import/musicxml/read-score.js';
import { extractMxlScore } from '../import/mxl-container.js';
import { countPages } from '../input/decode-pages.js';
import type { Score } from '../score/model.js';
import type { ParseApi, ScoreParser } from './parse-api.js';

export function createParseService(): ParseApi {
  return {
    async readScore({ kind, data }, options = {}) {
      let score: Score;
      if (kind === 'midi') {
        // Loaded when needed: most imports are MusicXML.
        const { readMidi } = await import('../import/midi/read-midi.js');
        score = readMidi(data);
      } else {
        score = readMusicXml(kind === 'mxl' ? extractMxlScore(data) : data);
      }
      if (options.title !== undefined) score.credits.title = options.title;
      return { title: score.credits.title ?? '', json: JSON.stringify(score) };
    },
    countPages,
    configure(values) {
      Object.assign(env, values);
    },
  };
}

/** The parser on the calling thread: for environments without workers, and tests. Nothing bounds its time or memory: use the parse worker (`parse-pool.ts`) where uploads come from others. */
export function createInProcessParser(): ScoreParser {
  const service = createParseService();
  return {
    readScore: (file, options) => service.readScore(file, options),
    countPages: (file) => service.countPages(file),
    close: async () => undefined,
  };
}
