export { quizSchema, questionSchema, type QuizData, type Question } from './schema.ts';
export { isCorrect, scoreQuiz, parseNumber, shuffledOrder, type Answer, type QuizScore } from './grade.ts';
export { QUIZ_SCORED, reportQuizScore, onQuizScored, type QuizScoredDetail } from './events.ts';
