import { afterEach, describe, expect, test, vi } from 'vitest';
import type { ProgressEvent } from './events.ts';
import { startWatchdog } from './watchdog.ts';

afterEach(() => vi.useRealTimers());

/** A watchdog over a progress list the test fills in, on fake time. */
function watched(testTimeoutMs = 1000) {
  vi.useFakeTimers();
  const progress: ProgressEvent[] = [];
  const kill = vi.fn();
  const dog = startWatchdog({ read: () => progress, kill, testTimeoutMs, intervalMs: 100, graceMs: 500 });
  const start = (id: string) => progress.push({ type: 'start', id, name: `R1 ${id}` });
  const end = (id: string) => progress.push({ type: 'end', id, state: 'pass', errors: [] });
  return { progress, kill, dog, start, end, wait: (ms: number) => vi.advanceTimersByTimeAsync(ms) };
}

describe('the watchdog', () => {
  test('stops a test still open past its timeout (and grace)', async () => {
    const w = watched();
    w.start('a');
    await w.wait(1400);
    expect(w.kill).not.toHaveBeenCalled();
    await w.wait(300);
    expect(w.kill).toHaveBeenCalledOnce();
    expect(w.dog.fired()).toBe(true);
  });

  test('stops a run that goes quiet between two tests for more than two test timeouts', async () => {
    const w = watched();
    w.start('a');
    await w.wait(200);
    w.end('a');
    await w.wait(2300); // 2 × 1000 + 500 of grace, counted from the first look after the end
    expect(w.kill).not.toHaveBeenCalled();
    await w.wait(400);
    expect(w.kill).toHaveBeenCalledOnce();
  });

  test('leaves alone a run that keeps moving, and the time before the first test (loading)', async () => {
    const w = watched();
    await w.wait(10_000); // loading: the run's own limit bounds it
    for (const id of ['a', 'b', 'c', 'd']) {
      w.start(id);
      await w.wait(900);
      w.end(id);
      await w.wait(1900); // a long gap (another file's collection), but shorter than two timeouts and grace
    }
    expect(w.kill).not.toHaveBeenCalled();
    w.dog.stop();
  });
});
