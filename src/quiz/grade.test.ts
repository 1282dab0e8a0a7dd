import { describe, expect, it } from 'vitest';
import { isCorrect, parseNumber, scoreQuiz, shuffledOrder } from './grade.ts';
import { quizSchema, type QuizData } from './schema.ts';

const t = (en: string) => ({ vi: `${en} (tiếng Việt)`, en });
const quiz: QuizData = quizSchema.parse({
  module: 'when-to-retry',
  title: t('Quiz'),
  questions: [
    {
      id: 'single',
      type: 'single',
      prompt: t('Which?'),
      choices: [
        { id: 'a', text: t('A'), correct: false, explanation: t('no') },
        { id: 'b', text: t('B'), correct: true, explanation: t('yes') },
      ],
    },
    {
      id: 'multi',
      type: 'multiple',
      prompt: t('Which ones?'),
      choices: [
        { id: 'a', text: t('A'), correct: true, explanation: t('yes') },
        { id: 'b', text: t('B'), correct: true, explanation: t('yes') },
        { id: 'c', text: t('C'), correct: false, explanation: t('no') },
      ],
    },
    { id: 'num', type: 'numeric', prompt: t('How many?'), answer: 27, tolerance: 0.5, explanation: t('3^3') },
    {
      id: 'ord',
      type: 'order',
      prompt: t('Order'),
      explanation: t('why'),
      items: [
        { id: 'x', text: t('X') },
        { id: 'y', text: t('Y') },
        { id: 'z', text: t('Z') },
      ],
    },
  ],
});
const [single, multi, num, ord] = quiz.questions as [any, any, any, any];

describe('quiz grading', () => {
  it('grades a single choice', () => {
    expect(isCorrect(single, { type: 'single', choice: 'b' })).toBe(true);
    expect(isCorrect(single, { type: 'single', choice: 'a' })).toBe(false);
    expect(isCorrect(single, { type: 'single', choice: null })).toBe(false);
  });

  it('wants exactly the correct set in a multiple choice', () => {
    expect(isCorrect(multi, { type: 'multiple', choices: ['b', 'a'] })).toBe(true);
    expect(isCorrect(multi, { type: 'multiple', choices: ['a'] })).toBe(false);
    expect(isCorrect(multi, { type: 'multiple', choices: ['a', 'b', 'c'] })).toBe(false);
  });

  it('accepts numbers within the tolerance, with a decimal point or comma', () => {
    expect(isCorrect(num, { type: 'numeric', value: '27' })).toBe(true);
    expect(isCorrect(num, { type: 'numeric', value: '27,4' })).toBe(true);
    expect(isCorrect(num, { type: 'numeric', value: '26.4' })).toBe(false);
    expect(isCorrect(num, { type: 'numeric', value: 'twenty-seven' })).toBe(false);
    expect(parseNumber('1e3')).toBeUndefined();
    expect(parseNumber(' -2.5 ')).toBe(-2.5);
  });

  it('wants the exact order', () => {
    expect(isCorrect(ord, { type: 'order', items: ['x', 'y', 'z'] })).toBe(true);
    expect(isCorrect(ord, { type: 'order', items: ['y', 'x', 'z'] })).toBe(false);
    expect(isCorrect(ord, { type: 'order', items: ['x', 'y'] })).toBe(false);
  });

  it('rejects an answer of the wrong type and scores a whole quiz', () => {
    expect(isCorrect(single, { type: 'numeric', value: '1' })).toBe(false);
    const result = scoreQuiz(quiz, { single: { type: 'single', choice: 'b' }, num: { type: 'numeric', value: '27' } });
    expect(result).toMatchObject({ score: 2, total: 4, correct: { single: true, multi: false, num: true, ord: false } });
  });

  it('shuffles ordering items the same way every time, never into the answer', () => {
    const ids = ['a', 'b', 'c', 'd'];
    expect(shuffledOrder(ids, 'q1')).toEqual(shuffledOrder(ids, 'q1'));
    for (const seed of ['q1', 'q2', 'order-checks', 'x']) {
      const out = shuffledOrder(ids, seed);
      expect([...out].sort()).toEqual(ids);
      expect(out).not.toEqual(ids);
    }
  });
});

describe('quiz schema', () => {
  const base = { module: 'm', title: t('Q') };
  it('rejects a single-choice question with two correct choices', () => {
    const bad = {
      ...base,
      questions: [{ ...single, choices: single.choices.map((c: object) => ({ ...c, correct: true })) }],
    };
    expect(quizSchema.safeParse(bad).success).toBe(false);
  });
  it('rejects an explanation missing in one language, and a Vietnamese text without diacritics', () => {
    expect(quizSchema.safeParse({ ...base, questions: [{ ...num, explanation: { en: 'why' } }] }).success).toBe(false);
    expect(quizSchema.safeParse({ ...base, questions: [{ ...num, prompt: { vi: 'Bao nhieu', en: 'How many' } }] }).success).toBe(false);
  });
  it('rejects duplicate question ids', () => {
    expect(quizSchema.safeParse({ ...base, questions: [num, num] }).success).toBe(false);
  });
});
