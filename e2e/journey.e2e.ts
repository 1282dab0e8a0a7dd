/**
 * A learner's short journey in every engine (Chromium, Firefox, WebKit: e2e/engines.ts), on the plain
 * static host with every other origin refused: open a lesson, answer a quiz question, redraw a lab
 * from its slider, mark the lesson read, and export the progress file. The Chromium-only tests
 * (quiz, labs, progress) go much further; this proves the same paths work in the other engines.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { parseProgressFile } from '../src/progress/transfer.ts';
import { describeEngines, type EngineName } from './engines.ts';
import { readQuiz } from './answer-quiz.ts';
import { textOf } from './engine-workspace.ts';
import { skipBrowser } from './fixtures.ts';
import { servePlainStatic } from '../tools/plain-static-server.ts';
import type { ServedSite } from '../tools/serve-site.ts';
import { DIST } from '../tools/site-pages.ts';

/** A lesson with a lab, an exercise and the module quiz. */
const LESSON = 'when-to-retry/one-layer';
const QUIZ = 'when-to-retry-quiz';
const LAB = 'course-lab[data-sim="amplification"]';
const LANG: Record<EngineName, 'en' | 'vi'> = { chromium: 'en', firefox: 'vi', webkit: 'en' };

let site: ServedSite | undefined;
beforeAll(async () => {
  if (!skipBrowser()) site = await servePlainStatic(DIST);
});
afterAll(() => site?.stop());

describe.skipIf(skipBrowser())("a learner's journey", () => {
  describeEngines((engineName, engine) => {
    const lang = LANG[engineName];

    it(`opens a lesson, answers a quiz question, redraws a lab, exports progress (${lang})`, async () => {
      const page = await engine().open(`${site!.url}/${lang}/${LESSON}/`, { onlyOrigin: site!.url });
      onTestFinished(() => page.close());

      // A quiz question, answered right: its feedback says so.
      const question = readQuiz(QUIZ).questions.find((q) => q.type === 'single')!;
      const q = `course-quiz[data-quiz-id="${QUIZ}"] [data-question="${question.id}"]`;
      await page.waitFor(
        'the quiz to be ready',
        (q) => customElements.get('course-quiz') !== undefined && (document.querySelector(`${q} [data-check]`)?.getClientRects().length ?? 0) > 0,
        q,
        15_000,
      );
      await page.click(`${q} input[value="${question.choices!.find((c) => c.correct)!.id}"]`);
      await page.click(`${q} [data-check]`);
      await page.waitFor('the answer to be marked right', (q) => document.querySelector(`${q} .verdict-right`) !== null, q, 10_000);

      // The lab draws once in view; a slider moved from the keyboard draws it again for the new value.
      await page.evaluate((lab) => document.querySelector(lab)!.scrollIntoView(), LAB);
      const drawn = (lab: string) => {
        const el = document.querySelector<HTMLElement>(lab)!;
        return el.dataset.state === 'ready' ? Number(el.dataset.renders) : 0;
      };
      await page.waitFor('the lab to draw', (lab) => Number(document.querySelector<HTMLElement>(lab)!.dataset.renders) >= 1, LAB, 20_000);
      await page.waitFor('the lab to settle', (lab) => document.querySelector<HTMLElement>(lab)!.dataset.state === 'ready', LAB, 20_000);
      const before = await page.evaluate(drawn, LAB);
      await page.evaluate((lab) => document.querySelector<HTMLElement>(`${lab} [data-slider="layers"]`)!.focus(), LAB);
      await page.press('ArrowRight');
      await page.waitFor(
        'the lab to draw again',
        ([lab, before]) => {
          const el = document.querySelector<HTMLElement>(lab)!;
          return el.dataset.state === 'ready' && Number(el.dataset.renders) > before;
        },
        [LAB, before] as const,
        20_000,
      );
      expect(await page.evaluate((lab) => document.querySelector<HTMLInputElement>(`${lab} [data-slider="layers"]`)!.value, LAB)).toBe('6');
      expect(await textOf(page, `${LAB} [data-cli]`)).toBe('npm run sim -- amplification --seed 1 --set layers=6');
      const shot = join(mkdtempSync(join(tmpdir(), 'journey-')), `${engineName}.png`);
      await page.screenshot(shot);
      expect(readFileSync(shot).subarray(1, 4).toString()).toBe('PNG');

      // Read to the end: marked by its button.
      const done = `[data-lesson-complete="${LESSON}"]`;
      await page.click(`${done} button`);
      await page.waitFor('the lesson to be marked read', (s) => document.querySelector<HTMLElement>(s)!.dataset.state === 'done', done, 10_000);

      // Export: the file the page hands to the browser's download. Each engine's download machinery
      // differs (and WebDriver has none), so the click on the download link is caught in the page, its
      // default (the download) prevented, and the file read back from its blob: URL.
      await page.goto(`${site!.url}/${lang}/progress/`);
      await page.waitFor('the export button', () => !document.querySelector<HTMLElement>('[data-transfer]')!.hidden, null, 10_000);
      await page.evaluate(() => {
        const w = window as unknown as { e2eDownload: Promise<{ name: string; text: string }> };
        w.e2eDownload = new Promise((resolve) =>
          document.addEventListener(
            'click',
            (e) => {
              const a = e.target;
              if (!(a instanceof HTMLAnchorElement) || !a.download) return;
              e.preventDefault();
              void fetch(a.href)
                .then((r) => r.text())
                .then((text) => resolve({ name: a.download, text }));
            },
            true,
          ),
        );
      });
      await page.click('[data-export]');
      const download = await page.evaluate(() =>
        Promise.race([
          (window as unknown as { e2eDownload: Promise<{ name: string; text: string }> }).e2eDownload,
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the export button started no download within 10 s')), 10_000)),
        ]),
      );
      expect(download.name).toMatch(/^course-progress-\d{4}-\d{2}-\d{2}\.json$/);
      const parsed = parseProgressFile(download.text);
      expect(parsed.ok, download.text.slice(0, 300)).toBe(true);
      if (parsed.ok) expect(parsed.file.progress.lessons[LESSON]?.read).toBe(true);
      expect(await textOf(page, '[data-export-status]')).toContain(download.name);

      expect(page.foreignRequests(), 'requests to other origins').toEqual([]);
      expect(await page.errors()).toEqual([]);
    }, 120_000);
  });
});
