/**
 * The exercise workspace against the local runner, served by the README's run command (scripts/serve.ts
 * over the built site): both core exercises, both languages. The fallback runs against `astro preview`
 * (a static host: no local runner), with StackBlitz unreachable.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser, type Page } from './fixtures.ts';
import { compareRuleIds } from '../src/grading/rules.ts';
import { serveSite, type ServedSite } from './serve-site.ts';
import { DIST } from './site-pages.ts';

const EXERCISES = [
  { id: 'retry-helper', page: 'when-to-retry/one-layer', file: 'retry.ts', loopAfter: '): Promise<Response> {\n' },
  { id: 'deadline-middleware', page: 'deadlines/propagating-deadlines', file: 'deadline.ts', loopAfter: ') => void {\n' },
] as const;
const read = (path: string) => readFileSync(path, 'utf8');

/** `<module>/<slug>` of the English lesson that embeds the exercise. */
function lessonEmbedding(id: string): string {
  for (const module of readdirSync('content/lessons/en')) {
    for (const file of readdirSync(`content/lessons/en/${module}`)) {
      if (read(`content/lessons/en/${module}/${file}`).includes(`<Exercise id="${id}"`)) return `${module}/${file.replace(/\.mdx$/, '')}`;
    }
  }
  throw new Error(`no lesson embeds the exercise ${id}`);
}
const BOOT_TIMEOUT_MS = 20_000;

let site: ServedSite | undefined;
let localURL = '';

beforeAll(async () => {
  if (skipBrowser()) return;
  site = await serveSite(DIST, 'local-runner');
  localURL = site.url;
});
afterAll(() => site?.stop());

