/**
 * Driving an exercise workspace as a learner through the engine layer (e2e/engines.ts): the same steps
 * in Chromium, Firefox and WebKit. The Playwright-only tests use workspace-helpers.ts instead.
 */
import { expect } from 'vitest';
import type { EnginePage } from './engines.ts';

export const workspace = (id: string) => `course-workspace[data-exercise="${id}"]`;

/** The text of the first element matching `selector` (null when there is none). */
export const textOf = (page: EnginePage, selector: string) => page.evaluate((s) => document.querySelector(s)?.textContent ?? null, selector);

export const phaseOf = (page: EnginePage, id: string) => page.evaluate((s) => document.querySelector<HTMLElement>(s)?.dataset.phase ?? null, workspace(id));

export function waitForPhase(page: EnginePage, id: string, phases: string[], timeoutMs: number) {
  return page.waitFor(
    `${id}'s workspace to be ${phases.join(' or ')}`,
    ([s, phases]) => phases.includes(document.querySelector<HTMLElement>(s)?.dataset.phase ?? ''),
    [workspace(id), phases] as const,
    timeoutMs,
  );
}

/** The learner's saved copy of `file`, as the page keeps it. */
export const savedFile = (page: EnginePage, id: string, file: string) =>
  page.evaluate(([id, file]) => JSON.parse(localStorage.getItem(`course.code.${id}`) ?? '{"files":{}}').files[file] as string | undefined, [id, file] as const);

export const waitForSaved = (page: EnginePage, id: string, file: string, text: string) =>
  page.waitFor(
    `${id}'s ${file} to be saved with the code just set`,
    ([id, file, text]) => JSON.parse(localStorage.getItem(`course.code.${id}`) ?? '{"files":{}}').files[file] === text,
    [id, file, text] as const,
    10_000,
  );

/**
 * Replaces the editor's whole text as a learner pasting would: a click on the code (which loads the
 * editor), Control+A, then a paste. The paste is a `paste` event carrying the text, which CodeMirror
 * inserts as it does a real one: no engine lets a test write the system clipboard, and typing key by
 * key would be slow and changed by the editor's auto-indent and bracket closing. Its clipboardData is
 * set on the event itself because Firefox keeps a DataTransfer handed to a synthetic ClipboardEvent
 * unreadable (getData gives '').
 */
export async function setCode(page: EnginePage, id: string, file: string, text: string) {
  const root = workspace(id);
  // What the page holds now: its saved copy, or the text area's text before the editor replaces it.
  // Pasting the same text again is no edit, so nothing new is saved then.
  const held = await page.evaluate(
    ([root, id, file]) =>
      JSON.parse(localStorage.getItem(`course.code.${id}`) ?? '{"files":{}}').files[file] ??
      document.querySelector<HTMLTextAreaElement>(`${root} textarea[data-code="${file}"]`)?.value,
    [root, id, file] as const,
  );
  await page.click(`${root} textarea[data-code], ${root} .cm-content`);
  await page.waitFor(`${id}'s editor`, (s) => document.querySelector(s) !== null, `${root} .cm-content`, 15_000);
  await page.evaluate((s) => document.querySelector<HTMLElement>(s)!.focus(), `${root} .cm-content`);
  await page.press('Control+a');
  await page.evaluate(
    ([s, text]) => {
      const clipboardData = new DataTransfer();
      clipboardData.setData('text/plain', text);
      const paste = new ClipboardEvent('paste', { bubbles: true, cancelable: true });
      Object.defineProperty(paste, 'clipboardData', { value: clipboardData });
      document.querySelector(s)!.dispatchEvent(paste);
    },
    [`${root} .cm-content`, text] as const,
  );
  if (held !== text) await waitForSaved(page, id, file, text);
}

/** Every test row that did not pass, as text (for a failing assertion's message). */
export const failures = (page: EnginePage, id: string) =>
  page.evaluate((s) => [...document.querySelectorAll(`${s} .ws-test:not([data-status="pass"])`)].map((r) => r.textContent).join('\n'), workspace(id));

/** Runs (the Run button, or Control+Enter in the editor) once the runner can, and returns the summary line when done. */
export async function runAndWait(page: EnginePage, id: string, how: 'button' | 'keys') {
  await waitForPhase(page, id, ['ready', 'done', 'failed'], 20_000);
  // Polling could miss a short run's `running`: an observer in the page notes it, so an earlier run's
  // `done` is never taken for this one's.
  await page.evaluate((s) => {
    const el = document.querySelector<HTMLElement & { e2eRan?: boolean }>(s)!;
    el.e2eRan = false;
    const seen = new MutationObserver(() => el.dataset.phase === 'running' && ((el.e2eRan = true), seen.disconnect()));
    seen.observe(el, { attributes: true, attributeFilter: ['data-phase'] });
  }, workspace(id));
  if (how === 'button') await page.click(`${workspace(id)} [data-action="run"]`);
  else await page.press('Control+Enter');
  await page.waitFor(`${id}'s run to start`, (s) => document.querySelector<HTMLElement & { e2eRan?: boolean }>(s)!.e2eRan, workspace(id), 5_000);
  await waitForPhase(page, id, ['done', 'failed'], 90_000).catch(async (err: Error) => {
    // What the learner would see then, so a run that never ends says where it stood.
    const seen = await page.evaluate((s) => {
      const el = document.querySelector<HTMLElement>(s);
      return `phase ${el?.dataset.phase}, summary "${el?.querySelector('[data-summary]')?.textContent}", message "${el?.querySelector('.ws-message')?.textContent ?? ''}"`;
    }, workspace(id));
    throw new Error(`${err.message}; the page showed ${seen}`);
  });
  const summary = (await textOf(page, `${workspace(id)} [data-summary]`))!;
  console.log(`${page.engine} ${id} ${how}: ${summary}`);
  return summary;
}

/**
 * An endless loop ends as a timeout of the test that hung, and the page still works: the next run of
 * the solution passes all `total` tests, and the solution is what stays saved.
 */
export async function expectLoopStoppedThenSolutionPasses(
  page: EnginePage,
  ex: { id: string; file: string; loop: string; solution: string; total: string; lang: 'en' | 'vi' },
) {
  const root = workspace(ex.id);
  await waitForPhase(page, ex.id, ['ready'], 15_000);
  await setCode(page, ex.id, ex.file, ex.loop);
  await runAndWait(page, ex.id, 'keys');
  expect(await textOf(page, `${root} .ws-message`)).toMatch(ex.lang === 'en' ? /stopped after \d+ ms/ : /dừng|ngừng/);
  expect(await textOf(page, `${root} .ws-test[data-status="error"] .ws-badge`)).toBe(ex.lang === 'en' ? 'timed out' : 'quá thời gian');
  await setCode(page, ex.id, ex.file, ex.solution);
  const summary = await runAndWait(page, ex.id, 'button');
  expect(summary, await failures(page, ex.id)).toMatch(new RegExp(`^${ex.total}/${ex.total} `));
  expect(await savedFile(page, ex.id, ex.file)).toBe(ex.solution);
}
