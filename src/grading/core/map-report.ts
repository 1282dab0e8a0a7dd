// The one mapping from a run's raw output (reporter events, progress, the run's end) to a Report:
// tests grouped by rule, messages in the learner's language, output capped, unreached tests failed.
import type { Exercise } from './exercise-schema.ts';
import { cap, relativize, stripAnsi } from './cap.ts';
import { openTests, parseJsonLines, type ProgressEvent, type ReporterEvent, type SerializedError } from './events.ts';
import { locateError } from './location.ts';
import { t } from './messages.ts';
import { compareRuleIds, ruleOf } from './rules.ts';
import type { Lang, Location, Report, RunResult, TestReport } from './types.ts';

export const OUTPUT_CAP = 500;
export const DETAILS_CAP = 1200;

export interface MapInput {
  exercise: Exercise;
  lang: Lang;
  /** grader-events.jsonl */
  events: string | undefined;
  /** grader-progress.jsonl */
  progress: string | undefined;
  run: RunResult;
  /** The run was stopped by the grader (hard limit or a test stuck past its timeout). */
  stopped: boolean;
  typeErrors: Location[];
  /** Paths of the exercise files under src/ (learner and visible). */
  files: readonly string[];
  /** Absolute sandbox root, removed from paths in messages. */
  root?: string;
  testTimeoutMs: number;
  durationMs: number;
  /**
   * Every test of the suite (the exercise's test-list.json). A test the run never reported (its file
   * never collected, or the run cut short) then counts as failed, "never reached", instead of not
   * counting: a learner's code that stops the run cannot shrink the suite it is scored against.
   */
  expectedTests?: readonly string[];
}

const TIMEOUT = /^Test timed out in (\d+)ms/;

function clean(text: string, root: string | undefined, max: number): string {
  return cap(relativize(stripAnsi(text), root).trim(), max);
}

function errorText(errors: SerializedError[]): string {
  return errors.map((e) => e.message).join('\n');
}

