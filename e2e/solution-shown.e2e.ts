/**
 * "Show solution" then Run is not the learner's own pass: the confirmation says it will be recorded,
 * and the progress page, the assignment page and the exported submission all say the solution was shown.
 */
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignmentLink } from '../src/assignments/link.ts';
import type { Assignment } from '../src/assignments/file-schemas.ts';
import { skipBrowser, useBrowser, withoutCutShort } from './fixtures.ts';
import { pasteCode, runToEnd, workspace } from './run-helpers.ts';
import { serveSite, withRunnerToken, type ServedSite } from '../tools/serve-site.ts';
import { DIST } from '../tools/site-pages.ts';

const assignment: Assignment = {
  format: 'course-assignment',
  version: 1,
  id: 'week-3',
  title: 'Week 3',
  className: 'Backend K12',
  due: '2099-12-01T23:59:00+07:00',
  timeZone: 'Asia/Ho_Chi_Minh',
  modules: [],
  exercises: ['retry-helper'],
  quizzes: [],
  createdAt: '2026-11-30T00:00:00+07:00',
};

let site: ServedSite | undefined;
beforeAll(async () => {
  if (!skipBrowser()) site = await serveSite(DIST, 'local-runner');
});
afterAll(() => site?.stop());

describe.skipIf(skipBrowser())('a revealed solution', () => {
  const browser = useBrowser();

  it.each(['en', 'vi'] as const)(
    'is announced before, and recorded in progress, on the assignment page and in the submission (%s)',
    async (lang) => {
      const { page, errors } = await browser.open(withRunnerToken(site!, `${site!.url}/${lang}/when-to-retry/one-layer/`), { baseURL: site!.url });
      const root = workspace(page, 'retry-helper');
      await pasteCode(page, root, readFileSync('exercises/retry-helper/starter/retry.ts', 'utf8'));
      await runToEnd(page, root);

      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.accept();
      });
      await root.locator('[data-action="solution"]').click();
      await page.waitForFunction(() => JSON.parse(localStorage.getItem('course.progress') ?? '{}').solutionsShown?.['retry-helper']);
      expect(dialogs[0]).toContain(lang === 'en' ? 'will record that you saw the solution' : 'sẽ ghi lại rằng bạn đã xem lời giải');
      expect(await runToEnd(page, root)).toMatch(/^(\d+)\/\1 /);

      await page.goto(`/${lang}/progress/`);
      const state = page.locator('[data-exercise-state="retry-helper"]');
      await expect.poll(() => state.getAttribute('data-solution-shown')).toBe('true');
      expect(await state.innerText()).toContain(lang === 'en' ? 'solution shown' : 'đã xem lời giải');

      await page.goto(assignmentLink(site!.url, lang, assignment));
      const row = page.locator('[data-assignment-items] tr').first();
      await expect.poll(() => row.innerText()).toContain(lang === 'en' ? 'you revealed the solution' : 'bạn đã xem lời giải');
      await page.fill('#learner-name', 'An');
      await page.fill('#learner-email', 'an@example.com');
      const [file] = await Promise.all([page.waitForEvent('download'), page.locator('[data-submission-form] button[type="submit"]').click()]);
      const submission = JSON.parse(await readFile((await file.path())!, 'utf8'));
      expect(submission.solutionShown).toEqual(['retry-helper']);
      expect(withoutCutShort(errors)).toEqual([]);
    },
    120_000,
  );
});
