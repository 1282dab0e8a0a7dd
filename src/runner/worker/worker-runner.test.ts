import { describe, expect, test } from 'vitest';
import type { ProgressEvent, ReporterEvent } from '../../grading/core/events.ts';
import { tinyExercise } from '../../grading/testing/test-fixtures.ts';
import { RunnerInputError } from '../runner-types.ts';
import type { GradeJob, WorkerMessage } from './protocol.ts';
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

/** A worker that plays `script` when it gets its job; `hang` leaves it stuck where the script ends. */
class FakeWorker implements GradingWorker {
  onmessage: ((e: { data: WorkerMessage }) => void) | null = null;
  onerror: ((e: { message?: string }) => void) | null = null;
  terminated = false;
  jobs: GradeJob[] = [];
  constructor(private readonly script: Array<WorkerMessage | 'crash'>) {}
  postMessage(job: GradeJob) {
    this.jobs.push(job);
    queueMicrotask(() => {
      for (const m of this.script) {
        if (this.terminated) return;
        if (m === 'crash') return this.onerror?.({ message: 'SyntaxError in grade-worker.js' });
        this.onmessage?.({ data: m });
      }
    });
  }
  terminate() {
    this.terminated = true;
  }
}

const event = (e: ReporterEvent): WorkerMessage => ({ type: 'event', event: e });
const progress = (e: ProgressEvent): WorkerMessage => ({ type: 'progress', event: e });

function runner(script: Array<WorkerMessage | 'crash'>, limits = {}) {
  const workers: FakeWorker[] = [];
  const r = createWorkerRunner({
    createWorker: () => {
      const w = new FakeWorker(script);
      workers.push(w);
      return w;
    },
    loadExercise: async (id) => (id === tinyExercise.id ? tinyExercise : undefined),
    suiteUrl: (id) => `/exercise-suites/${id}.js`,
    limits,
  });
  return { r, workers };
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
    await r.grade({ exerciseId: 'tiny', files: { 'add.ts': '' }, lang: 'en' });
    expect(workers).toHaveLength(2);
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

  test('wrong files or an unknown exercise are refused in the language asked, with no worker started', async () => {
    const { r, workers } = runner([]);
    await expect(r.grade({ exerciseId: 'tiny', files: { 'add.ts': '', 'evil.ts': '' }, lang: 'en' })).rejects.toBeInstanceOf(RunnerInputError);
    await expect(r.grade({ exerciseId: 'nope', files: {}, lang: 'vi' })).rejects.toThrow(/Không có bài tập/);
    expect(workers).toHaveLength(0);
  });
});
