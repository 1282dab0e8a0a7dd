/**
 * How a graded run reports its result to whatever keeps progress (mirrors src/quiz/events.ts):
 * a DOM event on document. The workspace dispatches it; the progress store listens.
 */
export const EXERCISE_GRADED = 'course:exercise-graded';

export interface ExerciseGradedDetail {
  exerciseId: string;
  status: 'pass' | 'fail' | 'error';
  passed: number;
  total: number;
  /** Which runner graded it: browser results are for the learner's information only. */
  runner: 'webcontainer' | 'worker' | 'local';
}

export function reportExerciseGraded(detail: ExerciseGradedDetail, target: EventTarget = document): void {
  target.dispatchEvent(new CustomEvent<ExerciseGradedDetail>(EXERCISE_GRADED, { detail }));
}

/** The learner revealed an exercise's reference solution. */
export const SOLUTION_SHOWN = 'course:solution-shown';

export function reportSolutionShown(exerciseId: string, target: EventTarget = document): void {
  target.dispatchEvent(new CustomEvent<{ exerciseId: string }>(SOLUTION_SHOWN, { detail: { exerciseId } }));
}

export function onSolutionShown(listener: (exerciseId: string) => void, target: EventTarget = document): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<{ exerciseId: string }>).detail.exerciseId);
  target.addEventListener(SOLUTION_SHOWN, handler);
  return () => target.removeEventListener(SOLUTION_SHOWN, handler);
}

export function onExerciseGraded(listener: (detail: ExerciseGradedDetail) => void, target: EventTarget = document): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<ExerciseGradedDetail>).detail);
  target.addEventListener(EXERCISE_GRADED, handler);
  return () => target.removeEventListener(EXERCISE_GRADED, handler);
}

/** The learner opened a lab (used its controls, or came by a link to it): the workbench of a simulation. */
export const LAB_OPENED = 'course:lab-opened';

export function reportLabOpened(labId: string, target: EventTarget = document): void {
  target.dispatchEvent(new CustomEvent<{ labId: string }>(LAB_OPENED, { detail: { labId } }));
}

export function onLabOpened(listener: (labId: string) => void, target: EventTarget = document): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<{ labId: string }>).detail.labId);
  target.addEventListener(LAB_OPENED, handler);
  return () => target.removeEventListener(LAB_OPENED, handler);
}
