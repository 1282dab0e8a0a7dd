/**
 * Grading a self-check quiz: pure functions over the quiz data and the learner's answers.
 * The browser component and, later, instructors' class grading both use these.
 */
import type { QuizData } from './schema.ts';

export type Answer =
  | { type: 'single'; choice: string | null }
  | { type: 'multiple'; choices: string[] }
  | { type: 'numeric'; value: string }
  | { type: 'order'; items: string[] };

/** "1.5", "1,5" (Vietnamese decimal comma), " 27 " are numbers; "", "abc", "1e3" are not. */
export function parseNumber(text: string): number | undefined {
  const cleaned = text.trim().replace(/\s/g, '').replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(cleaned)) return undefined;
  return Number(cleaned);
}

/** What grading needs of a question; both the bilingual data and a one-language copy have it. */
export type GradableQuestion =
  | { type: 'single' | 'multiple'; choices: { id: string; correct: boolean }[] }
  | { type: 'numeric'; answer: number; tolerance: number }
  | { type: 'order'; items: { id: string }[] };

export function isCorrect(question: GradableQuestion, answer: Answer | undefined): boolean {
  if (!answer || answer.type !== question.type) return false;
  switch (question.type) {
    case 'single':
    case 'multiple': {
      if (answer.type === 'single') return question.choices.some((c) => c.correct && c.id === answer.choice);
      const picked = new Set((answer as Extract<Answer, { type: 'multiple' }>).choices);
      return question.choices.every((c) => c.correct === picked.has(c.id));
    }
    case 'numeric': {
      const value = parseNumber((answer as Extract<Answer, { type: 'numeric' }>).value);
      return value !== undefined && Math.abs(value - question.answer) <= question.tolerance + 1e-9;
    }
    case 'order': {
      const items = (answer as Extract<Answer, { type: 'order' }>).items;
      return items.length === question.items.length && question.items.every((item, i) => items[i] === item.id);
    }
  }
}

export interface QuizScore {
  score: number;
  total: number;
  correct: Record<string, boolean>;
}

export function scoreQuiz(quiz: QuizData, answers: Record<string, Answer | undefined>): QuizScore {
  const correct = Object.fromEntries(quiz.questions.map((q) => [q.id, isCorrect(q, answers[q.id])]));
  return { score: Object.values(correct).filter(Boolean).length, total: quiz.questions.length, correct };
}

/**
 * A fixed shuffle of an ordering question's items (the same on the server and in the browser), never
 * the correct order itself, so the question is never answered before the learner touches it.
 */
export function shuffledOrder(ids: string[], seedText: string): string[] {
  let seed = [...seedText].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619), 2166136261) >>> 0;
  const next = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...ids];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  if (out.every((id, i) => id === ids[i]) && out.length > 1) out.push(out.shift()!);
  return out;
}
