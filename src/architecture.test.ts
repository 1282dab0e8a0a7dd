// The shape of src/, checked on the code that ships (tests and test aids may reach across: they wire
// real parts together). Test aids (fixtures, fakes, the proof's catalogue) live in a testing/ folder of
// their feature, beside the code they stand in for. The rules, each proved able to fail on a small graph below:
// - Layers: the feature folders are declared bottom to top, and a folder imports only folders below
//   it, so no two folders can need each other (a cycle means neither can be read, tested or moved
//   without the other). A folder missing from LAYERS fails too, so a new one is placed on purpose.
//   Files do not import each other in a cycle either (value imports; types are erased).
// - Faces: a folder with an index.ts is entered from outside through it (or through the index.ts of
//   a folder inside it), so what a folder offers is one file to read and its insides can move.
// - No Node built-ins in a folder the browser loads: Vite would bundle a stub that fails at run time.
// - Shipped code never imports from a testing/ folder: a fake or a fixture cannot end up in a bundle
//   or a command, and a test aid can change without touching what ships.
// - No command imports test code: scripts/ (and tools/, what the commands share with the end-to-end
//   tests) never import from e2e/, so a command does not break when a test aid changes, nor load vitest.
// - Purpose headers: every shipped source file (src/, scripts/, tools/, exercises/_env/) opens with a
//   comment saying what it is for, so a newcomer learns it from the first lines.
// The imports are read with the TypeScript parser (already a dependency for type checking), not a
// regular expression, so `import type`, `export … from` and `import()` are all seen and told apart.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, posix, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/** One import of a file: its specifier, whether it is erased from the JavaScript, and whether it sits in an .astro <script> (code the browser loads as a page entry). */
interface Import {
  spec: string;
  typeOnly: boolean;
  pageScript: boolean;
}
/** File (a path relative to src/, with `/`) → its imports. */
type Graph = Map<string, Import[]>;

/**
 * The top folders of src/, bottom first. A folder imports only folders of an earlier tier; the files
 * at the root of src/ (middleware.ts, content.config.ts, env.d.ts) sit above them all.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['i18n', 'storage'],
  ['grading', 'quiz', 'sims', 'glossary', 'site', 'content-lint'],
  ['course', 'runner'],
  ['progress', 'local-runner'],
  ['assignments', 'labs', 'workspace'],
  ['class-grading', 'components', 'integrations'],
  ['layouts'],
  ['pages'],
];

/** Folders (and single files) the browser loads: page scripts, custom elements, the workers. */
const BROWSER: readonly string[] = ['i18n', 'storage', 'grading/core', 'quiz', 'sims', 'labs', 'assignments', 'progress', 'site', 'workspace', 'runner'];

/**
 * Imports the rules allow anyway, each with its reason: an importing file or folder, what it may
 * import (a file, a folder, or a package), and why. The test fails on an allowance nothing uses.
 */
const ALLOWED: readonly { from: string; to: string; why: string }[] = [
  // Kept: ending it needs a Node-only face for i18n/ (an effect import cannot sit behind the browser's).
  {
    from: '',
    to: 'i18n/zod-english.ts',
    why: 'imported for its effect (zod speaks English in the grade-class command and content checks, both Node); behind i18n/index.ts it would run in every browser bundle',
  },
  // Kept: ending it means moving the CSP hashing out of site/, away from the headers it feeds.
  {
    from: 'site/inline-scripts.mjs',
    to: 'node:crypto',
    why: "hashes the site's inline scripts for its Content-Security-Policy, at build time and in the servers (site/headers.mjs); no page loads it",
  },
  // Kept: ending it needs grading/core split into faces per bundle, measured with bench:page.
  ...['workspace/exercise-files.ts', 'workspace/rule-groups.ts', 'runner/worker/worker-runner.ts'].map((from) => ({
    from,
    to: 'grading/core',
    why: "code splitting: the bundler places a module in the chunks of every entry whose module graph reaches it, and through grading/core/index.ts the exercise page's first script (the workspace) took in the whole core, the lazily loaded worker runner's part included; type imports go through the face",
  })),
];

