/**
 * The site on a phone (390x844, touch), checked by measuring what a learner would see: nothing pushes
 * the page sideways, the header's controls keep their size and names and do not overlap, the search
 * dialog's close button fits on one line, a page does not shift as it loads, and the code editor gets
 * the screen's width.
 */
import { describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser, type Page } from './fixtures.ts';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PAGES = { home: '/vi/', lesson: '/vi/timeouts/why-timeouts/', exercise: '/vi/when-to-retry/one-layer/' } as const;

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Sum of the layout shifts the page makes while it loads (Lighthouse's CLS, without the session windows). */
async function layoutShift(page: Page): Promise<number> {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  return page.evaluate(() => (window as unknown as { cls: number }).cls);
}

describe.skipIf(skipBrowser())('on a phone', () => {
  const browser = useBrowser();
  const openPhone = async (path: string) => {
    const context = await browser.context(PHONE);
    await context.addInitScript(() => {
      (window as unknown as { cls: number }).cls = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
          if (!e.hadRecentInput) (window as unknown as { cls: number }).cls += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const page = await context.newPage();
    await page.goto(path, { waitUntil: 'load' });
    return page;
  };

  it.each(Object.entries(PAGES))('%s: no sideways scroll, no shift while loading, a header whose controls keep their size and names', async (_, path) => {
    const page = await openPhone(path);
    expect(await layoutShift(page)).toBeLessThan(0.05);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const controls = page.locator('.site-header .brand, .site-header .progress-link, course-search [data-open], .site-header .lang-switch');
    const boxes = (await Promise.all((await controls.all()).map((c) => c.boundingBox()))).filter((b): b is Box => b !== null);
    expect(boxes.length).toBe(4);
    for (const [i, a] of boxes.entries()) {
      expect(a.x + a.width, `control ${i} inside the screen`).toBeLessThanOrEqual(390);
      for (const b of boxes.slice(i + 1)) expect(overlap(a, b), `controls ${i} overlap`).toBe(false);
    }
    const icon = (await page.locator('course-search [data-open] svg').boundingBox())!;
    expect(icon.width).toBeGreaterThanOrEqual(14);
    expect(icon.height).toBeGreaterThanOrEqual(14);
    await expect.poll(() => page.getByRole('button', { name: 'Tìm kiếm' }).count()).toBeGreaterThan(0);
  });

  // Issue 28: the header took 128 px of 844, and its buttons were icons a sighted learner had to guess.
  it.each(['/vi/', '/en/', PAGES.exercise])('%s: the header is one row of at most 64 px, each button with a caption that is part of its name', async (path) => {
    const page = await openPhone(path);
    const header = (await page.locator('.site-header').boundingBox())!;
    expect(header.height).toBeLessThanOrEqual(64);
    for (const selector of ['.site-header .progress-link', 'course-search [data-open]', '.site-header .lang-switch']) {
      const control = page.locator(selector);
      const box = (await control.boundingBox())!;
      expect(box.y + box.height, `${selector} inside the header`).toBeLessThanOrEqual(header.y + header.height);
      // The words drawn on screen: text in boxes a sighted learner can see (not the 1 px screen-reader-only kind).
      const caption = await control.evaluate((el) => {
        const words: string[] = [];
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const parent = n.parentElement!;
          const r = parent.getBoundingClientRect();
          const style = getComputedStyle(parent);
          if (n.textContent!.trim() && r.width > 4 && r.height > 4 && style.visibility === 'visible' && parseFloat(style.fontSize) >= 10)
            words.push(n.textContent!.trim());
        }
        return words.join(' ');
      });
      expect(caption, `${selector}: a visible caption`).toMatch(/\p{L}{3}/u);
      // Label in name (WCAG 2.5.3): what the learner reads is what a voice-control user says.
      const role = (await control.evaluate((el) => el.tagName)) === 'BUTTON' ? 'button' : 'link';
      for (const word of caption.split(' ').filter((w) => /\p{L}{3}/u.test(w)))
        expect(await page.locator('.site-header').getByRole(role, { name: word }).count(), `${selector}: "${word}" in its name`).toBeGreaterThan(0);
    }
  });

  it('the search dialog’s close button stays on one line, inside the dialog', async () => {
    const page = await openPhone(PAGES.home);
    await page.locator('course-search [data-open]').click();
    const dialog = (await page.locator('course-search dialog').boundingBox())!;
    const close = page.locator('course-search [data-close]');
    const box = (await close.boundingBox())!;
    const lineHeight = await close.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.3);
    expect(box.height).toBeLessThan(lineHeight * 2 + 16);
    expect(box.x + box.width).toBeLessThanOrEqual(dialog.x + dialog.width);
    expect(await close.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });

  it('the code editor shows at least 40 characters a line, and no Ctrl+Enter hint on a touch screen', async () => {
    const page = await openPhone(PAGES.exercise);
    const root = page.locator('course-workspace');
    await root.locator('textarea[data-code]').first().click();
    await page.waitForFunction(() => document.querySelector<HTMLElement>('course-workspace')?.dataset.editor === 'ready');
    const chars = await page.evaluate(() => {
      const scroller = document.querySelector<HTMLElement>('.cm-scroller')!;
      const gutters = document.querySelector('.cm-gutters')!.getBoundingClientRect().width;
      const probe = document.createElement('span');
      probe.textContent = 'x'.repeat(100);
      document.querySelector('.cm-line')!.append(probe);
      const width = probe.getBoundingClientRect().width / 100;
      probe.remove();
      return Math.floor((scroller.clientWidth - gutters) / width);
    });
    console.log(`editor on a phone: ${chars} characters a line`);
    expect(chars).toBeGreaterThanOrEqual(40);
    expect(await root.locator('.ws-help').isVisible()).toBe(false);
  });

  it('the Ctrl+Enter hint still shows with a mouse and keyboard', async () => {
    const { page } = await browser.open(PAGES.exercise, DESKTOP);
    await expect.poll(() => page.locator('course-workspace .ws-help').isVisible()).toBe(true);
  });
});
