import { describe, expect, test } from 'vitest';
import type { Report, TestReport } from '../grading/core/types.ts';
import { groupByRule, ownName, runCounts } from './rule-groups.ts';

const t = (name: string, status: TestReport['status'], extra: Partial<TestReport> = {}): TestReport => ({
  rule: name.split(' ')[0]!,
  name,
  status,
  message: status === 'pass' ? 'title' : `message of ${name.split(' ')[0]}`,
  hint: status === 'pass' ? '' : `hint of ${name.split(' ')[0]}`,
  details: '',
  duration: 1,
  output: '',
  ...extra,
});
const report = (tests: TestReport[], notRunRules?: string[]): Report => ({
  version: 3,
  status: 'fail',
  tests,
  ...(notRunRules ? { notRunRules } : {}),
  typeErrors: [],
  counts: { passed: 0, failed: 0, total: tests.length },
  durationMs: 1,
});

describe('groupByRule', () => {
  test('failing rules first (message and hint once), then not run, then passing; by rule id within each', () => {
    const groups = groupByRule(
      report(
        [
          t('R1 a', 'pass'),
          t('R10 b', 'fail'),
          t('R10 c', 'fail'),
          t('R2 d', 'pass'),
          t('R2 e', 'fail'),
          t('R3 f', 'error', { notRun: true, message: '', hint: '' }),
        ],
        ['R11'],
      ),
    );
    expect(groups.map((g) => [g.rule, g.status, g.tests.length])).toEqual([
      ['R2', 'fail', 2],
      ['R10', 'fail', 2],
      ['R3', 'not-run', 1],
      ['R11', 'not-run', 0],
      ['R1', 'pass', 1],
    ]);
    expect(groups[1]).toMatchObject({ message: 'message of R10', hint: 'hint of R10' });
    expect(groups[2]).toMatchObject({ message: '', hint: '' });
  });

  test('a hung test fails its rule without borrowing an unrelated hint', () => {
    const [group] = groupByRule(report([t('R4 loops', 'error', { timedOut: true, message: '', hint: '', details: 'Still running' })]));
    expect(group).toMatchObject({ rule: 'R4', status: 'fail', message: '', hint: '' });
  });
});

test('runCounts counts what ran and what never did, so a stopped run shows no false total', () => {
  const r = report([t('R1 a', 'pass'), t('R2 b', 'error', { timedOut: true }), t('R2 c', 'error', { notRun: true })], ['R3']);
  expect(runCounts(r)).toEqual({ passed: 1, failed: 1, notRun: 1, total: 3, stopped: true });
  expect(runCounts(report([t('R1 a', 'pass')])).stopped).toBe(false);
});

test('ownName drops the rule id the test name starts with', () => {
  expect(ownName(t('R7 waits the delay', 'pass'))).toBe('waits the delay');
});
