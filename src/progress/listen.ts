/** Wires the page's result events to the store: every page records quiz scores, exercise runs and labs opened. */
import { onQuizScored } from '../quiz/index.ts';
import { onExerciseGraded, onLabOpened, onSolutionShown } from './exercise-events.ts';
import type { ProgressStore } from './store.ts';

export function listenForResults(store: ProgressStore, target: EventTarget = document): () => void {
  const stopQuiz = onQuizScored((detail) => store.recordQuiz(detail), target);
  const stopExercise = onExerciseGraded((detail) => store.recordExercise(detail), target);
  const stopSolution = onSolutionShown((id) => store.recordSolutionShown(id), target);
  const stopLab = onLabOpened((id) => store.recordLabOpened(id), target);
  return () => {
    stopLab();
    stopQuiz();
    stopExercise();
    stopSolution();
  };
}
