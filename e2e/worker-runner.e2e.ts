/**
 * Grading in the page with no server at all: the built site on the plainest static host (no
 * cross-origin isolation headers, as on GitHub Pages; no local runner), every request to another
 * origin blocked. Each exercise graded by the worker runner fails its starter with per-rule hints,
 * passes its reference, keeps the code across a reload and stops an endless loop; the two exercises
 * that need Node say why they cannot run here and show the command line. Desktop and phone, both
 * languages (alternating across the exercises).
 */
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser } from './fixtures.ts';
import { servePlainStatic } from './plain-static-server.ts';
import type { ServedSite } from './serve-site.ts';
import { DIST } from './site-pages.ts';
import { expectLoopStoppedThenSolutionPasses, failures, lessonEmbedding, read, runAndWait, setCode } from './workspace-helpers.ts';

interface ExerciseJson {
  inBrowser: 'worker' | 'webcontainer';
  files: Array<{ path: string; editable: boolean }>;
  rules: Record<string, { message: Record<string, string>; hint: Record<string, string> }>;
}
const exercises = readdirSync('exercises')
  .filter((id) => !id.startsWith('_') && existsSync(`exercises/${id}/exercise.json`))
  .map((id) => ({ id, json: JSON.parse(read(`exercises/${id}/exercise.json`)) as ExerciseJson }));
