import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser } from './fixtures.ts';

// The module quiz at the end of module 3 has all four question types.
const PAGE = 'when-to-retry/one-layer';
const quiz = JSON.parse(readFileSync('content/quizzes/when-to-retry-quiz.json', 'utf8'));
const ofType = (type: string) => quiz.questions.find((q: { type: string }) => q.type === type);

describe.skipIf(skipBrowser())('a module quiz', () => {
  const browser = useBrowser();

  it.each(['en', 'vi'] as const)('checks every answer type, explains, scores, reports the score and starts over (%s)', async (lang) => {
    const { page, errors } = await browser.open(`/${lang}/${PAGE}/`);
    const root = page.locator('course-quiz[data-quiz-id="when-to-retry-quiz"]');
    await root.locator('[data-check]').first().waitFor();
    expect(await root.locator('[data-answer-key]').isHidden()).toBe(true);
    await page.evaluate(() => {
      document.addEventListener('course:quiz-scored', (e) => ((window as any).scored = (e as CustomEvent).detail));
    });

    // Answer every question correctly from the quiz data, as a learner would with mouse and keyboard.
    for (const q of quiz.questions) {
      const el = root.locator(`[data-question="${q.id}"]`);
      if (q.type === 'single' || q.type === 'multiple') {
        for (const c of q.choices.filter((c: { correct: boolean }) => c.correct)) await el.locator(`input[value="${c.id}"]`).check();
      } else if (q.type === 'numeric') {
        await el.locator('input').fill(lang === 'vi' ? String(q.answer).replace('.', ',') : String(q.answer));
      } else {
        // Bubble each item into place with the Move up buttons.
        for (let target = 0; target < q.items.length; target++) {
          const id = q.items[target].id;
          for (;;) {
            const order = await el.locator('[data-item]').evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.item));
            if (order.indexOf(id) <= target) break;
            await el.locator(`[data-item="${id}"] [data-move="-1"]`).click();
          }
        }
      }
      if (q.type === 'numeric') await el.locator('input').press('Enter');
      else await el.locator('[data-check]').click();
      await expect.poll(() => el.locator('[data-feedback] .verdict-right, [data-feedback] .verdict-wrong').count()).toBe(1);
      expect(await el.locator('.verdict-right').count(), q.id).toBe(1);
    }
    const total = quiz.questions.length;
    await expect.poll(() => root.locator('[data-score]').innerText()).toContain(`${total}`);
    const scored = await page.evaluate(() => (window as any).scored);
    expect(scored).toMatchObject({ quizId: 'when-to-retry-quiz', score: total, total });

    // A checked question is locked, and its Check button is gone.
    expect(await root.locator('[data-check]:visible').count()).toBe(0);

    // Try again clears everything and brings the Check buttons back.
    await root.locator('[data-retry]').click();
    expect(await root.locator('input:checked').count()).toBe(0);
    expect(await root.locator('[data-check]:visible').count()).toBe(total);
    const numeric = root.locator(`[data-question="${ofType('numeric').id}"]`);
    const numericAnswer = String(ofType('numeric').answer);
    // An empty numeric answer asks for a number (not "pick an answer") and costs no try.
    await numeric.locator('[data-check]').click();
    expect(await numeric.locator('[data-feedback]').innerText()).toBe(
      lang === 'en' ? 'Enter a number first (for example 2 or 1.5).' : 'Hãy nhập một số trước (ví dụ 2 hoặc 1,5).',
    );
    // A first wrong answer: one more try, nothing revealed, nothing locked.
    await numeric.locator('input').fill('1');
    await numeric.locator('[data-check]').click();
    await numeric.locator('.verdict-retry').waitFor();
    expect(await numeric.locator('[data-feedback]').innerText()).not.toContain(numericAnswer);
    expect(await numeric.locator('input').isEnabled()).toBe(true);
    expect(await numeric.locator('[data-check]').isVisible()).toBe(true);
    // The second wrong answer shows the right one and the explanation, and locks the question.
    await numeric.locator('[data-check]').click();
    await expect.poll(() => numeric.locator('[data-feedback]').innerText()).toContain(numericAnswer);
    expect(await numeric.locator('[data-check]').isVisible()).toBe(false);
    // A wrong choice, then the right one on the second try: counted right.
    const single = ofType('single');
    const singleEl = root.locator(`[data-question="${single.id}"]`);
    const wrongChoice = single.choices.find((c: { correct: boolean }) => !c.correct);
    await singleEl.locator(`input[value="${wrongChoice.id}"]`).check();
    await singleEl.locator('[data-check]').click();
    await singleEl.locator('.verdict-retry').waitFor();
    expect(await singleEl.locator('[data-verdict]').count()).toBe(0); // the right choice is not revealed yet
    // The option chosen stays marked as the first answer, in words, and the feedback names it (issue 28, item 9).
    const tried = singleEl.locator('li[data-tried="wrong"]');
    expect(await tried.count()).toBe(1);
    expect(await tried.locator('input').getAttribute('value')).toBe(wrongChoice.id);
    const mark = tried.locator('.quiz-tried');
    expect(await mark.textContent()).toBe(lang === 'en' ? '✗ your first answer' : '✗ câu trả lời đầu của bạn');
    expect((await mark.boundingBox())!.width).toBeGreaterThan(0);
    const choiceText = (await tried.locator('label > span').first().textContent())!.trim();
    expect(await singleEl.locator('.verdict-retry').innerText()).toContain(choiceText);
    expect(await numeric.locator('.verdict-retry').count()).toBe(0); // the numeric one is locked by now
    await singleEl.locator(`input[value="${single.choices.find((c: { correct: boolean }) => c.correct).id}"]`).check();
    await singleEl.locator('[data-check]').click();
    await singleEl.locator('.verdict-right').waitFor();
    expect(await singleEl.locator('li[data-tried="wrong"] .quiz-tried').count()).toBe(1); // the first answer still shows
    expect(await numeric.locator('[data-feedback]').innerText()).toContain(ofType('numeric').explanation[lang].slice(0, 20));
    expect(errors).toEqual([]);
  });

  it('shows the questions and an answer key without JavaScript', async () => {
    const context = await browser.context({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/en/${PAGE}/`);
    const root = page.locator('course-quiz[data-quiz-id="when-to-retry-quiz"]');
    expect(await root.locator('[data-question]').count()).toBe(quiz.questions.length);
    await root.locator('[data-answer-key] summary').click();
    expect(await root.locator('[data-answer-key]').innerText()).toContain(ofType('numeric').explanation.en.slice(0, 20));
  });
});
