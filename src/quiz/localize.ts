/**
 * The quiz as one language sees it: every bilingual text reduced to that language. This is what the
 * page renders and what goes to the browser (the other language's text stays on the server).
 */
import type { Lang } from '../i18n/index.ts';
import type { QuizData } from './schema.ts';

export interface LocalChoice {
  id: string;
  text: string;
  correct: boolean;
  explanation: string;
}
export type LocalQuestion =
  | { id: string; type: 'single'; prompt: string; choices: LocalChoice[] }
  | { id: string; type: 'multiple'; prompt: string; choices: LocalChoice[] }
  | { id: string; type: 'numeric'; prompt: string; answer: number; tolerance: number; unit?: string; explanation: string }
  | { id: string; type: 'order'; prompt: string; items: { id: string; text: string }[]; explanation: string };

export interface LocalQuiz {
  id: string;
  title: string;
  questions: LocalQuestion[];
}

export function localizeQuiz(id: string, quiz: QuizData, lang: Lang): LocalQuiz {
  type Choice = Extract<QuizData['questions'][number], { type: 'single' }>['choices'][number];
  const choices = (list: Choice[]): LocalChoice[] => list.map((c) => ({ id: c.id, text: c.text[lang], correct: c.correct, explanation: c.explanation[lang] }));
  // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every question type (TypeScript checks it)
  const questions = quiz.questions.map((q): LocalQuestion => {
    switch (q.type) {
      case 'single':
        return { id: q.id, type: 'single', prompt: q.prompt[lang], choices: choices(q.choices) };
      case 'multiple':
        return { id: q.id, type: 'multiple', prompt: q.prompt[lang], choices: choices(q.choices) };
      case 'numeric':
        return {
          id: q.id,
          type: 'numeric',
          prompt: q.prompt[lang],
          answer: q.answer,
          tolerance: q.tolerance,
          ...(q.unit ? { unit: q.unit[lang] } : {}),
          explanation: q.explanation[lang],
        };
      case 'order':
        return {
          id: q.id,
          type: 'order',
          prompt: q.prompt[lang],
          items: q.items.map((i) => ({ id: i.id, text: i.text[lang] })),
          explanation: q.explanation[lang],
        };
    }
  });
  return { id, title: quiz.title[lang], questions };
}