/** The allowance that covers `file` importing `to`, if any. */
const allowance = (file: string, to: string) => ALLOWED.find((a) => (a.from === '' || under(file, a.from)) && (a.to === '' || under(to, a.to)));

/** Dependencies of package.json: a bare `events` or `buffer` there is the npm package the browser bundles, not Node's. */
const PACKAGES = (() => {
  const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '../package.json'), 'utf8'));
  return new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }));
})();
const NODE_BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_') && !PACKAGES.has(m)));
const isNodeBuiltin = (spec: string) => spec.startsWith('node:') || NODE_BUILTINS.has(spec.split('/')[0]!);
const under = (file: string, folder: string) => file === folder || file.startsWith(`${folder}/`);

/** Where a relative specifier of `file` points, relative to src/ (undefined for a package or outside src/). */
function target(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const to = posix.normalize(posix.join(posix.dirname(file), spec));
  return to.startsWith('..') ? undefined : to;
}

const topFolder = (file: string) => (file.includes('/') ? file.split('/')[0] : undefined);

function edges(graph: Graph, keep: (imp: Import) => boolean = () => true) {
  return [...graph].flatMap(([file, imports]) =>
    imports.filter(keep).flatMap((imp) => {
      const to = target(file, imp.spec);
      return to && !allowance(file, to) ? [{ file, to, imp }] : [];
    }),
  );
}

/** Imports that climb or cross a layer: a folder importing one of its own tier or above, or a folder LAYERS lacks. */
function layerViolations(graph: Graph, layers: readonly (readonly string[])[] = LAYERS): string[] {
  const tier = new Map(layers.flatMap((folders, i) => folders.map((f) => [f, i] as const)));
  const problems = new Set<string>();
  for (const file of graph.keys()) {
    const folder = topFolder(file);
    if (folder && !tier.has(folder)) problems.add(`${folder}/ is in no layer of LAYERS`);
  }
  for (const { file, to } of edges(graph)) {
    const from = topFolder(file);
    const into = topFolder(to);
    if (!into || from === into || !/\.(ts|mts|mjs|astro)$/.test(to)) continue; // a stylesheet is no layer
    const fromTier = from === undefined ? layers.length : (tier.get(from) ?? -1);
    const intoTier = tier.get(into) ?? layers.length;
    if (intoTier >= fromTier) problems.add(`${file} → ${to}: ${into}/ is not below ${from ?? 'src/'}`);
  }
  return [...problems];
}

/** Imports from outside a folder with an index.ts that do not land on it (or on the index.ts of a folder inside it). */
function faceViolations(graph: Graph): string[] {
  const faced = new Set([...graph.keys()].filter((f) => f.endsWith('/index.ts')).map((f) => posix.dirname(f)));
  const problems: string[] = [];
  for (const { file, to, imp } of edges(graph)) {
    if (imp.pageScript) continue; // a page's <script> loads a browser entry, which no server-side face may import
    const parts = to.split('/');
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      if (under(file, folder) || !faced.has(folder)) continue;
      if (!to.endsWith('/index.ts')) problems.push(`${file} → ${to}: enter ${folder}/ through ${folder}/index.ts`);
      break;
    }
  }
  return problems;
}

