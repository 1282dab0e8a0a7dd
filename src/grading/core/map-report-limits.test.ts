// How a run stopped by a sandbox limit (ConfinedSandbox) reads in the report, in both languages.
import { describe, expect, test } from 'vitest';
import { mapReport } from './map-report.ts';
import { collected, end, lines, mapInput, result } from '../testing/test-fixtures.ts';

const G = '/tmp/g/tests/a.test.ts';

const base = mapInput;

const memoryStop = { exitCode: null, output: '', timedOut: false, durationMs: 800, limit: { kind: 'memory' as const, mb: 256 } };

describe('mapReport with a sandbox limit', () => {
  test('a memory stop names the limit and the test that was running; later tests were not run', () => {
    const events = lines(collected(G, ['R1 adds', 'R2 ends', 'R2 again']), result(`${G}_0`, 'passed'));
    const progress = lines(
      { type: 'start', id: `${G}_0`, name: 'R1 adds' },
      { type: 'end', id: `${G}_0`, state: 'pass', errors: [] },
      { type: 'start', id: `${G}_1`, name: 'R2 ends' },
    );
    const r = mapReport(base({ events, progress, run: memoryStop }));
    expect(r.status).toBe('error');
    expect(r.message).toBe('The run was stopped: it used more than 256 MB of memory while test "R2 ends" ran. Look for data that grows without end (rule R2).');
    expect(r.tests.map((t) => [t.name, t.status])).toEqual([
      ['R1 adds', 'pass'],
      ['R2 ends', 'error'],
      ['R2 again', 'error'],
    ]);
    expect(r.tests[1]!.details).toBe('Still running when the run was stopped for using more than 256 MB of memory.');
    expect(r.tests[1]!.timedOut).toBeUndefined();
    expect(r.tests[2]!.details).toBe('Not run: the run was stopped before this test.');
  });

  test('a memory stop before any test started says so, in Vietnamese too', () => {
    const en = mapReport(base({ run: memoryStop }));
    expect(en.status).toBe('error');
    expect(en.message).toContain('more than 256 MB of memory before any test finished');
    const vi = mapReport(base({ run: memoryStop, lang: 'vi' }));
    expect(vi.message).toContain('dùng quá 256 MB bộ nhớ trước khi có test nào xong');
  });

  test('the memory limit wins over the load error the killed worker leaves behind', () => {
    const events = lines(collected(G, []), { type: 'module-end', file: G, state: 'failed', errors: [{ message: 'Worker exited unexpectedly' }] }, end());
    const r = mapReport(base({ events, run: { ...memoryStop, exitCode: 1 } }));
    expect(r.status).toBe('error');
    expect(r.message).toContain('256 MB');
  });

  test('a time limit keeps the existing stopped-run message', () => {
    const progress = lines({ type: 'start', id: `${G}_0`, name: 'R1 adds' });
    const events = lines(collected(G, ['R1 adds']));
    const run = { exitCode: null, output: '', timedOut: true, durationMs: 4000, limit: { kind: 'time' as const, ms: 4000 } };
    const r = mapReport(base({ events, progress, run }));
    expect(r.status).toBe('error');
    expect(r.message).toContain('test "R1 adds" never finished');
    expect(r.tests[0]).toMatchObject({ status: 'error', timedOut: true });
  });
});
