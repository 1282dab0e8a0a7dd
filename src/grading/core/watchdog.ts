/**
 * A synchronous endless loop blocks the test worker (a Node process or a browser Web Worker), so
 * vitest's per-test timeout never fires. The worker reports each test's start and end; a test still
 * open well past its timeout stops the run. Shared by the Node grader and the page's worker runner.
 */
import { hungTest, type ProgressEvent } from './events.ts';

export interface WatchdogDeps {
  /** The progress lines so far. */
  read(): ProgressEvent[] | Promise<ProgressEvent[]>;
  /** Stops the run. */
  kill(): void | Promise<void>;
  testTimeoutMs: number;
  /** How often to look; 0 turns the watchdog off. */
  intervalMs: number;
  /** Grace past the test's own timeout, so vitest reports an ordinary timeout when it can. */
  graceMs?: number;
}

export function startWatchdog(deps: WatchdogDeps) {
  const grace = deps.graceMs ?? 1500;
  let fired = false;
  let stopped = false;
  let openId: string | undefined;
  let openSince = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    if (stopped) return;
    const open = hungTest(await deps.read());
    const now = performance.now();
    if (open?.id !== openId) {
      openId = open?.id;
      openSince = now;
    } else if (openId && now - openSince > deps.testTimeoutMs + grace && !stopped) {
      fired = true;
      await deps.kill();
      return;
    }
    if (!stopped) timer = setTimeout(tick, deps.intervalMs);
  };
  if (deps.intervalMs > 0) timer = setTimeout(tick, deps.intervalMs);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    fired: () => fired,
  };
}
