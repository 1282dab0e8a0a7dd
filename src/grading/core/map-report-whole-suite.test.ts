// A run is scored against the whole suite (the exercise's test-list.json), not against what it
// collected: a learner's code that stops the run early, or keeps a test file from being collected,
// cannot make the suite smaller.
import { describe, expect, test } from 'vitest';
import { mapReport } from './map-report.ts';
import { collected, end, lines, mapInput, result } from '../testing/test-fixtures.ts';

const A = '/tmp/g/tests/a.test.ts';
const B = '/tmp/g/tests/b.test.ts';
const SUITE = ['R1 adds', 'R2 ends', 'R2 again'];
const started = (id: string, name: string) => ({ type: 'start', id, name });
const ended = (id: string) => ({ type: 'end', id, state: 'pass', errors: [] });

describe('scored against the whole suite', () => {
  test('stopped between files, with the last file never collected: its tests count as failed, "never reached", and the message says where it stopped', () => {
    const events = lines(collected(A, ['R1 adds']), result(`${A}_0`, 'passed'));
    const progress = lines(started(`${A}_0`, 'R1 adds'), ended(`${A}_0`));
    const run = { exitCode: null, output: '', timedOut: true, durationMs: 30_000 };
    const r = mapReport(mapInput({ events, progress, run, expectedTests: SUITE }));
    expect(r.status).toBe('error');
    expect(r.counts).toEqual({ passed: 1, failed: 2, total: 3 });
    expect(r.tests.map((t) => [t.name, t.status, t.notRun === true])).toEqual([
      ['R1 adds', 'pass', false],
      ['R2 ends', 'error', true],
      ['R2 again', 'error', true],
    ]);
    expect(r.tests[1]!.details).toBe('Never reached: the run ended before this test was collected or run. It counts as failed.');
    expect(r.message).toBe(
      'The run was stopped after 30000 ms between two tests, and the 2 tests it never reached count as failed: after "R1 adds" nothing ran any more (something that never returns, started by your code after a test?).',
    );
    const vi = mapReport(mapInput({ events, progress, run, expectedTests: SUITE, lang: 'vi' }));
    expect(vi.message).toContain('giữa hai test, và 2 test chưa bao giờ được chạy tới');
    expect(vi.tests[2]!.details).toContain('Chưa bao giờ được chạy tới');
  });

  test('without the list the same run would have looked complete: 1/1', () => {
    const events = lines(collected(A, ['R1 adds']), result(`${A}_0`, 'passed'), end());
    expect(mapReport(mapInput({ events })).counts).toEqual({ passed: 1, failed: 0, total: 1 });
    const r = mapReport(mapInput({ events, expectedTests: SUITE }));
    expect(r.status).toBe('error');
    expect(r.counts).toEqual({ passed: 1, failed: 2, total: 3 });
    expect(r.message).toBe('The run ended before every test of the suite had run: 2 of 3 tests were never reached, and count as failed.');
  });

  test('a complete run is unchanged by the list, and a skipped test of the suite is not "never reached"', () => {
    const events = lines(
      collected(A, ['R1 adds']),
      collected(B, ['R2 ends', 'R2 again']),
      result(`${A}_0`, 'passed'),
      result(`${B}_0`, 'passed'),
      result(`${B}_1`, 'passed'),
      end(),
    );
    const r = mapReport(mapInput({ events, expectedTests: SUITE }));
    expect(r).toMatchObject({ status: 'pass', counts: { passed: 3, failed: 0, total: 3 } });
    const skipping = lines(
      collected(A, ['R1 adds']),
      collected(B, ['R2 ends', 'R2 again']),
      result(`${A}_0`, 'passed'),
      result(`${B}_0`, 'passed'),
      { type: 'result', id: `${B}_1`, state: 'skipped', duration: 0, errors: [] },
      end(),
    );
    expect(mapReport(mapInput({ events: skipping, expectedTests: SUITE })).status).toBe('pass');
  });
});
