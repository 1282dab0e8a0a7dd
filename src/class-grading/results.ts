/**
 * What grading a class produces and the figures derived from it: each learner's outcome per item,
 * the total, the problems to show, the gradebook rows and how many learners break each rule. Pure.
 */
import { isLate, gradeTotal, possiblePoints, type GradeTotal, type ItemShare, type Assignment, type Learner, type Submission } from '../assignments/index.ts';
import type { Exercise, Report } from '../grading/index.ts';
import { scoreQuiz, type Answer, type QuizData } from '../quiz/index.ts';
import { cm, say, type Lang, type Message } from './messages.ts';
import type { Rejected } from './submission.ts';
import { flagMessage, type Flag } from './flags.ts';
import { excerpt, shownFile } from './neutral.ts';
import { isoInZone, lateCell, lateExplanation } from './when.ts';

/** The assignment and the course items it names, as loaded from the course. */
export interface ClassContext {
  assignment: Assignment;
  exercises: Record<string, Exercise>;
  quizzes: Record<string, QuizData>;
  /**
   * Each exercise's published reference solution and starter (its editable files), which every
   * submission is compared with for the copy flags (similarity.ts); without it, only with each other.
   */
  published?: Record<string, { reference: Record<string, string>; starter: Record<string, string> }>;
}

export type ExerciseOutcome =
  | { id: string; status: 'missing' }
  /** Graded by the hidden suite; the report's own status says pass, fail or error (code that did not load, a hang). */
  | { id: string; status: 'graded'; report: Report; review?: string[]; tampering?: string[]; flags?: Flag[] }
  /** The grader itself failed (a sandbox that would not start): not the learner's doing. */
  | { id: string; status: 'grading-failed'; message: string };

export interface QuizOutcome {
  id: string;
  answered: boolean;
  score: number;
  total: number;
}

export interface LearnerResult {
  file: string;
  learner: Learner;
  exportedAt: string;
  late: boolean;
  exercises: ExerciseOutcome[];
  quizzes: QuizOutcome[];
  /** Exercises whose reference solution the learner revealed before handing in (what their file says). */
  solutionShown?: string[];
  durationMs: number;
  /** Other files that claim the same learner: graded too, for the instructor to decide which is genuine. */
  conflictsWith?: string[];
  /** The language the learner exported in (their feedback is written in it); absent in older files. */
  lang?: Lang;
}

export function scoreQuizzes(submission: Submission, ctx: ClassContext): QuizOutcome[] {
  return ctx.assignment.quizzes.map((id) => {
    const quiz = ctx.quizzes[id]!;
    const answers = submission.quizzes[id]?.answers as Record<string, Answer> | undefined;
    const { score, total } = scoreQuiz(quiz, answers ?? {});
    return { id, answered: answers !== undefined, score, total };
  });
}

/** Late when exported after the due date: the time the learner's browser wrote into the file. */
export const isSubmissionLate = (submission: Submission, assignment: Assignment) => isLate(assignment.due, new Date(submission.exportedAt));

export function exerciseScore(outcome: ExerciseOutcome): { passed: number; total: number } | undefined {
  return outcome.status === 'graded' ? { passed: outcome.report.counts.passed, total: outcome.report.counts.total } : undefined;
}

/** Rules with at least one test that did not pass, in rule order. */
export function failingRules(report: Report): string[] {
  return sortRules([...new Set(report.tests.filter((t) => t.status !== 'pass').map((t) => t.rule))]);
}

export function sortRules(rules: string[]): string[] {
  const parts = (r: string) => [r.replace(/\d+$/, ''), Number(/\d+$/.exec(r)?.[0] ?? 0)] as const;
  return [...rules].sort((a, b) => {
    const [pa, na] = parts(a);
    const [pb, nb] = parts(b);
    return pa === pb ? na - nb : pa < pb ? -1 : 1;
  });
}

/** Exercises whose every test passed. */
export const exercisesPassed = (r: LearnerResult) => r.exercises.filter((e) => e.status === 'graded' && e.report.status === 'pass').length;

export const gradingFailed = (r: LearnerResult) => r.exercises.some((e) => e.status === 'grading-failed');

