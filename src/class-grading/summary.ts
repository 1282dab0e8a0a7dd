/** The one machine-readable object `grade-class --json` prints. Pure. */
import { possiblePoints } from '../assignments/index.ts';
import type { ClassGrading } from './grade-class.ts';
import { say, type Lang } from './messages.ts';
import { shownFile } from './neutral.ts';
import { exerciseScore, failingRules, gradingFailed, inConflict, learnerGrade, learnerProblems, ruleFailureCounts, type ClassContext } from './results.ts';
import { lateExplanation } from './when.ts';

export function classSummary(ctx: ClassContext, grading: ClassGrading, lang: Lang, outputs: { csv: string; html: string }) {
  const { assignment } = ctx;
  return {
    assignment: { id: assignment.id, title: assignment.title, className: assignment.className, due: assignment.due, timeZone: assignment.timeZone },
    files: grading.files,
    graded: grading.results.length,
    rejected: grading.rejected.length,
    errored: grading.results.filter(gradingFailed).length,
    conflicts: grading.results.filter(inConflict).length,
    late: grading.results.filter((r) => r.late).length,
    durationMs: Math.round(grading.durationMs),
    outputs,
    /** Every item's points: what `points` of each learner is out of. */
    possible: possiblePoints(assignment),
    learners: grading.results.map((r) => {
      const grade = learnerGrade(assignment, r);
      return {
        name: r.learner.name,
        email: r.learner.email,
        ...(r.learner.studentId ? { studentId: r.learner.studentId } : {}),
        file: shownFile(r.file),
        status: inConflict(r) ? 'conflict' : gradingFailed(r) ? 'errored' : 'graded',
        ...(inConflict(r) ? { conflictsWith: r.conflictsWith } : {}),
        late: r.late,
        lateStatus: grade.late.status,
        lateKeptPercent: grade.late.keptPercent,
        lateExplanation: say(lang, lateExplanation(assignment, r.exportedAt, grade, lang)),
        exportedAt: r.exportedAt,
        /** Points before the late policy, and the grade after it (the LMS files' number). */
        earned: grade.earned,
        points: grade.final,
        /** The grade in percent of the assignment's points. */
        total: grade.percent,
        items: Object.fromEntries(grade.items.map((i) => [i.id, { earned: i.earned, possible: i.possible }])),
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
      };
    }),
    rejectedFiles: grading.rejected.map((x) => ({
      file: shownFile(x.file),
      ...(x.learner ? { name: x.learner.name, email: x.learner.email } : {}),
      code: x.reason.key.replace(/^reject\./, ''),
      reason: say(lang, x.reason),
    })),
    ruleFailures: ruleFailureCounts(ctx, grading.results),
  };
}
