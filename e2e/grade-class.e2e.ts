/**
 * The instructor's whole loop: build an assignment on the instructor page, answer it as a learner in
 * a fresh browser (the reference solution in the saved code, the quiz answered on its lesson page),
 * export the submission, grade it with `npm run grade-class`, and find the learner's row in the CSV.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answerQuiz } from './answer-quiz.ts';
import { skipBrowser, useBrowser, withoutCutShort, type Page } from './fixtures.ts';
import { parseCsv } from '../src/class-grading/csv.ts';
import { createSubmissionSandbox } from '../src/class-grading/sandbox.ts';
import { renderReport } from '../src/class-grading/html.ts';
import type { LearnerResult } from '../src/class-grading/results.ts';
import { fakeReport, makeAssignment, retryHelperExercise } from '../src/class-grading/testing/test-fixtures.ts';

const QUIZ = 'when-to-retry-transient-or-permanent-check';
const QUIZ_PAGE = '/en/when-to-retry/transient-or-permanent/';
const GRADING = 600_000;
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'); // real grading in a confined sandbox on a loaded 2-core machine

/** Saves a download into `dir`, under the name the page suggested (copied from assignments.e2e.ts). */
async function download(page: Page, dir: string, click: () => Promise<void>): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = join(dir, file.suggestedFilename());
  await file.saveAs(path);
  return path;
}

/** Navigating away can abort the favicon request: that is the test's doing, not the page's (as in assignments.e2e.ts). */

