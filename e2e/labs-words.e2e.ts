/**
 * Labs speak the page's language, not the simulation's ids; they say "none" rather than nothing; on a
 * phone their marker labels do not overlap and a wide table shows it scrolls; the jitter chart offers
 * a log scale so the no-jitter spikes do not flatten the other strategies.
 */
import { describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser, type Page } from './fixtures.ts';

const STORM = 'retry-budgets/retry-storms';
const JITTER = 'backoff-jitter/jitter';
const ID = /^[a-z0-9]+(-[a-z0-9]+)+$/; // fixed-1s-x5-2-layers, full-jitter-budget-10…
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 });

async function activate(page: Page, sim: string) {
  const lab = page.locator(`course-lab[data-sim="${sim}"]`);
  await lab.scrollIntoViewIfNeeded();
  await poll(() => lab.getAttribute('data-renders').then(Number)).toBeGreaterThanOrEqual(1);
  return lab;
}
const settled = (page: Page, sim: string) => poll(() => page.locator(`course-lab[data-sim="${sim}"]`).getAttribute('data-state')).toBe('ready');

describe.skipIf(skipBrowser())('labs in words a learner reads', () => {
  const browser = useBrowser();

  it.each(['en', 'vi'] as const)('retry-storm names its policies and parameters by their labels, and says when none recover (%s)', async (lang) => {
    const { page } = await browser.open(`/${lang}/${STORM}/`);
    const lab = await activate(page, 'retry-storm');
    const rowNames = await lab.locator('[data-results-table] tbody th').allInnerTexts();
    expect(rowNames.length).toBeGreaterThan(3);
    for (const name of rowNames) expect(name).not.toMatch(ID);
    const recovered = lab.locator('[data-figure="recovered"] dd');
    expect(await recovered.innerText()).toContain(lang === 'en' ? 'No retries' : 'Không retry');
    expect(await recovered.innerText()).not.toMatch(/full-jitter|\bnone\b/);

    // More new requests than the capacity: no policy recovers, and the figure says so instead of staying blank.
    await lab.locator('[data-input="newPerTick"]').fill('150');
    await lab.locator('[data-input="newPerTick"]').press('Enter');
    await settled(page, 'retry-storm');
    await poll(() => recovered.innerText()).toBe(lang === 'en' ? '— (none)' : '— (không có)');

    // A bad value: the message names the slider's label, not `capacityPerTick`.
    await lab.locator('[data-input="capacityPerTick"]').fill('0');
    await lab.locator('[data-input="capacityPerTick"]').press('Enter');
    const error = lab.locator('[data-param="capacityPerTick"] [data-error]');
    await poll(() => error.innerText()).not.toBe('');
    expect(await error.innerText()).not.toContain('capacityPerTick');
    expect(await error.innerText()).toContain(lang === 'en' ? 'Capacity (requests per 100 ms tick)' : 'Capacity (request mỗi tick 100 ms)');
  });

  it('on a phone, the outage labels do not overlap, and the wide results table shows it scrolls until its last column', async () => {
    const { page } = await browser.open(`/vi/${STORM}/`, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const lab = await activate(page, 'retry-storm');
    const boxes = JSON.parse((await lab.locator('[data-chart="load"] [data-plot]').getAttribute('data-marker-labels'))!) as {
      x: number;
      y: number;
      width: number;
      height: number;
    }[];
    expect(boxes).toHaveLength(2);
    const [a, b] = boxes as [(typeof boxes)[0], (typeof boxes)[0]];
    expect(a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height).toBe(false);
    const table = lab.locator('[data-results-table]');
    expect(await table.evaluate((t) => t.scrollWidth > t.clientWidth)).toBe(true);
    const cue = lab.locator('.lab-table-wrap [data-scroll-cue]');
    expect(await cue.isVisible()).toBe(true);
    await table.evaluate((t) => t.scrollTo({ left: t.scrollWidth }));
    await poll(() => cue.isVisible()).toBe(false);
  });

  it('a table that fits shows no scroll cue', async () => {
    const { page } = await browser.open(`/en/${STORM}/`, { viewport: { width: 1280, height: 800 } });
    const lab = await activate(page, 'retry-storm');
    expect(await lab.locator('[data-results-table]').evaluate((t) => t.scrollWidth <= t.clientWidth + 1)).toBe(true);
    expect(await lab.locator('.lab-table-wrap [data-scroll-cue]').isVisible()).toBe(false);
  });

  it.each(['en', 'vi'] as const)('the jitter chart can switch to a log scale (%s)', async (lang) => {
    const { page } = await browser.open(`/${lang}/${JITTER}/`);
    const lab = await activate(page, 'jitter-waves');
    const toggle = lab.locator('[data-log-scale]');
    expect(await toggle.isVisible()).toBe(true);
    expect(await lab.locator('.lab-scale').innerText()).toContain(lang === 'en' ? 'Log scale' : 'Thang log');
    const plot = lab.locator('[data-plot]').first();
    await toggle.check();
    await poll(() => plot.getAttribute('data-y-scale')).toBe('log');
    expect(await plot.locator('canvas').count()).toBe(1);
    await toggle.uncheck();
    await poll(() => plot.getAttribute('data-y-scale')).toBe('linear');
  });
});
