/**
 * Build time (Node): turns an exercise's hidden suite, exactly as the Node grader mounts it, into one
 * browser module for the worker runner. Each test file becomes a thunk that runs its top level on
 * demand (esbuild wraps `require`d ESM lazily), so the runner can collect the files one by one, as
 * vitest does; shared helpers are initialised once, as with vitest's `isolate: false`.
 * - `vitest` resolves to the worker's own copy (globalThis.__courseVitest), one instance for all files;
 * - `../src/<file>` resolves to the learner's module the worker loaded (globalThis.__courseLearner);
 * - `import.meta.url` is the suite's place in the sandbox layout, so `new URL('../src/', import.meta.url)`
 *   names the learner's folder, where the worker loads their code (with a matching sourceURL).
 * A suite that imports a `node:` module cannot run in a worker: the build fails and says which.
 */
import { build, type Plugin } from 'esbuild';
import type { Exercise } from '../../grading/core/exercise-schema.ts';
import { learnerImports } from './learner-imports.ts';

import { LEARNER_GLOBAL, SUITE_IMPORT_META_URL, VITEST_GLOBAL } from './suite-paths.ts';

const ENTRY = 'course-suite-entry';

function inMemory(tests: Record<string, string>, support: Record<string, string>): Plugin {
  return {
    name: 'course-suite',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${ENTRY}$`) }, () => ({ path: ENTRY, namespace: 'suite' }));
      b.onResolve({ filter: /^vitest$/ }, () => ({ path: 'vitest', namespace: 'vitest' }));
      b.onResolve({ filter: /^node:|^(fs|path|os|child_process|url|http|net|async_hooks|timers)$/ }, (args) => ({
        errors: [{ text: `${args.importer.replace(/^\//, '')} imports ${args.path}: a suite graded in a Web Worker cannot use Node modules` }],
      }));
      b.onResolve({ filter: /^\.\.\/src\// }, (args) => ({ path: args.path.slice('../src/'.length), namespace: 'learner' }));
      // The suites' shared support (exercises/_env/test-support/), at the sandbox root beside tests/.
      b.onResolve({ filter: /^\.\.\/test-support\// }, (args) => ({ path: args.path.slice('../test-support/'.length), namespace: 'support' }));
      b.onLoad({ filter: /.*/, namespace: 'support' }, (args) => {
        const text = support[args.path];
        return text === undefined ? { errors: [{ text: `test-support/${args.path} does not exist` }] } : { contents: text, loader: 'ts' };
      });
      b.onResolve({ filter: /^\.\// }, (args) => {
        const from = args.importer === ENTRY ? '' : args.importer.replace(/^\//, '').replace(/[^/]*$/, '');
        return { path: `/${from}${args.path.slice(2)}`, namespace: 'tests' };
      });
      b.onLoad({ filter: /.*/, namespace: 'vitest' }, () => ({ contents: `module.exports = globalThis.${VITEST_GLOBAL};`, loader: 'js' }));
      b.onLoad({ filter: /.*/, namespace: 'learner' }, (args) => ({
        contents: `module.exports = globalThis.${LEARNER_GLOBAL}[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
      b.onLoad({ filter: /.*/, namespace: 'tests' }, (args) => {
        const text = tests[args.path.slice(1)];
        return text === undefined ? { errors: [{ text: `tests/${args.path.slice(1)} does not exist` }] } : { contents: text, loader: 'ts' };
      });
      b.onLoad({ filter: /.*/, namespace: 'suite' }, () => {
        const files = Object.keys(tests)
          .filter((p) => p.endsWith('.test.ts'))
          .sort();
        const thunks = files.map((p) => `  ${JSON.stringify(p)}: () => require(${JSON.stringify(`./${p}`)}),`).join('\n');
        return { contents: `export const files = {\n${thunks}\n};\n`, loader: 'js', resolveDir: '/' };
      });
    },
  };
}

/** The browser module for one exercise's suite (ESM text). */
export async function buildWorkerSuite(exercise: Exercise, tests: Record<string, string>, support: Record<string, string> = {}): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    define: { 'import.meta.url': JSON.stringify(SUITE_IMPORT_META_URL) },
    plugins: [inMemory(tests, support)],
    logLevel: 'silent',
    legalComments: 'none',
  });
  const header = `// The hidden suite of "${exercise.id}", built for the in-page worker runner (src/runner/worker/suite-build.ts).\n`;
  const data = [`export const exercise = ${JSON.stringify(exercise)};`, `export const needs = ${JSON.stringify(learnerImports(tests))};`].join('\n');
  return `${header}${result.outputFiles[0]!.text}${data}\n`;
}