/** Another file claims this learner too: the grade needs the instructor's decision before it counts. */
export const inConflict = (r: LearnerResult) => (r.conflictsWith?.length ?? 0) > 0;

/** Each assigned item's share (passed/total, score/questions); undefined when there is nothing to count. */
export function learnerShares(r: LearnerResult): ItemShare[] {
  return [
    ...r.exercises.map((e): ItemShare => {
      const s = exerciseScore(e);
      return { id: e.id, kind: 'exercise', share: s && s.total > 0 ? s.passed / s.total : undefined };
    }),
    ...r.quizzes.map((q): ItemShare => ({ id: q.id, kind: 'quiz', share: q.answered && q.total > 0 ? q.score / q.total : undefined })),
  ];
}

/**
 * The learner's grade under the assignment's grading model and late policy (grading-model.ts): the
 * one total the gradebook, the report, the LMS files, the feedback and --json all show.
 */
export const learnerGrade = (assignment: Assignment, r: LearnerResult): GradeTotal => gradeTotal(assignment, learnerShares(r), r.exportedAt);

/**
 * The suspicions quoted per exercise: the first few and how many more. A learner's process that
 * kept breaking the protocol once made 826 of them in 2 s, all joined into one gradebook cell. The
 * count is a number in parentheses, so it reads in either language of the sentence around it.
 */
const TAMPERING_QUOTED = 3;
const tamperingText = (all: string[]) =>
  all.length <= TAMPERING_QUOTED ? all.join('; ') : `${all.slice(0, TAMPERING_QUOTED).join('; ')}; … (+${all.length - TAMPERING_QUOTED})`;

export function learnerProblems(r: LearnerResult): Message[] {
  const out: Message[] = [];
  if (inConflict(r)) out.push({ key: 'problem.conflict', params: { email: r.learner.email, others: r.conflictsWith!.map(shownFile).join(', ') } });
  for (const e of r.exercises) {
    if (e.status === 'missing') out.push({ key: 'problem.notSubmitted', params: { id: e.id } });
    else if (e.status === 'grading-failed') out.push({ key: 'problem.gradingFailed', params: { id: e.id, message: e.message } });
    else if (e.report.status === 'error') out.push({ key: 'problem.runError', params: { id: e.id, message: excerpt(e.report.message ?? '') } });
    // Said on its own, never only inside the excerpt above: a long stop message is cut before its count.
    const unreached = e.status === 'graded' ? e.report.tests.filter((x) => x.notRun).length : 0;
    if (e.status === 'graded' && unreached > 0) out.push({ key: 'problem.unreached', params: { id: e.id, count: unreached, total: e.report.counts.total } });
    if (e.status === 'graded' && e.review?.length) out.push({ key: 'problem.review', params: { id: e.id, what: e.review.join(', ') } });
    if (e.status === 'graded' && e.tampering?.length) out.push({ key: 'problem.tampering', params: { id: e.id, what: tamperingText(e.tampering) } });
    if (e.status === 'graded') for (const flag of e.flags ?? []) out.push(flagMessage(e.id, flag));
  }
  for (const q of r.quizzes) if (!q.answered) out.push({ key: 'problem.quizMissing', params: { id: q.id } });
  return out;
}

/** The number of tests of each exercise, as the graded reports found it (for "0/16" when nothing was handed in). */
export function testTotals(results: LearnerResult[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const r of results) {
    for (const e of r.exercises) if (e.status === 'graded') totals[e.id] = Math.max(totals[e.id] ?? 0, e.report.counts.total);
  }
  return totals;
}

/** "3/4"; "0/4" when not handed in; said in words when no one's report gave the suite's size ("0/?" told nothing). */
export function exerciseCell(outcome: ExerciseOutcome, totals: Record<string, number>, lang: Lang): string {
  const s = exerciseScore(outcome);
  if (s) return `${s.passed}/${s.total}`;
  const total = totals[outcome.id];
  return total === undefined ? cm(lang, outcome.status === 'missing' ? 'cell.notHandedIn' : 'status.errored') : `0/${total}`;
}

/** Graded learners by name (Vietnamese collation), then e-mail. */
export function sortLearners(results: LearnerResult[]): LearnerResult[] {
  const collator = new Intl.Collator('vi', { sensitivity: 'base' });
  return [...results].sort((a, b) => collator.compare(a.learner.name, b.learner.name) || a.learner.email.localeCompare(b.learner.email));
}

