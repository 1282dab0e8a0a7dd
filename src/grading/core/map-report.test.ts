import { describe, expect, test } from 'vitest';
import { mapReport } from './map-report.ts';
import { collected, end, lines, mapInput, result } from '../testing/test-fixtures.ts';

const base = mapInput;

const F = '/tmp/g/tests/b.test.ts';
const G = '/tmp/g/tests/a.test.ts';

describe('mapReport', () => {
  test('a passing run: version 3, tests in file order, titles as messages', () => {
    const events = lines(collected(F, ['R2 ends']), collected(G, ['R1 adds']), result(`${F}_0`, 'passed'), result(`${G}_0`, 'passed'), end());
    const r = mapReport(base({ events }));
    expect(r).toMatchObject({ version: 3, status: 'pass', counts: { passed: 2, failed: 0, total: 2 }, durationMs: 1234 });
    expect(r.tests.map((t) => t.name)).toEqual(['R1 adds', 'R2 ends']);
    expect(r.tests[0]).toMatchObject({ rule: 'R1', status: 'pass', message: 'Adds correctly', hint: '', details: '' });
  });

  test('a failure carries the rule message and hint in the requested language and what was observed', () => {
    const events = lines(
      collected(G, ['R1 adds', 'R2 ends']),
      result(`${G}_0`, 'failed', 'sum of 1 and 2: expected \u001b[31m4\u001b[39m to be 3 at /tmp/g/src/add.ts:1:1'),
      result(`${G}_1`, 'passed'),
      end(),
    );
    const r = mapReport(base({ events, lang: 'vi' }));
    expect(r.status).toBe('fail');
    expect(r.counts).toEqual({ passed: 1, failed: 1, total: 2 });
    expect(r.tests[0]).toMatchObject({
      status: 'fail',
      message: 'Phép cộng của bạn sai.',
      hint: 'Dùng toán tử +.',
      details: 'sum of 1 and 2: expected 4 to be 3 at src/add.ts:1:1',
    });
  });

  test('captured console output is attached per test and capped at 500 characters', () => {
    const events = lines(
      collected(G, ['R1 adds']),
      { type: 'log', taskId: `${G}_0`, stream: 'stdout', content: 'x'.repeat(700) },
      result(`${G}_0`, 'passed'),
      end(),
    );
    expect(mapReport(base({ events })).tests[0]!.output).toHaveLength(500);
  });

  test('a per-test timeout is a failed test marked timedOut', () => {
    const events = lines(collected(G, ['R2 ends']), result(`${G}_0`, 'failed', 'Test timed out in 500ms.\nIf this is a long-running test…'), end());
    const t = mapReport(base({ events })).tests[0]!;
    expect(t).toMatchObject({ status: 'fail', timedOut: true, message: 'Your function hangs.' });
    expect(t.details).toMatch(/^Timed out after 500 ms/);
  });

  test('a load error is status error with the learner file location', () => {
    const events = lines(
      collected(G, []),
      { type: 'module-end', file: G, state: 'failed', errors: [{ message: 'Transform failed with 1 error:\n/tmp/g/src/add.ts:2:4: ERROR: Unexpected "}"' }] },
      end(),
    );
    const r = mapReport(base({ events, run: { exitCode: 1, output: '', timedOut: false, durationMs: 10 } }));
    expect(r.status).toBe('error');
    expect(r.error).toEqual({ file: 'add.ts', line: 2, column: 4, message: 'Unexpected "}"' });
    expect(r.message).toBe('add.ts could not be loaded (line 2, column 4): Unexpected "}"');
    expect(r.tests).toEqual([]);
  });

  test('a stopped run names the test that never finished and marks the rest not run', () => {
    const events = lines(collected(G, ['R1 adds', 'R2 ends', 'R2 again']));
    const progress = lines(
      { type: 'start', id: `${G}_0`, name: 'R1 adds' },
      { type: 'end', id: `${G}_0`, state: 'pass', errors: [] },
      { type: 'start', id: `${G}_1`, name: 'R2 ends' },
    );
    const r = mapReport(base({ events, progress, stopped: true, run: { exitCode: null, output: '', timedOut: false, durationMs: 2400 } }));
    expect(r.status).toBe('error');
    expect(r.message).toContain('test "R2 ends" never finished');
    expect(r.tests.map((t) => [t.name, t.status, t.timedOut ?? false])).toEqual([
      ['R1 adds', 'pass', false],
      ['R2 ends', 'error', true],
      ['R2 again', 'error', false],
    ]);
  });

  test('a stopped run gives the hung and not-run tests no rule hint, and lists the rules whose tests never loaded', () => {
    const events = lines(collected(G, ['R1 adds', 'R1 again']));
    const progress = lines({ type: 'start', id: `${G}_0`, name: 'R1 adds' });
    const r = mapReport(base({ events, progress, stopped: true, run: { exitCode: null, output: '', timedOut: false, durationMs: 2400 } }));
    expect(r.tests.map((t) => [t.name, t.hint, t.timedOut ?? false, t.notRun ?? false])).toEqual([
      ['R1 adds', '', true, false],
      ['R1 again', '', false, true],
    ]);
    expect(r.tests[1]!.details).toBe('Not run: the run was stopped before this test.');
    expect(r.tests[1]!.message).toBe('');
    // R2's file was never collected: the report says so instead of pretending the suite had 2 tests.
    expect(r.notRunRules).toEqual(['R2']);
    expect(
      mapReport(base({ events: lines(collected(G, ['R1 adds', 'R2 ends']), result(`${G}_0`, 'passed'), result(`${G}_1`, 'passed'), end()) })).notRunRules,
    ).toBeUndefined();
  });

  test('a stopped run with concurrent tests marks every one still running as timed out', () => {
    const events = lines(collected(G, ['D1 a', 'D1 b', 'D1 c', 'D2 d']));
    const progress = lines(
      { type: 'start', id: `${G}_0`, name: 'D1 a' },
      { type: 'start', id: `${G}_1`, name: 'D1 b' },
      { type: 'start', id: `${G}_2`, name: 'D1 c' },
      { type: 'end', id: `${G}_1`, state: 'pass', errors: [] },
    );
    const r = mapReport(base({ events, progress, stopped: true, run: { exitCode: null, output: '', timedOut: false, durationMs: 2400 } }));
    expect(r.status).toBe('error');
    // Either of the two still running may hold the loop: the message says so, not that D1 a did.
    expect(r.message).toContain('2 tests running side by side never finished, the first of them to start being "D1 a" (rules D1)');
    expect(r.message).toContain('The 1 tests after them were never reached');
    expect(r.tests.map((t) => [t.name, t.status, t.timedOut ?? false])).toEqual([
      ['D1 a', 'error', true],
      ['D1 b', 'pass', false],
      ['D1 c', 'error', true],
      ['D2 d', 'error', false],
    ]);
  });

  test('a run that ends without results is an error quoting its output', () => {
    const r = mapReport(base({ events: '', run: { exitCode: 1, output: 'Error: Cannot find package vitest', timedOut: false, durationMs: 5 } }));
    expect(r.status).toBe('error');
    expect(r.message).toContain('Cannot find package vitest');
  });

  test('unhandled errors after passing tests are reported without failing the run', () => {
    const events = lines(collected(G, ['R1 adds']), result(`${G}_0`, 'passed'), end([{ message: 'late timer threw' }]));
    const r = mapReport(base({ events }));
    expect(r.status).toBe('pass');
    expect(r.message).toContain('late timer threw');
  });

  test('type errors are reported beside a passing run', () => {
    const events = lines(collected(G, ['R1 adds']), result(`${G}_0`, 'passed'), end());
    const typeErrors = [{ file: 'add.ts', line: 1, column: 2, message: 'TS2322: nope' }];
    const r = mapReport(base({ events, typeErrors }));
    expect(r.status).toBe('pass');
    expect(r.typeErrors).toEqual(typeErrors);
  });
});
