/**
 * The instructor's whole loop: build an assignment on the instructor page, answer it as a learner in
 * a fresh browser (the reference solution in the saved code, the quiz answered on its lesson page),
 * export the submission, grade it with `npm run grade-class`, and find the learner's row in the CSV.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answerQuiz } from './answer-quiz.ts';
import { skipBrowser, useBrowser, type Page } from './fixtures.ts';
import { parseCsv } from '../src/class-grading/csv.ts';
import { createSubmissionSandbox } from '../src/class-grading/sandbox.ts';

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
const real = (errors: string[]) => errors.filter((e) => !/favicon\.svg net::ERR_ABORTED/.test(e));

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
    await instructor.page.locator('[data-assignment-form] button[type="submit"]').click();
    await instructor.page.locator('[data-assignment-result]').waitFor();
    const assignmentFile = await download(instructor.page, work, () => instructor.page.locator('[data-download-assignment]').click());
    expect(await instructor.page.locator('[data-grade-command]').innerText()).toContain('npm run grade-class -- --assignment');
    const link = new URL(await instructor.page.locator('[data-result-link]').inputValue());

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
    const submissionFile = await download(learner.page, submissions, () => learner.page.locator('[data-submission-form] button[type="submit"]').click());
    expect(JSON.parse(readFileSync(submissionFile, 'utf8')).exercises['retry-helper'].files['retry.ts']).toBe(reference);
    expect(real([...instructor.errors, ...learner.errors])).toEqual([]);

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
      'Total (%)': '66.7',
      'Handed in': 'on time',
      'Solution shown': 'retry-helper',
      Problems: 'backoff: not handed in',
      // Nobody handed backoff in, so no report gave its size: said in words, not "0/?".
      'backoff (tests passed)': 'not handed in',
    });
    expect(row['retry-helper (tests passed)']).toMatch(/^(\d+)\/\1$/);
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
      const gradebook = page.locator('table').first();
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
});
