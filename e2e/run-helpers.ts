/** Driving an exercise workspace as a learner: paste code into the editor, run, wait for the result. */
import type { Locator, Page } from 'playwright-core';

export const workspace = (page: Page, id: string) => page.locator(`course-workspace[data-exercise="${id}"]`);

/** Replaces the editor's whole text as a learner pasting would (the editor loads on first use). */
export async function pasteCode(page: Page, root: Locator, text: string) {
  await root.locator('textarea[data-code], .cm-content').first().click();
  const content = root.locator('.cm-content').first();
  await content.waitFor();
  await content.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

export async function waitForPhase(page: Page, root: Locator, phases: string[], timeout: number) {
  await page.waitForFunction(
    ([el, phases]) => (phases as string[]).includes((el as HTMLElement).dataset.phase!),
    [await root.elementHandle(), phases] as const,
    { timeout },
  );
}

/** Clicks Run once the runner is ready; returns once it is running (the caller waits for the end). */
export async function startRun(page: Page, root: Locator) {
  await waitForPhase(page, root, ['ready', 'done', 'failed'], 20_000);
  await root.locator('[data-action="run"]').click();
  await waitForPhase(page, root, ['running'], 5_000);
}

export async function runToEnd(page: Page, root: Locator): Promise<string> {
  await startRun(page, root);
  await waitForPhase(page, root, ['done', 'failed'], 90_000);
  return (await root.locator('[data-summary]').textContent())!;
}
