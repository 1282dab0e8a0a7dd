// Streams the run as JSON lines (one event a line, written synchronously) so that a run
// killed at the hard limit still tells which test was running. Parsed by src/grading/core/events.ts.
import { appendFileSync, writeFileSync } from 'node:fs';

const OUT = process.env.GRADER_EVENTS_FILE || 'grader-events.jsonl';
const MAX_TEXT = 4000;

const cut = (s) => (typeof s === 'string' && s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) + '…' : s);
const emit = (event) => appendFileSync(OUT, JSON.stringify(event) + '\n');
const error = (e) => ({
  name: e?.name,
  message: cut(String(e?.message ?? e)),
  stack: cut(e?.stack),
  diff: cut(e?.diff),
  codeFrame: cut(e?.frame),
  location: e?.location,
});

export default class GraderReporter {
  onInit() {
    writeFileSync(OUT, '');
  }
  onTestModuleCollected(mod) {
    const tests = [];
    for (const t of mod.children.allTests()) {
      tests.push({ id: t.id, name: t.name, ancestors: ancestors(t) });
    }
    emit({ type: 'collected', file: mod.moduleId, tests });
  }
  onTestCaseReady(t) {
    emit({ type: 'start', id: t.id });
  }
  onTestCaseResult(t) {
    const r = t.result();
    emit({
      type: 'result',
      id: t.id,
      state: r.state,
      duration: t.diagnostic()?.duration ?? 0,
      errors: (r.errors ?? []).map(error),
    });
  }
  onUserConsoleLog(log) {
    emit({ type: 'log', taskId: log.taskId, stream: log.type, content: cut(log.content) });
  }
  onTestModuleEnd(mod) {
    emit({ type: 'module-end', file: mod.moduleId, state: mod.state(), errors: mod.errors().map(error) });
  }
  onTestRunEnd(_modules, unhandled, reason) {
    emit({ type: 'end', reason, unhandled: unhandled.map(error) });
  }
}

function ancestors(t) {
  const names = [];
  for (let p = t.parent; p && p.type === 'suite'; p = p.parent) names.unshift(p.name);
  return names;
}
