/**
 * Build time (Node): turns an exercise's hidden suite, exactly as the Node grader mounts it, into one
 * browser module for the worker runner. Each test file becomes a thunk that runs its top level on
 * demand (esbuild initialises a dynamically `import()`ed module lazily, awaiting a top-level await),
 * so the runner can collect the files one by one, as vitest does; shared helpers are initialised
 * once, as with vitest's `isolate: false`.
 * - `vitest` resolves to the worker's own copy (globalThis.__courseVitest), one instance for all files;
 * - `../src/<file>` resolves to the learner's module the worker loaded (globalThis.__courseLearner);
 * - `import.meta.url` is the suite's place in the sandbox layout, so `new URL('../src/', import.meta.url)`
 *   names the learner's folder, where the worker loads their code (with a matching sourceURL).
 * - a Node module the worker provides (WORKER_NODE_MODULES: timers, http, events…) resolves to the
 *   worker's own (globalThis.__courseNodeModules), as the learner's code gets it;
 * - a helper `./x.ts` with a sibling `x.worker.ts` resolves to the sibling: what Node does with a
 *   child process, the worker does with a worker of its own (deadline-middleware's D8 check).
 * A suite that imports any other Node module cannot run in a worker: the build fails and says which.
 */
import { build, type Plugin } from 'esbuild';
import type { Exercise } from '../../grading/core/index.ts';
import { learnerImports } from '../../runner/worker/learner-imports.ts';

import {
  LEARNER_GLOBAL,
  NODE_MODULES_GLOBAL,
  SUITE_IMPORT_META_URL,
  VITEST_GLOBAL,
  WORKER_NODE_MODULES,
  WORKER_VARIANT,
} from '../../runner/worker/suite-paths.ts';

const ENTRY = 'course-suite-entry';

function inMemory(tests: Record<string, string>, support: Record<string, string>): Plugin {
  return {
    name: 'course-suite',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${ENTRY}$`) }, () => ({ path: ENTRY, namespace: 'suite' }));
      b.onResolve({ filter: /^vitest$/ }, () => ({ path: 'vitest', namespace: 'vitest' }));
      b.onResolve({ filter: /^node:|^(fs|path|os|child_process|module|url|http|net|events|stream|buffer|crypto|util|async_hooks|timers)(\/|$)/ }, (args) => {
        const name = args.path.replace(/^node:/, '');
        if (WORKER_NODE_MODULES.includes(name)) return { path: name, namespace: 'node' };
        return {
          errors: [
            {
              text: `${args.importer.replace(/^\//, '')} imports ${args.path}: a suite graded in a Web Worker can use only ${WORKER_NODE_MODULES.map((m) => `node:${m}`).join(', ')}`,
            },
          ],
        };
      });
      b.onLoad({ filter: /.*/, namespace: 'node' }, (args) => ({
        contents: `module.exports = globalThis.${NODE_MODULES_GLOBAL}[${JSON.stringify(args.path)}];`,
        loader: 'js',
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
        const path = `${from}${args.path.slice(2)}`;
        const variant = path.replace(/\.ts$/, WORKER_VARIANT);
        return { path: `/${variant in tests ? variant : path}`, namespace: 'tests' };
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
        const thunks = files.map((p) => `  ${JSON.stringify(p)}: () => import(${JSON.stringify(`./${p}`)}),`).join('\n');
        return { contents: `export const files = {\n${thunks}\n};\n`, loader: 'js', resolveDir: '/' };
      });
    },
  };
}

/**
 * The browser module for one exercise's suite (ESM text). `starter` holds the exercise's starter files:
 * the ones the learner cannot edit (service-chain's chain.ts) go with the suite, as the Node grader
 * puts them beside the learner's.
 */
export async function buildWorkerSuite(
  exercise: Exercise,
  tests: Record<string, string>,
  support: Record<string, string> = {},
  starter: Record<string, string> = {},
  testList?: string[],
): Promise<string> {
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
  const header = `// The hidden suite of "${exercise.id}", built for the in-page worker runner (src/pages/exercise-suites/_suite-build.ts).\n`;
  const readOnly = Object.fromEntries(exercise.files.filter((f) => !f.editable && f.path in starter).map((f) => [f.path, starter[f.path]!]));
  const data = [
    `export const exercise = ${JSON.stringify(exercise)};`,
    `export const needs = ${JSON.stringify(learnerImports(tests))};`,
    `export const readOnly = ${JSON.stringify(readOnly)};`,
    `export const testList = ${JSON.stringify(testList ?? null)};`,
  ].join('\n');
  return `${header}${result.outputFiles[0]!.text}${data}\n`;
}
