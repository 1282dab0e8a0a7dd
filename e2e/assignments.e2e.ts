import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser, withoutCutShort, type Page } from './fixtures.ts';
import { assignmentSchema, submissionSchema, type Assignment } from '../src/assignments/file-schemas.ts';
import { encodeAssignment } from '../src/assignments/link.ts';
import { lessonEmbedding } from './workspace-helpers.ts';

const LESSON = 'deadlines/deadline-vs-timeout';
const LAB = 'deadline-chain'; // embedded in deadlines/propagating-deadlines
const WORDS = {
  en: {
    late: 'due date has passed',
    open: 'Open:',
    noCode: 'No saved code yet',
    unread: 'Not read yet',
    read: 'Read',
    unopened: 'Not opened yet',
    opened: 'Opened',
    saved: 'Code saved',
    nothing: 'Nothing to hand in yet',
    emailError: 'valid e-mail',
    invalid: 'damaged or incomplete',
    missing: 'carries none',
    remembered: 'the ones you have opened',
    back: 'Back to the assignment',
    handIn: 'Hand in',
    part: 'Part of the assignment',
    none: 'No assignment opened yet',
    remove: 'Remove',
    count: '0 of 2 items done',
  },
  vi: {
    late: 'Đã quá hạn',
    open: 'Còn mở',
    noCode: 'Chưa có code nào được lưu',
    unread: 'Chưa đọc',
    read: 'Đã đọc',
    unopened: 'Chưa mở',
    opened: 'Đã mở',
    saved: 'Đã lưu code',
    nothing: 'Chưa có gì để nộp',
    emailError: 'e-mail hợp lệ',
    invalid: 'bị hỏng hoặc thiếu',
    missing: 'không chứa bài giao nào',
    remembered: 'các bài giao bạn đã mở',
    back: 'Quay lại bài giao',
    handIn: 'Nộp bài',
    part: 'Thuộc bài giao',
    none: 'Bạn chưa mở bài giao nào',
    remove: 'Bỏ khỏi danh sách',
    count: 'xong 0/2 mục',
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
// The exercise page's probe for the local runner, cut short by the next navigation, is no error either.
const real = (errors: string[]) => withoutCutShort(errors, ['__runner/session.json']);

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
    await instructor.page.locator(`input[name="lesson"][value="${LESSON}"]`).check(); // a lesson to read, as an item
    await instructor.page.locator(`input[name="lab"][value="${LAB}"]`).check(); // and a lab to open
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
      lessons: [LESSON],
      labs: [LAB],
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
    expect(await rows.count()).toBe(6);
    expect(await rows.nth(0).innerText()).toContain(WORDS[lang].noCode);
    expect(await rows.nth(4).innerText()).toContain(WORDS[lang].unread);
    expect(await rows.nth(5).innerText()).toContain(WORDS[lang].unopened);
    // Marked complete on its page, the lesson shows as read from the learner's progress.
    const back = page.url();
    await page.goto(`/${lang}/${LESSON}/`);
    await page.locator(`[data-lesson-complete="${LESSON}"] button`).click();
    // The lab, by the assignment page’s link to it: that opens it, and its banner says it is assigned.
    await page.goto(back);
    await page.locator(`[data-assignment-items] a[href$="#lab-${LAB}"]`).click();
    const lab = page.locator(`course-lab[data-sim="${LAB}"]`);
    await expect.poll(() => lab.locator('[data-assigned-banner]').innerText()).toContain(WORDS[lang].part);
    await expect.poll(() => lab.getAttribute('data-state')).toBe('ready'); // its charts loaded: leaving cuts nothing short
    await page.goto(back);
    await expect.poll(() => rows.nth(4).innerText()).toContain(WORDS[lang].read);
    await expect.poll(() => rows.nth(5).innerText()).toContain(WORDS[lang].opened);

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

  it.each(['en', 'vi'] as const)(
    'remembers an opened assignment: listed without the link, on the progress page, and above its exercise with the way back (%s)',
    async (lang) => {
      const assignment: Assignment = {
        format: 'course-assignment',
        version: 1,
        id: 'week-3',
        title: 'Tuần 3: retry',
        className: 'Backend K12',
        due: '2099-12-08T23:59:00+07:00',
        timeZone: 'Asia/Ho_Chi_Minh',
        modules: ['when-to-retry'],
        exercises: ['retry-helper'],
        quizzes: ['deadlines-quiz'],
        createdAt: '2026-11-29T10:00:00.000Z',
      };
      const w = WORDS[lang];
      const { page, errors } = await browser.open(`/${lang}/assignment/#${encodeAssignment(assignment)}`);
      await expect.poll(() => page.locator('[data-assignment-title]').innerText()).toBe(assignment.title);

      // The learner clicks away, then comes back to the bare address.
      await page.goto(`/${lang}/`);
      await page.goto(`/${lang}/assignment/`);
      await expect.poll(() => page.locator('[data-assignment-problem]').innerText()).toContain(w.remembered);
      const listed = page.locator('[data-opened-assignments] li');
      await expect.poll(() => listed.count()).toBe(1);
      expect(await listed.innerText()).toContain('Backend K12');
      expect(await listed.innerText()).toContain(w.count);

      await page.goto(`/${lang}/progress/`);
      await expect.poll(() => page.locator('[data-opened-assignments] li a').innerText()).toBe(assignment.title);

      // Above the assigned exercise: which assignment, by when, and the way back and to hand in.
      await page.goto(`/${lang}/${lessonEmbedding('retry-helper')}/`);
      const banner = page.locator('section.embed-exercise[data-exercise="retry-helper"] [data-assigned-banner]');
      await expect.poll(() => banner.innerText()).toContain(`${w.part} “${assignment.title}”`);
      expect(await banner.locator('a', { hasText: w.back }).isVisible()).toBe(true);
      await banner.locator('a', { hasText: w.handIn }).click();
      await page.waitForURL(/\/assignment\/#a=.*&to=hand-in/);
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('learner-name');
      const form = await page.locator('#hand-in').boundingBox();
      expect(form?.y, 'the hand-in form is scrolled into view').toBeLessThan(page.viewportSize()!.height);
      // An exercise of no opened assignment has no banner.
      await page.goto(`/${lang}/${lessonEmbedding('backoff')}/`);
      await page.locator('section.embed-exercise[data-exercise="backoff"] h3').waitFor();
      expect(await page.locator('[data-assigned-banner]').count()).toBe(0);

      // Removed from the list on the progress page, it is gone everywhere.
      await page.goto(`/${lang}/progress/`);
      await page.locator('[data-opened-assignments] li button', { hasText: w.remove }).click();
      await expect.poll(() => page.locator('[data-opened-assignments]').innerText()).toContain(w.none);
      await page.goto(`/${lang}/assignment/`);
      await expect.poll(() => page.locator('[data-assignment-problem]').innerText()).toContain(w.missing);
      expect(real(errors)).toEqual([]);
    },
  );

  it('refuses an incomplete assignment form and says which fields to fix', async () => {
    const { page, errors } = await browser.open('/vi/instructor/');
    await page.locator('[data-assignment-form] button[type="submit"]').click();
    expect(await page.locator('[data-error-summary]').innerText()).toContain('Chưa tạo được bài giao');
    for (const id of ['#asg-title', '#asg-class', '#asg-due']) expect(await page.locator(id).getAttribute('aria-invalid'), id).toBe('true');
    expect(await page.locator('[data-error-for="items"]').innerText()).toContain('ít nhất một');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('asg-title');
    expect(await page.locator('[data-assignment-result]').isHidden()).toBe(true);
    // Points and the late policy are checked too, each field with its own message.
    await page.locator('input[name="exercise"][value="retry-helper"]').check();
    await page.fill('input[name="points:retry-helper"]', '0');
    expect(await page.locator('#asg-penalty').isDisabled()).toBe(true); // until a late policy is asked for
    await page.locator('[data-late-enabled]').check();
    await page.fill('#asg-penalty', '150');
    await page.fill('#asg-due', '2099-12-02T10:00');
    await page.fill('#asg-cutoff', '2099-12-01T10:00');
    await page.fill('#asg-site', 'course.example.edu');
    await page.locator('[data-assignment-form] button[type="submit"]').click();
    expect(await page.locator('[data-error-for="points"]').innerText()).toContain('lớn hơn 0');
    expect(await page.locator('[data-error-for="penaltyPercent"]').innerText()).toContain('từ 0 đến 100');
    expect(await page.locator('[data-error-for="cutoff"]').innerText()).toContain('sau hạn nộp');
    expect(await page.locator('[data-error-for="site"]').innerText()).toContain('https://');
    for (const id of ['#asg-penalty', '#asg-cutoff', '#asg-site']) expect(await page.locator(id).getAttribute('aria-invalid'), id).toBe('true');
    expect(real(errors)).toEqual([]);
  });
});