/** Replaces the editor's whole text as a learner pasting would (the editor loads on first use). */
async function setCode(page: Page, root: ReturnType<Page['locator']>, text: string) {
  await root.locator('textarea[data-code], .cm-content').first().click();
  const content = root.locator('.cm-content').first();
  await content.waitFor();
  await content.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

const failures = (root: ReturnType<Page['locator']>) =>
  root.locator('.ws-test:not([data-status="pass"])').allTextContents().then((rows) => rows.join('\n'));

async function runAndWait(page: Page, root: ReturnType<Page['locator']>, how: 'button' | 'keys') {
  await page.waitForFunction((el) => ['ready', 'done', 'failed'].includes((el as HTMLElement).dataset.phase!), await root.elementHandle(), { timeout: 20_000 });
  if (how === 'button') await root.locator('[data-action="run"]').click();
  else await page.keyboard.press('ControlOrMeta+Enter');
  await page.waitForFunction((el) => (el as HTMLElement).dataset.phase === 'running', await root.elementHandle(), { timeout: 5_000 });
  await page.waitForFunction((el) => ['done', 'failed'].includes((el as HTMLElement).dataset.phase!), await root.elementHandle(), { timeout: 90_000 });
  const summary = (await root.locator('[data-summary]').textContent())!;
  console.log(`${await root.getAttribute('data-exercise')} ${how}: ${summary}`);
  return summary;
}

const savedFile = (page: Page, id: string, file: string) =>
  page.evaluate(([id, file]) => JSON.parse(localStorage.getItem(`course.code.${id}`) ?? '{"files":{}}').files[file] as string | undefined, [id, file]);

describe.skipIf(skipBrowser())('exercise workspace with the local runner', () => {
  const browser = useBrowser();

  for (const ex of EXERCISES) {
    const exercise = JSON.parse(read(`exercises/${ex.id}/exercise.json`));
    const starter = read(`exercises/${ex.id}/starter/${ex.file}`);
    const solution = read(`solutions/${ex.id}/${ex.file}`);
    const loop = solution.replace(ex.loopAfter, `${ex.loopAfter}  for (;;) {}\n`);

    it.each(['en', 'vi'] as const)(`${ex.id} (%s): starter fails with rule hints, the solution passes, code survives reload, a loop times out`, async (lang) => {
      expect(loop).not.toBe(solution);
      const { page, errors } = await browser.open(`${localURL}/${lang}/${ex.page}/`, { baseURL: localURL });
      const graded: unknown[] = [];
      await page.exposeFunction('recordGraded', (d: unknown) => graded.push(d));
      await page.evaluate(() => document.addEventListener('course:exercise-graded', (e) => (window as any).recordGraded((e as CustomEvent).detail)));
      page.on('dialog', (d) => void d.accept());
      const root = page.locator(`course-workspace[data-exercise="${ex.id}"]`);
      await page.waitForFunction((el) => (el as HTMLElement).dataset.phase === 'ready', await root.elementHandle(), { timeout: 15_000 });
      expect(await root.locator('[data-state]').textContent()).toContain(lang === 'en' ? 'your computer' : 'máy của bạn');
      // The brief, in the page's language, beside the code.
      const briefTitle = read(`exercises/${ex.id}/brief.${lang}.md`).split('\n')[0]!.replace(/^# /, '');
      expect((await page.locator('.embed-exercise .ws-brief h4').first().textContent())?.trim()).toBe(briefTitle);

      // 1. The starter code, typed into the editor and run with the keyboard: rules fail, with hints.
      await setCode(page, root, starter);
      let summary = await runAndWait(page, root, 'keys');
      const counts = /^(\d+)\/(\d+) (tests passed|test đạt)/.exec(summary)!;
      expect(counts, summary).not.toBeNull();
      expect(Number(counts[1])).toBeLessThan(Number(counts[2]));
      const failing = root.locator('.ws-rule-group[data-status="fail"]');
      expect(await failing.count()).toBeGreaterThan(0);
      const rule = (await failing.first().getAttribute('data-rule'))!;
      expect(rule).toMatch(/^[A-Z]\d+$/);
      expect(await failing.first().locator('.ws-rule').first().textContent()).toBe(rule);
      const plain = (s: string) => s.replace(/`/g, '');
      expect(await failing.first().locator('.ws-hint span').textContent()).toBe(plain(exercise.rules[rule].hint[lang]));
      expect(await failing.first().textContent()).toContain(plain(exercise.rules[rule].message[lang]));
      expect(graded.at(-1)).toMatchObject({ exerciseId: ex.id, status: 'fail', runner: 'local' });

      // 2. "Show solution" (offered after a run, confirmed), then Run: every rule passes.
      await root.locator('[data-action="solution"]').click();
      await page.waitForFunction(([id, file, text]) => JSON.parse(localStorage.getItem(`course.code.${id}`)!).files[file] === text, [ex.id, ex.file, solution]);
      summary = await runAndWait(page, root, 'button');
      expect(summary, await failures(root)).toMatch(new RegExp(`^${counts[2]}/${counts[2]} `));
      expect(await root.locator('.ws-test[data-status="pass"]').count()).toBe(Number(counts[2]));
      expect(graded.at(-1)).toMatchObject({ exerciseId: ex.id, status: 'pass', passed: Number(counts[2]), total: Number(counts[2]) });

      // 3. Reload: the code is still there (before and after the editor loads).
      await page.reload({ waitUntil: 'load' });
      expect(await root.locator('textarea[data-code]').inputValue()).toBe(solution);
      expect(await root.locator('[data-notice]').textContent()).toContain(lang === 'en' ? 'restored' : 'khôi phục');

      // 4. An endless loop: a timeout result, then the page still works and the next run passes.
      await page.waitForFunction((el) => (el as HTMLElement).dataset.phase === 'ready', await root.elementHandle(), { timeout: 15_000 });
      await setCode(page, root, loop);
      await page.waitForFunction(([id, file, text]) => JSON.parse(localStorage.getItem(`course.code.${id}`)!).files[file] === text, [ex.id, ex.file, loop]);
      summary = await runAndWait(page, root, 'keys');
      expect(await root.locator('.ws-message').textContent()).toMatch(lang === 'en' ? /stopped after \d+ ms/ : /dừng|ngừng/);
      expect(await root.locator('.ws-test[data-status="error"]').first().locator('.ws-badge').textContent()).toBe(lang === 'en' ? 'timed out' : 'quá thời gian');
      await setCode(page, root, solution);
      summary = await runAndWait(page, root, 'button');
      expect(summary, await failures(root)).toMatch(new RegExp(`^${counts[2]}/${counts[2]} `));
      expect(await savedFile(page, ex.id, ex.file)).toBe(solution);
      expect(errors).toEqual([]);
    }, 240_000);
  }

  // Every other exercise, in the lesson that embeds it: the starter fails, the reference passes
  // (languages alternate, so both are covered across the set).
  const others = readdirSync('exercises').filter((id) => !id.startsWith('_') && existsSync(`exercises/${id}/exercise.json`) && !EXERCISES.some((e) => e.id === id));
  others.forEach((id, i) => {
    const lang = i % 2 === 0 ? 'en' : 'vi';
    it(`${id} (${lang}): the starter fails and the reference solution passes in its lesson`, async () => {
      const { page, errors } = await browser.open(`${localURL}/${lang}/${lessonEmbedding(id)}/`, { baseURL: localURL });
      page.on('dialog', (d) => void d.accept());
      const root = page.locator(`course-workspace[data-exercise="${id}"]`);
      await page.waitForFunction((el) => (el as HTMLElement).dataset.phase === 'ready', await root.elementHandle(), { timeout: 15_000 });
      const files = (JSON.parse(read(`exercises/${id}/exercise.json`)) as { files: Array<{ path: string; editable: boolean }> }).files;
      expect(await root.locator('[data-tab]').count()).toBe(files.length > 1 ? files.length : 1);

      let summary = await runAndWait(page, root, 'button');
      const counts = /^(\d+)\/(\d+) /.exec(summary)!;
      expect(counts, summary).not.toBeNull();
      expect(Number(counts[1])).toBeLessThan(Number(counts[2]));

      await root.locator('[data-action="solution"]').click();
      const editable = files.filter((f) => f.editable).map((f) => f.path);
      await page.waitForFunction(([id, file, text]) => JSON.parse(localStorage.getItem(`course.code.${id}`)!).files[file] === text, [id, editable[0]!, read(`solutions/${id}/${editable[0]}`)]);
      summary = await runAndWait(page, root, 'button');
      expect(summary, await failures(root)).toMatch(new RegExp(`^${counts[2]}/${counts[2]} `));
      // listed by rule, as the brief lists them, whatever order the suite's files ran in
      const shown = await root.locator('.ws-test').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.rule ?? ''));
      expect(shown).toEqual([...shown].sort(compareRuleIds));
      expect(errors).toEqual([]);
    }, 180_000);
  });

  it('reset asks first and can be undone; download saves the file', async () => {
    const { page } = await browser.open(`${localURL}/en/when-to-retry/one-layer/`, { baseURL: localURL });
    const root = page.locator('course-workspace[data-exercise="retry-helper"]');
    await root.locator('textarea[data-code]').fill('// my work\n');
    await page.waitForFunction(() => localStorage.getItem('course.code.retry-helper')?.includes('my work'));
    page.once('dialog', (d) => void d.dismiss());
    await root.locator('[data-action="reset"]').click();
    expect(await root.locator('textarea[data-code], .cm-content').first().evaluate((el) => (el as HTMLTextAreaElement).value ?? el.textContent)).toContain('my work');
    page.once('dialog', (d) => void d.accept());
    await root.locator('[data-action="reset"]').click();
    await page.waitForFunction(() => !localStorage.getItem('course.code.retry-helper')?.includes('my work'));
    await root.locator('[data-action="undo"]').click();
    await page.waitForFunction(() => localStorage.getItem('course.code.retry-helper')?.includes('my work'));
    const [download] = await Promise.all([page.waitForEvent('download'), root.locator('[data-action="download"]').click()]);
    expect(download.suggestedFilename()).toBe('retry.ts');
  });

  it('a request to the local runner without the secret or from another origin is refused', async () => {
    const { page } = await browser.open(`${localURL}/en/`, { baseURL: localURL });
    const body = JSON.stringify({ exerciseId: 'retry-helper', files: { 'retry.ts': 'export {}' }, lang: 'en' });
    // From the site itself, but without the secret.
    const noSecret = await page.evaluate(async (b) => (await fetch('/__runner/grade', { method: 'POST', headers: { 'content-type': 'application/json' }, body: b })).status, body);
    expect(noSecret).toBe(403);
    // From another origin (another loopback port counts as another site): it can neither read the secret nor grade.
    const other = await browser.open(`http://127.0.0.1:${new URL(localURL).port}/en/`, { baseURL: localURL });
    const cross = await other.page.evaluate(async ([url, b]) => {
      const session = await fetch(`${url}/__runner/session.json`).then((r) => r.status, () => 'blocked');
      const grade = await fetch(`${url}/__runner/grade`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: b, mode: 'no-cors' }).then((r) => r.type, () => 'blocked');
      return { session, grade };
    }, [localURL, body] as const);
    expect(cross.session).toBe('blocked'); // 403 without CORS headers: the browser hides it
    const refused = await fetch(`${localURL}/__runner/grade`, { method: 'POST', headers: { origin: 'http://127.0.0.1:1', 'content-type': 'application/json', 'x-runner-secret': 'guess' }, body });
    expect(refused.status).toBe(403);
  });
});

describe.skipIf(skipBrowser())('the editor', () => {
  const browser = useBrowser();

  it.each(['light', 'dark'] as const)('loads on first use with TypeScript errors, hover types and completions; stays accessible (%s)', async (colorScheme) => {
    const context = await browser.context({ baseURL: localURL, colorScheme });
    const js = new Map<string, number>();
    context.on('response', (r) => {
      if (/\.m?js(\?|$)/.test(r.url())) void r.body().then((b) => js.set(r.url(), b.length), () => undefined);
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/en/when-to-retry/one-layer/', { waitUntil: 'load' });
    const root = page.locator('course-workspace[data-exercise="retry-helper"]');
    await page.waitForFunction((el) => (el as HTMLElement).dataset.phase === 'ready', await root.elementHandle(), { timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    const before = [...js.entries()];
    expect(before.some(([url]) => /mount-editor|ts-worker/.test(url))).toBe(false);

    await axe(page, colorScheme);
    await setCode(page, root, 'const n: number = "five";\nexport const half = Math.');
    // Completions after the dot, from the language service.
    await root.locator('.cm-tooltip-autocomplete').getByText('floor', { exact: true }).waitFor({ timeout: 60_000 });
    await page.keyboard.press('Escape');
    // A type error, marked in the editor.
    await root.locator('.cm-lintRange-error').first().waitFor({ timeout: 60_000 });
    // Hover types.
    await root.locator('.cm-line').first().getByText('n', { exact: true }).hover();
    await root.locator('.cm-tooltip-hover').getByText('const n: number').waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const after = [...js.entries()];
    expect(after.some(([url]) => /mount-editor/.test(url))).toBe(true);
    expect(after.some(([url]) => /ts-worker/.test(url))).toBe(true);
    const total = (list: [string, number][]) => list.reduce((n, [, b]) => n + b, 0);
    console.log(`exercise page JS (uncompressed): before the editor ${total(before)} B in ${before.length} files; after ${total(after)} B in ${after.length} files`);
    for (const [url, bytes] of after) console.log(`  ${bytes}\t${new URL(url).pathname}`);
    await axe(page, colorScheme);
    expect(errors).toEqual([]);
  }, 180_000);
});

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
async function axe(page: Page, colorScheme: 'light' | 'dark') {
  await page.addScriptTag({ content: axeSource });
  const violations = (await page.evaluate(async (only) => {
    // @ts-expect-error axe is injected above
    const result = await window.axe.run(document.querySelector('.embed-exercise'), { resultTypes: ['violations'], ...(only ? { runOnly: [...only] } : {}) });
    return result.violations;
  }, colorScheme === 'dark' ? ['color-contrast'] : undefined)) as { id: string; impact: string; nodes: { target: string[] }[] }[];
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

describe.skipIf(skipBrowser())('exercise workspace without a runner', () => {
  const browser = useBrowser();

  it('on a static host with StackBlitz unreachable, the fallback (why, and the command line) appears within the boot timeout', async () => {
    await Promise.all(
      (['en', 'vi'] as const).map(async (lang) => {
        const context = await browser.context();
        await context.route(/stackblitz|webcontainer/, (route) => route.abort());
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(`/${lang}/when-to-retry/one-layer/`);
        const started = Date.now();
        const root = page.locator('course-workspace[data-exercise="retry-helper"]');
        const fallback = root.locator('[data-fallback]');
        await fallback.waitFor({ state: 'visible', timeout: BOOT_TIMEOUT_MS + 8_000 });
        // Within the boot timeout (plus the page's own start on a loaded machine), never hanging.
        expect(Date.now() - started).toBeLessThan(BOOT_TIMEOUT_MS + 5_000);
        expect(await fallback.textContent()).toContain(lang === 'en' ? 'could not reach StackBlitz' : 'không kết nối được tới StackBlitz');
        expect(await root.locator('[data-action="run"]').isDisabled()).toBe(true);
        expect(await page.locator('.embed-exercise pre.cli').textContent()).toContain(`npm run check -- retry-helper${lang === 'en' ? ' --lang en' : ''}`);
        // Nothing is lost: the code area still edits and saves.
        await root.locator('textarea[data-code]').fill('// still mine\n');
        await page.waitForFunction(() => localStorage.getItem('course.code.retry-helper')?.includes('still mine'));
        // Only the blocked StackBlitz iframe may complain.
        expect(errors.filter((e) => !/stackblitz|ERR_FAILED|ERR_BLOCKED/i.test(e))).toEqual([]);
        console.log(`fallback console (${lang}):`, errors);
      }),
    );
  }, 60_000);
});
