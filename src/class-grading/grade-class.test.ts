import { describe, expect, it } from 'vitest';
import type { Report } from '../grading/index.ts';
import { gradeClass, type ClassGradingIO, type ProgressEvent } from './grade-class.ts';
import { learnerProblems, type ClassContext } from './results.ts';
import { say } from './messages.ts';
import { fakeReport, makeAssignment, makeSubmission, retryHelperExercise } from './testing/test-fixtures.ts';

const exercise = retryHelperExercise({ R1: { title: { en: 't', vi: 'tê' } } });
const assignment = makeAssignment({ quizzes: [] });
const ctx: ClassContext = { assignment, exercises: { 'retry-helper': exercise }, quizzes: {} };
const sub = (email: string, code: string) => JSON.stringify(makeSubmission(assignment, { name: email, email }, { 'retry-helper': { 'retry.ts': code } }));

function fakeIO(files: Record<string, string>, grade: (code: string) => Promise<ReturnType<typeof fakeReport>>) {
  let running = 0;
  const stats = { maxRunning: 0, graded: [] as string[] };
  const io: ClassGradingIO = {
    listSubmissions: async () =>
      Object.keys(files)
        .sort()
        .map((name) => ({ name, size: files[name]!.length })),
    readSubmission: (name) => files[name]!,
    async gradeExercise(_id, f) {
      running++;
      stats.maxRunning = Math.max(stats.maxRunning, running);
      try {
        stats.graded.push(f['retry.ts']!);
        return await grade(f['retry.ts']!);
      } finally {
        running--;
      }
    },
  };
  return { io, stats };
}

