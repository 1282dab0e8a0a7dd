// Names shared by the suite build (Node, build time) and the worker that runs the suite (browser).

/** `import.meta.url` of every built suite file: its place in the sandbox layout the Node grader uses. */
export const SUITE_IMPORT_META_URL = 'file:///exercise/tests/suite.ts';
/** Where the learner's files appear in stack traces (their `//# sourceURL`): `../src/` from the suite. */
export const LEARNER_URL_PREFIX = 'file:///exercise/src/';
/** The worker's vitest API, read by the built suites instead of a copy of their own. */
export const VITEST_GLOBAL = '__courseVitest';
/** The learner's modules by file name, read by the built suites' `../src/<file>` imports. */
export const LEARNER_GLOBAL = '__courseLearner';
/** The worker's Node modules by name (node/modules.ts), read by built suites and the learner's blob: modules. */
export const NODE_MODULES_GLOBAL = '__courseNodeModules';
/** Where the built suites are served. */
export const suiteUrl = (id: string) => `/exercise-suites/${id}.js`;
/** The Node modules the worker provides (node/modules.ts), which a built suite takes from its registry. */
export const WORKER_NODE_MODULES = [
  'timers',
  'timers/promises',
  'http',
  'net',
  'events',
  'stream',
  'stream/promises',
  'buffer',
  'crypto',
  'url',
  'util',
  'async_hooks',
];
/** Where a suite finds the worker's "child process" (child-process.ts). */
export const CHILD_PROCESS_GLOBAL = '__courseSpawn';
/** A test helper `x.ts` with a sibling `x.worker.ts`: the worker build takes the sibling (for what Node does with processes). */
export const WORKER_VARIANT = '.worker.ts';
