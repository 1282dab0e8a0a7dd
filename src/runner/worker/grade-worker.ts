/**
 * The grading worker: one per run, terminated by the page when the run ends or hangs, so nothing
 * from one attempt reaches the next. It loads the built suite, removes the types from the learner's
 * files and imports them (from blob: URLs named after their sandbox paths), then runs the suite and
 * posts each event as it happens, so a page that has to stop a hung run still knows how far it got.
 */
import { setSafeTimers } from '@vitest/utils/timers';
import { format } from '@vitest/utils/display';
import * as vitest from 'vitest';
import type { SerializedError } from '../../grading/core/events.ts';
import { installNodeGlobals, type TimerScope } from './node-globals.ts';
import type { GradeJob, WorkerMessage } from './protocol.ts';
import { LEARNER_GLOBAL, VITEST_GLOBAL } from './suite-paths.ts';
import { runSuite, serializeError, type BuiltSuite } from './suite-runner.ts';
import { linkImports, NODE_MODULES, NODE_MODULES_GLOBAL, nodeModuleSource } from './node-modules.ts';
import { stripTypes } from './strip-types.ts';

const scope = self as unknown as TimerScope & Record<string, unknown>;
// vitest's own timers (per-test timeouts) are the browser's, taken before the suite or the learner's
// code can replace them; everyone else gets Node-like timers.
setSafeTimers();
installNodeGlobals(scope);
// vi.useFakeTimers() and expect.poll read their defaults from vitest's worker state.
scope.__vitest_worker__ = {
  config: { fakeTimers: { loopLimit: 10_000, shouldClearNativeTimers: true }, expect: {}, snapshotOptions: { expand: false } },
  providedContext: {},
};
scope[VITEST_GLOBAL] = vitest;
scope[NODE_MODULES_GLOBAL] = NODE_MODULES;
const blobUrl = (code: string) => URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
const nodeModuleUrls = Object.fromEntries(Object.keys(NODE_MODULES).map((name) => [name, blobUrl(nodeModuleSource(name))]));

const post = (message: WorkerMessage) => postMessage(message);
let current: string | undefined;
const unhandled: SerializedError[] = [];
// Seen by the runtime's own listener, as vitest sees them in Node (a suite may swap the listeners).
(scope.process as { on(e: string, fn: (r: unknown) => void): void }).on('unhandledRejection', (reason) => unhandled.push(serializeError(reason)));
addEventListener('error', (e) => unhandled.push(serializeError(e.error ?? e.message)));

for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
  console[level] = (...args: unknown[]) =>
    post({
      type: 'event',
      event: { type: 'log', taskId: current, stream: level === 'error' || level === 'warn' ? 'stderr' : 'stdout', content: `${format(...args)}\n` },
    });
}

async function loadLearner(files: Record<string, string>) {
  const modules: Record<string, Record<string, unknown>> = {};
  scope[LEARNER_GLOBAL] = modules;
  for (const [path, source] of Object.entries(files)) {
    const url = blobUrl(linkImports(stripTypes(path, source), path, nodeModuleUrls));
    try {
      modules[path] = (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
    } finally {
      URL.revokeObjectURL(url);
    }
  }
  return modules;
}

addEventListener('message', async (e: MessageEvent<GradeJob>) => {
  const job = e.data;
  let suite: BuiltSuite;
  try {
    suite = (await import(/* @vite-ignore */ new URL(job.suiteUrl, location.origin).href)) as BuiltSuite;
  } catch (err) {
    return post({ type: 'failed', message: `${job.suiteUrl}: ${String(err)}` });
  }
  const learner = await loadLearner(job.files).then(
    (modules) => ({ modules }),
    (error: unknown) => ({ error }),
  );
  await runSuite({
    suite,
    learner,
    testTimeoutMs: job.testTimeoutMs,
    event: (event) => post({ type: 'event', event }),
    progress: (event) => post({ type: 'progress', event }),
    setCurrent: (id) => (current = id),
    unhandled: () => unhandled.splice(0),
  });
  post({ type: 'done' });
});
