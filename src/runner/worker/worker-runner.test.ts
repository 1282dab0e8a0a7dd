import { describe, expect, test } from 'vitest';
import type { ProgressEvent, ReporterEvent } from '../../grading/core/events.ts';
import { tinyExercise } from '../../grading/testing/test-fixtures.ts';
import { RunnerInputError } from '../runner-types.ts';
import { MAX_CHILDREN, type HostedWorker } from './child-host.ts';
import type { ChildJob, ChildMessage } from './child-process.ts';
import { isChildReply, type ChildReply, type GradeJob, type PageMessage, type WorkerMessage } from './protocol.ts';
import { createWorkerRunner, type GradingWorker } from './worker-runner.ts';

const T = '/exercise/tests/add.test.ts';
const collected: ReporterEvent = {
  type: 'collected',
  file: T,
  tests: [
    { id: 'a', name: 'R1 adds', ancestors: [] },
    { id: 'b', name: 'R2 ends', ancestors: [] },
  ],
};

/**
 * A worker that plays `script` when it gets a job, stopping once terminated; `'crash'` fires its
 * onerror with `crash`. A script that ends before `done` leaves it hung there.
 */
class Scripted<Job, Out> {
  onmessage: ((e: { data: Out }) => void) | null = null;
  onerror: ((e: { message?: string }) => void) | null = null;
  terminated = false;
  jobs: Job[] = [];
  constructor(
    private readonly script: Array<Out | 'crash'>,
    private readonly crash: string,
  ) {}
  postMessage(job: Job) {
    this.jobs.push(job);
    queueMicrotask(() => {
      for (const m of this.script) {
        if (this.terminated) return;
        if (m === 'crash') return this.onerror?.({ message: this.crash });
        this.onmessage?.({ data: m });
      }
    });
  }
  terminate() {
    this.terminated = true;
  }
}

/** The grading worker: what the page relays from its children is kept apart from its job. */
class FakeWorker extends Scripted<GradeJob, WorkerMessage> implements GradingWorker {
  replies: ChildReply[] = [];
  constructor(script: Array<WorkerMessage | 'crash'>) {
    super(script, 'SyntaxError in grade-worker.js');
  }
  override postMessage(message: PageMessage) {
    if (isChildReply(message)) return void this.replies.push(message);
    super.postMessage(message);
  }
}

/** A child-process worker. */
class FakeChild extends Scripted<ChildJob, ChildMessage> implements HostedWorker {
  constructor(says: Array<ChildMessage | 'crash'>) {
    super(says, 'SyntaxError in process-worker.js');
  }
}

const event = (e: ReporterEvent): WorkerMessage => ({ type: 'event', event: e });
const progress = (e: ProgressEvent): WorkerMessage => ({ type: 'progress', event: e });

function runner(script: Array<WorkerMessage | 'crash'>, limits = {}, childSays?: Array<ChildMessage | 'crash'>) {
  const workers: FakeWorker[] = [];
  const children: FakeChild[] = [];
  const r = createWorkerRunner({
    createWorker: () => {
      const w = new FakeWorker(script);
      workers.push(w);
      return w;
    },
    ...(childSays
      ? {
          createChildWorker: () => {
            const c = new FakeChild(childSays);
            children.push(c);
            return c;
          },
        }
      : {}),
    loadExercise: async (id) => (id === tinyExercise.id ? tinyExercise : undefined),
    suiteUrl: (id) => `/exercise-suites/${id}.js`,
    limits,
  });
  return { r, workers, children };
}

