/**
 * Runs a built suite in the worker with vitest's own pieces: @vitest/runner collects and runs the
 * tests (describe, test, hooks, fixtures, test.concurrent, per-test timeouts) and the suites get
 * vitest's `expect` and `vi`. vitest's TestRunner is not used: it expects a Vite module runner and an
 * RPC channel to a vitest process, neither of which exists in a page. This runner imports the built
 * test files instead, keeps vitest's expect state per test, and reports what happens as the same
 * events the Node grader's reporter writes.
 */
import { startTests, type File, type Suite, type Test, type VitestRunner, type VitestRunnerConfig } from '@vitest/runner';
import { getTests, getTestName } from '@vitest/runner/utils';
import { GLOBAL_EXPECT, getState, setState } from '@vitest/expect';
import { createExpect } from 'vitest';
import type { ProgressEvent, ReporterEvent, SerializedError } from '../../grading/core/index.ts';
import { seededRandom } from '../../../exercises/_env/grader-random.mjs';
import { missingExport } from './learner-imports.ts';

export interface BuiltSuite {
  /** Test file name (relative to tests/) → runs the file's top level once. */
  files: Record<string, () => unknown>;
  /** Test file name → learner file → names it imports. */
  needs: Record<string, Record<string, string[]>>;
  /** The exercise's files the learner cannot edit, loaded beside theirs. */
  readOnly?: Record<string, string>;
}

export interface RunDeps {
  suite: BuiltSuite;
  /** The learner's modules by file name, or the error that stopped them from loading. */
  learner: { modules: Record<string, Record<string, unknown>> } | { error: unknown };
  testTimeoutMs: number;
  event(e: ReporterEvent): void;
  progress(e: ProgressEvent): void;
  /** Test currently running, for console output (set and cleared here). */
  setCurrent(id: string | undefined): void;
  /** Unhandled errors seen during the run (read at the end). */
  unhandled(): SerializedError[];
}

const TESTS_DIR = '/exercise/tests/';
const MAX_TEXT = 4000;
const cut = (s: unknown) => (typeof s === 'string' && s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) + '…' : s);

export function serializeError(e: unknown): SerializedError {
  const err = (e ?? {}) as { name?: string; message?: string; stack?: string; diff?: string };
  return {
    name: err.name,
    message: String(cut(String(err.message ?? e))),
    ...(err.stack ? { stack: String(cut(err.stack)) } : {}),
    ...(err.diff ? { diff: String(cut(err.diff)) } : {}),
  };
}

function config(testTimeoutMs: number): VitestRunnerConfig {
  return {
    root: '/exercise',
    setupFiles: [],
    name: undefined,
    passWithNoTests: false,
    testNamePattern: undefined,
    allowOnly: false,
    sequence: { shuffle: false, concurrent: false, seed: 0, hooks: 'stack', setupFiles: 'parallel' },
    chaiConfig: undefined,
    maxConcurrency: 16, // as exercises/_env/vitest.config.mjs
    testTimeout: testTimeoutMs,
    hookTimeout: testTimeoutMs,
    retry: 0,
    includeTaskLocation: false,
    tags: [],
    tagsFilter: undefined,
    strictTags: false,
  };
}

const STATE: Record<string, 'passed' | 'failed' | 'skipped'> = { pass: 'passed', fail: 'failed', skip: 'skipped', todo: 'skipped' };

function ancestors(test: Test): string[] {
  const names: string[] = [];
  for (let p: Suite | undefined = test.suite; p && p.type === 'suite' && !('filepath' in p && p.filepath); p = p.suite) names.unshift(p.name);
  return names.filter(Boolean);
}

/** Runs every test file of the suite in name order, as the Node grader does. */
export async function runSuite(deps: RunDeps): Promise<void> {
  const { suite, learner } = deps;
  const expectState = () => (globalThis as unknown as Record<symbol, unknown>)[GLOBAL_EXPECT] as Parameters<typeof getState>[0];
  const endModule = (file: File) =>
    deps.event({ type: 'module-end', file: file.filepath, state: file.result?.state ?? 'pass', errors: (file.result?.errors ?? []).map(serializeError) });

  const runner: VitestRunner = {
    config: config(deps.testTimeoutMs),
    importFile(filepath) {
      const name = filepath.slice(TESTS_DIR.length);
      if ('error' in learner) throw learner.error;
      const missing = missingExport(suite.needs[name] ?? {}, learner.modules);
      if (missing) throw new SyntaxError(missing);
      const load = suite.files[name];
      if (!load) throw new Error(`tests/${name} is not part of the suite`);
      return load();
    },
    onCollected(files) {
      for (const file of files) {
        deps.event({ type: 'collected', file: file.filepath, tests: getTests(file).map((t) => ({ id: t.id, name: t.name, ancestors: ancestors(t) })) });
        if (file.result?.state === 'fail') endModule(file);
      }
    },
    extendTaskContext(context) {
      let local: ReturnType<typeof createExpect> | undefined;
      Object.defineProperty(context, 'expect', { get: () => (local ??= createExpect(context.task)) });
      Object.defineProperty(context, '_local', { get: () => local !== undefined });
      return context;
    },
    onBeforeRunTask(test) {
      if (test.mode !== 'run' && test.mode !== 'queued') return;
      deps.event({ type: 'start', id: test.id });
      deps.progress({ type: 'start', id: test.id, name: test.name });
      Math.random = seededRandom(test.name); // as the Node grader's setup file does
    },
    onBeforeTryTask(test) {
      deps.setCurrent(test.id);
      setState(
        {
          assertionCalls: 0,
          isExpectingAssertions: false,
          isExpectingAssertionsError: null,
          expectedAssertionsNumber: null,
          expectedAssertionsNumberErrorGen: null,
          currentTestName: getTestName(test),
        },
        expectState(),
      );
    },
    onAfterTryTask(test) {
      const ctx = test.context as unknown as { _local: boolean; expect: { getState(): ReturnType<typeof getState> } };
      const s = ctx._local ? ctx.expect.getState() : getState(expectState());
      if (s.expectedAssertionsNumber !== null && s.assertionCalls !== s.expectedAssertionsNumber) throw s.expectedAssertionsNumberErrorGen!();
      if (s.isExpectingAssertions === true && s.assertionCalls === 0) throw s.isExpectingAssertionsError;
    },
    onAfterRunTask(test) {
      deps.setCurrent(undefined);
      const r = test.result;
      const errors = (r?.errors ?? []).map(serializeError);
      deps.progress({ type: 'end', id: test.id, state: r?.state, errors: errors.map((e) => e.message.slice(0, 2000)) });
      deps.event({ type: 'result', id: test.id, state: STATE[r?.state ?? ''] ?? 'failed', duration: r?.duration ?? 0, errors });
    },
    onAfterRunSuite(s) {
      if ('filepath' in s && s.filepath && s.result?.state !== 'fail') endModule(s as File);
    },
  };

  const paths = Object.keys(suite.files)
    .sort()
    .map((name) => `${TESTS_DIR}${name}`);
  const files = await startTests(paths, runner);
  // Tests that never ran (skipped, todo) still get a result, as the Node reporter gives them.
  for (const test of files.flatMap((f) => getTests(f))) {
    if (!test.result || test.mode === 'skip' || test.mode === 'todo') deps.event({ type: 'result', id: test.id, state: 'skipped', duration: 0, errors: [] });
  }
  const failed = files.some((f) => f.result?.state === 'fail' || getTests(f).some((t) => t.result?.state === 'fail'));
  deps.event({ type: 'end', reason: failed ? 'failed' : 'passed', unhandled: deps.unhandled() });
}
