import { describe, expect, test } from 'vitest';
import type { Report } from '../grading/core/types.ts';
import { canRun, initialState, next, type RunnerEvent, type RunnerState } from './run-state.ts';

const report: Report = { version: 3, status: 'pass', tests: [], typeErrors: [], counts: { passed: 1, failed: 0, total: 1 }, durationMs: 5 };
const play = (...events: RunnerEvent[]) => events.reduce<RunnerState>(next, initialState);

describe('runner state', () => {
  test('WebContainer path: preparing, installing, ready, running, done (with the click-to-results time)', () => {
    const phases: string[] = [];
    let s = initialState;
    for (const e of [
      { type: 'booting' },
      { type: 'booting', kind: 'webcontainer' },
      { type: 'installing' },
      { type: 'ready', kind: 'webcontainer' },
      { type: 'run', at: 100 },
      { type: 'graded', report, at: 350 },
    ] as RunnerEvent[]) {
      s = next(s, e);
      phases.push(s.phase);
    }
    expect(phases).toEqual(['preparing', 'preparing', 'installing', 'ready', 'running', 'done']);
    expect(s).toMatchObject({ phase: 'done', kind: 'webcontainer', elapsedMs: 250, report });
  });

  test('cannot run before a runner is ready or when none is available', () => {
    expect(canRun(initialState)).toBe(false);
    expect(play({ type: 'run', at: 1 }).phase).toBe('preparing');
    const none = play({ type: 'unavailable', reason: 'unreachable' });
    expect(none).toEqual({ phase: 'unavailable', reason: 'unreachable' });
    expect(next(none, { type: 'run', at: 1 })).toBe(none);
  });

  test('a failed run can be followed by another run', () => {
    const failed = play({ type: 'ready', kind: 'local' }, { type: 'run', at: 0 }, { type: 'error', message: 'network' });
    expect(failed).toEqual({ phase: 'failed', kind: 'local', message: 'network' });
    expect(canRun(failed)).toBe(true);
    expect(next(failed, { type: 'run', at: 5 }).phase).toBe('running');
  });

  test('a result that arrives when no run is in progress is ignored', () => {
    const ready = play({ type: 'ready', kind: 'local' });
    expect(next(ready, { type: 'graded', report, at: 1 })).toBe(ready);
  });

  test('a standby WebContainer can be run (it boots first), but a run event alone does not start it', () => {
    const standby = play({ type: 'booting' }, { type: 'standby', consent: false });
    expect(standby).toEqual({ phase: 'standby', kind: 'webcontainer', consent: false });
    expect(canRun(standby)).toBe(true);
    expect(next(standby, { type: 'run', at: 1 })).toBe(standby);
    const failed = next(standby, { type: 'unavailable', reason: 'unreachable', retry: true });
    expect(failed).toEqual({ phase: 'unavailable', reason: 'unreachable', retry: true });
    expect(next(failed, { type: 'booting', kind: 'webcontainer' }).phase).toBe('preparing');
  });
});
