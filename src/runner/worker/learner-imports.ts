/**
 * Which names each hidden test file takes from the learner's files, directly or through the suite's
 * own helpers. In Node, a test file that imports a name the learner's module does not export fails to
 * load ("does not provide an export named …") and the other files still run; the worker runner checks
 * the same names before it runs a file, so a missing export fails the same files in both. Pure.
 */

/** `import … from '…'` statements, type-only ones included (they are filtered below). */
const IMPORT = /^[ \t]*import\s+(type\s+)?([\s\S]*?)\s+from\s+['"]([^'"]+)['"]/gm;
/** `import './x.ts';`: a suite module imported for what it declares (service-chain's rules), which binds nothing. */
const BARE_IMPORT = /^[ \t]*import\s+['"]([^'"]+)['"]/gm;
const LEARNER = /^\.\.\/src\/(.+)$/;
const LOCAL = /^\.\/(.+)$/;

/** The value names an import clause binds: `a, { b, c as d, type E }` → default, b, c. */
export function importedNames(clause: string): string[] {
  const names: string[] = [];
  const braces = /\{([\s\S]*)\}/.exec(clause);
  const head = clause
    .replace(/\{[\s\S]*\}/, '')
    .replace(/,/g, ' ')
    .trim();
  if (head && !head.startsWith('*')) names.push('default');
  for (const part of braces?.[1]?.split(',') ?? []) {
    const spec = part.trim();
    if (!spec || spec.startsWith('type ')) continue;
    names.push(spec.split(/\s+as\s+/)[0]!.trim());
  }
  return names;
}

type Needs = Record<string, string[]>;

/** For each `*.test.ts` in `tests` (paths relative to tests/): learner file → names it needs, through every module it imports. */
export function learnerImports(tests: Record<string, string>): Record<string, Needs> {
  const direct = new Map<string, { learner: Needs; local: string[] }>();
  for (const [path, text] of Object.entries(tests)) {
    const learner: Needs = {};
    const local: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      if (m[1]) continue; // `import type …`
      const target = m[3]!;
      const fromLearner = LEARNER.exec(target);
      if (fromLearner) (learner[fromLearner[1]!] ??= []).push(...importedNames(m[2]!));
      const fromLocal = LOCAL.exec(target);
      if (fromLocal) local.push(fromLocal[1]!);
    }
    for (const m of text.matchAll(BARE_IMPORT)) {
      const fromLocal = LOCAL.exec(m[1]!);
      if (fromLocal) local.push(fromLocal[1]!);
    }
    direct.set(path, { learner, local });
  }
  const closure = (path: string, seen: Set<string>, into: Needs) => {
    if (seen.has(path)) return;
    seen.add(path);
    const d = direct.get(path);
    if (!d) return;
    for (const [file, names] of Object.entries(d.learner)) into[file] = [...new Set([...(into[file] ?? []), ...names])];
    for (const next of d.local) closure(next, seen, into);
  };
  const out: Record<string, Needs> = {};
  for (const path of [...direct.keys()].filter((p) => p.endsWith('.test.ts')).sort()) {
    const needs: Needs = {};
    closure(path, new Set(), needs);
    out[path] = needs;
  }
  return out;
}

/** Node's message for a missing export, or undefined when the module has every name. */
export function missingExport(needs: Needs, modules: Record<string, Record<string, unknown>>): string | undefined {
  for (const [file, names] of Object.entries(needs)) {
    const mod = modules[file] ?? {};
    const name = names.find((n) => !(n in mod));
    if (name !== undefined) return `The requested module '../src/${file}' does not provide an export named '${name}'`;
  }
  return undefined;
}
