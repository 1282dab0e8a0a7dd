/**
 * The exercise workspace against the local runner, served by the README's run command (scripts/serve.ts
 * over the built site): both core exercises, both languages. The WebContainer path runs against
 * `astro preview` (an isolated static host: no local runner), with StackBlitz unreachable. Grading in
 * the page without any server is in worker-runner.e2e.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser, type Page } from './fixtures.ts';
import { compareRuleIds } from '../src/grading/core/rules.ts';
import { serveSite, withRunnerToken, type ServedSite } from '../tools/serve-site.ts';
import { DIST } from '../tools/site-pages.ts';
import { BOOT_TIMEOUT_MS as WEBCONTAINER_BOOT_TIMEOUT_MS } from '../src/runner/webcontainer/boot.ts';
import { expectLoopStoppedThenSolutionPasses, failures, lessonEmbedding, read, runAndWait, setCode } from './workspace-helpers.ts';

const EXERCISES = [
  { id: 'retry-helper', page: 'when-to-retry/one-layer', file: 'retry.ts', loopAfter: '): Promise<Response> {\n' },
  { id: 'deadline-middleware', page: 'deadlines/propagating-deadlines', file: 'deadline.ts', loopAfter: ') => void {\n' },
] as const;

let site: ServedSite | undefined;
let localURL = '';
const withToken = (url: string) => withRunnerToken(site!, url);

beforeAll(async () => {
  if (skipBrowser()) return;
  site = await serveSite(DIST, 'local-runner');
  localURL = site.url;
});
afterAll(() => site?.stop());

describe.skipIf(skipBrowser())('exercise workspace with the local runner', () => {
  const browser = useBrowser();

  for (const ex of EXERCISES) {
    const exercise = JSON.parse(read(`exercises/${ex.id}/exercise.json`));
    const starter = read(`exercises/${ex.id}/starter/${ex.file}`);
    const solution = read(`solutions/${ex.id}/${ex.file}`);
    const loop = solution.replace(ex.loopAfter, `${ex.loopAfter}  for (;;) {}\n`);

    it.each(['en', 'vi'] as const)(
      `${ex.id} (%s): starter fails with rule hints, the solution passes, code survives reload, a loop times out`,
      async (lang) => {
        expect(loop).not.toBe(solution);
        const { page, errors } = await browser.open(withToken(`${localURL}/${lang}/${ex.page}/`), { baseURL: localURL });
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
        // Which runner graded it, and whether its sandbox confined the code (bubblewrap where the machine has it).
        expect(summary).toMatch(
          lang === 'en'
            ? /graded by the local runner on your computer \((in a confined sandbox|not confined)/
            : /chấm bởi local runner trên máy bạn \((trong sandbox cô lập|không cô lập)/,
        );
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
        await page.waitForFunction(
          ([id, file, text]) => JSON.parse(localStorage.getItem(`course.code.${id}`)!).files[file] === text,
          [ex.id, ex.file, solution],
        );
        summary = await runAndWait(page, root, 'button');
        expect(summary, await failures(root)).toMatch(new RegExp(`^${counts[2]}/${counts[2]} `));
        expect(await root.locator('.ws-test[data-status="pass"]').count()).toBe(Number(counts[2]));
        expect(graded.at(-1)).toMatchObject({ exerciseId: ex.id, status: 'pass', passed: Number(counts[2]), total: Number(counts[2]) });

        // 3. Reload: the code is still there (before and after the editor loads).
        await page.reload({ waitUntil: 'load' });
        expect(await root.locator('textarea[data-code]').inputValue()).toBe(solution);
        expect(await root.locator('[data-notice]').textContent()).toContain(lang === 'en' ? 'restored' : 'khôi phục');

        // 4. An endless loop: a timeout result, then the page still works and the next run passes.
        await expectLoopStoppedThenSolutionPasses(page, root, { id: ex.id, file: ex.file, loop, solution, total: counts[2]!, lang });
        expect(errors).toEqual([]);
      },
      240_000,
    );
  }

  // Every other exercise, in the lesson that embeds it: the starter fails, the reference passes
  // (languages alternate, so both are covered across the set).
  const others = readdirSync('exercises').filter(
    (id) => !id.startsWith('_') && existsSync(`exercises/${id}/exercise.json`) && !EXERCISES.some((e) => e.id === id),
  );
  others.forEach((id, i) => {
    const lang = i % 2 === 0 ? 'en' : 'vi';
    it(`${id} (${lang}): the starter fails and the reference solution passes in its lesson`, async () => {
      const { page, errors } = await browser.open(withToken(`${localURL}/${lang}/${lessonEmbedding(id)}/`), { baseURL: localURL });
      page.on('dialog', (d) => void d.accept());
      const root = page.locator(`course-workspace[data-exercise="${id}"]`);
      await page.waitForFunction((el) => (el as HTMLElement).dataset.phase === 'ready', await root.elementHandle(), { timeout: 15_000 });
      const files = (JSON.parse(read(`exercises/${id}/exercise.json`)) as { files: Array<{ path: string; editable: boolean }> }).files;
      expect(await root.locator('[data-tab]').count()).toBe(Math.max(files.length, 1));

      let summary = await runAndWait(page, root, 'button');
      const counts = /^(\d+)\/(\d+) /.exec(summary)!;
      expect(counts, summary).not.toBeNull();
      expect(Number(counts[1])).toBeLessThan(Number(counts[2]));

      await root.locator('[data-action="solution"]').click();
      const editable = files.filter((f) => f.editable).map((f) => f.path);
      await page.waitForFunction(
        ([id, file, text]) => JSON.parse(localStorage.getItem(`course.code.${id}`)!).files[file] === text,
        [id, editable[0]!, read(`solutions/${id}/${editable[0]}`)],
      );
      summary = await runAndWait(page, root, 'button');
      expect(summary, await failures(root)).toMatch(new RegExp(`^${counts[2]}/${counts[2]} `));
      // listed by rule, as the brief lists them, whatever order the suite's files ran in
      const shown = await root.locator('.ws-test').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.rule ?? ''));
      expect(shown).toEqual([...shown].sort(compareRuleIds));
      expect(errors).toEqual([]);
    }, 180_000);
  });

  it('reset asks first and can be undone; download saves the file', async () => {
    const { page } = await browser.open(withToken(`${localURL}/en/when-to-retry/one-layer/`), { baseURL: localURL });
    const root = page.locator('course-workspace[data-exercise="retry-helper"]');
    await root.locator('textarea[data-code]').fill('// my work\n');
    await page.waitForFunction(() => localStorage.getItem('course.code.retry-helper')?.includes('my work'));
    page.once('dialog', (d) => void d.dismiss());
    await root.locator('[data-action="reset"]').click();
    expect(
      await root
        .locator('textarea[data-code], .cm-content')
        .first()
        .evaluate((el) => (el as HTMLTextAreaElement).value ?? el.textContent),
    ).toContain('my work');
    page.once('dialog', (d) => void d.accept());
    await root.locator('[data-action="reset"]').click();
    await page.waitForFunction(() => !localStorage.getItem('course.code.retry-helper')?.includes('my work'));
    await root.locator('[data-action="undo"]').click();
    await page.waitForFunction(() => localStorage.getItem('course.code.retry-helper')?.includes('my work'));
    const [download] = await Promise.all([page.waitForEvent('download'), root.locator('[data-action="download"]').click()]);
    expect(download.suggestedFilename()).toBe('retry.ts');
  });

  it('the token leaves the address bar for the tab; without it the runner is refused, from any origin and from curl', async () => {
    const { page } = await browser.open(withToken(`${localURL}/en/`), { baseURL: localURL });
    expect(page.url()).toBe(`${localURL}/en/`); // not bookmarked, not in history
    expect(await page.evaluate(() => sessionStorage.getItem('course.runner-token'))).toBe(site!.token);
    const body = JSON.stringify({ exerciseId: 'retry-helper', files: { 'retry.ts': 'export {}' }, lang: 'en' });
    expect(await page.locator('[data-runner-token-missing]').isHidden()).toBe(true);
    // The README's URL without its fragment: same origin, but no token. An exercise page says what to open.
    const bare = await browser.open(`${localURL}/en/when-to-retry/one-layer/`, { baseURL: localURL });
    await expect.poll(() => bare.page.locator('[data-runner-token-missing]').isVisible()).toBe(true);
    expect(await bare.page.locator('[data-runner-token-missing]').innerText()).toContain('#runner-token=');
    const noToken = await bare.page.evaluate(async (b) => {
      const session = await fetch('/__runner/session.json');
      const grade = await fetch('/__runner/grade', { method: 'POST', headers: { 'content-type': 'application/json' }, body: b });
      return { session: session.status, text: await session.text(), grade: grade.status };
    }, body);
    expect(noToken).toMatchObject({ session: 401, grade: 401 });
    expect(noToken.text).not.toContain(site!.token);
    // From another origin (another loopback port counts as another site): nothing readable, nothing run.
    const other = await browser.open(`http://127.0.0.1:${new URL(localURL).port}/en/`, { baseURL: localURL });
    const cross = await other.page.evaluate(
      async ([url, b]) => {
        const session = await fetch(`${url}/__runner/session.json`).then(
          (r) => r.status,
          () => 'blocked',
        );
        const grade = await fetch(`${url}/__runner/grade`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: b, mode: 'no-cors' }).then(
          (r) => r.type,
          () => 'blocked',
        );
        return { session, grade };
      },
      [localURL, body] as const,
    );
    expect(cross.session).toBe('blocked'); // refused without CORS headers: the browser hides it
    // Another account on the machine: curl with no browser headers, then a forged Origin.
    const curl = await fetch(`${localURL}/__runner/session.json`);
    expect(curl.status).toBe(401);
    expect(await curl.text()).not.toContain(site!.token);
    const forged = await fetch(`${localURL}/__runner/grade`, { method: 'POST', headers: { origin: localURL, 'content-type': 'application/json' }, body });
    expect(forged.status).toBe(401);
  });
});

describe.skipIf(skipBrowser())('the editor', () => {
  const browser = useBrowser();

  it.each(['light', 'dark'] as const)(
    'loads on first use with TypeScript errors, hover types and completions; stays accessible (%s)',
    async (colorScheme) => {
      const context = await browser.context({ baseURL: localURL, colorScheme });
      const js = new Map<string, number>();
      context.on('response', (r) => {
        if (/\.m?js(\?|$)/.test(r.url()))
          void r.body().then(
            (b) => js.set(r.url(), b.length),
            () => undefined,
          );
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(withToken('/en/when-to-retry/one-layer/'), { waitUntil: 'load' });
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
      console.log(
        `exercise page JS (uncompressed): before the editor ${total(before)} B in ${before.length} files; after ${total(after)} B in ${after.length} files`,
      );
      for (const [url, bytes] of after) console.log(`  ${bytes}\t${new URL(url).pathname}`);
      await axe(page, colorScheme);
      expect(errors).toEqual([]);
    },
    180_000,
  );
});

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
async function axe(page: Page, colorScheme: 'light' | 'dark') {
  // Through DevTools, not a <script> tag: the site's CSP refuses inline scripts, as it should.
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    async (only) => {
      // @ts-expect-error axe is injected above
      const result = await window.axe.run(document.querySelector('.embed-exercise'), { resultTypes: ['violations'], ...(only ? { runOnly: [...only] } : {}) });
      return result.violations;
    },
    colorScheme === 'dark' ? ['color-contrast'] : undefined,
  )) as { id: string; impact: string; nodes: { target: string[] }[] }[];
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

// The worker runner grades every exercise; the WebContainer runs only when the address asks for it.
describe.skipIf(skipBrowser())('the opt-in WebContainer (?runner=webcontainer) on an isolated static host, StackBlitz unreachable', () => {
  const browser = useBrowser();

  it('boots only on the first Run, then falls back (why, the command line, Try again) within the boot timeout', async () => {
    await Promise.all(
      (['en', 'vi'] as const).map(async (lang) => {
        const context = await browser.context();
        const asked: string[] = [];
        // By host: the page's own address says ?runner=webcontainer.
        await context.route(
          (url) => /stackblitz|webcontainer/.test(url.host),
          (route) => (asked.push(route.request().url()), route.abort()),
        );
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(`/${lang}/deadlines/propagating-deadlines/?runner=webcontainer`);
        const root = page.locator('course-workspace[data-exercise="deadline-middleware"]');
        await page.waitForFunction((el) => (el as HTMLElement).dataset.phase === 'standby', await root.elementHandle(), { timeout: 15_000 });
        expect(await root.locator('[data-state]').textContent()).toContain(lang === 'en' ? 'starts only when you press Run' : 'chỉ khởi động khi bạn bấm');
        await page.waitForLoadState('networkidle');
        expect(asked, 'nothing is fetched from StackBlitz before the first Run').toEqual([]);

        await root.locator('[data-action="run"]').click();
        const started = Date.now();
        const fallback = root.locator('[data-fallback]');
        await fallback.waitFor({ state: 'visible', timeout: WEBCONTAINER_BOOT_TIMEOUT_MS + 10_000 });
        expect(Date.now() - started).toBeLessThan(WEBCONTAINER_BOOT_TIMEOUT_MS + 8_000);
        expect(asked.length, 'the first Run booted the WebContainer').toBeGreaterThan(0);
        expect(await fallback.textContent()).toContain(lang === 'en' ? 'could not reach StackBlitz' : 'không kết nối được tới StackBlitz');
        expect(await root.locator('[data-action="retry"]').isVisible()).toBe(true);
        expect(await page.locator('.embed-exercise pre.cli').first().textContent()).toContain(
          `npm run check -- deadline-middleware${lang === 'en' ? ' --lang en' : ''}`,
        );
        // Nothing is lost: the code area still edits and saves.
        await root.locator('textarea[data-code]').fill('// still mine\n');
        await page.waitForFunction(() => localStorage.getItem('course.code.deadline-middleware')?.includes('still mine'));
        // Only the blocked StackBlitz iframe may complain.
        expect(errors.filter((e) => !/stackblitz|ERR_FAILED|ERR_BLOCKED/i.test(e))).toEqual([]);
      }),
    );
  }, 120_000);
});
