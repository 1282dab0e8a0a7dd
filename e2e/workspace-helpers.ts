/** What the workspace tests share: finding an exercise's lesson, typing code, running and waiting. */
import { readFileSync } from 'node:fs';
import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import type { Page } from './fixtures.ts';
import { pasteCode, startRun, waitForPhase } from './run-helpers.ts';

export const read = (path: string) => readFileSync(path, 'utf8');

export { lessonEmbedding } from '../tools/site-pages.ts';

/** Replaces the editor's whole text as a learner pasting would (the editor loads on first use). */
export const setCode = pasteCode;

export const failures = (root: Locator) =>
  root
    .locator('.ws-test:not([data-status="pass"])')
    .allTextContents()
    .then((rows) => rows.join('\n'));

/** Runs (button or Ctrl/Cmd+Enter) once the runner can, and returns the summary line when done. */
export async function runAndWait(page: Page, root: Locator, how: 'button' | 'keys') {
  if (how === 'button') await startRun(page, root);
  else {
    await waitForPhase(page, root, ['ready', 'done', 'failed'], 20_000);
    await page.keyboard.press('ControlOrMeta+Enter');
    await waitForPhase(page, root, ['running'], 5_000);
  }
  await waitForPhase(page, root, ['done', 'failed'], 90_000);
  const summary = (await root.locator('[data-summary]').textContent())!;
  console.log(`${await root.getAttribute('data-exercise')} ${how}: ${summary}`);
  return summary;
}

/** The learner's saved copy of `file`, as the page keeps it. */
export const savedFile = (page: Page, id: string, file: string) =>
  page.evaluate(([id, file]) => JSON.parse(localStorage.getItem(`course.code.${id}`) ?? '{"files":{}}').files[file] as string | undefined, [id, file]);

/**
 * An endless loop ends as a timeout of the test that hung, and the page still works: the next run of
 * the solution passes all `total` tests, and the solution is what stays saved.
 */
export async function expectLoopStoppedThenSolutionPasses(
  page: Page,
  root: Locator,
  ex: { id: string; file: string; loop: string; solution: string; total: string; lang: 'en' | 'vi' },
) {
  await waitForPhase(page, root, ['ready'], 15_000);
  await setCode(page, root, ex.loop);
  await page.waitForFunction(([id, f, text]) => JSON.parse(localStorage.getItem(`course.code.${id}`)!).files[f] === text, [ex.id, ex.file, ex.loop]);
  await runAndWait(page, root, 'keys');
  expect(await root.locator('.ws-message').textContent()).toMatch(ex.lang === 'en' ? /stopped after \d+ ms/ : /dừng|ngừng/);
  expect(await root.locator('.ws-test[data-status="error"]').first().locator('.ws-badge').textContent()).toBe(ex.lang === 'en' ? 'timed out' : 'quá thời gian');
  await setCode(page, root, ex.solution);
  const summary = await runAndWait(page, root, 'button');
  expect(summary, await failures(root)).toMatch(new RegExp(`^${ex.total}/${ex.total} `));
  expect(await savedFile(page, ex.id, ex.file)).toBe(ex.solution);
}