/** Every import cycle between files, each once, as `a → b → a`. */
function fileCycles(graph: Graph): string[] {
  const next = new Map<string, string[]>();
  for (const { file, to, imp } of edges(graph, (imp) => !imp.typeOnly)) {
    if (imp.pageScript) continue;
    const resolved = graph.has(to) ? to : undefined;
    if (resolved) next.set(file, [...(next.get(file) ?? []), resolved]);
  }
  // Tarjan's strongly connected components: a component of two or more files is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next.get(v)?.includes(v)) cycles.push([...component.reverse(), component[0]].join(' → '));
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/** Node built-ins imported (as values) by a file the browser loads (of an .astro file, by its <script>s: its frontmatter runs at build time). */
function nodeInBrowser(graph: Graph, browser: readonly string[] = BROWSER): string[] {
  return [...graph].flatMap(([file, imports]) =>
    browser.some((b) => under(file, b))
      ? imports
          .filter((imp) => !imp.typeOnly && (imp.pageScript || !file.endsWith('.astro')) && isNodeBuiltin(imp.spec))
          .filter((imp) => !allowance(file, imp.spec))
          .map((imp) => `${file} imports ${imp.spec}, and the browser loads ${file}`)
      : [],
  );
}

/** Imports of a test aid (a file in a testing/ folder) by shipped code, types included: a type-only import still ties what ships to a test aid. */
function testAidImports(graph: Graph): string[] {
  // No allowance covers this: an allowed deep import is still no licence to ship a test aid.
  return [...graph].flatMap(([file, imports]) =>
    imports
      .map((imp) => target(file, imp.spec))
      .filter((to) => to?.split('/').includes('testing'))
      .map((to) => `${file} imports ${to}, a test aid: shipped code never imports from a testing/ folder`),
  );
}

/** The imports of one module's text, read by the TypeScript parser. */
function importsOf(code: string, pageScript = false): Import[] {
  const source = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: Import[] = [];
  const add = (spec: ts.Expression | undefined, typeOnly: boolean) => {
    if (spec && ts.isStringLiteralLike(spec)) found.push({ spec: spec.text, typeOnly, pageScript });
  };
  const walk = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allTypes =
        !!clause && !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier, !!clause?.isTypeOnly || allTypes);
    } else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false);
    ts.forEachChild(node, walk);
  };
  walk(source);
  return found;
}

/** The imports of an .astro file: its frontmatter (run at build time) and its <script>s (run in the page). */
function astroImports(text: string): Import[] {
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
  const scripts = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  return [...importsOf(front), ...scripts.flatMap((s) => importsOf(s, true))];
}

const ROOT = resolve(import.meta.dirname, '..');

/** Imports of files outside e2e/ (paths relative to the repository root) that land in e2e/. */
function testCodeImports(graph: Graph): string[] {
  return [...graph].flatMap(([file, imports]) =>
    imports
      .map((imp) => posix.normalize(posix.join(posix.dirname(file), imp.spec)))
      .filter((to) => !under(file, 'e2e') && under(to, 'e2e'))
      .map((to) => `${file} imports ${to}: move what it needs to tools/`),
  );
}

/** The commands and what they share with the end-to-end tests (not their own unit tests), keyed from the repository root. */
function commandGraph(): Graph {
  const graph: Graph = new Map();
  for (const folder of ['scripts', 'tools']) {
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (name === 'node_modules') continue;
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.(ts|mts|mjs)$/.test(name) && !name.endsWith('.test.ts'))
          graph.set(relative(ROOT, full).split('\\').join('/'), importsOf(readFileSync(full, 'utf8')));
      }
    };
    walk(join(ROOT, folder));
  }
  return graph;
}

const SRC = resolve(import.meta.dirname);
/** Code that ships: not tests, not the test aids in testing/ folders. */
const shipped = (path: string) => /\.(ts|mts|mjs|astro)$/.test(path) && !/\.test\.ts$|(^|\/)testing\//.test(path);

function srcGraph(): Graph {
  const graph: Graph = new Map();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      const rel = relative(SRC, full).split('\\').join('/');
      if (statSync(full).isDirectory()) walk(full);
      else if (shipped(rel)) {
        const text = readFileSync(full, 'utf8');
        graph.set(rel, name.endsWith('.astro') ? astroImports(text) : importsOf(text));
      }
    }
  };
  walk(SRC);
  return graph;
}

/** The folders whose .ts, .mts and .mjs files ship (as code, commands, or the exercises' environment), from the repository root. */
const HEADED: readonly string[] = ['src', 'scripts', 'tools', 'exercises/_env'];

/** Shipped source files under HEADED (not tests, testing/ aids or .d.ts) → their text, keyed from the repository root. */
function shippedSources(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (name === 'node_modules') continue;
      const rel = relative(ROOT, full).split('\\').join('/');
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|mts|mjs)$/.test(name) && !/\.d\.m?ts$/.test(name) && shipped(rel)) files.set(rel, readFileSync(full, 'utf8'));
    }
  };
  for (const folder of HEADED) walk(join(ROOT, folder));
  return files;
}

