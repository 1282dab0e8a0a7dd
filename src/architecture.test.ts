// The feature folders of src/ depend on each other in one direction only: a cycle between two
// folders means neither can be read, tested or moved without the other. Tests and test fixtures
// may reach across (they wire real parts together), so only the code that ships is checked.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const SRC = resolve(import.meta.dirname);
const shipped = (name: string) => /\.(ts|mts|mjs|astro)$/.test(name) && !/\.test\.ts$|test-fixtures|fixtures\.ts$/.test(name);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : shipped(name) ? [full] : [];
  });
}

/** The top folder of src/ a file belongs to (`pages`, `grading`, ...), or undefined outside src/. */
const folderOf = (file: string) => {
  const rel = relative(SRC, file);
  return rel.startsWith('..') || !rel.includes('/') ? undefined : rel.split('/')[0];
};

/** folder → folders its shipped files import (relative specifiers only). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of filesUnder(SRC)) {
    const from = folderOf(file);
    if (!from) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const to = folderOf(resolve(dirname(file), m[1]!));
      if (to && to !== from) (graph.get(from) ?? graph.set(from, new Set()).get(from)!).add(to);
    }
  }
  return graph;
}

/** A path from `start` back to itself, if the graph has one. */
function cycleThrough(graph: Map<string, Set<string>>, start: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (node: string, path: string[]): string[] | undefined => {
    for (const next of graph.get(node) ?? []) {
      if (next === start) return [...path, next];
      if (seen.has(next)) continue;
      seen.add(next);
      const found = walk(next, [...path, next]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(start, [start]);
}

test('no two feature folders of src/ import each other, directly or through others', () => {
  const graph = folderGraph();
  expect(graph.size, 'the import scan found the folders').toBeGreaterThan(8);
  const cycles = [...graph.keys()]
    .map((f) => cycleThrough(graph, f))
    .filter(Boolean)
    .map((c) => c!.join(' → '));
  expect(cycles).toEqual([]);
});
