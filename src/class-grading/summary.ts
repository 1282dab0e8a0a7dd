/** The one machine-readable object `grade-class --json` prints. Pure. */
import type { ClassGrading } from './grade-class.ts';
import { say, type Lang } from './messages.ts';
import { exerciseScore, failingRules, gradingFailed, inConflict, learnerProblems, learnerTotal, ruleFailureCounts, type ClassContext } from './results.ts';

export function classSummary(ctx: ClassContext, grading: ClassGrading, lang: Lang, outputs: { csv: string; html: string }) {
  const { assignment } = ctx;
  return {
    assignment: { id: assignment.id, title: assignment.title, className: assignment.className, due: assignment.due },
    files: grading.files,
    graded: grading.results.length,
    rejected: grading.rejected.length,
    errored: grading.results.filter(gradingFailed).length,
    conflicts: grading.results.filter(inConflict).length,
    late: grading.results.filter((r) => r.late).length,
    durationMs: Math.round(grading.durationMs),
    outputs,
    learners: grading.results.map((r) => ({
      name: r.learner.name,
      email: r.learner.email,
      file: r.file,
      status: inConflict(r) ? 'conflict' : gradingFailed(r) ? 'errored' : 'graded',
      ...(inConflict(r) ? { conflictsWith: r.conflictsWith } : {}),
      late: r.late,
      exportedAt: r.exportedAt,
      total: learnerTotal(r),
      exercises: Object.fromEntries(
        r.exercises.map((e) => [
          e.id,
          e.status === 'graded'
            ? { status: e.report.status, ...exerciseScore(e)!, failingRules: failingRules(e.report) }
            : { status: e.status, passed: 0, total: null, failingRules: [] },
        ]),
      ),
      quizzes: Object.fromEntries(r.quizzes.map((q) => [q.id, { answered: q.answered, score: q.score, total: q.total }])),
      problems: learnerProblems(r).map((m) => say(lang, m)),
      durationMs: Math.round(r.durationMs),
    })),
    rejectedFiles: grading.rejected.map((x) => ({
      file: x.file,
      ...(x.learner ? { name: x.learner.name, email: x.learner.email } : {}),
      code: x.reason.key.replace(/^reject\./, ''),
      reason: say(lang, x.reason),
    })),
    ruleFailures: ruleFailureCounts(ctx, grading.results),
  };
}
