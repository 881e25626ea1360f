/**
 * `npm run bench:diff -- <document id> [clean|scan|photo]` — what the engine
 * reads of one dev-set document beside its truth, measure by measure and
 * staff by staff (notes as pitch and duration in quarters), marking the
 * measures that differ. For finding out why a benchmark figure is what it is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMusicXml } from '../src/import/musicxml/read-score.js';
import { recognizeScore } from '../src/recognize/recognize-score.js';
import { DEV_SET, filesFor, manifestOf, type Condition } from './accuracy.js';
import { staffNotes, type NoteToken } from './evaluate/evaluate.js';

const [id, condition = 'clean'] = process.argv.slice(2);
const entry = manifestOf(DEV_SET).find((d) => d.id === id);
if (!entry) throw new Error(`no dev document ${id}; known: ${manifestOf(DEV_SET).map((d) => d.id).join(', ')}`);
const predicted = await recognizeScore(filesFor(DEV_SET, entry, condition as Condition), { readText: false });
const truth = readMusicXml(new Uint8Array(readFileSync(join(DEV_SET, entry.files.truth))));

const label = (n: NoteToken) => {
  const alter = n.pitch.alter ? (n.pitch.alter > 0 ? '#'.repeat(n.pitch.alter) : 'b'.repeat(-n.pitch.alter)) : '';
  const d = n.duration.d === 1 ? `${n.duration.n}` : `${n.duration.n}/${n.duration.d}`;
  const o = n.onset.d === 1 ? `${n.onset.n}` : `${n.onset.n}/${n.onset.d}`;
  return `${n.pitch.step}${alter}${n.pitch.octave}:${d}@${o}`;
};
const byMeasure = (notes: NoteToken[]) => {
  const measures = new Map<number, string[]>();
  for (const n of notes) measures.set(n.measure, [...(measures.get(n.measure) ?? []), label(n)]);
  return measures;
};
const p = staffNotes(predicted);
const t = staffNotes(truth);
let differing = 0;
for (let s = 0; s < Math.max(p.length, t.length); s++) {
  const pm = byMeasure(p[s] ?? []);
  const tm = byMeasure(t[s] ?? []);
  const last = Math.max(-1, ...pm.keys(), ...tm.keys());
  console.log(`— staff ${s + 1}`);
  for (let m = 0; m <= last; m++) {
    const a = (tm.get(m) ?? []).join(' ');
    const b = (pm.get(m) ?? []).join(' ');
    if (a === b) continue;
    differing++;
    console.log(`  m${m + 1} truth: ${a}\n  m${m + 1} read:  ${b}`);
  }
}
console.log(`${differing} staff-measures differ`);
