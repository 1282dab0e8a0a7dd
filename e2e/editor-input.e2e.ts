/**
 * What a learner types into the code editor reaches the code: `/` is a slash, not the search shortcut,
 * and the first click into the code leaves the caret where it landed (no keystroke lost to <body>).
 */
import { describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser, type Page } from './fixtures.ts';

const PAGE = '/en/when-to-retry/one-layer/';
const root = (page: Page) => page.locator('course-workspace[data-exercise="retry-helper"]');
const editorText = (page: Page) => root(page).locator('.cm-content').first().innerText();

/** Clicks the code area at the start of its `line`-th line (1-based), as a learner would. */
async function clickLine(page: Page, line: number) {
  const area = root(page).locator('textarea[data-code]').first();
  await area.scrollIntoViewIfNeeded();
  const box = (await area.boundingBox())!;
  const { lineHeight, paddingTop } = await area.evaluate((el) => {
    const style = getComputedStyle(el);
    return { lineHeight: parseFloat(style.lineHeight), paddingTop: parseFloat(style.paddingTop) };
  });
  await page.mouse.click(box.x + 4, box.y + paddingTop + lineHeight * (line - 0.5));
}

describe.skipIf(skipBrowser())('typing in the code editor', () => {
  const browser = useBrowser();

  it('the first click mounts the editor with the caret where the learner clicked, and keeps what is typed next', async () => {
    const { page } = await browser.open(PAGE);
    const starter = await root(page).locator('textarea[data-code]').first().inputValue();
    await clickLine(page, 3);
    await page.waitForFunction(() => document.querySelector<HTMLElement>('course-workspace')?.dataset.editor === 'ready');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('cm-content'))).toBe(true);
    await page.keyboard.type('QQ');
    const lines = starter.split('\n');
    lines[2] = `QQ${lines[2]}`;
    // what the learner typed lands at the start of the line clicked (and is saved)
    await expect
      .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('course.code.retry-helper') ?? '{"files":{}}').files['retry.ts'] as string | undefined))
      .toBe(lines.join('\n'));
  });

  it('a slash typed in the editor is code (a comment, a division), not the search shortcut; elsewhere it still opens search', async () => {
    const { page } = await browser.open(PAGE);
    await clickLine(page, 1);
    await page.waitForFunction(() => document.querySelector<HTMLElement>('course-workspace')?.dataset.editor === 'ready');
    await root(page).locator('.cm-content').first().click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type('\n// half = total / 2');
    expect(await page.locator('course-search dialog').evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
    expect(await editorText(page)).toContain('// half = total / 2');
    // Outside any editable element, `/` still opens search.
    await page.locator('main h1').click();
    await page.keyboard.press('/');
    expect(await page.locator('course-search dialog').evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
  });
});