describe('gradeClass', () => {
  it('grades the good files with N graders at once, reports every file once, and sets bad ones aside', async () => {
    const files = {
      'a.json': sub('a@x.co', 'pass'),
      'b.json': sub('b@x.co', 'fail'),
      'c.json': sub('c@x.co', 'pass'),
      'd.json': sub('d@x.co', 'throw'),
      'e.json': '{broken',
    };
    const { io, stats } = fakeIO(files, async (code) => {
      await new Promise((r) => setTimeout(r, 20));
      if (code === 'throw') throw new Error('sandbox would not start');
      return fakeReport(['R1'], code === 'fail' ? ['R1'] : []);
    });
    const events: ProgressEvent[] = [];
    const out = await gradeClass(ctx, io, { jobs: 2, lang: 'en', onProgress: (e) => events.push(e) });

    expect(stats.maxRunning).toBe(2);
    expect(out.files).toBe(5);
    expect(events.map((e) => e.done)).toEqual([1, 2, 3, 4, 5]);
    expect(events.every((e) => e.count === 5)).toBe(true);
    expect(events[0]).toMatchObject({ kind: 'rejected', rejected: { file: 'e.json' } });
    expect(out.results.map((r) => r.file)).toEqual(['a.json', 'b.json', 'c.json', 'd.json']);
    // The file claims 99/99 passed in the browser; the hidden suite's verdict is what counts.
    const b = out.results[1]!.exercises[0]!;
    expect(b.status === 'graded' && b.report.status).toBe('fail');
    expect(out.results[3]!.exercises[0]).toEqual({ id: 'retry-helper', status: 'grading-failed', message: 'sandbox would not start' });
  });

  // The attack: a second file with the victim's e-mail and a later exportedAt used to make the victim's
  // real submission "rejected as a duplicate" and have the attacker's code graded under their name.
  it('a second file claiming a learner replaces nothing: both are graded and shown as a conflict', async () => {
    const real = JSON.stringify(
      makeSubmission(assignment, { name: 'An', email: 'an@x.co' }, { 'retry-helper': { 'retry.ts': 'real' } }, { exportedAt: '2026-11-30T01:00:00.000Z' }),
    );
    const impostor = JSON.stringify(
      makeSubmission(assignment, { name: 'An', email: 'AN@x.co' }, { 'retry-helper': { 'retry.ts': 'impostor' } }, { exportedAt: '2026-11-30T23:00:00.000Z' }),
    );
    const { io, stats } = fakeIO({ 'an.json': real, 'zz.json': impostor }, async () => fakeReport(['R1']));
    const out = await gradeClass(ctx, io, { jobs: 2, lang: 'en' });
    expect(stats.graded.sort()).toEqual(['impostor', 'real']);
    expect(out.rejected).toEqual([]);
    expect(out.results.map((r) => [r.file, r.conflictsWith])).toEqual([
      ['an.json', ['zz.json']],
      ['zz.json', ['an.json']],
    ]);
    expect(say('en', learnerProblems(out.results[0]!)[0]!)).toMatch(
      /^conflict: zz\.json also claim\(s\) to be an@x\.co; each file is graded and none replaces another/,
    );
  });

  it('--latest-wins (explicit) grades only the latest export of a learner', async () => {
    const older = JSON.stringify(
      makeSubmission(assignment, { name: 'An', email: 'an@x.co' }, { 'retry-helper': { 'retry.ts': 'old' } }, { exportedAt: '2026-11-30T01:00:00.000Z' }),
    );
    const newer = JSON.stringify(
      makeSubmission(assignment, { name: 'An', email: 'an@x.co' }, { 'retry-helper': { 'retry.ts': 'new' } }, { exportedAt: '2026-11-30T03:00:00.000Z' }),
    );
    const { io, stats } = fakeIO({ '1.json': newer, '2.json': older }, async () => fakeReport(['R1']));
    const out = await gradeClass(ctx, io, { jobs: 4, lang: 'en', duplicates: 'latest-wins' });
    expect(stats.graded).toEqual(['new']);
    expect(out.rejected.map((r) => [r.file, r.reason.key])).toEqual([['2.json', 'reject.duplicate']]);
    expect(out.results[0]!.conflictsWith).toBeUndefined();
  });

  it('a file its reader cannot read (or that throws while checked) is set aside; the class is still graded', async () => {
    const files = { 'a.json': sub('a@x.co', 'pass'), 'b.json': sub('b@x.co', 'pass') };
    const { io } = fakeIO(files, async () => fakeReport(['R1']));
    io.readSubmission = (name) => {
      if (name === 'a.json') throw new RangeError('Maximum call stack size exceeded');
      return files[name as keyof typeof files];
    };
    const out = await gradeClass(ctx, io, { jobs: 1, lang: 'en' });
    expect(out.rejected.map((r) => [r.file, r.reason.key])).toEqual([['a.json', 'reject.crashed']]);
    expect(out.results.map((r) => r.file)).toEqual(['b.json']);
  });

  it('code that could rewrite its own results is graded but flagged for a human to read', async () => {
    const tampering = "import { writeFileSync } from 'node:fs';\nwriteFileSync('grader-events.jsonl', '');\n";
    const { io } = fakeIO({ 'a.json': sub('a@x.co', tampering), 'b.json': sub('b@x.co', 'export const fine = 1;') }, async () => fakeReport(['R1']));
    const out = await gradeClass(ctx, io, { jobs: 1, lang: 'en' });
    expect(learnerProblems(out.results[0]!).map((p) => say('en', p))).toEqual([
      'retry-helper: uses node:fs, the test runner, which no solution needs: read this code before trusting its result',
    ]);
    expect(learnerProblems(out.results[1]!)).toEqual([]);
  });

  // The gradebook quotes a stop message cut to 200 characters: a long test name pushed "never reached"
  // past the cut (CI, stop 33), so how much the run never reached is its own problem.
  it('a run cut short says how many tests it never reached, however long its stop message', async () => {
    const stopped = (): Report => {
      const r = fakeReport(['R1', 'R2', 'R3'], ['R2', 'R3']);
      const longName = `R2 ${'a test with a very long name '.repeat(8)}`;
      return {
        ...r,
        status: 'error',
        message: `The run was stopped after 5526 ms: test "${longName}" never finished. The 1 tests after it were never reached and count as failed.`,
        tests: r.tests.map((t) => (t.rule === 'R3' ? { ...t, status: 'error', notRun: true } : t)),
      };
    };
    const { io } = fakeIO({ 'a.json': sub('a@x.co', 'x'), 'b.json': sub('b@x.co', 'y') }, async (code) => (code === 'x' ? stopped() : fakeReport(['R1'])));
    const out = await gradeClass(ctx, io, { jobs: 1, lang: 'en' });
    const said = learnerProblems(out.results[0]!).map((p) => say('en', p));
    expect(said[0]).not.toMatch(/never reached/);
    expect(said).toContain('retry-helper: the run never reached 1 of its 3 tests (they count as failed)');
    expect(learnerProblems(out.results[0]!).map((p) => say('vi', p))).toContain(
      'retry-helper: 1 trên 3 test không bao giờ được chạy tới (các test này bị tính là trượt)',
    );
    expect(learnerProblems(out.results[1]!)).toEqual([]);
  });

  it('an exercise left out of the file is not graded, and counts as not handed in', async () => {
    const { io, stats } = fakeIO({ 'a.json': JSON.stringify(makeSubmission(assignment, { name: 'A', email: 'a@x.co' }, {})) }, async () => fakeReport(['R1']));
    const out = await gradeClass(ctx, io, { jobs: 1, lang: 'en' });
    expect(stats.graded).toEqual([]);
    expect(out.results[0]!.exercises).toEqual([{ id: 'retry-helper', status: 'missing' }]);
  });
});
