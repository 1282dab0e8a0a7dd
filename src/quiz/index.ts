// The public surface of quiz/: a lesson quiz's schema, its scoring, its score event and its localized text.
export { quizSchema, questionSchema, type QuizData, type Question } from './schema.ts';
export { isCorrect, scoreQuiz, parseNumber, shuffledOrder, type Answer, type QuizScore } from './grade.ts';
export { QUIZ_SCORED, reportQuizScore, onQuizScored, type QuizScoredDetail } from './events.ts';
export { inlineMarkup } from './inline.ts';
export { localizeQuiz } from './localize.ts';
