/**
 * Exercise files read at build time (server only): the starter code the workspace renders, the
 * bundle the browser fetches to grade in a WebContainer, and the suites the worker runner imports.
 * Validated with the grading engine's schema.
 */
import { parseExercise, type Exercise } from '../grading/core/exercise-schema.ts';
import { ENV_FILES, parseTestList } from '../grading/core/source.ts';
import type { ClientBundle } from '../runner/bundle.ts';
import { solutionsPublished } from './solutions-policy.ts';

const raw = (glob: Record<string, unknown>) => glob as Record<string, string>;
const exerciseJson = raw(import.meta.glob('/exercises/*/exercise.json', { eager: true, query: '?raw', import: 'default' }));
const starters = raw(import.meta.glob('/exercises/*/starter/**/*', { eager: true, query: '?raw', import: 'default' }));
const tests = raw(import.meta.glob('/exercises/*/tests/**/*', { eager: true, query: '?raw', import: 'default' }));
const envFiles = raw(
  import.meta.glob(['/exercises/_env/*.{json,mjs}', '/exercises/_env/test-support/*.ts'], { eager: true, query: '?raw', import: 'default' }),
);
const testLists = raw(import.meta.glob('/exercises/*/test-list.json', { eager: true, query: '?raw', import: 'default' }));
const solutions = raw(import.meta.glob('/solutions/*/*.ts', { eager: true, query: '?raw', import: 'default' }));

function under(glob: Record<string, string>, prefix: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(glob)
      .filter(([p]) => p.startsWith(prefix))
      .map(([p, text]) => [p.slice(prefix.length), text]),
  );
}

export function exerciseIds(): string[] {
  return Object.keys(exerciseJson)
    .map((p) => p.split('/')[2]!)
    .sort();
}

export function loadExercise(id: string): { exercise: Exercise; starter: Record<string, string> } | undefined {
  const json = exerciseJson[`/exercises/${id}/exercise.json`];
  if (!json) return undefined;
  return { exercise: parseExercise(JSON.parse(json)), starter: under(starters, `/exercises/${id}/starter/`) };
}

/** The hidden suite's files, relative to the exercise's tests/ folder. */
export function suiteFiles(id: string): Record<string, string> {
  return under(tests, `/exercises/${id}/tests/`);
}

/** Every test of the suite, in order (exercises/<id>/test-list.json), or undefined where there is none. */
export function testList(id: string): string[] | undefined {
  const text = testLists[`/exercises/${id}/test-list.json`];
  return text === undefined ? undefined : parseTestList(text);
}

/** The support the hidden suites share (exercises/_env/test-support/), by file name. */
export function testSupportFiles(): Record<string, string> {
  return under(envFiles, '/exercises/_env/test-support/');
}

export function clientBundle(id: string): ClientBundle {
  const loaded = loadExercise(id);
  if (!loaded) throw new Error(`unknown exercise ${id}`);
  const envAll = under(envFiles, '/exercises/_env/');
  const lockfile = envAll['package-lock.json'];
  if (!lockfile) throw new Error('exercises/_env/package-lock.json is missing: WebContainer installs need it');
  return {
    ...loaded,
    env: Object.fromEntries(ENV_FILES.map((name) => [name, envAll[name] ?? ''])),
    lockfile,
    tests: suiteFiles(id),
    ...(testList(id) ? { testList: testList(id) } : {}),
    // Left out of a build for a course under assessment (COURSE_HIDE_SOLUTIONS=1): see solutions-policy.ts.
    solution: solutionsPublished() ? under(solutions, `/solutions/${id}/`) : {},
  };
}
