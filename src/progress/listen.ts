/** Wires the page's result events to the store: every page records quiz scores and exercise runs. */
import { onQuizScored } from '../quiz/events.ts';
import { onExerciseGraded, onSolutionShown } from './exercise-events.ts';
import type { ProgressStore } from './store.ts';

export function listenForResults(store: ProgressStore, target: EventTarget = document): () => void {
  const stopQuiz = onQuizScored((detail) => store.recordQuiz(detail), target);
  const stopExercise = onExerciseGraded((detail) => store.recordExercise(detail), target);
  const stopSolution = onSolutionShown((id) => store.recordSolutionShown(id), target);
  return () => {
    stopQuiz();
    stopExercise();
    stopSolution();
  };
}