/**
 * The gradebook: a header, one row per graded learner, then one row per rejected file (with the
 * learner when the file names one). Each exercise has two columns: tests passed, and the rules broken.
 * Rejected rows are there so nothing handed in is silently missing from the sheet.
 */
export function gradebookRows(ctx: ClassContext, results: LearnerResult[], rejected: Rejected[], lang: Lang): string[][] {
  const { assignment } = ctx;
  const max = possiblePoints(assignment);
  const header = [
    cm(lang, 'col.name'),
    cm(lang, 'col.email'),
    cm(lang, 'col.file'),
    cm(lang, 'col.status'),
    ...assignment.exercises.flatMap((id) => [cm(lang, 'col.exercise', { id }), cm(lang, 'col.brokenRules', { id })]),
    ...assignment.quizzes.map((id) => cm(lang, 'col.quiz', { id })),
    cm(lang, 'col.earned', { possible: max }),
    cm(lang, 'col.points', { possible: max }),
    cm(lang, 'col.total'),
    cm(lang, 'col.submitted'),
    cm(lang, 'col.lateNote'),
    cm(lang, 'col.exportedAtZone', { zone: assignment.timeZone }),
    cm(lang, 'col.solutionShown'),
    cm(lang, 'col.problems'),
  ];
  const totals = testTotals(results);
  const rows = sortLearners(results).map((r) => {
    const grade = learnerGrade(assignment, r);
    return [
      r.learner.name,
      r.learner.email,
      shownFile(r.file),
      cm(lang, inConflict(r) ? 'status.conflict' : gradingFailed(r) ? 'status.errored' : 'status.graded'),
      ...r.exercises.flatMap((e) => [exerciseCell(e, totals, lang), e.status === 'graded' ? failingRules(e.report).join(' ') : '']),
      ...r.quizzes.map((q) => `${q.score}/${q.total}`),
      String(grade.earned),
      String(grade.final),
      grade.percent.toFixed(1),
      lateCell(lang, grade),
      grade.late.status === 'on-time' ? '' : say(lang, lateExplanation(assignment, r.exportedAt, grade, lang)),
      isoInZone(r.exportedAt, assignment.timeZone),
      (r.solutionShown ?? []).join(' '),
      learnerProblems(r)
        .map((m) => say(lang, m))
        .join('; '),
    ];
  });
  const blanks = 2 * assignment.exercises.length + assignment.quizzes.length + 7;
  const rejectedRows = rejected.map((x) => [
    x.learner?.name ?? '',
    x.learner?.email ?? '',
    shownFile(x.file),
    cm(lang, 'status.rejected'),
    ...Array<string>(blanks).fill(''),
    say(lang, x.reason),
  ]);
  return [header, ...rows, ...rejectedRows];
}

export interface RuleCount {
  rule: string;
  failing: number;
}

export interface ExerciseRuleCounts {
  id: string;
  /** Learners whose code ran to the end (the denominator of `failing`). */
  graded: number;
  /** Learners whose run did not complete (did not load, hung): they count in no rule. */
  incomplete: number;
  rules: RuleCount[];
}

/** For each exercise, how many learners break each of its rules (every rule listed, zeros too). */
export function ruleFailureCounts(ctx: ClassContext, results: LearnerResult[]): ExerciseRuleCounts[] {
  return ctx.assignment.exercises.map((id) => {
    const exercise = ctx.exercises[id]!;
    const counts = new Map(sortRules(Object.keys(exercise.rules)).map((rule) => [rule, 0]));
    let graded = 0;
    let incomplete = 0;
    for (const r of results) {
      const outcome = r.exercises.find((e) => e.id === id);
      if (outcome?.status !== 'graded') continue;
      if (outcome.report.status === 'error') {
        incomplete++;
        continue;
      }
      graded++;
      for (const rule of failingRules(outcome.report)) counts.set(rule, (counts.get(rule) ?? 0) + 1);
    }
    return { id, graded, incomplete, rules: [...counts].map(([rule, failing]) => ({ rule, failing })) };
  });
}
