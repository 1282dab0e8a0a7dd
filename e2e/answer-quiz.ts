/** Answers a quiz on the page the way a learner would, from the quiz's own data (shared by e2e tests). */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

interface QuizJson {
  questions: { id: string; type: string; choices?: { id: string; correct: boolean }[]; items?: { id: string }[]; answer?: number }[];
}

export const readQuiz = (id: string): QuizJson => JSON.parse(readFileSync(`content/quizzes/${id}.json`, 'utf8'));

/** Checks every question; the ones in `wrong` (single-choice only) get a wrong answer, twice. */
export async function answerQuiz(page: Page, quizId: string, lang: 'vi' | 'en', wrong: string[] = []) {
  const quiz = readQuiz(quizId);
  const root = page.locator(`course-quiz[data-quiz-id="${quizId}"]`);
  await root.locator('[data-check]').first().waitFor();
  for (const q of quiz.questions) {
    const el = root.locator(`[data-question="${q.id}"]`);
    if (q.type === 'single' || q.type === 'multiple') {
      const pick = wrong.includes(q.id) ? q.choices!.filter((c) => !c.correct).slice(0, 1) : q.choices!.filter((c) => c.correct);
      for (const c of pick) await el.locator(`input[value="${c.id}"]`).check();
    } else if (q.type === 'numeric') {
      await el.locator('input').fill(lang === 'vi' ? String(q.answer).replace('.', ',') : String(q.answer));
    } else {
      for (let target = 0; target < q.items!.length; target++) {
        const id = q.items![target]!.id;
        for (;;) {
          const order = await el.locator('[data-item]').evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.item));
          if (order.indexOf(id) <= target) break;
          await el.locator(`[data-item="${id}"] [data-move="-1"]`).click();
        }
      }
    }
    await el.locator('[data-check]').click();
    // A first wrong answer gets one more try; checking it again reveals the right one.
    if (wrong.includes(q.id)) {
      await el.locator('.verdict-retry').waitFor();
      await el.locator('[data-check]').click();
    }
    await expect.poll(() => el.locator('.verdict-right, .verdict-wrong').count()).toBe(1);
  }
  return quiz.questions.length;
}
