/**
 * Nothing on a page moves while it loads (issue 28, item 7: Lighthouse gave the exercise page CLS
 * 0.263 on a phone). The cumulative layout shift a PerformanceObserver sees stays under 0.05, and none
 * of it comes from inside the workspace or the lab, when a link opens the page at them (so they upgrade
 * on screen), on a static host and under `npm start`'s server opened without its token (as Lighthouse
 * opens it). The page's scripts are held back 400 ms, so the server-rendered page is always drawn
 * before they change it, however fast the machine: a part that appears or grows later shifts what is
 * below it every time, not only on a slow phone. The other pages' loading shift is in phone.e2e.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser } from './fixtures.ts';
import { serveSite, type ServedSite } from '../tools/serve-site.ts';
import { DIST } from '../tools/site-pages.ts';

const VIEWPORTS = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
} as const;
type Viewport = keyof typeof VIEWPORTS;

const WORKSPACE_READY = 'course-workspace:not([data-phase="static"]):not([data-phase="preparing"])';
const AT_WORKSPACE = '/en/when-to-retry/one-layer/#exercise-retry-helper-title';
const SCRIPT_DELAY_MS = 400;

interface Shift {
  value: number;
  sources: string[];
  /** Whether a node that moved is inside the workspace or the lab. */
  inside: boolean;
}

let runner: ServedSite | undefined;
beforeAll(async () => {
  if (!skipBrowser()) runner = await serveSite(DIST, 'local-runner');
});
afterAll(() => runner?.stop());

describe.skipIf(skipBrowser())('layout shift while a page loads', () => {
  const browser = useBrowser();

  async function shifts(url: string, ready: string, viewport: Viewport): Promise<Shift[]> {
    const context = await browser.context(VIEWPORTS[viewport]);
    await context.addInitScript(() => {
      const seen: Shift[] = [];
      (window as unknown as { shifts: Shift[] }).shifts = seen;
      const name = (n: Node | null): string =>
        !n ? '?' : n instanceof Element ? `${n.localName}${n.id ? `#${n.id}` : ''}${[...n.classList].map((c) => `.${c}`).join('')}` : n.nodeName;
      new PerformanceObserver((list) => {
        // Every entry counts, recent input or not: the test gives none.
        for (const e of list.getEntries() as unknown as { value: number; sources: { node: Node | null }[] }[]) {
          const inside = e.sources.some((s) => {
            const el = s.node instanceof Element ? s.node : (s.node?.parentElement ?? null);
            return el?.closest('course-workspace, course-lab') != null;
          });
          seen.push({ value: e.value, sources: e.sources.map((s) => name(s.node)), inside });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await context.route(/\/_astro\/.*\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, SCRIPT_DELAY_MS));
      await route.continue();
    });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.locator(ready).first().waitFor({ state: 'attached', timeout: 20_000 });
    // What a tab without the token learns from the runner comes one request later.
    await page.waitForTimeout(600);
    const seen = await page.evaluate(() => (window as unknown as { shifts: Shift[] }).shifts);
    await context.close();
    return seen;
  }

  const total = (s: Shift[]) => s.reduce((sum, x) => sum + x.value, 0);
  const explain = (s: Shift[]) => s.map((x) => `${x.value.toFixed(4)}: ${x.sources.join(', ')}`).join('\n');

  type Server = 'static host' | 'npm start without its token';
  const cases: [string, Viewport, Server, string, string][] = [
    ['the exercise, opened at its workspace', 'phone', 'static host', AT_WORKSPACE, WORKSPACE_READY],
    ['the exercise, opened at its workspace', 'desktop', 'static host', AT_WORKSPACE, WORKSPACE_READY],
    ['the exercise, opened at its workspace', 'phone', 'npm start without its token', AT_WORKSPACE, WORKSPACE_READY],
    ['the exercise page (Lighthouse’s)', 'desktop', 'npm start without its token', '/vi/when-to-retry/one-layer/', WORKSPACE_READY],
    ['the lab, opened at it', 'phone', 'static host', '/vi/retry-budgets/retry-storms/#lab-retry-storm', 'course-lab[data-state="ready"]'],
  ];

  it.each(cases)('%s, %s, %s: CLS under 0.05, and nothing inside the workspace or the lab moves', async (_, viewport, server, path, ready) => {
    const url = server === 'static host' ? path : `${runner!.url}${path}`;
    const seen = await shifts(url, ready, viewport);
    expect(total(seen), explain(seen)).toBeLessThan(0.05);
    expect(total(seen.filter((s) => s.inside)), `a shift inside:\n${explain(seen)}`).toBeLessThan(0.001);
  });

  it.each(Object.keys(VIEWPORTS) as Viewport[])('%s: the editor takes the text area’s place, and nothing under it moves', async (viewport) => {
    const page = await (await browser.context(VIEWPORTS[viewport])).newPage();
    await page.goto(AT_WORKSPACE, { waitUntil: 'load' });
    const root = page.locator('course-workspace');
    await page.locator(WORKSPACE_READY).waitFor({ state: 'attached' });
    const panel = root.locator('[data-panel]').first();
    const actions = root.locator('.ws-actions');
    const before = { panel: (await panel.boundingBox())!, actions: (await actions.boundingBox())! };
    await root.locator('textarea[data-code]').first().click();
    await expect.poll(() => root.getAttribute('data-editor'), { timeout: 20_000 }).toBe('ready');
    const after = { panel: (await panel.boundingBox())!, actions: (await actions.boundingBox())! };
    expect(Math.abs(after.panel.height - before.panel.height), `editor ${after.panel.height} px, text area ${before.panel.height} px`).toBeLessThanOrEqual(1);
    expect(Math.abs(after.actions.y - after.panel.y - (before.actions.y - before.panel.y))).toBeLessThanOrEqual(1);
  });
});
