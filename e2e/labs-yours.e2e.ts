/**
 * "Use my code" in the labs, in real Chromium on the built site: the learner's saved exercise code
 * runs as one more policy. The reference solution gives exactly the figures of the built-in policy
 * it implements; code without jitter brings the synchronized wave back; an endless loop is stopped
 * and reported while the rest of the lab works; a copied link never carries the code. Both
 * languages, desktop and phone.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buggyVariant } from '../src/grading/node/testing/proof-catalogue.ts';
import { skipBrowser, useBrowser, type Page } from './fixtures.ts';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const poll = <T>(fn: () => Promise<T>, timeout = 30_000) => expect.poll(fn, { timeout, interval: 100 });
const backoff = readFileSync('solutions/backoff/backoff.ts', 'utf8');

/** Saves code for an exercise as the workspace does, from another page of the origin (an exercise page would save over it). */
async function saveCode(page: Page, lang: string, exercise: string, files: Record<string, string>) {
  await page.goto(`/${lang}/`);
  await page.evaluate(([ex, f]) => localStorage.setItem(`course.code.${ex}`, JSON.stringify({ version: 1, files: f, savedAt: new Date().toISOString() })), [
    exercise,
    files,
  ] as const);
}

/** Opens a lab, brings it into view, waits until it has drawn; returns it and a way to wait for the next drawing. */
async function openLab(page: Page, lang: string, lesson: string, sim: string) {
  await page.goto(`/${lang}/${lesson}/`);
  const lab = page.locator(`course-lab[data-sim="${sim}"]`);
  await lab.scrollIntoViewIfNeeded();
  await poll(() => lab.getAttribute('data-renders').then(Number)).toBeGreaterThanOrEqual(1);
  const redrawn = async (change: () => Promise<void>) => {
    const before = Number(await lab.getAttribute('data-renders'));
    await change();
    await poll(async () => Number(await lab.getAttribute('data-renders')) > before && (await lab.getAttribute('data-state')) === 'ready').toBe(true);
  };
  return { lab, redrawn };
}

/** The results table as policy label → the other cells. */
async function table(page: Page, sim: string): Promise<Map<string, string[]>> {
  const rows = await page
    .locator(`course-lab[data-sim="${sim}"] [data-results-table] tbody tr`)
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim())));
  return new Map(rows.map((r) => [r[0]!, r.slice(1)]));
}