/** Turns what one graded run left behind into the learner's report. Pure. */
export function mapReport(input: MapInput): Report {
  const { exercise, lang, root } = input;
  const events = parseJsonLines<ReporterEvent>(input.events);
  const progress = parseJsonLines<ProgressEvent>(input.progress);

  const collected = events
    .filter((e): e is Extract<ReporterEvent, { type: 'collected' }> => e.type === 'collected')
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const results = new Map<string, Extract<ReporterEvent, { type: 'result' }>>();
  const logs = new Map<string, string>();
  const moduleErrors: SerializedError[] = [];
  let unhandled: SerializedError[] = [];
  let ended = false;
  for (const e of events) {
    if (e.type === 'result') results.set(e.id, e);
    else if (e.type === 'log' && e.taskId) logs.set(e.taskId, (logs.get(e.taskId) ?? '') + e.content);
    else if (e.type === 'module-end') moduleErrors.push(...e.errors);
    else if (e.type === 'end') {
      ended = true;
      unhandled = e.unhandled;
    }
  }
  const progressEnd = new Map<string, Extract<ProgressEvent, { type: 'end' }>>();
  for (const p of progress) if (p.type === 'end') progressEnd.set(p.id, p);
  // A sandbox that enforces a memory limit on the whole run says when it stopped the run for it.
  const memoryMb = input.run.limit?.kind === 'memory' ? input.run.limit.mb : undefined;
  const stopped = input.stopped || input.run.timedOut || memoryMb !== undefined;
  // Several tests are open at once when a suite runs them concurrently (one rule's tests at a
  // time): each was still running when the run stopped. The message names the first to start.
  const open = stopped ? openTests(progress) : [];
  const hung = open[0];

  const tests: TestReport[] = [];
  for (const file of collected) {
    for (const c of file.tests) {
      const rule = ruleOf(c.name) ?? '';
      const entry = exercise.rules[rule];
      const result = results.get(c.id);
      const output = clean(logs.get(c.id) ?? '', root, OUTPUT_CAP);
      const base = { rule, name: c.name, output, duration: Math.round(result?.duration ?? 0) };
      const failed = (details: string, status: 'fail' | 'error' = 'fail', timedOut = false): TestReport => ({
        ...base,
        status,
        message: entry?.message[lang] ?? '',
        hint: entry?.hint[lang] ?? '',
        details: clean(details, root, DETAILS_CAP),
        ...(timedOut ? { timedOut } : {}),
      });
      // Stopped before or while it ran: the rule's message and hint would be about something else.
      const stoppedTest = (reason: string, how: { timedOut?: true; notRun?: true }): TestReport => ({
        ...base,
        status: 'error',
        message: '',
        hint: '',
        details: reason,
        ...how,
      });
      const passed = (): TestReport => ({ ...base, status: 'pass', message: entry?.title[lang] ?? '', hint: '', details: '' });
      const timeoutDetails = (msg: string) => {
        const m = TIMEOUT.exec(msg);
        return m ? t(lang, 'test.timedOut', { ms: m[1]!, details: '' }).trim() : undefined;
      };

      if (result) {
        if (result.state === 'skipped' || result.state === 'pending') continue;
        if (result.state === 'passed') tests.push(passed());
        else {
          const msg = errorText(result.errors);
          const timeout = timeoutDetails(msg);
          tests.push(timeout ? failed(timeout, 'fail', true) : failed(msg));
        }
        continue;
      }
      const end = progressEnd.get(c.id);
      if (end) {
        const msg = end.errors.join('\n');
        const timeout = timeoutDetails(msg);
        if (end.state === 'pass') tests.push(passed());
        else tests.push(timeout ? failed(timeout, 'fail', true) : failed(msg));
      } else if (open.some((o) => o.id === c.id)) {
        tests.push(
          memoryMb === undefined ? stoppedTest(t(lang, 'test.hung'), { timedOut: true }) : stoppedTest(t(lang, 'test.limitMemory', { mb: memoryMb }), {}),
        );
      } else if (stopped || !ended) {
        tests.push(stoppedTest(t(lang, 'test.notRun'), { notRun: true }));
      }
    }
  }

  const reported = new Set(tests.map((x) => x.name));
  const skipped = new Set(collected.flatMap((f) => f.tests.filter((c) => results.get(c.id)?.state === 'skipped').map((c) => c.name)));
  const neverReached = (input.expectedTests ?? []).filter((name) => !reported.has(name) && !skipped.has(name));
  for (const name of neverReached) {
    tests.push({
      rule: ruleOf(name) ?? '',
      name,
      output: '',
      duration: 0,
      status: 'error',
      message: '',
      hint: '',
      details: t(lang, 'test.neverReached'),
      notRun: true,
    });
  }
  const lastDone = progress.findLast((p) => p.type === 'end');
  const lastName = lastDone && progress.find((p): p is Extract<ProgressEvent, { type: 'start' }> => p.type === 'start' && p.id === lastDone.id)?.name;

  const passedCount = tests.filter((x) => x.status === 'pass').length;
  const report: Report = {
    version: 3,
    status: 'pass',
    tests,
    typeErrors: input.typeErrors,
    counts: { passed: passedCount, failed: tests.length - passedCount, total: tests.length },
    durationMs: Math.round(input.durationMs),
  };
  if (stopped || !ended || neverReached.length > 0) {
    const seen = new Set(tests.map((x) => x.rule));
    const notRunRules = Object.keys(exercise.rules)
      .filter((r) => !seen.has(r))
      .sort(compareRuleIds);
    if (notRunRules.length) report.notRunRules = notRunRules;
  }

  if (memoryMb !== undefined) {
    report.status = 'error';
    report.message = hung
      ? t(lang, 'grade.limitMemory', { mb: memoryMb, test: hung.name, rule: ruleOf(hung.name) ?? '?' })
      : t(lang, 'grade.limitMemoryLoading', { mb: memoryMb });
    return report;
  }
  const loadError = moduleErrors[0];
  if (loadError) {
    report.status = 'error';
    const where = locateError(loadError, input.files);
    if (where) {
      report.error = { ...where, message: clean(where.message, root, DETAILS_CAP) };
      report.message = t(lang, 'grade.syntax', { ...report.error });
    } else {
      report.message = t(lang, 'grade.load', { message: clean(loadError.message, root, DETAILS_CAP) });
    }
    return report;
  }
  if (input.stopped || input.run.timedOut) {
    report.status = 'error';
    const ms = Math.round(input.run.durationMs);
    const unreached = tests.filter((x) => x.notRun).length;
    const also = unreached > 0 ? ` ${t(lang, open.length > 1 ? 'grade.unreachedAfterThem' : 'grade.unreached', { count: unreached })}` : '';
    // Tests that run side by side share one thread: a loop in any of them stops them all, so none
    // can be named as the one stuck.
    const rules = [...new Set(open.map((o) => ruleOf(o.name) ?? '?'))].sort(compareRuleIds).join(', ');
    report.message = hung
      ? `${
          open.length > 1
            ? t(lang, 'grade.stoppedConcurrent', { ms, count: open.length, test: hung.name, rules })
            : t(lang, 'grade.stopped', { ms, test: hung.name, rule: ruleOf(hung.name) ?? '?' })
        }${also}`
      : lastName
        ? t(lang, 'grade.stoppedBetween', { ms, test: lastName, count: unreached })
        : `${t(lang, 'grade.stoppedLoading', { ms })}${also}`;
    return report;
  }
  if (!ended || tests.length === 0) {
    report.status = 'error';
    report.message = t(lang, 'grade.crashed', {
      code: String(input.run.exitCode),
      output: clean(input.run.output, root, DETAILS_CAP),
    });
    return report;
  }
  if (neverReached.length > 0) {
    // The run ended by itself, yet tests of the suite never ran: nothing an honest solution does.
    report.status = 'error';
    report.message = t(lang, 'grade.incomplete', { count: neverReached.length, total: input.expectedTests!.length });
    return report;
  }
  if (passedCount < tests.length) {
    report.status = 'fail';
    return report;
  }
  if (unhandled.length > 0) {
    report.message = t(lang, 'grade.unhandled', { message: clean(errorText(unhandled), root, DETAILS_CAP) });
  }
  return report;
}
