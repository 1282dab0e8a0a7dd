/**
 * The grading model (docs/assignments.md, "Grading model"): each item of an assignment is worth the
 * points the instructor gave it (DEFAULT_ITEM_POINTS when none), whether or not the learner hands it
 * in; an item earns its points times its share (tests passed out of the suite's tests, right answers
 * out of the quiz's questions); the late policy then keeps a percentage of the sum. One function,
 * `gradeTotal`, computes it; the gradebook, the report, every LMS file and each learner's feedback
 * use its result. Pure.
 */
import type { Assignment } from './file-schemas.ts';
import { lateVerdict, type LateVerdict } from './late-policy.ts';

export const DEFAULT_ITEM_POINTS = 10;

export function itemPoints(assignment: Pick<Assignment, 'points'>, id: string): number {
  return assignment.points?.[id] ?? DEFAULT_ITEM_POINTS;
}

/** The assignment's points, every item counted. */
export function possiblePoints(assignment: Pick<Assignment, 'points' | 'exercises' | 'quizzes'>): number {
  return round2([...assignment.exercises, ...assignment.quizzes].reduce((sum, id) => sum + itemPoints(assignment, id), 0));
}

/** What one item earned: `share` is undefined when there is nothing to count (not handed in, not graded). */
export interface ItemShare {
  id: string;
  kind: 'exercise' | 'quiz';
  /** passed/total or score/questions, in [0, 1]; undefined counts 0. */
  share: number | undefined;
}

export interface ItemGrade extends ItemShare {
  possible: number;
  earned: number;
}

export interface GradeTotal {
  items: ItemGrade[];
  /** Every item's points, handed in or not. */
  possible: number;
  /** The items' earned points before the late policy. */
  earned: number;
  late: LateVerdict;
  /** `earned` times the late policy's kept percentage: the grade. */
  final: number;
  /** `final` out of `possible`, in percent. */
  percent: number;
}

/**
 * `x` to `digits` decimals, a half up, as a person rounds the decimal they see: 12.85 × 70 % is
 * 8.995 on paper but 8.994999… in binary, and must give 9.00, not 8.99. Scaling first and reading
 * the product back at 12 significant digits drops that binary error (a grade never needs more).
 */
function roundTo(x: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(Number((x * scale).toPrecision(12))) / scale;
}

/** Two decimals, a half up (8.995 → 9.00, 2.175 → 2.18, 1.005 → 1.01). */
export const round2 = (x: number) => roundTo(x, 2);
const round1 = (x: number) => roundTo(x, 1);

export function gradeTotal(assignment: Assignment, shares: ItemShare[], exportedAt: string): GradeTotal {
  const items = shares.map((s) => {
    const possible = itemPoints(assignment, s.id);
    const share = s.share === undefined ? 0 : Math.min(1, Math.max(0, s.share));
    return { ...s, possible, earned: round2(possible * share) };
  });
  const possible = round2(items.reduce((a, i) => a + i.possible, 0));
  const earned = round2(items.reduce((a, i) => a + i.earned, 0));
  const late = lateVerdict(assignment.due, exportedAt, assignment.latePolicy);
  const final = round2((earned * late.keptPercent) / 100);
  return { items, possible, earned, late, final, percent: possible > 0 ? round1((final / possible) * 100) : 0 };
}