const inWorker = exercises.filter((e) => e.json.inBrowser === 'worker');
const needNode = exercises.filter((e) => e.json.inBrowser === 'webcontainer');
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** The reference with `for (;;) {}` as the first statement of its first exported function. */
function withEndlessLoop(code: string): string {
  const lines = code.split('\n');
  const start = lines.findIndex((l) => /^export (async )?function /.test(l));
  const open = lines.findIndex((l, i) => i >= start && /\{\s*$/.test(l) && (i === start || l.startsWith(')')));
  lines.splice(open + 1, 0, '  for (;;) {}');
  return lines.join('\n');
}

let site: ServedSite | undefined;
beforeAll(async () => {
  if (!skipBrowser()) site = await servePlainStatic(DIST);
});
afterAll(() => site?.stop());

describe.skipIf(skipBrowser())('grading in the page on a plain static host', () => {
  const browser = useBrowser();

  /** A page whose every request to another origin fails, as on a machine that reaches nothing else. */
  async function openIsolatedFromTheWorld(path: string, phone: boolean) {
    const context = await browser.context({ baseURL: site!.url, ...(phone ? PHONE : {}) });
    const foreign: string[] = [];
    await context.route(
      (url) => url.origin !== site!.url,
      (route) => (foreign.push(route.request().url()), route.abort()),
    );
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => void d.accept());
    await page.goto(path, { waitUntil: 'load' });
    return { page, errors, foreign };
  }

  it('the test site really is a plain static host: no isolation headers, no local runner', async () => {
    const res = await fetch(`${site!.url}/en/`);
    expect(res.headers.get('cross-origin-embedder-policy')).toBeNull();
    expect((await fetch(`${site!.url}/__runner/grade`, { method: 'POST' })).status).toBe(404);
  });

  inWorker.forEach(({ id, json }, i) => {
    const lang = i % 2 === 0 ? 'en' : 'vi';
    const phone = i % 4 >= 2;
    const file = json.files.find((f) => f.editable)!.path;
    const starter = read(`exercises/${id}/starter/${file}`);
    const solution = read(`solutions/${id}/${file}`);
    const loop = withEndlessLoop(solution);

    it(`${id} (${lang}${phone ? ', phone' : ''}): starter fails with hints, reference passes, code survives reload, a loop is stopped`, async () => {
      expect(loop).not.toBe(solution);
      const { page, errors, foreign } = await openIsolatedFromTheWorld(`/${lang}/${lessonEmbedding(id)}/`, phone);
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
      const root = page.locator(`course-workspace[data-exercise="${id}"]`);
      await page.waitForFunction((el) => (el as HTMLElement).dataset.phase === 'ready', await root.elementHandle(), { timeout: 15_000 });
      expect(await root.locator('[data-state]').textContent()).toContain(lang === 'en' ? 'this page' : 'trong trang này');

      // 1. The starter fails, each failing rule with its message and hint, in the page's language.
      await setCode(page, root, starter);
      let summary = await runAndWait(page, root, 'button');
      expect(summary).toContain(lang === 'en' ? 'graded in this page' : 'chấm ngay trong trang này');
      const counts = /^(\d+)\/(\d+) /.exec(summary)!;
      expect(Number(counts[1])).toBeLessThan(Number(counts[2]));
      const failing = root.locator('.ws-rule-group[data-status="fail"]');
      const rule = (await failing.first().getAttribute('data-rule'))!;
      const plain = (s: string) => s.replace(/`/g, '');
      expect(await failing.first().locator('.ws-hint span').textContent()).toBe(plain(json.rules[rule]!.hint[lang]!));
      expect(await failing.first().textContent()).toContain(plain(json.rules[rule]!.message[lang]!));

      // 2. The reference passes every test.
      await root.locator('[data-action="solution"]').click();
      await page.waitForFunction(([id, f, text]) => JSON.parse(localStorage.getItem(`course.code.${id}`)!).files[f] === text, [id, file, solution]);
      summary = await runAndWait(page, root, 'button');
      expect(summary, await failures(root)).toMatch(new RegExp(`^${counts[2]}/${counts[2]} `));

      // 3. Reload: the code is kept.
      await page.reload({ waitUntil: 'load' });
      expect(await root.locator('textarea[data-code]').inputValue()).toBe(solution);

      // 4. An endless loop ends as a timeout of the test that hung; the next run works again.
      await expectLoopStoppedThenSolutionPasses(page, root, { id, file, loop, solution, total: counts[2]!, lang });

      expect(foreign, 'requests to other origins').toEqual([]);
      expect(errors).toEqual([]);
    }, 180_000);
  });

  it('while a run goes, the summary counts the seconds and the tests done out of the total', async () => {
    const { page, errors } = await openIsolatedFromTheWorld(`/en/${lessonEmbedding('retry-helper')}/`, false);
    const root = page.locator('course-workspace[data-exercise="retry-helper"]');
    await page.waitForFunction((el) => (el as HTMLElement).dataset.phase === 'ready', await root.elementHandle(), { timeout: 15_000 });
    await setCode(page, root, read('exercises/retry-helper/starter/retry.ts')); // its timeouts make a run of several seconds
    await root.locator('[data-action="run"]').click();
    const summary = root.locator('[data-summary]');
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toMatch(/Running the tests… \d+ s · [1-9]\d*\/\d+ tests done/);
    const [, done, total] = /(\d+)\/(\d+) tests done/.exec((await summary.textContent())!)!;
    expect(Number(done)).toBeLessThan(Number(total));
    await page.waitForFunction((el) => (el as HTMLElement).dataset.phase === 'done', await root.elementHandle(), { timeout: 60_000 });
    expect(errors).toEqual([]);
  }, 90_000);

  needNode.forEach(({ id }, i) => {
    const lang = i % 2 === 0 ? 'vi' : 'en';
    it(`${id} (${lang}) needs Node: says why it cannot run here and shows the command line`, async () => {
      const { page, errors, foreign } = await openIsolatedFromTheWorld(`/${lang}/${lessonEmbedding(id)}/`, i % 2 === 1);
      const root = page.locator(`course-workspace[data-exercise="${id}"]`);
      const fallback = root.locator('[data-fallback]');
      await fallback.waitFor({ state: 'visible', timeout: 15_000 });
      expect(await fallback.textContent()).toContain(lang === 'en' ? 'not cross-origin isolated' : 'không được cô lập cross-origin');
      expect(await root.locator('[data-action="run"]').isDisabled()).toBe(true);
      expect(await page.locator('.embed-exercise pre.cli').textContent()).toContain(`npm run check -- ${id}${lang === 'en' ? ' --lang en' : ''}`);
      expect(foreign, 'nothing is fetched from StackBlitz').toEqual([]);
      expect(errors).toEqual([]);
    }, 60_000);
  });
});
