import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser, type Page } from './fixtures.ts';
import { assignmentSchema, submissionSchema } from '../src/assignments/file-schemas.ts';

const WORDS = {
  en: {
    late: 'due date has passed',
    open: 'Open:',
    noCode: 'No saved code yet',
    saved: 'Code saved',
    nothing: 'Nothing to hand in yet',
    emailError: 'valid e-mail',
    invalid: 'damaged or incomplete',
    missing: 'carries none',
  },
  vi: {
    late: 'Đã quá hạn',
    open: 'Còn mở',
    noCode: 'Chưa có code nào được lưu',
    saved: 'Đã lưu code',
    nothing: 'Chưa có gì để nộp',
    emailError: 'e-mail hợp lệ',
    invalid: 'bị hỏng hoặc thiếu',
    missing: 'không chứa bài giao nào',
  },
} as const;

async function downloadJson(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), data: JSON.parse(await readFile(await download.path(), 'utf8')) };
}

/** Fills in the instructor form: the whole "deadlines" module plus the retry-helper exercise. */
async function buildAssignment(page: Page, due: string) {
  await page.fill('#asg-title', 'Tuần 2: deadline');
  await page.fill('#asg-class', 'Backend K12');
  await page.fill('#asg-due', due);
  await page.locator('[data-module-choice="deadlines"] [data-module-all]').check();
  await page.locator('input[name="exercise"][value="retry-helper"]').check();
  await page.locator('[data-assignment-form] button[type="submit"]').click();
  await page.locator('[data-assignment-result]').waitFor();
}

/** A reload can abort the favicon request: that is the test's doing, not the page's. */
const real = (errors: string[]) => errors.filter((e) => !/favicon\.svg net::ERR_ABORTED/.test(e));

