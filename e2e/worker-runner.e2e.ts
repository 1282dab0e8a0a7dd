/**
 * Grading in the page with no server at all: the built site on the plainest static host (no
 * cross-origin isolation headers, as on GitHub Pages; no local runner), every request to another
 * origin refused, in Chromium, Firefox and WebKit (e2e/engines.ts). Each exercise graded by the worker
 * runner fails its starter with per-rule hints and passes its reference in every engine; in one
 * engine of the three, taken in turn (in every engine when fewer run), it also keeps the code across
 * a reload and stops an endless loop, so each exercise and each engine is seen doing both without
 * grading everything three times over. Every exercise of the course is graded here: none is left to
 * a server. Desktop and phone, both languages (alternating across the exercises).
 */
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { expectLoopStoppedThenSolutionPasses, failures, runAndWait, setCode, textOf, waitForPhase, workspace } from './engine-workspace.ts';
import { describeEngines, ENGINE_NAMES, PHONE, selectedEngines } from './engines.ts';
import { skipBrowser } from './fixtures.ts';
import { servePlainStatic } from '../tools/plain-static-server.ts';
import type { ServedSite } from '../tools/serve-site.ts';
import { DIST } from '../tools/site-pages.ts';
import { lessonEmbedding, read } from './workspace-helpers.ts';

interface ExerciseJson {
  inBrowser: 'worker' | 'webcontainer';
  files: Array<{ path: string; editable: boolean }>;
  rules: Record<string, { message: Record<string, string>; hint: Record<string, string> }>;
}
const exercises = readdirSync('exercises')
  .filter((id) => !id.startsWith('_') && existsSync(`exercises/${id}/exercise.json`))
  .map((id) => ({ id, json: JSON.parse(read(`exercises/${id}/exercise.json`)) as ExerciseJson }));
const inWorker = exercises.filter((e) => e.json.inBrowser === 'worker');

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
  it('the test site really is a plain static host: no isolation headers, no local runner', async () => {
    const res = await fetch(`${site!.url}/en/`);
    expect(res.headers.get('cross-origin-embedder-policy')).toBeNull();
    expect((await fetch(`${site!.url}/__runner/grade`, { method: 'POST' })).status).toBe(404);
  });

  describeEngines((engineName, engine) => {
    /** A page whose every request to another origin is refused, as on a machine that reaches nothing else; closed when the test ends. */
    async function openIsolatedFromTheWorld(path: string, phone: boolean) {
      const page = await engine().open(`${site!.url}${path}`, { onlyOrigin: site!.url, ...(phone ? { viewport: PHONE, phone: true } : {}) });
      onTestFinished(() => page.close());
      return page;
    }

    const engines = selectedEngines();
    inWorker.forEach(({ id, json }, i) => {
      const lang = i % 2 === 0 ? 'en' : 'vi';
      const phone = i % 4 >= 2;
      /** This engine's turn to reload and loop this exercise (every engine's, when not all three run). */
      const whole = engines.length < ENGINE_NAMES.length || i % ENGINE_NAMES.length === ENGINE_NAMES.indexOf(engineName);
      const file = json.files.find((f) => f.editable)!.path;
      const starter = read(`exercises/${id}/starter/${file}`);
      const solution = read(`solutions/${id}/${file}`);
      const loop = withEndlessLoop(solution);
      const root = workspace(id);

      it(`${id} (${lang}${phone ? ', phone' : ''}): starter fails with hints, reference passes${whole ? ', code survives reload, a loop is stopped' : ''}`, async () => {
        expect(loop).not.toBe(solution);
        const page = await openIsolatedFromTheWorld(`/${lang}/${lessonEmbedding(id)}/`, phone);
        if (phone) console.log(`${engineName}: the phone's viewport is ${page.viewport.width}x${page.viewport.height}`);
        expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
        await waitForPhase(page, id, ['ready'], 15_000);
        expect(await textOf(page, `${root} [data-state]`)).toContain(lang === 'en' ? 'this page' : 'trong trang này');

        // 1. The starter fails, each failing rule with its message and hint, in the page's language.
        await setCode(page, id, file, starter);
        let summary = await runAndWait(page, id, 'button');
        expect(summary).toContain(lang === 'en' ? 'graded in this page' : 'chấm ngay trong trang này');
        const counts = /^(\d+)\/(\d+) /.exec(summary)!;
        expect(Number(counts[1])).toBeLessThan(Number(counts[2]));
        const failing = await page.evaluate((s) => {
          const group = document.querySelector(`${s} .ws-rule-group[data-status="fail"]`)!;
          return { rule: group.getAttribute('data-rule')!, hint: group.querySelector('.ws-hint span')?.textContent, text: group.textContent };
        }, root);
        const plain = (s: string) => s.replace(/`/g, '');
        expect(failing.hint).toBe(plain(json.rules[failing.rule]!.hint[lang]!));
        expect(failing.text).toContain(plain(json.rules[failing.rule]!.message[lang]!));

        // 2. The reference passes every test (the solution button asks to confirm: every engine accepts).
        await page.click(`${root} [data-action="solution"]`);
        await page.waitFor(
          'the solution to be saved',
          ([id, f, text]) => JSON.parse(localStorage.getItem(`course.code.${id}`)!).files[f] === text,
          [id, file, solution] as const,
          10_000,
        );
        summary = await runAndWait(page, id, 'button');
        expect(summary, await failures(page, id)).toMatch(new RegExp(`^${counts[2]}/${counts[2]} `));

        if (whole) {
          // 3. Reload: the code is kept (read once the workspace has taken over its text areas).
          await page.reload();
          await waitForPhase(page, id, ['ready'], 15_000);
          expect(await page.evaluate((s) => document.querySelector<HTMLTextAreaElement>(s)!.value, `${root} textarea[data-code]`)).toBe(solution);

          // 4. An endless loop ends as a timeout of the test that hung; the next run works again.
          await expectLoopStoppedThenSolutionPasses(page, { id, file, loop, solution, total: counts[2]!, lang });
        }

        expect(page.foreignRequests(), 'requests to other origins').toEqual([]);
        expect(await page.errors()).toEqual([]);
      }, 180_000);
    });

    it('while a run goes, the summary counts the seconds and the tests done out of the total', async () => {
      const page = await openIsolatedFromTheWorld(`/en/${lessonEmbedding('retry-helper')}/`, false);
      const root = workspace('retry-helper');
      await waitForPhase(page, 'retry-helper', ['ready'], 15_000);
      await setCode(page, 'retry-helper', 'retry.ts', read('exercises/retry-helper/starter/retry.ts')); // its timeouts make a run of several seconds
      await page.click(`${root} [data-action="run"]`);
      const counting = /Running the tests… \d+ s · [1-9]\d*\/\d+ tests done/;
      await page.waitFor(
        'the summary to count the tests done',
        ([s, re]) => new RegExp(re).test(document.querySelector(s)?.textContent ?? ''),
        [`${root} [data-summary]`, counting.source] as const,
        15_000,
      );
      const [, done, total] = /(\d+)\/(\d+) tests done/.exec((await textOf(page, `${root} [data-summary]`))!)!;
      expect(Number(done)).toBeLessThan(Number(total));
      await waitForPhase(page, 'retry-helper', ['done'], 60_000);
      expect(await page.errors()).toEqual([]);
    }, 90_000);

    it('grades every exercise of the course in the page: none needs a server or a WebContainer', () => {
      expect(inWorker.map((e) => e.id)).toEqual(exercises.map((e) => e.id));
      expect(inWorker.length).toBeGreaterThanOrEqual(9);
    });
  });
});
