/**
 * Seeded, deterministic fuzzing of the MusicXML reader over real songs.
 *
 * Each mutant of a real score must either read to a score that keeps the
 * model's invariants (and that the MusicXML writer accepts), or fail with an
 * `OmrError` carrying one of the reader's codes. Anything else — a
 * TypeError, a RangeError from fraction arithmetic, a stack overflow, a very
 * slow read — is a bug, reported with the file, seed and mutations that
 * reproduce it.
 *
 * Mutants are made at three levels: bytes of the MusicXML text and of the
 * .mxl archive (flips, insertions, deletions, truncation, copied ranges,
 * stray markup), and the element tree (deleting, duplicating, moving and
 * renaming elements, extreme numbers in text and attributes). Each mutant
 * takes one to three mutations from its own mulberry32 seed, so a failure
 * replays alone: `FUZZ_ONLY=<seed> npx vitest run test/import/fuzz.test.ts`
 * (with the same `FUZZ_SEED`, when one moved the run to other seeds).
 * `FUZZ_SCALE=10` runs ten times as many mutants.
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { writeMusicXml } from '../../src/exports/musicxml.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import { extractMxlScore } from '../../src/import/mxl-container.js';
import { parseXml, type XmlElement } from '../../src/import/xml-tree.js';
import { gcd, type Fraction } from '../../src/score/fraction.js';
import type { Score } from '../../src/score/model.js';
import { placedNotes } from '../../src/score/timeline.js';
import { corpusFiles, readBytes, sample } from '../support/corpus.js';
import { concat } from '../support/byte-mutations.js';

const BASE_SEED = Number(process.env.FUZZ_SEED ?? 0x5c0e);
const ONLY = process.env.FUZZ_ONLY === undefined ? undefined : Number(process.env.FUZZ_ONLY);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);

/** Mutants per file and level; 10 files × 370 = 3,700 mutants. */
const COUNTS = { xmlBytes: 150, mxlBytes: 100, tree: 120 };
/**
 * Mutants are made from the first measures of each part only: the writer,
 * which every surviving mutant goes through, takes tens of milliseconds on a
 * whole song, and the rest of a song adds nothing new.
 */
const SEED_MEASURES = 6;
const CODES = new Set(['INVALID_MUSICXML', 'CORRUPTED_FILE', 'FILE_TOO_LARGE']);

/** The ten smallest of a spread-out sample of songs. */
const files = sample(corpusFiles('lieder'), 27)
  .map((path) => ({ path, size: statSync(path).size }))
  .sort((a, b) => a.size - b.size || a.path.localeCompare(b.path))
  .slice(0, 10)
  .map((f) => f.path);

// ---------------------------------------------------------------- randomness

type Rng = () => number;

function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (rng: Rng, below: number) => Math.floor(rng() * below);
const pick = <T>(rng: Rng, items: readonly T[]): T => items[int(rng, items.length)]!;

// ---------------------------------------------------------------- byte mutations

type Mutation<T> = (rng: Rng, input: T) => { out: T; what: string };

const BYTE_MUTATIONS: Mutation<Uint8Array>[] = [
  (rng, b) => {
    const i = int(rng, b.length);
    const out = b.slice();
    out[i]! ^= 1 << int(rng, 8);
    return { out, what: `flip bit of byte ${i}` };
  },
  (rng, b) => {
    const i = int(rng, b.length);
    const out = b.slice();
    out[i] = int(rng, 256);
    return { out, what: `set byte ${i} to ${out[i]}` };
  },
  (rng, b) => {
    const i = int(rng, b.length + 1);
    const extra = Uint8Array.from({ length: 1 + int(rng, 8) }, () => int(rng, 256));
    return { out: concat(b.subarray(0, i), extra, b.subarray(i)), what: `insert ${extra.length} bytes at ${i}` };
  },
  (rng, b) => {
    const i = int(rng, b.length);
    const n = 1 + int(rng, 64);
    return { out: concat(b.subarray(0, i), b.subarray(i + n)), what: `delete ${n} bytes at ${i}` };
  },
  (rng, b) => {
    const i = int(rng, b.length);
    return { out: b.slice(0, i), what: `truncate at ${i}` };
  },
  (rng, b) => {
    const from = int(rng, b.length);
    const n = 1 + int(rng, 2000);
    const at = int(rng, b.length + 1);
    return {
      out: concat(b.subarray(0, at), b.subarray(from, from + n), b.subarray(at)),
      what: `copy ${n} bytes from ${from} to ${at}`,
    };
  },
  (rng, b) => {
    const i = int(rng, b.length + 1);
    const snippet = pick(rng, MARKUP);
    return { out: concat(b.subarray(0, i), strToU8(snippet), b.subarray(i)), what: `insert ${JSON.stringify(snippet)} at ${i}` };
  },
];

