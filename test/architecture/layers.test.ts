/**
 * The pipeline's layout, checked: the music reader (src/assembly) reads
 * what was seen (src/reading) and never pixels, ink masks, class maps or
 * models; and no module needs itself through a chain of imports.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** The module's relative imports (and re-exports): where from, and whether only types are taken. */
export function importsOf(text: string): { from: string; typeOnly: boolean }[] {
  const found: { from: string; typeOnly: boolean }[] = [];
  for (const m of text.matchAll(/^(import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'(\.[^']+)'/gms)) {
    const names = m[3]!;
    // `import { type A, type B }` takes types only too.
    const typeOnly = Boolean(m[2]) || (/^\{[^}]*\}$/s.test(names.trim()) && names.replace(/[{}\s]/g, '').split(',').filter(Boolean).every((n) => n.startsWith('type')));
    found.push({ from: m[4]!, typeOnly });
  }
  for (const m of text.matchAll(/^import\s+'(\.[^']+)'/gm)) found.push({ from: m[1]!, typeOnly: false });
  return found;
}

const resolved = (file: string, from: string) => resolve(dirname(file), from.replace(/\.js$/, '.ts'));
const area = (path: string) => relative(SRC, path).split('/')[0]!;

describe('the music reader', () => {
  it('imports nothing that reads pixels or runs a model: only what was seen, geometry and the score', () => {
    const crossings = sources(join(SRC, 'assembly')).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8')).flatMap(({ from, typeOnly }) => {
        const target = area(resolved(file, from));
        const allowed = ['assembly', 'reading', 'score', 'staves', 'errors.ts'].includes(target) || (target === 'symbols' && typeOnly);
        return allowed ? [] : [`${relative(SRC, file)} imports ${from}${typeOnly ? ' (types)' : ''}`];
      }),
    );
    expect(crossings).toEqual([]);
  });

  it('the check itself sees a pixel import, and a value import from the vision side', () => {
    expect(importsOf("import type { BinaryImage } from '../preparation/binarize.js';")).toEqual([{ from: '../preparation/binarize.js', typeOnly: true }]);
    expect(importsOf("import { MAP_SCALE, type Box } from '../symbols/components.js';")).toEqual([{ from: '../symbols/components.js', typeOnly: false }]);
    expect(importsOf("import {\n  type A,\n  type B,\n} from './x.js';")).toEqual([{ from: './x.js', typeOnly: true }]);
  });
});

describe('imports', () => {
  it('form no cycle among the library’s modules (values, not types)', () => {
    const graph = new Map(
      sources(SRC).map((file) => [file, importsOf(readFileSync(file, 'utf8')).filter((i) => !i.typeOnly).map((i) => resolved(file, i.from))]),
    );
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) if (graph.has(next)) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
