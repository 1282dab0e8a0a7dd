/**
 * The grading worker: one per run, terminated by the page when the run ends or hangs, so nothing
 * from one attempt reaches the next. It installs Node (node/: globals, the built-in modules, fetch
 * over the page's loopback, Node-shaped stacks), loads the built suite, removes the types from the
 * learner's files and imports them (from blob: URLs named after their sandbox paths), then runs the
 * suite and posts each event as it happens, so a page that has to stop a hung run still knows how
 * far it got.
 */
import { setSafeTimers } from '@vitest/utils/timers';
import { format } from '@vitest/utils/display';
import * as vitest from 'vitest';
import type { SerializedError } from '../../grading/core/index.ts';
import { childRelay, spawnChild } from './child-process.ts';
import { importLearnerFiles, nodeModuleUrls, sandboxUrlOf } from './learner-modules.ts';
import { installNodeRuntime, type TimerScope } from './node/index.ts';
import { isChildReply, type GradeJob, type PageMessage, type WorkerMessage } from './protocol.ts';
import { CHILD_PROCESS_GLOBAL, LEARNER_GLOBAL, NODE_MODULES_GLOBAL, VITEST_GLOBAL } from './suite-paths.ts';
import { runSuite, serializeError, type BuiltSuite } from './suite-runner.ts';
import { stripTypes } from './strip-types.ts';

const scope = self as unknown as TimerScope & Record<string, unknown>;
// vitest's own timers (per-test timeouts) are the browser's, taken before the suite or the learner's
// code can replace them; everyone else gets Node's.
setSafeTimers();
const { modules } = installNodeRuntime(scope, sandboxUrlOf);
// vi.useFakeTimers() and expect.poll read their defaults from vitest's worker state.
scope.__vitest_worker__ = {
  config: { fakeTimers: { loopLimit: 10_000, shouldClearNativeTimers: true }, expect: {}, snapshotOptions: { expand: false } },
  providedContext: {},
};
scope[VITEST_GLOBAL] = vitest;
scope[NODE_MODULES_GLOBAL] = modules;
const nodeUrls = nodeModuleUrls(modules);

const post = (message: WorkerMessage) => postMessage(message);
// A suite's "child processes" are workers the page starts (child-process.ts says why).
const children = childRelay(post);
let current: string | undefined;
const unhandled: SerializedError[] = [];
// Seen by the runtime's own listener, as vitest sees them in Node (a suite may swap the listeners).
(scope.process as { on(e: string, fn: (r: unknown) => void): void }).on('unhandledRejection', (reason) => unhandled.push(serializeError(reason)));
// An error thrown where no test can catch it (a server's request listener, a timer) is an unhandled
// error of the run, as vitest reports it in Node; it must not end the worker's run.
addEventListener('error', (e) => {
  e.preventDefault();
  unhandled.push(serializeError(e.error ?? e.message));
});

for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
  console[level] = (...args: unknown[]) =>
    post({
      type: 'event',
      event: { type: 'log', taskId: current, stream: level === 'error' || level === 'warn' ? 'stderr' : 'stdout', content: `${format(...args)}\n` },
    });
}

async function loadLearner(files: Record<string, string>) {
  const code = Object.fromEntries(Object.entries(files).map(([path, source]) => [path, stripTypes(path, source)]));
  // Where a suite would start a Node process with the learner's code, it gets a worker of its own.
  scope[CHILD_PROCESS_GLOBAL] = (main: string) => spawnChild(children.create, { main, code });
  const { modules: learner } = await importLearnerFiles(code, nodeUrls);
  scope[LEARNER_GLOBAL] = learner;
  return learner;
}

addEventListener('message', async (e: MessageEvent<PageMessage>) => {
  if (isChildReply(e.data)) return children.receive(e.data);
  const job: GradeJob = e.data;
  let suite: BuiltSuite;
  try {
    suite = (await import(/* @vite-ignore */ new URL(job.suiteUrl, location.origin).href)) as BuiltSuite;
  } catch (err) {
    return post({ type: 'failed', message: `${job.suiteUrl}: ${String(err)}` });
  }
  const learner = await loadLearner({ ...suite.readOnly, ...job.files }).then(
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
