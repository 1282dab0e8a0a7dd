/** What the workspace tests share: finding an exercise's lesson, typing code, running and waiting. */
import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from './fixtures.ts';

export const read = (path: string) => readFileSync(path, 'utf8');

/** `<module>/<slug>` of the English lesson that embeds the exercise. */
export function lessonEmbedding(id: string): string {
  for (const module of readdirSync('content/lessons/en')) {
    for (const file of readdirSync(`content/lessons/en/${module}`)) {
      if (read(`content/lessons/en/${module}/${file}`).includes(`<Exercise id="${id}"`)) return `${module}/${file.replace(/\.mdx$/, '')}`;
    }
  }
  throw new Error(`no lesson embeds the exercise ${id}`);
}

/** Replaces the editor's whole text as a learner pasting would (the editor loads on first use). */
export async function setCode(page: Page, root: ReturnType<Page['locator']>, text: string) {
  await root.locator('textarea[data-code], .cm-content').first().click();
  const content = root.locator('.cm-content').first();
  await content.waitFor();
  await content.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

export const failures = (root: ReturnType<Page['locator']>) =>
  root.locator('.ws-test:not([data-status="pass"])').allTextContents().then((rows) => rows.join('\n'));

/** Runs (button or Ctrl/Cmd+Enter) once the runner can, and returns the summary line when done. */
export async function runAndWait(page: Page, root: ReturnType<Page['locator']>, how: 'button' | 'keys') {
  await page.waitForFunction((el) => ['ready', 'done', 'failed'].includes((el as HTMLElement).dataset.phase!), await root.elementHandle(), { timeout: 20_000 });
  if (how === 'button') await root.locator('[data-action="run"]').click();
  else await page.keyboard.press('ControlOrMeta+Enter');
  await page.waitForFunction((el) => (el as HTMLElement).dataset.phase === 'running', await root.elementHandle(), { timeout: 5_000 });
  await page.waitForFunction((el) => ['done', 'failed'].includes((el as HTMLElement).dataset.phase!), await root.elementHandle(), { timeout: 90_000 });
  const summary = (await root.locator('[data-summary]').textContent())!;
  console.log(`${await root.getAttribute('data-exercise')} ${how}: ${summary}`);
  return summary;
}

/** The learner's saved copy of `file`, as the page keeps it. */
export const savedFile = (page: Page, id: string, file: string) =>
  page.evaluate(([id, file]) => JSON.parse(localStorage.getItem(`course.code.${id}`) ?? '{"files":{}}').files[file] as string | undefined, [id, file]);
