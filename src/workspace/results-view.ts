/** Renders a grading report as rows the learner reads: one per rule, in the page's language. */
import { compareRuleIds } from '../grading/rules.ts';
import type { Report, TestReport } from '../grading/types.ts';
import { inlineMarkup } from '../quiz/inline.ts';
import { fillPlaceholders } from '../i18n/fill.ts';

export type Strings = Record<string, string>;

export const fill = fillPlaceholders;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: { className?: string; text?: string; html?: string } = {}) {
  const node = document.createElement(tag);
  if (props.className) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  if (props.html !== undefined) node.innerHTML = props.html; // only ever inlineMarkup output (escaped)
  return node;
}

function badge(test: TestReport, s: Strings): string {
  if (test.timedOut) return s['ws.timedOut']!;
  return test.status === 'pass' ? s['ws.pass']! : test.status === 'fail' ? s['ws.fail']! : s['ws.error']!;
}

function row(test: TestReport, s: Strings): HTMLLIElement {
  const li = el('li', { className: 'ws-test' });
  li.dataset.status = test.status;
  li.dataset.rule = test.rule;
  const head = el('p');
  head.append(el('span', { className: 'ws-badge', text: badge(test, s) }), el('span', { className: 'ws-rule', text: test.rule }));
  head.append(el('span', { html: inlineMarkup(test.message || test.name) }));
  li.append(head);
  if (test.status !== 'pass') {
    if (test.hint) {
      const hint = el('p', { className: 'ws-hint' });
      hint.append(el('strong', { text: s['ws.hint']! }), ' ', el('span', { html: inlineMarkup(test.hint) }));
      li.append(hint);
    }
    for (const [label, text] of [[s['ws.details']!, test.details], [s['ws.output']!, test.output]] as const) {
      if (!text) continue;
      const details = el('details');
      details.append(el('summary', { text: `${label} (${test.name})` }), el('pre', { text }));
      li.append(details);
    }
  }
  return li;
}

export function summaryText(report: Report, elapsedMs: number, s: Strings): string {
  const counts = fill(s['ws.summary']!, { passed: report.counts.passed, total: report.counts.total });
  return `${counts} · ${fill(s['ws.took']!, { seconds: (elapsedMs / 1000).toFixed(1) })}`;
}

/** Fills `list` with the report; returns the summary line for the live region. */
export function renderReport(list: HTMLElement, report: Report, elapsedMs: number, s: Strings): string {
  const parts: HTMLElement[] = [];
  if (report.message) parts.push(el('p', { className: 'ws-message', html: inlineMarkup(report.message) }));
  if (report.tests.length) {
    const ul = el('ul', { className: 'ws-tests' });
    // by rule, as the brief lists them (a suite may run its files in another order); stable within a rule
    const byRule = [...report.tests].sort((a, b) => compareRuleIds(a.rule, b.rule));
    ul.append(...byRule.map((t) => row(t, s)));
    parts.push(ul);
  }
  if (report.typeErrors.length) {
    const box = el('div', { className: 'ws-types' });
    box.append(el('p', { text: s['ws.typeErrors']! }), el('pre', { text: report.typeErrors.map((e) => `${e.file}:${e.line}:${e.column} ${e.message}`).join('\n') }));
    parts.push(box);
  }
  list.replaceChildren(...parts);
  return summaryText(report, elapsedMs, s);
}