describe.skipIf(skipBrowser())('assignments', () => {
  const browser = useBrowser();

  it.each(['en', 'vi'] as const)('goes from the instructor page to a learner’s submission file (%s)', async (lang) => {
    // The instructor works in Ho Chi Minh City; the zone defaults to the browser's, under its current name.
    const instructor = await browser.open(`/${lang}/instructor/`, { timezoneId: 'Asia/Ho_Chi_Minh', locale: lang === 'vi' ? 'vi-VN' : 'en-GB' });
    expect(await instructor.page.locator('#asg-zone').inputValue()).toBe('Asia/Ho_Chi_Minh');
    // Selecting a module selects its exercises and its module quiz, not the lesson checks.
    await instructor.page.locator('[data-module-choice="deadlines"] [data-module-all]').check();
    expect(await instructor.page.locator('input[name="exercise"][value="deadline-middleware"]').isChecked()).toBe(true);
    expect(await instructor.page.locator('input[name="quiz"][value="deadlines-quiz"]').isChecked()).toBe(true);
    expect(await instructor.page.locator('input[name="quiz"][value="deadlines-deadline-vs-timeout-check"]').isChecked()).toBe(false);
    await instructor.page.locator('[data-module-choice="deadlines"] [data-module-all]').uncheck();
    await buildAssignment(instructor.page, '2099-12-01T23:59');

    const { name, data: assignment } = await downloadJson(instructor.page, () => instructor.page.locator('[data-download-assignment]').click());
    expect(assignmentSchema.parse(assignment)).toMatchObject({
      format: 'course-assignment',
      version: 1,
      title: 'Tuần 2: deadline',
      className: 'Backend K12',
      due: '2099-12-01T23:59:00+07:00',
      timeZone: 'Asia/Ho_Chi_Minh',
      modules: ['deadlines'],
      exercises: ['deadline-middleware', 'fan-out', 'retry-helper'],
      quizzes: ['deadlines-quiz'],
    });
    expect(name).toBe(`${assignment.id}.json`);
    const link = await instructor.page.locator('[data-result-link]').inputValue();
    expect(link).toMatch(new RegExp(`/${lang}/assignment/#a=`));

    // A learner in London opens the link in a fresh browser.
    const learner = await browser.open(new URL(link).pathname + new URL(link).hash, { timezoneId: 'Europe/London' });
    const page = learner.page;
    await expect.poll(() => page.locator('[data-assignment-title]').innerText()).toBe('Tuần 2: deadline');
    expect(await page.locator('[data-assignment-class]').innerText()).toContain('Backend K12');
    expect(await page.locator('[data-due-local]').innerText()).toContain('16:59');
    expect(await page.locator('[data-due-local]').innerText()).toContain('Europe/London');
    expect(await page.locator('[data-due-instructor]').innerText()).toContain('23:59');
    expect(await page.locator('[data-due-state]').innerText()).toContain(WORDS[lang].open);
    const rows = page.locator('[data-assignment-items] tr');
    expect(await rows.count()).toBe(4);
    expect(await rows.nth(0).innerText()).toContain(WORDS[lang].noCode);

    // The workspace saved code for one exercise (with a scratch file that is not part of it).
    await page.evaluate(() => {
      localStorage.setItem(
        'course.code.deadline-middleware',
        JSON.stringify({ version: 1, files: { 'deadline.ts': 'export function deadline() {}\n', 'scratch.txt': 'notes' }, savedAt: new Date().toISOString() }),
      );
    });
    await page.reload();
    await expect.poll(() => rows.nth(0).innerText()).toContain(WORDS[lang].saved);
    const warning = page.locator('[data-missing-warning]');
    expect(await warning.innerText()).toContain(WORDS[lang].nothing);
    expect(await warning.innerText()).toMatch(/retry/i);

    // Name and e-mail are checked before anything is downloaded.
    await page.locator('[data-submission-form] button[type="submit"]').click();
    expect(await page.locator('#learner-name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('learner-name');
    await page.fill('#learner-name', 'Nguyễn Văn An');
    await page.fill('#learner-email', 'an@');
    await page.locator('[data-submission-form] button[type="submit"]').click();
    expect(await page.locator('[data-error-for="email"]').innerText()).toContain(WORDS[lang].emailError);
    await page.fill('#learner-email', 'an@example.com');
    const { name: fileName, data: submission } = await downloadJson(page, () => page.locator('[data-submission-form] button[type="submit"]').click());

    expect(fileName).toBe(`submission-${assignment.id}-an.json`);
    expect(submissionSchema.parse(submission)).toMatchObject({
      format: 'course-submission',
      version: 1,
      assignmentId: assignment.id,
      learner: { name: 'Nguyễn Văn An', email: 'an@example.com' },
      exercises: { 'deadline-middleware': { files: { 'deadline.ts': 'export function deadline() {}\n' } } },
      quizzes: {},
    });
    expect(Object.keys(submission.exercises['deadline-middleware'].files)).toEqual(['deadline.ts']);
    expect(await page.locator('[data-export-status]').innerText()).toContain(fileName);
    expect(real([...instructor.errors, ...learner.errors])).toEqual([]);
  });

  it('shows a late assignment as late, keeps the assignment across the language switch, and includes quiz answers', async () => {
    const instructor = await browser.open('/en/instructor/', { timezoneId: 'UTC' });
    await buildAssignment(instructor.page, '2020-01-01T09:00');
    const link = new URL(await instructor.page.locator('[data-result-link]').inputValue());
    const { page, errors } = await browser.open(link.pathname + link.hash);
    await expect.poll(() => page.locator('[data-due-state]').innerText()).toContain(WORDS.en.late);
    await page.evaluate(() => {
      document.dispatchEvent(
        new CustomEvent('course:quiz-scored', { detail: { quizId: 'deadlines-quiz', score: 4, total: 6, answers: { q1: { type: 'single', choice: 'a' } } } }),
      );
    });
    await expect.poll(() => page.locator('[data-assignment-items] tr').nth(3).innerText()).toContain('4/6');
    await page.click('.lang-switch');
    await page.waitForURL(/\/vi\/assignment\/#a=/);
    await expect.poll(() => page.locator('[data-due-state]').innerText()).toContain(WORDS.vi.late);
    await page.fill('#learner-name', 'An');
    await page.fill('#learner-email', 'an@example.com');
    const { data } = await downloadJson(page, () => page.locator('[data-submission-form] button[type="submit"]').click());
    expect(submissionSchema.parse(data).quizzes).toEqual({ 'deadlines-quiz': { answers: { q1: { type: 'single', choice: 'a' } } } });
    expect(data.clientResults.quizzes['deadlines-quiz']).toMatchObject({ score: 4, total: 6 });
    expect(real(errors)).toEqual([]);
  });

  it.each(['en', 'vi'] as const)('explains a missing or damaged assignment link (%s)', async (lang) => {
    const { page, errors } = await browser.open(`/${lang}/assignment/`);
    await expect.poll(() => page.locator('[data-assignment-problem]').innerText()).toContain(WORDS[lang].missing);
    await page.goto(`/${lang}/assignment/#a=eyJub3QiOiJhbiBhc3NpZ25tZW50In0`);
    await page.reload();
    await expect.poll(() => page.locator('[data-assignment-problem]').innerText()).toContain(WORDS[lang].invalid);
    expect(await page.locator('[data-assignment-body]').isHidden()).toBe(true);
    expect(real(errors)).toEqual([]);
  });

  it('refuses an incomplete assignment form and says which fields to fix', async () => {
    const { page, errors } = await browser.open('/vi/instructor/');
    await page.locator('[data-assignment-form] button[type="submit"]').click();
    expect(await page.locator('[data-error-summary]').innerText()).toContain('Chưa tạo được bài giao');
    for (const id of ['#asg-title', '#asg-class', '#asg-due']) expect(await page.locator(id).getAttribute('aria-invalid'), id).toBe('true');
    expect(await page.locator('[data-error-for="items"]').innerText()).toContain('ít nhất một');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('asg-title');
    expect(await page.locator('[data-assignment-result]').isHidden()).toBe(true);
    expect(real(errors)).toEqual([]);
  });
});