describe.skipIf(skipBrowser())('the learner’s own code in the labs', () => {
  const browser = useBrowser();

  it.each([
    ['en', false],
    ['vi', true],
  ] as const)('retry-storm: the reference budget gives exactly the lab budget’s figures, drawn beside it (%s, phone %s)', async (lang, phone) => {
    const context = await browser.context(phone ? PHONE : {});
    const page = await context.newPage();
    await saveCode(page, lang, 'retry-budget', { 'budget.ts': readFileSync('solutions/retry-budget/budget.ts', 'utf8') });
    const { lab, redrawn } = await openLab(page, lang, 'retry-budgets/retry-storms', 'retry-storm');
    const box = lab.locator('[data-yours-code="retry-budget"]');
    expect(await box.isDisabled()).toBe(false);
    // Saved but never graded: it runs, marked so.
    expect(await lab.locator('[data-yours-state="retry-budget"]').textContent()).toMatch(lang === 'en' ? /does not pass its tests yet/ : /chưa qua các test/);
    expect(await lab.locator('[data-yours-code="backoff"]').isDisabled(), 'no saved backoff code').toBe(true);
    await redrawn(() => box.check());
    const rows = await table(page, 'retry-storm');
    const yours = [...rows.keys()].find((k) => k.startsWith(lang === 'en' ? 'Your code' : 'Code của bạn'))!;
    const builtIn = lang === 'en' ? 'Full jitter + 10% retry budget' : 'Full jitter + retry budget 10%';
    expect(yours).toContain(lang === 'en' ? 'not yet passing its tests' : 'chưa qua các test');
    expect(rows.get(yours)).toEqual(rows.get(builtIn));
    expect(await lab.locator('[data-yours-result]').textContent()).toContain(lang === 'en' ? 'recovered at the same moment as' : 'hồi phục cùng lúc với');
    // Its curve is in both charts (legend and data table), and the table's column for it matches the built-in one.
    for (const chart of ['load', 'goodput']) {
      expect(await lab.locator(`[data-chart="${chart}"] [data-series="yours-retry-budget"] .lab-swatch-yours`).count(), chart).toBe(1);
      const heads = await lab.locator(`[data-chart="${chart}"] [data-chart-table] thead th`).allTextContents();
      expect(
        heads.some((h) => h.includes(lang === 'en' ? 'Your code' : 'Code của bạn')),
        chart,
      ).toBe(true);
    }
    // A copied link keeps the parameters, and carries neither the code nor the choice to use it.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await lab.locator('[data-copy]').click();
    const link = await lab.locator('[data-link]').inputValue();
    expect(link).toContain('#');
    expect(decodeURIComponent(link)).not.toMatch(/RatioRetryBudget|budget\.ts|yours/);
    // On a phone the choice is reachable: the box sits inside the viewport's width.
    const boxSize = await lab.locator('[data-yours-item="retry-budget"]').boundingBox();
    expect(boxSize!.x + boxSize!.width).toBeLessThanOrEqual((phone ? 390 : 1280) + 1);
  });

  it('jitter-waves: backoff without jitter brings the synchronized wave back; each strategy of the reference matches the lab’s', async () => {
    const context = await browser.context();
    const page = await context.newPage();
    const noJitter = buggyVariant('backoff', 'no-jitter', { 'backoff.ts': backoff }).files['backoff.ts']!;
    await saveCode(page, 'en', 'backoff', { 'backoff.ts': noJitter });
    const { lab, redrawn } = await openLab(page, 'en', 'backoff-jitter/jitter', 'jitter-waves');
    const strategy = lab.locator('[data-param="yoursStrategy"]');
    expect(await strategy.isHidden(), 'the learner-only parameter waits for learner code').toBe(true);
    await redrawn(() => lab.locator('[data-yours-code="backoff"]').check());
    expect(await strategy.isVisible()).toBe(true);
    let rows = await table(page, 'jitter-waves');
    const yoursRow = () => [...rows.entries()].find(([k]) => k.startsWith('Your code'))![1];
    expect(yoursRow()[0], 'busiest window without jitter').toBe(rows.get('No jitter (base × 2^n)')![0]);
    expect(Number(yoursRow()[0]!.replace(/\D/g, ''))).toBeGreaterThan(5 * Number(rows.get('Full jitter')![0]!.replace(/\D/g, '')));
    expect(await lab.locator('[data-yours-result]').textContent()).toMatch(/against 86 for the lab's Full jitter/);

    // The reference, each strategy: the same figures as the lab's.
    await saveCode(page, 'en', 'backoff', { 'backoff.ts': backoff });
    const again = await openLab(page, 'en', 'backoff-jitter/jitter', 'jitter-waves');
    await again.redrawn(() => again.lab.locator('[data-yours-code="backoff"]').check());
    // Full first, the default: ticking the box drew it already.
    rows = await table(page, 'jitter-waves');
    expect(yoursRow(), 'full').toEqual(rows.get('Full jitter'));
    for (const [value, label] of [
      ['equal', 'Equal jitter'],
      ['decorrelated', 'Decorrelated jitter (AWS)'],
      ['none', 'No jitter (base × 2^n)'],
    ] as const) {
      await again.redrawn(async () => void (await again.lab.locator('[data-input="yoursStrategy"]').selectOption(value)));
      rows = await table(page, 'jitter-waves');
      expect(yoursRow(), value).toEqual(rows.get(label));
    }
  }, 120_000);

  it.each(['en', 'vi'] as const)(
    'an endless loop in the learner’s code is stopped and reported, and the lab goes on without it (%s)',
    async (lang) => {
      const context = await browser.context();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const looping = backoff.replace('  const ceiling = exponentialDelay(failures, baseMs, capMs); // validate before drawing', '  for (;;) {}');
      expect(looping).not.toBe(backoff);
      await saveCode(page, lang, 'backoff', { 'backoff.ts': looping });
      const { lab } = await openLab(page, lang, 'backoff-jitter/jitter', 'jitter-waves');
      await lab.locator('[data-yours-code="backoff"]').check();
      await poll(() => lab.locator('[data-yours-stopped]').count(), 25_000).toBe(1);
      expect(await lab.locator('[data-yours-stopped]').textContent()).toMatch(
        lang === 'en' ? /had not returned after 10 s \(an endless loop\?\)/ : /chưa trả về sau 10 s/,
      );
      expect(await lab.locator('[data-yours-code="backoff"]').isChecked(), 'unticked').toBe(false);
      await poll(() => lab.getAttribute('data-state')).toBe('ready');
      expect([...(await table(page, 'jitter-waves')).keys()]).toHaveLength(4);
      // The lab still works: a slider redraws it.
      const before = Number(await lab.getAttribute('data-renders'));
      await lab.locator('[data-input="clients"]').fill('500');
      await lab.locator('[data-input="clients"]').dispatchEvent('change');
      await poll(() => lab.getAttribute('data-renders').then(Number)).toBeGreaterThan(before);
      expect(errors).toEqual([]);
    },
    90_000,
  );

  it('a throw in the learner’s code is said in the page’s language, and the built-in policies still run', async () => {
    const context = await browser.context();
    const page = await context.newPage();
    await saveCode(page, 'vi', 'adaptive-throttle', { 'throttle.ts': "export class AdaptiveThrottle { constructor() { throw new RangeError('k sai'); } }\n" });
    const { lab, redrawn } = await openLab(page, 'vi', 'overload/breakers-and-limits', 'overload-recovery');
    await redrawn(() => lab.locator('[data-yours-code="adaptive-throttle"]').check());
    expect(await lab.locator('[data-yours-outcome="adaptive-throttle"]').textContent()).toContain('ném lỗi: RangeError: k sai');
    expect([...(await table(page, 'overload-recovery')).keys()]).toHaveLength(6);
  });

  it('the hedging lab says why it cannot run the learner’s hedged-fetch code', async () => {
    const { page } = await browser.open('/en/hedging/tail-at-scale/');
    const lab = page.locator('course-lab[data-sim="hedging"]');
    expect(await lab.locator('[data-yours-code]').count()).toBe(0);
    expect(await lab.locator('[data-yours-note]').textContent()).toContain('cannot run your hedged-fetch code');
  });
});
