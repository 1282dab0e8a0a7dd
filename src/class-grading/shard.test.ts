// Sharding: N machines each grading their share, then merged, give exactly the gradebook, report
// and summary of one machine grading everything.
import { describe, expect, it } from 'vitest';
import { gradeClass, type ClassGrading, type ClassGradingIO } from './grade-class.ts';
import { renderReport } from './html.ts';
import { toCsv } from './csv.ts';
import { gradebookRows, inConflict, type ClassContext } from './results.ts';
import { mergeShards, parseShard, shardOf, toShardFile } from './shard.ts';
import { classSummary } from './summary.ts';
import { fakeReport, makeAssignment, makeSubmission, retryHelperExercise } from './testing/test-fixtures.ts';

const exercise = retryHelperExercise(['R1', 'R2', 'R3']);
const assignment = makeAssignment({ quizzes: [] });
const ctx: ClassContext = { assignment, exercises: { 'retry-helper': exercise }, quizzes: {} };

/** 40 learners, one with two files (the older set aside), two bad files. */
function classFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) {
    const email = `learner${i}@example.test`;
    files[`s${String(i).padStart(2, '0')}.json`] = JSON.stringify(
      makeSubmission(assignment, { name: `Học viên ${i}`, email }, { 'retry-helper': { 'retry.ts': `// ${i % 4}` } }),
    );
  }
  files['s07-old.json'] = JSON.stringify(
    makeSubmission(
      assignment,
      { name: 'Học viên 7', email: 'LEARNER7@example.test' },
      { 'retry-helper': { 'retry.ts': '// 1' } },
      { exportedAt: '2026-11-01T00:00:00.000Z' },
    ),
  );
  files['zz-broken.json'] = '{"format":';
  files['zz-other.json'] = JSON.stringify({ ...makeSubmission(assignment, { name: 'X', email: 'x@example.test' }, {}), assignmentId: 'asg-other' });
  return files;
}

function io(files: Record<string, string>): ClassGradingIO {
  return {
    listSubmissions: async () =>
      Object.keys(files)
        .sort()
        .map((name) => ({ name, size: files[name]!.length })),
    readSubmission: (name) => files[name]!,
    // What each learner's code scores depends on the code alone, as with the real grader.
    gradeExercise: async (_id, f) => fakeReport(['R1', 'R2', 'R3'], ['R1', 'R2', 'R3'].slice(0, Number(f['retry.ts']!.slice(3)))),
  };
}

const at = new Date('2026-12-02T08:00:00.000Z');
function outputs(g: ClassGrading) {
  const noTime = { ...g, durationMs: 0, results: g.results.map((r) => ({ ...r, durationMs: 0 })) };
  return {
    csv: toCsv(gradebookRows(ctx, g.results, g.rejected, 'vi')),
    html: renderReport({ ctx, results: g.results, rejected: g.rejected, lang: 'en', generatedAt: at, files: g.files }),
    summary: JSON.stringify(classSummary(ctx, noTime, 'en', { csv: 'g.csv', html: 'r.html' })),
  };
}

describe('grade-class --shard K/N and merge', () => {
  it('parses K/N and puts each learner in one stable share', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '1/0', 'a/b', '1', '']) expect(parseShard(bad), bad).toBeUndefined();
    expect(shardOf('learner1@example.test', 5)).toBe(shardOf('learner1@example.test', 5));
    const shares = new Set(Array.from({ length: 40 }, (_, i) => shardOf(`learner${i}@example.test`, 3)));
    expect(shares).toEqual(new Set([1, 2, 3]));
  });

  it('three shards merged give the same gradebook, report and summary as one machine', async () => {
    const files = classFiles();
    const whole = await gradeClass(ctx, io(files), { jobs: 3, lang: 'en' });
    // Two files claim one learner: both are graded, as a conflict the instructor decides (it travels with the shards too).
    expect(whole.results.length).toBe(41);
    expect(whole.results.filter(inConflict)).toHaveLength(2);
    expect(whole.rejected.length).toBe(2);
    const parts = [];
    for (const index of [3, 1, 2]) {
      const g = await gradeClass(ctx, io(files), { jobs: 2, lang: 'en', shard: { index, count: 3 } });
      expect(g.results.length, `shard ${index} grades only its share`).toBeLessThan(41);
      // Through JSON, as the shard files travel between machines.
      parts.push({ file: `shard-${index}.json`, data: JSON.parse(JSON.stringify(toShardFile(assignment.id, { index, count: 3 }, g))) as unknown });
    }
    const merged = mergeShards(assignment.id, parts);
    if (!merged.ok) throw new Error(JSON.stringify(merged.problem));
    expect(merged.grading.results.map((r) => r.file)).toEqual(whole.results.map((r) => r.file));
    expect(outputs(merged.grading)).toEqual(outputs(whole));
  });

  it('refuses a missing, duplicate or foreign shard', async () => {
    const files = classFiles();
    const shard = async (index: number, count = 2) =>
      JSON.parse(
        JSON.stringify(toShardFile(assignment.id, { index, count }, await gradeClass(ctx, io(files), { jobs: 1, lang: 'en', shard: { index, count } }))),
      ) as unknown;
    const one = await shard(1);
    expect(mergeShards(assignment.id, [{ file: 'a', data: one }])).toEqual({ ok: false, problem: { kind: 'missing-shard', index: 2 } });
    expect(
      mergeShards(assignment.id, [
        { file: 'a', data: one },
        { file: 'b', data: one },
      ]),
    ).toEqual({ ok: false, problem: { kind: 'duplicate-shard', index: 1 } });
    expect(mergeShards('asg-else', [{ file: 'a', data: one }])).toMatchObject({ ok: false, problem: { kind: 'other-assignment' } });
    expect(
      mergeShards(assignment.id, [
        { file: 'a', data: one },
        { file: 'c', data: await shard(2, 3) },
      ]),
    ).toMatchObject({ ok: false, problem: { kind: 'shard-count' } });
    expect(mergeShards(assignment.id, [{ file: 'x', data: { hello: 1 } }])).toEqual({ ok: false, problem: { kind: 'not-a-shard', file: 'x' } });
  });
});
