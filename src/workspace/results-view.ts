/**
 * Renders a grading report as the learner reads it, in the page's language: one block per failing
 * rule (its message and hint once, the failing tests under it), the rules a stopped run never reached,
 * and the passing rules collapsed into one line.
 */
import type { Lang, Report, TestReport } from '../grading/core/index.ts';
import { inlineMarkup } from '../quiz/index.ts';
import { fillPlaceholders } from '../i18n/index.ts';
import type { UiStrings } from '../i18n/ui/index.ts';
import { groupByRule, ownName, runCounts, stoppedByRun, type RuleGroup } from './rule-groups.ts';
import { hasVietnameseDiacritics } from '../i18n/index.ts';
import { assertionSentence } from './assertion-text.ts';
import { localTestName, type TestNames } from './test-names.ts';

/** Every ws.* string, as Exercise.astro hands them over (stringsWithPrefix): a key read here that the catalog lacks is a type error. */
export type Strings = UiStrings<'ws.'>;

export const fill = fillPlaceholders;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: { className?: string; text?: string; html?: string } = {}) {
  const node = document.createElement(tag);
  if (props.className) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  if (props.html !== undefined) node.innerHTML = props.html; // only ever inlineMarkup output (escaped)
  return node;
}

function badge(test: TestReport, s: Strings): string {
  if (test.notRun) return s['ws.notRun']!;
  if (test.timedOut) return s['ws.timedOut']!;
  return test.status === 'pass' ? s['ws.pass']! : test.status === 'fail' ? s['ws.fail']! : s['ws.error']!;
}

/** Test names in the page's language (the suites name them in English), without the rule id shown beside. */
type Names = TestNames;

/**
 * A Vietnamese name from the exercise's list, a parameterized test's with its values filled in
 * (test-names.ts); a test the list does not name at all is numbered.
 */
function testName(test: TestReport, n: number, count: number, lang: Lang, s: Strings, names: Names): string {
  if (lang === 'en') return ownName(test);
  const vi = localTestName(test.name, names);
  return vi ? ownName({ ...test, name: vi }) : fill(s['ws.testOfRule']!, { n, count });
}

/**
 * What the test saw, framed in the page's language: a sentence saying what was expected and what
 * came (when vitest's message has a known shape), then vitest's own words, labelled as such when
 * they are not in the page's language.
 */
function observedBlock(text: string, lang: Lang, s: Strings): HTMLElement[] {
  const sentence = assertionSentence(text, {
    equal: s['ws.assertEqual']!,
    notEqual: s['ws.assertNotEqual']!,
    compare: s['ws.assertCompare']!,
    check: s['ws.assertCheck']!,
  });
  const parts: HTMLElement[] = [el('p', { className: 'ws-label', text: s['ws.details']! })];
  if (sentence) parts.push(el('p', { className: 'ws-observed', text: sentence }));
  const foreign = lang === 'vi' && !hasVietnameseDiacritics(text);
  if (sentence || foreign) parts.push(el('p', { className: 'ws-label ws-label-quoted', text: s['ws.vitestSays']! }));
  const pre = el('pre', { text });
  if (foreign) pre.lang = 'en';
  parts.push(pre);
  return parts;
}

/** Badge, rule id and text, separated by real spaces (copied or read aloud as words, not "failedR2"). */
function head(className: string, badgeText: string, rule: string, text: HTMLElement) {
  const p = el('p', { className });
  p.append(el('span', { className: 'ws-badge', text: badgeText }), ' ', el('span', { className: 'ws-rule', text: rule }), ' ', text);
  return p;
}

function testRow(test: TestReport, n: number, count: number, lang: Lang, s: Strings, names: Names): HTMLLIElement {
  const li = el('li', { className: 'ws-test' });
  li.dataset.status = test.notRun ? 'not-run' : test.status;
  li.dataset.rule = test.rule;
  li.title = test.name; // the suite's own name, for anyone who greps the tests
  const headLine = head('ws-test-head', badge(test, s), test.rule, el('span', { className: 'ws-test-name', text: testName(test, n, count, lang, s, names) }));
  // A test the run was stopped in, or before, has a reason to read at once, not an observation.
  // (A test that never started says so by its badge: the same sentence under each would be noise.)
  const reason = stoppedByRun(test) && !test.notRun ? test.details : '';
  const observed = test.status === 'pass' || stoppedByRun(test) ? '' : test.details;
  if (!observed && !test.output) {
    li.append(headLine);
    if (reason) li.append(el('p', { className: 'ws-reason', text: reason }));
    return li;
  }
  // One line per test; what it saw and printed open under it on demand.
  const details = el('details');
  const summary = el('summary');
  summary.append(...headLine.childNodes);
  summary.className = 'ws-test-head';
  details.append(summary);
  if (reason) details.append(el('p', { className: 'ws-reason', text: reason }));
  if (observed) details.append(...observedBlock(observed, lang, s));
  if (test.output) details.append(el('p', { className: 'ws-label', text: s['ws.output']! }), el('pre', { text: test.output }));
  li.append(details);
  return li;
}