/** Files whose first line (after a `#!` line, if any) is not a comment. */
function headerless(files: ReadonlyMap<string, string>): string[] {
  return [...files].filter(([, text]) => !/^(#![^\n]*\n)?(\/\/|\/\*)/.test(text)).map(([file]) => `${file} opens without a comment saying what it is for`);
}

describe('src/ as it is', () => {
  const graph = srcGraph();
  test('the scan reads the tree', () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(graph.get('runner/worker/worker-runner.ts')?.length).toBeGreaterThan(5);
  });
  test('every folder imports only the layers below it', () => expect(layerViolations(graph)).toEqual([]));
  test('a folder with an index.ts is entered through it', () => expect(faceViolations(graph)).toEqual([]));
  test('no import cycle between files', () => expect(fileCycles(graph)).toEqual([]));
  test('no Node built-in in what the browser loads', () => expect(nodeInBrowser(graph)).toEqual([]));
  test('no shipped file imports from a testing/ folder', () => expect(testAidImports(graph)).toEqual([]));
  test('no command imports from e2e/', () => {
    const commands = commandGraph();
    expect(commands.get('scripts/bench-lighthouse.ts')?.length).toBeGreaterThan(3);
    expect(testCodeImports(commands)).toEqual([]);
  });
  test('every shipped source file opens with a comment saying what it is for', () => {
    const files = shippedSources();
    expect(files.size).toBeGreaterThan(250);
    expect(files.has('exercises/_env/grader-warm.mjs') && files.has('scripts/format-report.ts')).toBe(true);
    expect(headerless(files)).toEqual([]);
  });
  test('every allowance is still needed and says why', () => {
    const used = new Set([...graph].flatMap(([file, imports]) => imports.map((imp) => allowance(file, target(file, imp.spec) ?? imp.spec))));
    for (const a of ALLOWED) {
      expect(used.has(a), `${a.from} → ${a.to}`).toBe(true);
      expect(a.why.length).toBeGreaterThan(40);
    }
  });
});

describe('each rule fails where it should', () => {
  const fixture = (files: Record<string, string>): Graph =>
    new Map(Object.entries(files).map(([file, code]) => [file, file.endsWith('.astro') ? astroImports(code) : importsOf(code)]));

  test('a deep import past an index.ts, not a page script nor an import inside the folder', () => {
    const graph = fixture({
      'grading/core/index.ts': "export * from './rules.ts';",
      'grading/core/rules.ts': "import { x } from './cap.ts';",
      'grading/core/cap.ts': '',
      'grading/node/run.ts': "import { ruleOf } from '../core/rules.ts'; import { t } from '../core/index.ts';",
      'workspace/view.ts': "import type { Report } from '../grading/core/rules.ts';",
      'pages/lab.astro': "---\nimport { a } from '../grading/core/index.ts';\n---\n<script>import '../grading/core/cap.ts';</script>",
    });
    expect(faceViolations(graph)).toEqual([
      'grading/node/run.ts → grading/core/rules.ts: enter grading/core/ through grading/core/index.ts',
      'workspace/view.ts → grading/core/rules.ts: enter grading/core/ through grading/core/index.ts',
    ]);
  });

  test('a cycle, between files and between folders', () => {
    const graph = fixture({
      'progress/store.ts': "import { a } from '../workspace/saved.ts';",
      'workspace/saved.ts': "import { b } from './both.ts';",
      'workspace/both.ts': "import { c } from '../progress/store.ts'; import type { T } from './types.ts';",
      'workspace/types.ts': "import type { U } from './both.ts';",
    });
    expect(fileCycles(graph)).toEqual(['progress/store.ts → workspace/saved.ts → workspace/both.ts → progress/store.ts']);
    expect(layerViolations(graph, [['progress'], ['workspace']])).toEqual(['progress/store.ts → workspace/saved.ts: workspace/ is not below progress']);
    expect(layerViolations(graph, [['progress', 'workspace']])).toHaveLength(2);
    expect(layerViolations(graph, [['workspace']])).toContain('progress/ is in no layer of LAYERS');
  });

  test('a shipped file importing a test aid, even for a type, but not a test aid importing another', () => {
    const graph = fixture({
      'class-grading/grade.ts': "import { makeAssignment } from './testing/test-fixtures.ts';",
      'runner/webcontainer/boot.ts': "import type { FakeWebContainer } from './testing/fake-webcontainer.ts'; import { x } from '../../grading/core/index.ts';",
      'grading/node/testing/proof-catalogue.ts': "import { tinyExercise } from '../../testing/test-fixtures.ts';",
    });
    // The graph of src/ holds no test aid, so their own imports are never seen: drop them as srcGraph does.
    for (const file of graph.keys()) if (!shipped(file)) graph.delete(file);
    expect(testAidImports(graph)).toEqual([
      'class-grading/grade.ts imports class-grading/testing/test-fixtures.ts, a test aid: shipped code never imports from a testing/ folder',
      'runner/webcontainer/boot.ts imports runner/webcontainer/testing/fake-webcontainer.ts, a test aid: shipped code never imports from a testing/ folder',
    ]);
  });

  test('a command importing test code, in any form, but not e2e/ importing itself or tools/', () => {
    const graph = fixture({
      'scripts/bench-lighthouse.ts': "import { CHROMIUM_PATH } from '../e2e/browser.ts'; import { serveSite } from '../tools/serve-site.ts';",
      'scripts/bench-worker.ts': "import type { EngineName } from '../e2e/engines.ts'; const h = await import('../e2e/workspace-helpers.ts');",
      'tools/engines/index.ts': "export { describeEngines } from '../../e2e/engines.ts';",
      'e2e/fixtures.ts': "import { launchBrowser } from '../tools/browser.ts'; import { read } from './workspace-helpers.ts';",
    });
    expect(testCodeImports(graph)).toEqual([
      'scripts/bench-lighthouse.ts imports e2e/browser.ts: move what it needs to tools/',
      'scripts/bench-worker.ts imports e2e/engines.ts: move what it needs to tools/',
      'scripts/bench-worker.ts imports e2e/workspace-helpers.ts: move what it needs to tools/',
      'tools/engines/index.ts imports e2e/engines.ts: move what it needs to tools/',
    ]);
  });

  test('a Node built-in where the browser loads it, by either name, but not as a type', () => {
    const graph = fixture({
      'labs/a.ts': "import { readFileSync } from 'node:fs';",
      'labs/b.ts': "const p = await import('path'); import { EventEmitter } from 'events';",
      'labs/c.ts': "import type { Readable } from 'node:stream'; type S = typeof import('node:stream');",
      'grading/node/d.ts': "import { spawn } from 'node:child_process';",
      'site/e.astro': "---\nimport { readFileSync } from 'node:fs';\n---\n<script>import { spawn } from 'child_process';</script>",
    });
    expect(nodeInBrowser(graph, ['labs', 'site'])).toEqual([
      'labs/a.ts imports node:fs, and the browser loads labs/a.ts',
      'labs/b.ts imports path, and the browser loads labs/b.ts',
      'site/e.astro imports child_process, and the browser loads site/e.astro',
    ]);
  });

  test('a file that opens on code, or on a blank line, but not one under a shebang or with a block comment', () => {
    const files = new Map([
      ['src/sims/a.ts', "import { round } from './random.ts';\n// what it is for, too late\n"],
      ['src/sims/b.ts', '\n/** A header after a blank line. */\nexport const b = 1;\n'],
      ['scripts/c.ts', '#!/usr/bin/env node\n// The command c.\n'],
      ['src/sims/d.ts', '/**\n * The d lab.\n */\nexport const d = 1;\n'],
      ['src/sims/index.ts', "// The public surface of sims/.\nexport * from './d.ts';\n"],
    ]);
    expect(headerless(files)).toEqual([
      'src/sims/a.ts opens without a comment saying what it is for',
      'src/sims/b.ts opens without a comment saying what it is for',
    ]);
  });
});
