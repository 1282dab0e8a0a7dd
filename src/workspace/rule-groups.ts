/**
 * A grading report regrouped the way a learner reads it: one entry per rule, failing rules first
 * (each message and hint once, the failing tests under it), then the rules a stopped run never
 * reached, then the passing rules. Pure, so the order and the counts are unit-tested.
 */
import { compareRuleIds } from '../grading/core/rules.ts';
import type { Report, TestReport } from '../grading/core/index.ts';

export type GroupStatus = 'fail' | 'not-run' | 'pass';

export interface RuleGroup {
  rule: string;
  status: GroupStatus;
  /** Every test of the rule, in the report's order. */
  tests: TestReport[];
  /** The rule's message and hint, from its first failing test that carries them (once per rule). */
  message: string;
  hint: string;
}

/** The run was stopped while this test ran or before it started (it says nothing about its rule). */
export const stoppedByRun = (t: TestReport) => t.notRun === true || (t.timedOut === true && t.status === 'error');

const failed = (t: TestReport) => t.status !== 'pass' && !t.notRun;

export function groupByRule(report: Report): RuleGroup[] {
  const byRule = new Map<string, TestReport[]>();
  for (const test of report.tests) byRule.set(test.rule, [...(byRule.get(test.rule) ?? []), test]);
  const groups: RuleGroup[] = [...byRule].map(([rule, tests]) => {
    const status: GroupStatus = tests.some(failed) ? 'fail' : tests.some((t) => t.notRun) ? 'not-run' : 'pass';
    const withText = tests.find((t) => failed(t) && t.message);
    return { rule, status, tests, message: withText?.message ?? '', hint: withText?.hint ?? '' };
  });
  for (const rule of report.notRunRules ?? []) groups.push({ rule, status: 'not-run', tests: [], message: '', hint: '' });
  const rank: Record<GroupStatus, number> = { fail: 0, 'not-run': 1, pass: 2 };
  return groups.sort((a, b) => rank[a.status] - rank[b.status] || compareRuleIds(a.rule, b.rule));
}

/** What the summary line counts: a stopped run says how many tests never ran instead of a false total. */
export function runCounts(report: Report) {
  const notRun = report.tests.filter((t) => t.notRun).length;
  const passed = report.tests.filter((t) => t.status === 'pass').length;
  const stopped = notRun > 0 || (report.notRunRules?.length ?? 0) > 0;
  return { passed, failed: report.tests.length - passed - notRun, notRun, total: report.tests.length, stopped };
}

/** A test's name without the rule id it starts with ("R7 waits …" → "waits …"). */
export function ownName(test: TestReport): string {
  return test.name.startsWith(`${test.rule} `) ? test.name.slice(test.rule.length + 1) : test.name;
}
