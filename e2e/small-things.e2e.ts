/**
 * Small things a learner trips over: the item list of an assignment, a file name shown twice,
 * counted words with real plurals.
 */
import { describe, expect, it } from 'vitest';
import { assignmentLink } from '../src/assignments/link.ts';
import type { Assignment } from '../src/assignments/file-schemas.ts';
import { baseURL, skipBrowser, useBrowser } from './fixtures.ts';

const assignment: Assignment = {
  format: 'course-assignment',
  version: 1,
  id: 'week-2',
  title: 'Week 2',
  className: 'Backend K12',
  due: '2099-12-01T23:59:00+07:00',
  timeZone: 'Asia/Ho_Chi_Minh',
  modules: [],
  exercises: ['retry-helper'],
  quizzes: ['timeouts-quiz'],
  createdAt: '2026-11-30T00:00:00+07:00',
};

describe.skipIf(skipBrowser())('small things', () => {
  const browser = useBrowser();

  it.each([
    ['en', 'Exercise', 'Write a safe retry helper'],
    ['vi', 'Bài tập', 'Viết một retry helper'],
  ] as const)('the assignment page sets each item’s kind on a line of its own above its title (%s)', async (lang, kind, title) => {
    const { page, errors } = await browser.open(assignmentLink(baseURL(), lang, assignment));
    const cell = page.locator('table.items td').first();
    await cell.waitFor();
    // Read as words ("Exercise Write…", not "ExerciseWrite…") and laid out as two lines.
    expect(await cell.textContent()).toMatch(new RegExp(`^${kind} ${title}`));
    const label = cell.locator('.kind');
    expect(await label.evaluate((el) => getComputedStyle(el).display)).toBe('block');
    const [labelBox, linkBox] = [(await label.boundingBox())!, (await cell.locator('a').boundingBox())!];
    expect(linkBox.y).toBeGreaterThanOrEqual(labelBox.y + labelBox.height - 1);
    expect(errors).toEqual([]);
  });

  it.each([
    ['when-to-retry/one-layer', 'retry-helper'],
    ['operating/case-study', 'service-chain'],
  ])('each file name of an exercise shows once (tab or caption, not both): %s', async (path, id) => {
    const { page } = await browser.open(`/en/${path}/`);
    const root = page.locator(`course-workspace[data-exercise="${id}"]`);
    await root.waitFor();
    const names = await root
      .locator('[data-tab], .ws-filename')
      .evaluateAll((els) => els.filter((el) => (el as HTMLElement).offsetParent !== null).map((el) => el.firstChild?.textContent?.trim()));
    expect(names.length).toBeGreaterThan(0);
    expect(names).toEqual([...new Set(names)]);
  });

  it('counts in English take the right plural ("1 question", "2 questions")', async () => {
    const { page } = await browser.open('/en/timeouts/why-timeouts/');
    const quiz = page.locator('course-quiz').first();
    await quiz.locator('[data-check]').first().waitFor();
    const questions = await quiz.locator('[data-question]').count();
    // Check one question (any answer twice, so it locks), then read the remaining count.
    const first = quiz
      .locator('[data-question]')
      .filter({ has: page.locator('input[type="radio"]') })
      .first();
    await first.locator('input').first().check();
    for (let i = 0; i < 2 && (await first.locator('[data-check]').isVisible()); i++) await first.locator('[data-check]').click();
    const left = questions - 1;
    await expect.poll(() => quiz.locator('[data-score]').innerText()).toContain(`${left} ${left === 1 ? 'question' : 'questions'} not checked yet.`);
  });
});
