/**
 * The results of a run, as a learner reads them (retry-helper, local runner): grouped by rule with each
 * message and hint once, passing rules collapsed, test names in the page's language, the elapsed time
 * during a run, and an honest account of a run a loop cut short.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser } from './fixtures.ts';
import { pasteCode, runToEnd, startRun, waitForPhase, workspace } from './run-helpers.ts';
import { serveSite, withRunnerToken, type ServedSite } from '../tools/serve-site.ts';
import { DIST } from '../tools/site-pages.ts';

const read = (path: string) => readFileSync(path, 'utf8');
const exercise = JSON.parse(read('exercises/retry-helper/exercise.json')) as {
  rules: Record<string, { message: Record<string, string>; hint: Record<string, string> }>;
};
const starter = read('exercises/retry-helper/starter/retry.ts');
const solution = read('solutions/retry-helper/retry.ts');
const loop = solution.replace('): Promise<Response> {\n', '): Promise<Response> {\n  for (;;) {}\n');
const plain = (s: string) => s.replace(/`/g, '');
const viNames = JSON.parse(read('exercises/retry-helper/test-names.vi.json')) as Record<string, string>;

let site: ServedSite | undefined;
beforeAll(async () => {
  if (!skipBrowser()) site = await serveSite(DIST, 'local-runner');
});
afterAll(() => site?.stop());

describe.skipIf(skipBrowser())('exercise results', () => {
  const browser = useBrowser();
  const open = async (lang: 'en' | 'vi') => {
    const { page, errors } = await browser.open(withRunnerToken(site!, `${site!.url}/${lang}/when-to-retry/one-layer/`), { baseURL: site!.url });
    page.on('dialog', (d) => void d.accept());
    return { page, errors, root: workspace(page, 'retry-helper') };
  };

  it.each(['en', 'vi'] as const)(
    '(%s) a failing run: elapsed time while running, then one block per failing rule, message and hint once, passing rules on one line',
    async (lang) => {
      const { page, errors, root } = await open(lang);
      await pasteCode(page, root, starter);
      await startRun(page, root);
      // The summary counts the seconds while the tests run.
      const running = lang === 'en' ? /^Running the tests… (\d+) s$/ : /^Đang chạy các test… (\d+) giây$/;
      await page.waitForFunction(
        ([el, re]) => new RegExp(re as string).exec((el as HTMLElement).textContent ?? '')?.[1] !== '0',
        [await root.locator('[data-summary]').elementHandle(), running.source] as const,
        { timeout: 10_000 },
      );
      expect(await root.locator('[data-summary]').textContent()).toMatch(running);
      await waitForPhase(page, root, ['done', 'failed'], 90_000);

      const failing = root.locator('.ws-rule-group[data-status="fail"]');
      const ruleIds = await failing.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.rule!));
      expect(ruleIds.length).toBeGreaterThan(0);
      const resultsText = (await root.locator('[data-results]').textContent())!;
      for (const [i, rule] of ruleIds.entries()) {
        const block = failing.nth(i);
        // The message and the hint once per rule, however many of its tests failed.
        expect(resultsText.split(plain(exercise.rules[rule]!.message[lang]!)).length - 1, rule).toBe(1);
        expect(await block.locator('.ws-hint').count(), rule).toBe(1);
        expect(await block.locator('.ws-hint span').textContent()).toBe(plain(exercise.rules[rule]!.hint[lang]!));
        expect(await block.locator('.ws-test').count()).toBeGreaterThan(0);
        // "failed R2": the verdict and the rule id read as two words
        expect(await block.locator('.ws-rule-head').textContent()).toMatch(new RegExp(`^${lang === 'en' ? 'failed' : 'không đạt'} ${rule} `));
      }
      // Failing rules come first; the passing rules are one collapsed line at the end.
      const order = await root.locator('.ws-rule-group').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.status));
      expect(order.slice(0, ruleIds.length).every((s) => s === 'fail')).toBe(true);
      expect(order.filter((s) => s === 'pass')).toEqual(['pass']);
      expect(order.at(-1)).toBe('pass');
      expect(await root.locator('.ws-rule-group[data-status="pass"] details').getAttribute('open')).toBeNull();
      // Far shorter than a row per test: 48 rows came to about 11,900 px (about 250 px each), so half that per test of the suite.
      const height = (await root.locator('[data-results]').boundingBox())!.height;
      const tests = (JSON.parse(read('exercises/retry-helper/test-list.json')) as { tests: string[] }).tests.length;
      console.log(`results (${lang}): ${ruleIds.length} failing rules, ${tests} tests, ${Math.round(height)} px`);
      expect(height).toBeLessThan(tests * 125);

      // Test names in the page's language: the suite's own in English, the list beside the rules in Vietnamese.
      const names = await root.locator('.ws-rule-group[data-status="fail"] .ws-test-name').allTextContents();
      const englishNames = await root.locator('.ws-rule-group[data-status="fail"] .ws-test').evaluateAll((els) => els.map((e) => (e as HTMLElement).title));
      const ownName = (n: string) => n.replace(/^[A-Z]\d+ /, '');
      expect(names.length).toBeGreaterThan(20);
      if (lang === 'vi') {
        expect(names).toEqual(englishNames.map((n) => ownName(viNames[n]!)));
        expect(names.filter((n) => englishNames.map(ownName).includes(n))).toEqual([]);
      } else expect(names).toEqual(englishNames.map(ownName));
      expect(errors).toEqual([]);
    },
    120_000,
  );

  it.each(['en', 'vi'] as const)(
    '(%s) a run cut short by a loop names the hung test, gives no false total, and marks what never ran as not run without hints',
    async (lang) => {
      const { page, errors, root } = await open(lang);
      await pasteCode(page, root, loop);
      await page.waitForFunction((text) => JSON.parse(localStorage.getItem('course.code.retry-helper') ?? '{"files":{}}').files['retry.ts'] === text, loop);
      const summary = await runToEnd(page, root);
      console.log(`loop (${lang}): ${summary}`);
      expect(summary).not.toMatch(/^\d+\/\d+ /); // no "0/18" for a 48-test suite
      expect(summary).toContain(lang === 'en' ? 'not run: the run was stopped' : 'không chạy: lần chạy đã bị dừng');
      expect(await root.locator('.ws-message').textContent()).toMatch(
        lang === 'en' ? /test "R\d+ [^"]+" never finished/ : /test "R\d+ [^"]+" không bao giờ kết thúc/,
      );
      // The hung test is marked as timed out with the reason; no rule hint anywhere (none is about the loop).
      expect(await root.locator('.ws-test[data-status="error"] .ws-badge').first().textContent()).toBe(lang === 'en' ? 'timed out' : 'quá thời gian');
      expect(await root.locator('.ws-hint').count()).toBe(0);
      // The rules never reached: one collapsed line naming them, not a block (and a sentence) per test.
      const notRun = root.locator('.ws-rule-group[data-status="not-run"]');
      expect(await notRun.count()).toBe(1);
      expect(await notRun.locator('summary').first().textContent()).toMatch(
        lang === 'en' ? /^not run Rules the run never reached \(\d+\): R\d+/ : /^không chạy Các rule lần chạy chưa tới \(\d+\): R\d+/,
      );
      expect(await notRun.locator('> details').getAttribute('open')).toBeNull();
      expect(await notRun.locator('.ws-test details').count()).toBe(0); // nothing to open under a test that never ran
      const reasons = await root.locator('.ws-reason').allTextContents();
      expect(reasons).toHaveLength(1); // the hung test's, once
      expect(errors).toEqual([]);
    },
    120_000,
  );
});
