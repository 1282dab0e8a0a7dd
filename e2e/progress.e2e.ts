import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { baseURL, skipBrowser, useBrowser, withoutCutShort, type Page } from './fixtures.ts';
import { lessonEmbedding } from './workspace-helpers.ts';
import { answerQuiz, readQuiz } from './answer-quiz.ts';
import { parseProgressFile } from '../src/progress/transfer.ts';

const LESSON = 'timeouts/why-timeouts';
const QUIZ_LESSON = 'timeouts/choosing-a-timeout';
const WORDS = {
  en: { quiz: 'quiz', lessons: 'lessons', done: 'Completed', unreadable: 'could not be read', importDone: 'Imported', tampered: 'edited or damaged' },
  vi: { quiz: 'bài quiz', lessons: 'bài học', done: 'Đã hoàn thành', unreadable: 'Không đọc được', importDone: 'Đã nhập', tampered: 'đã bị sửa hoặc bị hỏng' },
} as const;

const stored = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);

/** A reload can abort the favicon request: that is the test's doing, not the page's. */

describe.skipIf(skipBrowser())('learner progress', () => {
  const browser = useBrowser();

  it.each(['en', 'vi'] as const)('records a finished quiz: its score shows on the progress page and the module card (%s)', async (lang) => {
    const { page, errors } = await browser.open(`/${lang}/${QUIZ_LESSON}/`);
    const firstSingle = readQuiz('timeouts-quiz').questions.find((q) => q.type === 'single')!.id;
    const total = await answerQuiz(page, 'timeouts-quiz', lang, [firstSingle]);
    const score = `${total - 1}/${total}`;

    await page.goto(`/${lang}/progress/`);
    await expect.poll(() => page.locator('[data-quiz-state="timeouts-quiz"]').innerText()).toContain(score);
    expect(await page.locator('[data-progress-module="timeouts"]').innerText()).toContain(`${WORDS[lang].quiz} ${score}`);

    await page.goto(`/${lang}/`);
    const card = page.locator('.module-card[data-module="timeouts"] [data-progress-module]');
    await expect.poll(() => card.innerText()).toContain(`${WORDS[lang].quiz} ${score}`);
    // The module quiz of another module was not touched.
    expect(await page.locator('.module-card[data-module="deadlines"] [data-progress-module]').innerText()).not.toContain(WORDS[lang].quiz + ' ');
    expect(withoutCutShort(errors)).toEqual([]);
  });

  it('marks a lesson complete at its end and by the button, both reversible; the mark survives a reload and a language switch', async () => {
    const { page, errors } = await browser.open(`/vi/${LESSON}/`, { locale: 'vi-VN' });
    const box = page.locator(`[data-lesson-complete="${LESSON}"]`);
    const mark = page.locator(`.sidebar [data-progress-for="${LESSON}"]`);
    await box.waitFor();
    expect(await box.getAttribute('data-state')).toBe('todo');
    expect(await mark.getAttribute('data-state')).toBeNull();

    // Reading to the end marks it…
    await box.scrollIntoViewIfNeeded();
    await expect.poll(() => box.getAttribute('data-state')).toBe('done');
    expect(await mark.getAttribute('data-state')).toBe('done');
    // …the button undoes it, and the end of the page does not mark it again after a reload.
    await box.locator('button').press('Enter');
    await expect.poll(() => box.getAttribute('data-state')).toBe('todo');
    await page.reload();
    await box.scrollIntoViewIfNeeded();
    await page.waitForTimeout(1500);
    expect(await box.getAttribute('data-state')).toBe('todo');
    expect(await page.locator(`[data-progress-status="${LESSON}"]`).innerText()).not.toBe(WORDS.vi.done);

    await box.locator('button').click();
    await expect.poll(() => box.getAttribute('data-state')).toBe('done');
    expect(await box.locator('[data-complete-status]').innerText()).toContain('hoàn thành');
    await page.reload();
    await expect.poll(() => mark.getAttribute('data-state')).toBe('done');
    expect(await page.locator(`[data-progress-status="${LESSON}"]`).innerText()).toBe(WORDS.vi.done);

    await page.click('.lang-switch');
    await page.waitForURL(`**/en/${LESSON}/`);
    await expect.poll(() => page.locator(`.sidebar [data-progress-for="${LESSON}"]`).getAttribute('data-state')).toBe('done');
    expect(await page.locator(`[data-progress-status="${LESSON}"]`).innerText()).toBe(WORDS.en.done);
    await page.goto('/en/');
    await expect.poll(() => page.locator('.module-card[data-module="timeouts"] [data-progress-module]').innerText()).toContain(`1/3 ${WORDS.en.lessons}`);
    // "Continue where I left off" leads back to the last lesson opened, in this language.
    const resume = page.locator('[data-progress-continue] a');
    expect(await resume.getAttribute('href')).toBe(`/en/${LESSON}/`);
    expect(await resume.isVisible()).toBe(true);
    expect(withoutCutShort(errors)).toEqual([]);
  });

  it.each(['en', 'vi'] as const)('sets corrupted progress aside with a backup and a dismissible notice, without crashing (%s)', async (lang) => {
    const { page, errors } = await browser.open(`/${lang}/`);
    const broken = '{"version":1,"lessons":{"timeouts/why-tim';
    await page.evaluate((value) => localStorage.setItem('course.progress', value), broken);
    await page.goto(`/${lang}/${LESSON}/`);
    const notice = page.locator('[data-progress-notice]');
    await expect.poll(() => notice.isVisible()).toBe(true);
    const text = await notice.innerText();
    expect(text).toContain(WORDS[lang].unreadable);
    const backupKey = await page.evaluate(() => Object.keys(localStorage).find((k) => k.startsWith('course.progress.backup.')));
    expect(backupKey).toBeTruthy();
    expect(text).toContain(backupKey!);
    expect(await stored(page, backupKey!)).toBe(broken);
    // The page still works: the lesson can be marked complete.
    await page.locator(`[data-lesson-complete="${LESSON}"] button`).click();
    await expect.poll(async () => JSON.parse((await stored(page, 'course.progress'))!).lessons[LESSON]?.read).toBe(true);

    await notice.locator('[data-notice-dismiss]').click();
    expect(await notice.isHidden()).toBe(true);
    await page.reload();
    await page.locator(`[data-lesson-complete="${LESSON}"]`).waitFor();
    expect(await notice.isHidden()).toBe(true);
    expect(await stored(page, backupKey!)).toBe(broken);
    expect(withoutCutShort(errors)).toEqual([]);
  });

  it('exports progress and imports it into a fresh browser after a preview; a tampered file is refused and nothing is lost', async () => {
    // Browser A: a lesson read, a quiz taken, code saved for an exercise.
    const a = await browser.open(`/en/${LESSON}/`);
    await a.page.locator(`[data-lesson-complete="${LESSON}"] button`).click();
    await a.page.evaluate(() => {
      document.dispatchEvent(new CustomEvent('course:quiz-scored', { detail: { quizId: 'timeouts-quiz', score: 8, total: 10, answers: {} } }));
      localStorage.setItem(
        'course.code.retry-helper',
        JSON.stringify({ version: 1, files: { 'retry.ts': 'export const mine = 1;\n' }, savedAt: new Date().toISOString() }),
      );
    });
    await a.page.goto('/en/progress/');
    const [download] = await Promise.all([a.page.waitForEvent('download'), a.page.locator('[data-export]').click()]);
    const file = await download.path();
    const text = await readFile(file, 'utf8');
    const parsed = parseProgressFile(text);
    expect(parsed.ok).toBe(true);

    // Browser B starts empty, with a lesson of its own that must survive the import.
    const b = await browser.open('/vi/deadlines/cancellation/', { locale: 'vi-VN' });
    await b.page.locator('[data-lesson-complete="deadlines/cancellation"] button').click();
    await b.page.goto('/vi/progress/');
    const input = b.page.locator('[data-import-file]');

    // A tampered file: a score above the total.
    const tamperedPath = `${file}.tampered.json`;
    await writeFile(tamperedPath, text.replace('"score": 8', '"score": 80'));
    await input.setInputFiles(tamperedPath);
    await expect.poll(() => b.page.locator('[data-import-error]').innerText()).toContain(WORDS.vi.tampered);
    expect(await b.page.locator('[data-import-preview]').isHidden()).toBe(true);
    expect(await stored(b.page, 'course.code.retry-helper')).toBeNull();

    // The real file: a preview first; cancelling changes nothing.
    await input.setInputFiles(file);
    const preview = b.page.locator('[data-import-preview]');
    await expect.poll(() => preview.isVisible()).toBe(true);
    expect(await b.page.locator('[data-import-error]').innerText()).toBe('');
    const lines = await preview.locator('li').allInnerTexts();
    expect(lines.join('\n')).toContain('8/10');
    expect(lines.join('\n')).toMatch(/Thêm code đã lưu cho: .+/);
    // Imported code runs on this computer when the learner presses Run: the preview says so first.
    await expect.poll(() => preview.locator('[data-import-code-warning]').isVisible()).toBe(true);
    expect(await preview.locator('[data-import-code-warning]').innerText()).toContain('code đó sẽ chạy trên máy tính này');
    await preview.locator('[data-import-cancel]').click();
    expect(await stored(b.page, 'course.code.retry-helper')).toBeNull();
    expect(await b.page.locator(`[data-progress-status="${LESSON}"]`).innerText()).not.toBe(WORDS.vi.done);

    // Confirming merges: both lessons, the quiz, the code.
    await input.setInputFiles(file);
    await preview.locator('[data-import-apply]').click();
    await expect.poll(() => b.page.locator('[data-import-status]').innerText()).toContain(WORDS.vi.importDone);
    expect(await b.page.locator(`[data-progress-status="${LESSON}"]`).innerText()).toBe(WORDS.vi.done);
    expect(await b.page.locator('[data-progress-status="deadlines/cancellation"]').innerText()).toBe(WORDS.vi.done);
    expect(await b.page.locator('[data-quiz-state="timeouts-quiz"]').innerText()).toContain('8/10');
    expect(JSON.parse((await stored(b.page, 'course.code.retry-helper'))!).files['retry.ts']).toBe('export const mine = 1;\n');
    await b.page.reload();
    await expect.poll(() => b.page.locator(`[data-progress-status="${LESSON}"]`).innerText()).toBe(WORDS.vi.done);
    expect(withoutCutShort([...a.errors, ...b.errors])).toEqual([]);
  });

  it('carries code to another address in one step each: "continue on my computer" beside the exercise, import on the progress page there', async () => {
    const a = await browser.open(`/vi/${lessonEmbedding('backoff')}/`, { locale: 'vi-VN' });
    await a.page.evaluate(() =>
      localStorage.setItem(
        'course.code.backoff',
        JSON.stringify({ version: 1, files: { 'backoff.ts': 'export const mine = 2;\n' }, savedAt: new Date().toISOString() }),
      ),
    );
    const box = a.page.locator('section.embed-exercise[data-exercise="backoff"] [data-carry-on]');
    await box.locator('summary').click();
    // The page says why: progress is kept per address, and npm start serves another one.
    expect(await box.innerText()).toContain('npm start');
    expect(await box.innerText()).toContain('npm run exercise -- import');
    const [download] = await Promise.all([a.page.waitForEvent('download'), box.locator('[data-carry-export]').click()]);
    const text = await readFile(await download.path(), 'utf8');
    const parsed = parseProgressFile(text);
    expect(parsed.ok && parsed.file.code['backoff']?.files['backoff.ts']).toBe('export const mine = 2;\n');
    await expect.poll(() => box.locator('[data-carry-status]').innerText()).toContain(download.suggestedFilename());

    // The same site under another address (as npm start's localhost is to the deployed site) starts empty.
    const other = baseURL().replace('127.0.0.1', 'localhost');
    expect(other).not.toBe(baseURL());
    const b = await browser.open(`${other}/vi/progress/`, { locale: 'vi-VN' });
    expect(await stored(b.page, 'course.code.backoff')).toBeNull();
    const transfer = b.page.locator('[data-transfer]');
    expect(await transfer.innerText()).toContain('npm start');
    // Export and import come before the module lists, not after all of them.
    const [transferBox, firstModule] = await Promise.all([transfer.boundingBox(), b.page.locator('.module-progress-section').first().boundingBox()]);
    expect(transferBox!.y).toBeLessThan(firstModule!.y);
    const file = `${await download.path()}.json`;
    await writeFile(file, text);
    await b.page.locator('[data-import-file]').setInputFiles(file);
    await b.page.locator('[data-import-apply]').click();
    await expect.poll(() => b.page.locator('[data-import-status]').innerText()).toContain(WORDS.vi.importDone);
    expect(JSON.parse((await stored(b.page, 'course.code.backoff'))!).files['backoff.ts']).toBe('export const mine = 2;\n');
    expect(withoutCutShort([...a.errors, ...b.errors])).toEqual([]);
  });

  // Export and import are the page's script: shown before it runs, the button would take a click and do
  // nothing (a slow phone, or a test that clicks as soon as it sees the button).
  it('hides export and import until the page can do them: not shown without JavaScript', async () => {
    const context = await browser.context({ javaScriptEnabled: false });
    const page = await context.newPage();
    for (const lang of ['en', 'vi']) {
      await page.goto(`/${lang}/progress/`);
      expect(await page.locator('[data-transfer]').count()).toBe(1);
      expect(await page.locator('[data-transfer]').isVisible(), lang).toBe(false);
      expect(await page.locator('[data-export]').isVisible(), lang).toBe(false);
    }
  });

  it('keeps working where the browser refuses storage', async () => {
    const context = await browser.context();
    await context.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', {
        get: () => {
          throw new DOMException('denied', 'SecurityError');
        },
      });
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`/en/${LESSON}/`);
    const notice = page.locator('[data-progress-notice]');
    await expect.poll(() => notice.innerText()).toContain('private mode');
    const box = page.locator(`[data-lesson-complete="${LESSON}"]`);
    await box.locator('button').click();
    await expect.poll(() => page.locator(`.sidebar [data-progress-for="${LESSON}"]`).getAttribute('data-state')).toBe('done');
    expect(withoutCutShort(errors)).toEqual([]);
  });
});