function gradeClass(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/grade-class.ts', ...args], {
      env: { ...process.env, COURSE_LANG: '', NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(skipBrowser())('grading a class', () => {
  const browser = useBrowser();
  const work = mkdtempSync(join(tmpdir(), 'grade-class-e2e-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('grades a learner’s exported submission from the instructor’s assignment', { timeout: GRADING }, async () => {
    const submissions = join(work, 'submissions');
    await mkdir(submissions);

    // The instructor: the retry-helper and backoff exercises and one quiz, due far in the future.
    const instructor = await browser.open('/en/instructor/', { timezoneId: 'Asia/Ho_Chi_Minh' });
    await instructor.page.fill('#asg-title', 'Week 3: retries');
    await instructor.page.fill('#asg-class', 'Backend K12');
    await instructor.page.fill('#asg-due', '2099-12-01T23:59');
    await instructor.page.locator('input[name="exercise"][value="retry-helper"]').check();
    await instructor.page.locator('input[name="exercise"][value="backoff"]').check(); // never handed in
    await instructor.page.locator(`input[name="quiz"][value="${QUIZ}"]`).check();
    // Served from this machine: the page says a link with this address would not reach learners, and takes the deployed one.
    expect(await instructor.page.locator('[data-localhost-warning]').isVisible()).toBe(true);
    await instructor.page.fill('#asg-site', 'https://course.example.edu/');
    await instructor.page.fill('input[name="points:retry-helper"]', '30'); // backoff and the quiz keep the default 10
    await instructor.page.locator('[data-late-enabled]').check();
    await instructor.page.fill('#asg-grace', '2');
    await instructor.page.fill('#asg-cutoff', '2099-12-03T23:59');
    await instructor.page.locator('[data-assignment-form] button[type="submit"]').click();
    await instructor.page.locator('[data-assignment-result]').waitFor();
    const assignmentFile = await download(instructor.page, work, () => instructor.page.locator('[data-download-assignment]').click());
    expect(await instructor.page.locator('[data-grade-command]').innerText()).toContain('npm run grade-class -- --assignment');
    const link = new URL(await instructor.page.locator('[data-result-link]').inputValue());
    expect(link.origin).toBe('https://course.example.edu');
    expect(await instructor.page.locator('[data-result-summary]').innerText()).toContain('Worth 50 points in all.');
    expect(JSON.parse(readFileSync(assignmentFile, 'utf8'))).toMatchObject({
      points: { 'retry-helper': 30 },
      latePolicy: { graceMinutes: 120, penaltyPercent: 10, per: 'day', floorPercent: 50, cutoff: '2099-12-03T23:59:00+07:00' },
    });

    // The learner, in a fresh browser: the reference solution as their saved code, then the quiz on its lesson page.
    const learner = await browser.open(link.pathname + link.hash);
    const reference = readFileSync('solutions/retry-helper/retry.ts', 'utf8');
    await learner.page.evaluate((code) => {
      localStorage.setItem('course.code.retry-helper', JSON.stringify({ version: 1, files: { 'retry.ts': code }, savedAt: new Date().toISOString() }));
    }, reference);
    await learner.page.goto(QUIZ_PAGE);
    const questions = await answerQuiz(learner.page, QUIZ, 'en');
    // As if "Show solution" had been used (solution-shown.e2e.ts goes through the button): the gradebook says so.
    await learner.page.evaluate(() => {
      const progress = JSON.parse(localStorage.getItem('course.progress')!);
      localStorage.setItem('course.progress', JSON.stringify({ ...progress, solutionsShown: { 'retry-helper': new Date().toISOString() } }));
    });
    await learner.page.goto(link.pathname + link.hash);
    await expect.poll(() => learner.page.locator('[data-assignment-items] tr').last().innerText()).toContain(`${questions}/${questions}`);
    await learner.page.fill('#learner-name', 'Nguyễn Văn An');
    await learner.page.fill('#learner-email', 'an@example.com');
    await learner.page.fill('#learner-family', 'Nguyễn');
    await learner.page.fill('#learner-given', 'Văn An');
    await learner.page.fill('#learner-student-id', 'SV001');
    const submissionFile = await download(learner.page, submissions, () => learner.page.locator('[data-submission-form] button[type="submit"]').click());
    const submitted = JSON.parse(readFileSync(submissionFile, 'utf8'));
    expect(submitted.exercises['retry-helper'].files['retry.ts']).toBe(reference);
    expect(submitted.learner).toEqual({ name: 'Nguyễn Văn An', email: 'an@example.com', familyName: 'Nguyễn', givenName: 'Văn An', studentId: 'SV001' });
    expect(withoutCutShort([...instructor.errors, ...learner.errors])).toEqual([]);

    // The instructor grades the class: in the confined sandbox when this machine has one.
    const confined = createSubmissionSandbox({ unsafeNoSandbox: false }).ok;
    const out = join(work, 'graded');
    const args = ['--assignment', assignmentFile, '--submissions', submissions, '--out', out, '--jobs', '2', '--lang', 'en'];
    const r = await gradeClass(confined ? args : [...args, '--unsafe-no-sandbox']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^1\/1 an@example\.com 1\/2 exercises \d+\.\d s$/m);
    expect(r.stderr).toContain(confined ? 'Grading in a confined sandbox' : 'WARNING: --unsafe-no-sandbox');

    const assignmentId = JSON.parse(readFileSync(assignmentFile, 'utf8')).id as string;
    const [header, ...rows] = parseCsv(readFileSync(join(out, `gradebook-${assignmentId}.csv`), 'utf8'));
    expect(rows).toHaveLength(1);
    const row = Object.fromEntries(header!.map((h, i) => [h, rows[0]![i]]));
    expect(row).toMatchObject({
      Name: 'Nguyễn Văn An',
      'E-mail': 'an@example.com',
      Status: 'graded',
      'retry-helper (broken rules)': '',
      [`${QUIZ} (score)`]: `${questions}/${questions}`,
      'Total (%)': '80.0', // retry-helper 30 + backoff 0 (not handed in, its 10 still possible) + the quiz 10, of 50
      'Total (of 50)': '40',
      'Handed in': 'on time',
      'Solution shown': 'retry-helper',
      // The learner handed in the published reference: flagged for the instructor to read, the grade unchanged.
      Problems:
        'retry-helper: the published reference solution, once whitespace, comments and names are set aside (for you to read; the grade is unchanged); backoff: not handed in',
      // Nobody handed backoff in, so no report gave its size: said in words, not "0/?".
      'backoff (tests passed)': 'not handed in',
    });
    expect(row['retry-helper (tests passed)']).toMatch(/^(\d+)\/\1$/);
    // The same total in the LMS files, with the identifiers and names the learner gave.
    const lms = (format: string) => parseCsv(readFileSync(join(out, `${format}-${assignmentId}.csv`), 'utf8'));
    expect(lms('moodle')[1]).toEqual(['SV001', 'an@example.com', 'Văn An', 'Nguyễn', '40']);
    expect(lms('canvas').slice(1)).toEqual([
      ['Points Possible', '', '', '', '', '50'],
      ['Nguyễn, Văn An', '', 'SV001', 'an@example.com', '', '40'],
    ]);
    expect(lms('classroom')[2]).toEqual(['Nguyễn', 'Văn An', 'an@example.com', '40']);
    const html = readFileSync(join(out, `report-${assignmentId}.html`), 'utf8');
    expect(html).toContain('Grades: Week 3: retries');
    expect(html).toContain('Nguyễn Văn An');
    expect(html).toContain('<th scope="col">Solution shown</th>');

    // The report is accessible, opened as the file it is, in light and dark.
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.context({ colorScheme });
      const page = await context.newPage();
      await page.goto(`file://${join(out, `report-${assignmentId}.html`)}`);
      expect(await page.locator('table caption').count()).toBeGreaterThanOrEqual(2);
      const gradebook = page.locator('[aria-labelledby="gradebook"] table'); // after the narrow table of totals
      expect(await gradebook.locator('thead th').allInnerTexts()).toContain('Solution shown');
      expect(await gradebook.locator('tbody').innerText()).toContain('not handed in');
      expect(await gradebook.locator('tbody').innerText()).not.toContain('0/?');
      await page.addScriptTag({ content: axeSource });
      const violations = (await page.evaluate(async () => {
        // @ts-expect-error axe is injected above
        const result = await window.axe.run(document, { resultTypes: ['violations'] });
        return result.violations.map((v: { id: string; impact: string }) => `${v.id} (${v.impact})`);
      })) as string[];
      expect(
        violations.filter((v) => /serious|critical/.test(v)),
        colorScheme,
      ).toEqual([]);
    }
  });

  it('sorts the report by a column and filters its learners, opened from disk', async () => {
    // A report rendered from made-up results (no grading: a second), three learners.
    const rules = ['R1', 'R2', 'R3', 'R4'];
    const learner = (name: string, email: string, failing: string[], exportedAt = '2026-11-30T01:00:00.000Z'): LearnerResult => ({
      file: `${email}.json`,
      learner: { name, email },
      exportedAt,
      late: exportedAt > '2026-12-01T16:59:00.000Z',
      exercises: [{ id: 'retry-helper', status: 'graded', report: fakeReport(rules, failing) }],
      quizzes: [],
      durationMs: 1,
    });
    const html = renderReport({
      ctx: { assignment: makeAssignment({ quizzes: [] }), exercises: { 'retry-helper': retryHelperExercise(rules) }, quizzes: {} },
      results: [
        learner('Nguyễn Văn An', 'an@example.com', ['R2']),
        learner('Trần Thị Bình', 'binh@example.com', []),
        learner('Lê Chi', 'chi@example.com', ['R1', 'R2', 'R3'], '2026-12-02T03:00:00.000Z'),
      ],
      rejected: [],
      lang: 'en',
      generatedAt: new Date('2026-12-05T00:00:00Z'),
      files: 3,
    });
    const file = join(work, 'sorted-report.html');
    writeFileSync(file, html);
    const context = await browser.context();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => !r.url().startsWith('file:') && errors.push(`fetched ${r.url()}`));
    await page.goto(`file://${file}`);
    const gradebook = page.locator('table.gradebook');
    const names = () => gradebook.locator('tbody tr:not([hidden]) th').allInnerTexts();
    expect(await names()).toEqual(['Lê Chi', 'Nguyễn Văn An', 'Trần Thị Bình']); // by name, as without script

    const total = gradebook.getByRole('button', { name: 'Total (%)' });
    await total.click();
    expect(await names()).toEqual(['Lê Chi', 'Nguyễn Văn An', 'Trần Thị Bình']); // 25, 75, 100
    expect(await gradebook.locator('th[aria-sort]').allInnerTexts()).toEqual([expect.stringContaining('Total (%)')]);
    expect(await gradebook.locator('th[aria-sort]').getAttribute('aria-sort')).toBe('ascending');
    await total.press('Enter'); // a button: the keyboard sorts too
    expect(await names()).toEqual(['Trần Thị Bình', 'Nguyễn Văn An', 'Lê Chi']);
    expect(await gradebook.locator('th[aria-sort]').getAttribute('aria-sort')).toBe('descending');
    expect(await page.getByRole('status').innerText()).toContain('Sorted by Total (%), descending.');

    await page.getByLabel('Filter learners').fill('late');
    expect(await names()).toEqual(['Lê Chi']);
    // The narrow table of totals follows the filter, so a learner's total stays in sight.
    expect(await page.locator('[aria-labelledby="totals"] tbody tr:not([hidden]) th').allInnerTexts()).toEqual(['Lê Chi']);
    expect(await page.getByRole('status').innerText()).toContain('1 of 3 learners shown.');
    await page.getByLabel('Filter learners').fill('nguyen');
    expect(await names()).toEqual(['Nguyễn Văn An']);
    await page.getByLabel('Filter learners').fill('');
    await page.getByLabel('Only below (%)').fill('80');
    expect(await names()).toEqual(['Nguyễn Văn An', 'Lê Chi']);
    await page.getByLabel('Only below (%)').fill('');
    await page.getByLabel('Only breaking the rule').selectOption('retry-helper:R1');
    expect(await names()).toEqual(['Lê Chi']);
    // The controls the script adds are accessible too (the graded report above is checked the same way).
    await page.addScriptTag({ content: axeSource });
    const violations = (await page.evaluate(async () => {
      // @ts-expect-error axe is injected above
      const result = await window.axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v: { id: string; impact: string }) => `${v.id} (${v.impact})`);
    })) as string[];
    expect(violations.filter((v) => /serious|critical/.test(v))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