describe('worker runner (page side, fake worker)', () => {
  test('a fresh worker per run gets the suite and the files; its events become the report in the language asked', async () => {
    const { r, workers } = runner([
      event(collected),
      progress({ type: 'start', id: 'a', name: 'R1 adds' }),
      event({ type: 'result', id: 'a', state: 'failed', duration: 3, errors: [{ message: 'expected 3, got 0' }] }),
      event({ type: 'result', id: 'b', state: 'passed', duration: 1, errors: [] }),
      event({ type: 'end', reason: 'failed', unhandled: [] }),
      { type: 'done' },
    ]);
    const seen: string[] = [];
    const report = await r.grade({ exerciseId: 'tiny', files: { 'add.ts': 'export const add = () => 0;' }, lang: 'vi' }, (p) =>
      seen.push(`${p.done}/${p.total}`),
    );
    expect(seen, 'tests done out of those collected, as they finish').toEqual(['0/2', '1/2', '2/2']);
    expect(r.kind).toBe('worker');
    expect(workers[0]!.jobs[0]).toEqual({
      suiteUrl: '/exercise-suites/tiny.js',
      files: { 'add.ts': 'export const add = () => 0;' },
      testTimeoutMs: tinyExercise.limits.testTimeoutMs,
    });
    expect(workers[0]!.terminated).toBe(true);
    expect(report.status).toBe('fail');
    expect(report.counts).toEqual({ passed: 1, failed: 1, total: 2 });
    expect(report.tests[0]).toMatchObject({
      rule: 'R1',
      status: 'fail',
      message: 'Phép cộng của bạn sai.',
      hint: 'Dùng toán tử +.',
      details: 'expected 3, got 0',
    });
    // The next run's worker was started when this one ended, and has run nothing: the second run is
    // its first and only job.
    expect(workers).toHaveLength(2);
    expect(workers[1]!.jobs).toEqual([]);
    await r.grade({ exerciseId: 'tiny', files: { 'add.ts': '' }, lang: 'en' });
    expect(workers.map((w) => [w.jobs.length, w.terminated])).toEqual([
      [1, true],
      [1, true],
      [0, false],
    ]);
  });

  test('a worker started ahead that failed to load is replaced: the run gets a fresh one', async () => {
    const { r, workers } = runner([event(collected), event({ type: 'end', reason: 'passed', unhandled: [] }), { type: 'done' }]);
    await r.grade({ exerciseId: 'tiny', files: { 'add.ts': '' }, lang: 'en' });
    workers[1]!.onerror?.({ message: 'SyntaxError in grade-worker.js' });
    await r.grade({ exerciseId: 'tiny', files: { 'add.ts': '' }, lang: 'en' });
    expect(workers.map((w) => [w.jobs.length, w.terminated])).toEqual([
      [1, true],
      [0, true],
      [1, true],
      [0, false],
    ]);
  });

  test('a test stuck past its timeout (a synchronous loop) is stopped: hung test timed out, the rest not run', async () => {
    const { r, workers } = runner([event(collected), progress({ type: 'start', id: 'a', name: 'R1 adds' })], { testTimeoutMs: 50, watchdogIntervalMs: 10 });
    const started = performance.now();
    const report = await r.grade({ exerciseId: 'tiny', files: { 'add.ts': 'while (true) {}' }, lang: 'en' });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(workers[0]!.terminated).toBe(true);
    expect(report.status).toBe('error');
    expect(report.message).toContain('R1 adds');
    expect(report.tests).toMatchObject([
      { rule: 'R1', status: 'error', timedOut: true },
      { rule: 'R2', status: 'error' },
    ]);
  });

  test('a run past the exercise limit is stopped even when no test is running', async () => {
    const { r } = runner([], { runTimeoutMs: 100, watchdogIntervalMs: 0 });
    const report = await r.grade({ exerciseId: 'tiny', files: { 'add.ts': 'for (;;) {}' }, lang: 'en' });
    expect(report.status).toBe('error');
    expect(report.tests).toEqual([]);
  });

  test('a worker that cannot start or load the suite is an error of the run, not of the learner', async () => {
    await expect(runner(['crash']).r.grade({ exerciseId: 'tiny', files: { 'add.ts': '' }, lang: 'en' })).rejects.toThrow(/grade-worker/);
    await expect(
      runner([{ type: 'failed', message: '/exercise-suites/tiny.js: 404' }]).r.grade({ exerciseId: 'tiny', files: { 'add.ts': '' }, lang: 'en' }),
    ).rejects.toThrow(/404/);
  });

  test("a suite's child process is a worker the page starts: its output and exit reach the grading worker, and the run's end stops every child", async () => {
    const job: ChildJob = { main: 'process.exit(0)', code: { 'add.ts': '' } };
    const { r, workers, children } = runner(
      [
        event(collected),
        { type: 'child-start', child: 0, job },
        { type: 'child-start', child: 1, job },
        { type: 'child-kill', child: 1 },
        { type: 'child-start', child: 2, job },
        event({ type: 'end', reason: 'passed', unhandled: [] }),
      ],
      {},
      [
        { type: 'stdout', text: 'served\n' },
        { type: 'exit', code: 0 },
      ],
    );
    const graded = r.grade({ exerciseId: 'tiny', files: { 'add.ts': '' }, lang: 'en' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(children.map((c) => c.jobs)).toEqual([[job], [job], [job]]);
    expect(children.map((c) => c.terminated)).toEqual([false, true, false]);
    // Child 1 was killed before it spoke: only 0 and 2 are heard.
    expect(workers[0]!.replies).toEqual([
      { type: 'child-message', child: 0, message: { type: 'stdout', text: 'served\n' } },
      { type: 'child-message', child: 0, message: { type: 'exit', code: 0 } },
      { type: 'child-message', child: 2, message: { type: 'stdout', text: 'served\n' } },
      { type: 'child-message', child: 2, message: { type: 'exit', code: 0 } },
    ]);
    workers[0]!.onmessage?.({ data: { type: 'done' } });
    await graded;
    expect(
      children.every((c) => c.terminated),
      'no child outlives its run',
    ).toBe(true);
  });

  test('a child that cannot start, or a page that cannot start one, is an error the grading worker hears (as a failed spawn in Node)', async () => {
    const job: ChildJob = { main: '', code: {} };
    for (const childSays of [['crash' as const], undefined]) {
      const { r, workers } = runner([event(collected), { type: 'child-start', child: 0, job }], {}, childSays);
      const graded = r.grade({ exerciseId: 'tiny', files: { 'add.ts': '' }, lang: 'en' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(workers[0]!.replies).toEqual([
        { type: 'child-error', child: 0, message: childSays ? 'SyntaxError in process-worker.js' : 'this page cannot start a process of its own' },
      ]);
      workers[0]!.onmessage?.({ data: { type: 'done' } });
      await graded;
    }
  });

  test('no more than MAX_CHILDREN children at once: a flood of starts (the learner can post them too) is refused', async () => {
    const job: ChildJob = { main: '', code: {} };
    const starts: WorkerMessage[] = Array.from({ length: MAX_CHILDREN + 3 }, (_, child) => ({ type: 'child-start', child, job }));
    const { r, workers, children } = runner([event(collected), ...starts], {}, []);
    const graded = r.grade({ exerciseId: 'tiny', files: { 'add.ts': '' }, lang: 'en' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(children).toHaveLength(MAX_CHILDREN);
    expect(workers[0]!.replies.map((m) => m.child)).toEqual([MAX_CHILDREN, MAX_CHILDREN + 1, MAX_CHILDREN + 2]);
    workers[0]!.onmessage?.({ data: { type: 'done' } });
    await graded;
    expect(children.every((c) => c.terminated)).toBe(true);
  });

  test('wrong files or an unknown exercise are refused in the language asked, with no worker started', async () => {
    const { r, workers } = runner([]);
    await expect(r.grade({ exerciseId: 'tiny', files: { 'add.ts': '', 'evil.ts': '' }, lang: 'en' })).rejects.toBeInstanceOf(RunnerInputError);
    await expect(r.grade({ exerciseId: 'nope', files: {}, lang: 'vi' })).rejects.toThrow(/Không có bài tập/);
    expect(workers).toHaveLength(0);
  });
});
