// Names shared by the suite build (Node, build time) and the worker that runs the suite (browser).

/** `import.meta.url` of every built suite file: its place in the sandbox layout the Node grader uses. */
export const SUITE_IMPORT_META_URL = 'file:///exercise/tests/suite.ts';
/** Where the learner's files appear in stack traces (their `//# sourceURL`): `../src/` from the suite. */
export const LEARNER_URL_PREFIX = 'file:///exercise/src/';
/** The worker's vitest API, read by the built suites instead of a copy of their own. */
export const VITEST_GLOBAL = '__courseVitest';
/** The learner's modules by file name, read by the built suites' `../src/<file>` imports. */
export const LEARNER_GLOBAL = '__courseLearner';
/** Where the built suites are served. */
export const suiteUrl = (id: string) => `/exercise-suites/${id}.js`;
