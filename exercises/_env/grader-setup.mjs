// Runs inside the test worker. Writes each test's start and end synchronously, so when a
// learner's synchronous infinite loop blocks the worker (no vitest timeout can fire then) and
// the grader kills the run, it still knows which test hung and how the earlier ones ended.
import { appendFileSync } from 'node:fs';
import { beforeEach, afterEach } from 'vitest';

const OUT = process.env.GRADER_PROGRESS_FILE || 'grader-progress.jsonl';
const write = (event) => {
  try {
    appendFileSync(OUT, JSON.stringify(event) + '\n');
  } catch {
    // progress is a best-effort aid; never fail a test because of it
  }
};

beforeEach((ctx) => {
  write({ type: 'start', id: ctx.task.id, name: ctx.task.name });
});

afterEach((ctx) => {
  const r = ctx.task.result;
  write({
    type: 'end',
    id: ctx.task.id,
    state: r?.state,
    errors: (r?.errors ?? []).map((e) => String(e?.message ?? e).slice(0, 2000)),
  });
});