function testList(group: RuleGroup, only: (t: TestReport) => boolean, lang: Lang, s: Strings, names: Names) {
  const ul = el('ul', { className: 'ws-tests' });
  group.tests.forEach((t, i) => {
    if (only(t)) ul.append(testRow(t, i + 1, group.tests.length, lang, s, names));
  });
  return ul;
}

function ruleBlock(group: RuleGroup, lang: Lang, s: Strings, names: Names): HTMLLIElement {
  const li = el('li', { className: 'ws-rule-group' });
  li.dataset.rule = group.rule;
  li.dataset.status = group.status;
  const badgeText = group.status === 'fail' ? s['ws.fail']! : s['ws.notRun']!;
  li.append(head('ws-rule-head', badgeText, group.rule, el('span', { className: 'ws-rule-message', html: inlineMarkup(group.message) })));
  if (group.hint) {
    const hint = el('p', { className: 'ws-hint' });
    hint.append(el('strong', { text: s['ws.hint']! }), ' ', el('span', { html: inlineMarkup(group.hint) }));
    li.append(hint);
  }
  if (group.tests.length) li.append(testList(group, (t) => t.status !== 'pass', lang, s, names));
  return li;
}

/** The rules a stopped run never reached, on one collapsed line (their tests listed inside). */
function notRunBlock(groups: RuleGroup[], lang: Lang, s: Strings, names: Names): HTMLLIElement {
  const li = el('li', { className: 'ws-rule-group' });
  li.dataset.status = 'not-run';
  const details = el('details');
  const summary = el('summary');
  summary.append(
    el('span', { className: 'ws-badge', text: s['ws.notRun']! }),
    ' ',
    fill(s['ws.notRunRules']!, { count: groups.length, rules: groups.map((g) => g.rule).join(', ') }),
  );
  details.append(summary);
  for (const group of groups) {
    const block = el('div', { className: 'ws-pass-rule' });
    block.dataset.rule = group.rule;
    block.append(head('ws-rule-head', s['ws.notRun']!, group.rule, el('span')));
    if (group.tests.length) block.append(testList(group, () => true, lang, s, names));
    details.append(block);
  }
  li.append(details);
  return li;
}

function passingBlock(groups: RuleGroup[], lang: Lang, s: Strings, names: Names): HTMLLIElement {
  const li = el('li', { className: 'ws-rule-group' });
  li.dataset.status = 'pass';
  const details = el('details');
  const tests = groups.reduce((n, g) => n + g.tests.length, 0);
  const summary = el('summary');
  summary.append(
    el('span', { className: 'ws-badge', text: s['ws.pass']! }),
    ' ',
    fill(s['ws.passingRules']!, { count: groups.length, tests, rules: groups.map((g) => g.rule).join(', ') }),
  );
  details.append(summary);
  for (const group of groups) {
    const block = el('div', { className: 'ws-pass-rule' });
    block.append(
      head('ws-rule-head', s['ws.pass']!, group.rule, el('span', { html: inlineMarkup(group.tests[0]?.message ?? '') })),
      testList(group, () => true, lang, s, names),
    );
    details.append(block);
  }
  li.append(details);
  return li;
}

export function summaryText(report: Report, elapsedMs: number, s: Strings): string {
  const c = runCounts(report);
  const counts = c.stopped
    ? fill(s['ws.summaryStopped']!, { passed: c.passed, failed: c.failed, notRun: c.notRun })
    : fill(s['ws.summary']!, { passed: c.passed, total: c.total });
  return `${counts} · ${fill(s['ws.took']!, { seconds: (elapsedMs / 1000).toFixed(1) })}`;
}

/** The summary line while a run is in progress: how long it has been going. */
export function runningText(elapsedMs: number, s: Strings, progress?: { done: number; total: number }): string {
  const running = fill(s['ws.running']!, { seconds: Math.floor(elapsedMs / 1000) });
  return progress && progress.total > 0 ? `${running} · ${fill(s['ws.progress']!, progress)}` : running;
}

/** Fills `list` with the report; returns the summary line for the live region. */
export function renderReport(list: HTMLElement, report: Report, elapsedMs: number, s: Strings, lang: Lang, names: Names = {}): string {
  const parts: HTMLElement[] = [];
  if (report.message) parts.push(el('p', { className: 'ws-message', html: inlineMarkup(report.message) }));
  const groups = groupByRule(report);
  if (groups.length) {
    const ul = el('ul', { className: 'ws-rules' });
    ul.append(...groups.filter((g) => g.status === 'fail').map((g) => ruleBlock(g, lang, s, names)));
    const notRun = groups.filter((g) => g.status === 'not-run');
    if (notRun.length) ul.append(notRunBlock(notRun, lang, s, names));
    const passing = groups.filter((g) => g.status === 'pass');
    if (passing.length) ul.append(passingBlock(passing, lang, s, names));
    parts.push(ul);
  }
  if (report.typeErrors.length) {
    const box = el('div', { className: 'ws-types' });
    box.append(
      el('p', { text: s['ws.typeErrors']! }),
      el('pre', { text: report.typeErrors.map((e) => `${e.file}:${e.line}:${e.column} ${e.message}`).join('\n') }),
    );
    parts.push(box);
  }
  list.replaceChildren(...parts);
  return summaryText(report, elapsedMs, s);
}
