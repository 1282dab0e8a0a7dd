/**
 * A synchronous endless loop blocks the test worker (a Node process or a browser Web Worker), so
 * vitest's per-test timeout never fires. The worker reports each test's start and end; a test still
 * open well past its timeout stops the run. So does a gap between tests (or between test files) that
 * lasts longer than two test timeouts once the first test has run: something that never returns
 * started after a test, where no test's timeout can see it. Shared by the Node grader and the page's
 * worker runner.
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
  let seen = 0; // progress lines read so far: a new one means the run moved
  let quietSince = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    if (stopped) return;
    const progress = await deps.read();
    const open = hungTest(progress);
    const now = performance.now();
    if (progress.length !== seen) {
      seen = progress.length;
      quietSince = now;
    }
    const stuckInTest = openId !== undefined && open?.id === openId && now - openSince > deps.testTimeoutMs + grace;
    const stuckBetween = open === undefined && seen > 0 && now - quietSince > 2 * deps.testTimeoutMs + grace;
    if (open?.id !== openId) {
      openId = open?.id;
      openSince = now;
    } else if ((stuckInTest || stuckBetween) && !stopped) {
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
