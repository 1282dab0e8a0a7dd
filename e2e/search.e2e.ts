import { describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser, type Page } from './fixtures.ts';

async function search(page: Page, query: string) {
  await page.click('course-search [data-open]');
  await page.fill('course-search [data-input]', query);
  await expect.poll(() => page.locator('course-search [data-status]').innerText(), { timeout: 10_000 }).not.toBe('');
  return page.locator('course-search [data-results] a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
}

describe.skipIf(skipBrowser())('search', () => {
  const browser = useBrowser();

  it('finds an English lesson from an English page, and only English lessons', async () => {
    const { page } = await browser.open('/en/');
    const hrefs = await search(page, 'connection pool');
    expect(hrefs).toContain('/en/timeouts/why-timeouts/');
    expect(hrefs.every((h) => h?.startsWith('/en/'))).toBe(true);
  });

  it.each([
    ['with diacritics', 'kết nối'],
    ['without diacritics', 'ket noi'],
  ])('finds a Vietnamese lesson %s', async (_, query) => {
    const { page } = await browser.open('/vi/');
    const hrefs = await search(page, query);
    expect(hrefs).toContain('/vi/timeouts/why-timeouts/');
    expect(hrefs.every((h) => h?.startsWith('/vi/'))).toBe(true);
  });

  it('says so when nothing matches', async () => {
    const { page } = await browser.open('/en/');
    expect(await search(page, 'zzqxv')).toEqual([]);
    expect(await page.locator('course-search [data-status]').innerText()).toContain('zzqxv');
  });
});
