/**
 * How a quiz reports a score to whatever keeps progress: a DOM event on document, so the quiz knows
 * nothing of storage and the progress store knows nothing of quiz markup.
 */
import type { Answer } from './grade.ts';

export const QUIZ_SCORED = 'course:quiz-scored';

export interface QuizScoredDetail {
  quizId: string;
  score: number;
  total: number;
  answers: Record<string, Answer>;
}

export function reportQuizScore(detail: QuizScoredDetail, target: EventTarget = document): void {
  target.dispatchEvent(new CustomEvent<QuizScoredDetail>(QUIZ_SCORED, { detail }));
}

export function onQuizScored(listener: (detail: QuizScoredDetail) => void, target: EventTarget = document): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<QuizScoredDetail>).detail);
  target.addEventListener(QUIZ_SCORED, handler);
  return () => target.removeEventListener(QUIZ_SCORED, handler);
}
