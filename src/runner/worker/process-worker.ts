/**
 * A "child process" of the grading worker (child-process.ts): Node installed afresh, the learner's
 * files and one main script. It exits as a Node process does: once nothing keeps its event loop
 * alive (checked after every turn of polling, so a timer that re-arms itself keeps it running),
 * or at process.exit(code); an uncaught error or unhandled rejection ends it with code 1.
 */
import type { ChildJob, ChildMessage } from './child-process.ts';
import { importLearnerFiles, linkedModuleUrl, nodeModuleUrls, sandboxUrlOf } from './learner-modules.ts';
import { installNodeRuntime, type TimerScope } from './node/index.ts';
import { NODE_MODULES_GLOBAL } from './suite-paths.ts';

const scope = self as unknown as TimerScope & Record<string, unknown>;
const { rt, modules } = installNodeRuntime(scope, sandboxUrlOf);
scope[NODE_MODULES_GLOBAL] = modules;
const post = (m: ChildMessage) => postMessage(m);
let exited = false;
const exit = (code: number) => {
  if (exited) return;
  exited = true;
  post({ type: 'exit', code });
};

const proc = scope.process as Record<string, unknown>;
const writer = (type: 'stdout' | 'stderr') => ({ write: (text: unknown) => (post({ type, text: String(text) }), true) });
proc.stdout = writer('stdout');
proc.stderr = writer('stderr');
proc.exit = (code = 0) => exit(Number(code));
console.log = (...args: unknown[]) => post({ type: 'stdout', text: `${args.map(String).join(' ')}\n` });
console.error = (...args: unknown[]) => post({ type: 'stderr', text: `${args.map(String).join(' ')}\n` });
// An uncaught error ends this "process" (as it ends a Node process): it is reported here, not to the grading worker.
addEventListener('error', (e) => {
  e.preventDefault();
  post({ type: 'stderr', text: String(e.error?.stack ?? e.message) });
  exit(1);
});
addEventListener('unhandledrejection', (e) => {
  e.preventDefault();
  post({ type: 'stderr', text: String((e.reason as Error)?.stack ?? e.reason) });
  exit(1);
});

/** Node exits when no ref'd handle is left: look again every few milliseconds. */
function exitWhenIdle(): void {
  if (exited) return;
  if (rt.handles.refCount() === 0) exit(0);
  else rt.setTimer(exitWhenIdle, 5);
}

addEventListener('message', async ({ data }: MessageEvent<ChildJob>) => {
  try {
    const { urls } = await importLearnerFiles(data.code, nodeModuleUrls(modules));
    await import(/* @vite-ignore */ linkedModuleUrl(data.main, 'main.mjs', urls));
  } catch (err) {
    post({ type: 'stderr', text: String((err as Error)?.stack ?? err) });
    return exit(1);
  }
  exitWhenIdle();
});
