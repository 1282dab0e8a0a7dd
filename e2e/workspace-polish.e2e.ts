/**
 * The smaller things of issue 28 a learner notices in the workspace (static host, worker runner): a
 * re-run shows nothing of the last run and cannot be started twice; long lines can wrap, and the choice
 * is kept from page to page in both languages; several files download as one zip; the import preview
 * says where imported code runs without naming a runner the course no longer uses.
 */
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser } from './fixtures.ts';
import { pasteCode, runToEnd, waitForPhase, workspace } from './run-helpers.ts';
import { lessonEmbedding, read } from './workspace-helpers.ts';

const RETRY = '/en/when-to-retry/one-layer/';

describe.skipIf(skipBrowser())('workspace details', () => {
  const browser = useBrowser();

  it('a re-run starts from nothing ("0 s", no tests done of the last run) and Run is off until it ends', async () => {
    const { page, errors } = await browser.open(RETRY);
    const root = workspace(page, 'retry-helper');
    await pasteCode(page, root, read('solutions/retry-helper/retry.ts'));
    const first = await runToEnd(page, root);
    expect(first).toMatch(/^(\d+)\/\1 tests passed/);
    // Every text the summary shows from the second click on.
    await page.evaluate(() => {
      const summary = document.querySelector('course-workspace [data-summary]')!;
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => seen.push(summary.textContent ?? '')).observe(summary, { childList: true, characterData: true, subtree: true });
    });
    const run = root.locator('[data-action="run"]');
    await run.click();
    await waitForPhase(page, root, ['running'], 5_000);
    const offWhileRunning = await run.getAttribute('aria-disabled');
    await run.click({ force: true }); // a second click while it runs starts nothing
    const notice = await root.locator('[data-notice]').textContent();
    await waitForPhase(page, root, ['done', 'failed'], 90_000);
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    console.log(`re-run summaries: ${seen.slice(0, 3).join(' | ')} … ${seen.at(-1)}`);
    // It used to open on the last run's count: "Running the tests… 0 s · 55/55 tests done".
    expect(seen.find((t) => t.startsWith('Running'))).toBe('Running the tests… 0 s');
    expect(offWhileRunning).toBe('true');
    expect(notice, 'no second run queued').toBe('');
    expect(await run.getAttribute('aria-disabled')).toBe('false');
    expect(errors).toEqual([]);
  }, 120_000);

  it('"Wrap long lines" wraps the editor at 1280 px, and the choice holds on the next exercise page, in both languages', async () => {
    const context = await browser.context({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(RETRY);
    const root = workspace(page, 'retry-helper');
    const long = `// ${'a long comment a learner wrote beside the code, '.repeat(5)}\nexport const x = 1;\n`;
    await pasteCode(page, root, long);
    const scroller = root.locator('.cm-scroller');
    const overflow = () => scroller.evaluate((el) => el.scrollWidth - el.clientWidth);
    const width = (await scroller.boundingBox())!.width;
    console.log(`editor at 1280 px: ${Math.round(width)} px wide; a ${long.indexOf('\n')}-character line overflows by ${await overflow()} px`);
    expect(await overflow(), 'the long line is cut without wrapping').toBeGreaterThan(100);
    const toggle = root.locator('[data-wrap-toggle]');
    expect(await root.locator('label.ws-wrap').innerText()).toBe('Wrap long lines');
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await expect.poll(overflow).toBeLessThanOrEqual(0);
    // The next exercise, in Vietnamese: still on, on the plain text area and then in the editor.
    await page.goto(`/vi/${lessonEmbedding('backoff')}/`);
    const next = workspace(page, 'backoff');
    expect(await next.locator('label.ws-wrap').innerText()).toBe('Tự ngắt dòng dài');
    expect(await next.locator('[data-wrap-toggle]').isChecked()).toBe(true);
    expect(await next.locator('textarea[data-code]').getAttribute('wrap')).toBe('soft');
    await next.locator('textarea[data-code]').click();
    await next.locator('.cm-content').waitFor();
    expect(await next.locator('.cm-content').evaluate((el) => el.classList.contains('cm-lineWrapping'))).toBe(true);
    // And off again, for the pages after.
    await next.locator('[data-wrap-toggle]').uncheck();
    expect(await next.locator('.cm-content').evaluate((el) => el.classList.contains('cm-lineWrapping'))).toBe(false);
    await page.goto(RETRY);
    expect(await workspace(page, 'retry-helper').locator('[data-wrap-toggle]').isChecked()).toBe(false);
  });

  it('a multi-file exercise downloads as one zip with each file in it', async () => {
    const { page } = await browser.open(`/en/${lessonEmbedding('service-chain')}/`);
    const root = workspace(page, 'service-chain');
    const [download] = await Promise.all([page.waitForEvent('download'), root.locator('[data-action="download"]').click()]);
    expect(download.suggestedFilename()).toBe('service-chain.zip');
    const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
    expect(Object.keys(files).sort()).toEqual(['a.ts', 'b.ts', 'c.ts']);
    for (const name of ['a.ts', 'b.ts', 'c.ts']) expect(strFromU8(files[name]!)).toBe(read(`exercises/service-chain/starter/${name}`));
  });

  it('the import preview says imported code runs in the page or through the local runner, not in StackBlitz, in both languages', async () => {
    const a = await browser.open('/en/progress/');
    await a.page.evaluate(() =>
      localStorage.setItem(
        'course.code.retry-helper',
        JSON.stringify({ version: 1, files: { 'retry.ts': 'export const mine = 1;\n' }, savedAt: new Date().toISOString() }),
      ),
    );
    await a.page.reload();
    const [download] = await Promise.all([a.page.waitForEvent('download'), a.page.locator('[data-export]').click()]);
    const file = (await download.path())!;
    const said = { en: 'inside this page (a Web Worker), or through the local runner', vi: 'ngay trong trang này (một Web Worker), hoặc qua local runner' };
    for (const lang of ['en', 'vi'] as const) {
      const b = await browser.open(`/${lang}/progress/`);
      await b.page.locator('[data-import-file]').setInputFiles(file);
      const warning = b.page.locator('[data-import-preview] [data-import-code-warning]');
      await expect.poll(() => warning.isVisible()).toBe(true);
      const text = await warning.innerText();
      expect(text).toContain(said[lang]);
      expect(text).not.toMatch(/StackBlitz|WebContainer/);
    }
  });
});