/** Markup that a byte-level mutation may drop in anywhere. */
const MARKUP = [
  '<!--x-->', '<![CDATA[4]]>', '<![CDATA[<note/>]]>', '&#0;', '&#x10FFFF;', '&#xD800;', '&amp;', '&nbsp;', '&lol;', '<?pi x?>',
  '<!DOCTYPE x>', '<x:y xmlns:x="urn:x"/>', ']]>', '<note/>', '<measure>', '</measure>', '<chord/>', '<backup><duration>1</duration></backup>',
  '<forward><duration>99</duration><voice>9</voice></forward>', '<attributes><divisions>7</divisions></attributes>', '\uFEFF', '\u0000',
];


// ---------------------------------------------------------------- tree mutations

/**
 * A deep copy with an attribute object and a children array of its own for
 * every element. Parsed trees are read-only and share the empty ones, which
 * structuredClone would keep shared, so a mutation of one leaf would reach all.
 */
function copyTree(el: XmlElement): XmlElement {
  return { name: el.name, attrs: { ...el.attrs }, children: el.children.map(copyTree), text: el.text };
}

const EXTREMES = [
  '-1', '0', '1', '2', '1e21', '9007199254740992', '9007199254740993', '99999999999999999999', '1e308', '-1e308',
  '1e400', 'NaN', 'Infinity', '-0', '0.5', '1e-7', '', ' ', 'abc', '0x10', '３', '7/8', '3+2', '1000', '1001', '65536',
];

interface Located {
  el: XmlElement;
  parent: XmlElement | undefined;
}

function elements(root: XmlElement): Located[] {
  const out: Located[] = [{ el: root, parent: undefined }];
  for (let i = 0; i < out.length; i++) for (const c of out[i]!.el.children) out.push({ el: c, parent: out[i]!.el });
  return out;
}

function extreme(rng: Rng): string {
  return rng() < 0.8 ? pick(rng, EXTREMES) : String(int(rng, 2 ** 31) - 2 ** 30);
}

const TREE_MUTATIONS: Mutation<XmlElement>[] = [
  (rng, root) => {
    const { el, parent } = pick(rng, elements(root).slice(1));
    parent!.children.splice(parent!.children.indexOf(el), 1);
    return { out: root, what: `delete <${el.name}>` };
  },
  (rng, root) => {
    const { el, parent } = pick(rng, elements(root).slice(1));
    const copies = rng() < 0.9 ? 1 : 1 + int(rng, 50);
    parent!.children.splice(parent!.children.indexOf(el) + 1, 0, ...Array.from({ length: copies }, () => copyTree(el)));
    return { out: root, what: `duplicate <${el.name}> ×${copies}` };
  },
  (rng, root) => {
    const all = elements(root);
    const { el, parent } = pick(rng, all.slice(1));
    const target = pick(rng, all).el;
    if (isInside(target, el)) return { out: root, what: `no move` };
    parent!.children.splice(parent!.children.indexOf(el), 1);
    target.children.splice(int(rng, target.children.length + 1), 0, el);
    return { out: root, what: `move <${el.name}> into <${target.name}>` };
  },
  (rng, root) => {
    // Mostly numbers, sometimes any leaf.
    const leaves = elements(root).filter((l) => !l.el.children.length);
    const numeric = leaves.filter((l) => /^\s*-?[\d.]+\s*$/.test(l.el.text));
    const { el } = pick(rng, numeric.length && rng() < 0.8 ? numeric : leaves);
    const before = el.text.trim();
    el.text = extreme(rng);
    return { out: root, what: `<${el.name}> "${before}" → "${el.text}"` };
  },
  (rng, root) => {
    const withAttrs = elements(root).filter((l) => Object.keys(l.el.attrs).length);
    if (!withAttrs.length) return { out: root, what: 'no attributes' };
    const { el } = pick(rng, withAttrs);
    const name = pick(rng, Object.keys(el.attrs));
    const before = el.attrs[name];
    el.attrs = { ...el.attrs, [name]: extreme(rng) };
    return { out: root, what: `<${el.name} ${name}="${before}"> → "${el.attrs[name]}"` };
  },
  (rng, root) => {
    const all = elements(root).slice(1);
    const a = pick(rng, all).el;
    const b = pick(rng, all).el;
    [a.name, b.name] = [b.name, a.name];
    return { out: root, what: `swap names <${b.name}> ↔ <${a.name}>` };
  },
  (rng, root) => {
    const all = elements(root).slice(1);
    const el = pick(rng, all).el;
    const before = el.name;
    el.name = pick(rng, all).el.name;
    return { out: root, what: `rename <${before}> → <${el.name}>` };
  },
];

