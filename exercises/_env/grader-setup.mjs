// Runs inside the test worker. Writes each test's start and end synchronously, so when a
// learner's synchronous infinite loop blocks the worker (no vitest timeout can fire then) and
// the grader kills the run, it still knows which test hung and how the earlier ones ended.
import { appendFileSync } from 'node:fs';
import { beforeEach, afterEach } from 'vitest';
import { seededRandom } from './grader-random.mjs';

const OUT = process.env.GRADER_PROGRESS_FILE || 'grader-progress.jsonl';
const write = (event) => {
  try {
    appendFileSync(OUT, JSON.stringify(event) + '\n');
  } catch {
    // progress is a best-effort aid; never fail a test because of it
  }
};

// Destructured on purpose: vitest reads a hook's first parameter to find the fixtures it needs
// (a suite may extend `test` with fixtures), and rejects a plain `ctx`.
beforeEach(({ task }) => {
  write({ type: 'start', id: task.id, name: task.name });
  Math.random = seededRandom(task.name);
});

afterEach(({ task }) => {
  const r = task.result;
  write({
    type: 'end',
    id: task.id,
    state: r?.state,
    errors: (r?.errors ?? []).map((e) => String(e?.message ?? e).slice(0, 2000)),
  });
});
