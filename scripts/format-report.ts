/**
 * The text `npm run check` prints for a graded exercise: each rule passed or failed with its message
 * and hint, what a failing test observed, type errors and a summary, in the learner's language.
 */
import { compareRuleIds, type Exercise, type Report, type TestReport } from '../src/grading/index.ts';
import { assertionSentence } from '../src/workspace/assertion-text.ts';
import { localTestName, type TestNames } from '../src/workspace/test-names.ts';
import { msg, type Lang } from './cli-messages.ts';

const paint = (on: boolean, code: number) => (s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s);

/**
 * What a failing test observed: a sentence in the learner's language saying what was expected and
 * what came, when vitest's message has a known shape, then vitest's own words.
 */
function observedLines(details: string, lang: Lang): string[] {
  const sentence = assertionSentence(details, {
    equal: msg(lang, 'check.assertEqual'),
    notEqual: msg(lang, 'check.assertNotEqual'),
    compare: msg(lang, 'check.assertCompare'),
    check: msg(lang, 'check.assertCheck'),
  });
  const quoted = details.split('\n').join('\n      ');
  if (!sentence) return [`    ${msg(lang, 'check.observed')}: ${quoted}`];
  return [`    ${msg(lang, 'check.observed')}: ${sentence}`, `    ${msg(lang, 'check.vitestSays')}: ${quoted}`];
}

/**
 * One line per rule (pass or fail, message and hint), type errors, then a summary. `names` are the
 * exercise's Vietnamese test names (test-names.vi.json): in Vietnamese, the failing test is named by
 * them, the suite's own name beside it.
 */
export function formatReport(report: Report, exercise: Exercise, lang: Lang, opts: { color: boolean; names?: TestNames }): string {
  const green = paint(opts.color, 32);
  const red = paint(opts.color, 31);
  const dim = paint(opts.color, 2);
  const lines: string[] = [msg(lang, 'check.title', { title: exercise.title[lang], id: exercise.id }), ''];

  const byRule = new Map<string, TestReport[]>();
  for (const test of report.tests) byRule.set(test.rule, [...(byRule.get(test.rule) ?? []), test]);

  const rules = [...byRule.keys()].sort(compareRuleIds);
  let rulesPassed = 0;
  for (const rule of rules) {
    const tests = byRule.get(rule)!;
    const failing = tests.find((t) => t.status !== 'pass');
    const entry = exercise.rules[rule];
    if (!failing) {
      rulesPassed++;
      lines.push(`${green('✔ ' + msg(lang, 'check.pass'))} ${rule} ${entry?.title[lang] ?? ''}`);
      continue;
    }
    lines.push(`${red('✘ ' + msg(lang, 'check.fail'))} ${rule} ${failing.message || failing.details}`);
    if (failing.hint) lines.push(`    ${msg(lang, 'check.hint')}: ${failing.hint}`);
    for (const line of observedLines(failing.details, lang)) lines.push(dim(line));
    const local = lang === 'vi' && opts.names ? localTestName(failing.name, opts.names) : undefined;
    const name = local ? `${local} (${failing.name})` : failing.name;
    lines.push(dim(`    ${msg(lang, 'check.in')}: ${name}${failing.timedOut ? ` (${msg(lang, 'check.timedOut')})` : ''}`));
  }

  if (report.status === 'error') {
    lines.push('', red(msg(lang, 'check.error')), `  ${report.message ?? ''}`);
    if (report.error) lines.push(`  ${report.error.file}:${report.error.line}:${report.error.column}`);
  }
  if (report.typeErrors.length) {
    lines.push('', msg(lang, 'check.typeErrors'));
    for (const e of report.typeErrors) lines.push(`  ${e.file}:${e.line}:${e.column} ${e.message.split('\n').join('\n    ')}`);
  }

  const seconds = (report.durationMs / 1000).toFixed(1);
  const { passed, failed, total } = report.counts;
  lines.push('');
  if (report.status === 'pass') lines.push(green(msg(lang, 'check.summaryPass', { rules: byRule.size, tests: total, seconds })));
  else {
    lines.push(red(msg(lang, 'check.summaryFail', { passed: rulesPassed, rules: byRule.size, failedTests: failed, tests: total, seconds })));
    if (report.message && report.status !== 'error') lines.push(report.message);
  }
  void passed;
  return lines.join('\n');
}