function isInside(el: XmlElement, ancestor: XmlElement): boolean {
  if (el === ancestor) return true;
  return ancestor.children.some((c) => isInside(el, c));
}

function serialize(el: XmlElement): string {
  const attrs = Object.entries(el.attrs)
    .map(([k, v]) => ` ${k}="${escapeXml(v).replace(/"/g, '&quot;')}"`)
    .join('');
  return `<${el.name}${attrs}>${escapeXml(el.text)}${el.children.map(serialize).join('')}</${el.name}>`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * What a song's mutants start from: its first measures, as an element tree,
 * as MusicXML text (with the song's own prolog) and as an .mxl with the
 * song's own entries.
 */
function seeds(file: string): { tree: XmlElement; xml: Uint8Array; mxl: Uint8Array } {
  const original = readBytes(file);
  const entries = unzipSync(original);
  const scoreBytes = extractMxlScore(original);
  const scoreName = Object.keys(entries).find((name) => entries[name]!.length === scoreBytes.length && !name.startsWith('META-INF/'));
  const tree = parseXml(scoreBytes);
  for (const part of tree.children.filter((c) => c.name === 'part')) {
    let kept = 0;
    part.children = part.children.filter((c) => c.name !== 'measure' || kept++ < SEED_MEASURES);
  }
  const text = new TextDecoder().decode(scoreBytes);
  const prolog = text.slice(0, text.indexOf(`<${tree.name}`));
  const xml = strToU8(prolog + serialize(tree));
  expect(scoreName).toBeDefined();
  return { tree, xml, mxl: zipSync({ ...entries, [scoreName!]: xml }) };
}

// ---------------------------------------------------------------- checks

/** Why a score breaks the model's invariants, or undefined when it keeps them. */
function invariantViolation(score: Score): string | undefined {
  const fraction = (f: Fraction, what: string, allowZero = true) => {
    const ok =
      Number.isSafeInteger(f.n) && Number.isSafeInteger(f.d) && f.d > 0 && f.n >= 0 && gcd(f.n, f.d) === (f.n === 0 ? f.d : 1);
    if (!ok || (!allowZero && f.n === 0)) throw new Error(`${what}: invalid fraction ${f.n}/${f.d}`);
  };
  try {
    if (!score.parts.length) return 'no parts';
    for (const part of score.parts) {
      if (!Number.isInteger(part.staves) || part.staves < 1) return `part ${part.id}: ${part.staves} staves`;
      const staff = (n: number, what: string) => {
        if (!Number.isInteger(n) || n < 1 || n > part.staves) throw new Error(`${what}: staff ${n} of ${part.staves}`);
      };
      for (const m of part.measures) {
        const where = `part ${part.id}, measure ${m.number}`;
        for (const c of m.clefs) {
          fraction(c.offset, `${where} clef`);
          staff(c.staff, `${where} clef`);
        }
        for (const d of m.directions) {
          fraction(d.offset, `${where} direction`);
          staff(d.staff, `${where} direction`);
        }
        if (m.key?.staff !== undefined) staff(m.key.staff, `${where} key`);
        if (m.key && !(Number.isInteger(m.key.fifths) && Math.abs(m.key.fifths) <= 15)) return `${where}: key ${m.key.fifths}`;
        if (m.time && !(Number.isSafeInteger(m.time.beats) && m.time.beats > 0 && Number.isSafeInteger(m.time.beatType) && m.time.beatType > 0)) {
          return `${where}: time ${m.time.beats}/${m.time.beatType}`;
        }
        if (m.divisions !== undefined && !(Number.isSafeInteger(m.divisions) && m.divisions > 0)) return `${where}: divisions ${m.divisions}`;
        if (m.multiRest !== undefined && !(Number.isSafeInteger(m.multiRest) && m.multiRest > 0)) return `${where}: multi-rest ${m.multiRest}`;
        for (const b of [m.leftBarline, m.rightBarline]) {
          const times = b?.repeat?.times;
          if (times !== undefined && !(Number.isSafeInteger(times) && times > 0)) return `${where}: repeat ${times} times`;
        }
        for (const v of m.voices) {
          for (const e of v.events) {
            const what = `${where}, voice ${v.id}`;
            fraction(e.duration, what);
            staff(e.staff, what);
            if (!Number.isInteger(e.dots) || e.dots < 0) return `${what}: ${e.dots} dots`;
            if (e.tuplet && !(Number.isInteger(e.tuplet.actual) && e.tuplet.actual > 0 && Number.isInteger(e.tuplet.normal) && e.tuplet.normal > 0)) {
              return `${what}: tuplet ${e.tuplet.actual}:${e.tuplet.normal}`;
            }
            if (e.kind !== 'note') {
              if (e.displayOctave !== undefined && !(Number.isInteger(e.displayOctave) && e.displayOctave >= 0 && e.displayOctave <= 9)) {
                return `${what}: rest at octave ${e.displayOctave}`;
              }
              continue;
            }
            if (!e.notes.length) return `${what}: a note event without notes`;
            for (const { pitch } of e.notes) {
              if (!Number.isInteger(pitch.octave) || pitch.octave < 0 || pitch.octave > 9 || !Number.isFinite(pitch.alter) || !'CDEFGAB'.includes(pitch.step) || pitch.step.length !== 1) {
                return `${what}: pitch ${JSON.stringify(pitch)}`;
              }
            }
          }
        }
      }
    }
    for (const n of placedNotes(score)) fraction(n.onset, 'onset');
  } catch (err) {
    return String(err);
  }
  return undefined;
}

/** Reads one mutant; returns a description of what went wrong, or undefined. */
function check(input: Uint8Array | string): string | undefined {
  // A hang shows as the test's own timeout; a shared machine's clock is not asserted on.
  let problem: string | undefined;
  try {
    const score = readMusicXml(input);
    problem = invariantViolation(score);
    if (!problem) {
      try {
        writeMusicXml(score, { encodingDate: '2026-01-01' });
      } catch (err) {
        if (!(err instanceof OmrError)) problem = `writeMusicXml threw ${describeError(err)}`;
      }
    }
  } catch (err) {
    if (!(err instanceof OmrError)) problem = `threw ${describeError(err)}`;
    else if (!CODES.has(err.code)) problem = `OmrError with code ${err.code}: ${err.message}`;
    else if (!err.message.trim()) problem = `OmrError ${err.code} without a message`;
  }
  return problem;
}

function describeError(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}\n${err.stack?.split('\n').slice(1, 4).join('\n')}` : String(err);
}

// ---------------------------------------------------------------- the test

describe('fuzzing the MusicXML reader', () => {
  it('uses ten real songs', () => {
    expect(files).toHaveLength(10);
  });

  files.forEach((file, fileIndex) => {
    it(`survives mutants of ${basename(file)}`, { timeout: 60_000 }, () => {
      const { xml, tree, mxl } = seeds(file);
      const failures: string[] = [];
      let mutants = 0;

      let levelIndex = 0;
      const run = <T>(level: string, count: number, mutations: Mutation<T>[], fresh: () => T, toInput: (t: T) => Uint8Array | string) => {
        const first = BASE_SEED + fileIndex * 1_000_000 + levelIndex++ * 100_000;
        for (let i = 0; i < count * SCALE; i++) {
          const seed = first + i;
          if (ONLY !== undefined && seed !== ONLY) continue;
          const rng = mulberry32(seed);
          let value = fresh();
          const applied: string[] = [];
          for (let k = 1 + int(rng, 3); k > 0; k--) {
            const { out, what } = pick(rng, mutations)(rng, value);
            value = out;
            applied.push(what);
          }
          mutants++;
          const problem = check(toInput(value));
          if (problem) failures.push(`${basename(file)} ${level} seed=${seed} [${applied.join('; ')}]: ${problem}`);
        }
      };

      run('xml bytes', COUNTS.xmlBytes, BYTE_MUTATIONS, () => xml, (b) => b);
      run('mxl', COUNTS.mxlBytes, BYTE_MUTATIONS, () => mxl, (b) => b);
      run('tree', COUNTS.tree, TREE_MUTATIONS, () => copyTree(tree), serialize);

      if (ONLY === undefined) expect(mutants).toBe((COUNTS.xmlBytes + COUNTS.mxlBytes + COUNTS.tree) * SCALE);
      expect(failures.slice(0, 20)).toEqual([]);
    });
  });
});
