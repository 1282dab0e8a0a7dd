import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser } from './fixtures.ts';
import { lessonPages } from '../tools/site-pages.ts';

const FIRST_LESSON = 'timeouts/why-timeouts';
/** Every module of content/modules.json has a card on the home page. */
const MODULE_COUNT = (JSON.parse(readFileSync('content/modules.json', 'utf8')) as unknown[]).length;

describe.skipIf(skipBrowser())('the course site', () => {
  const browser = useBrowser();

  it.each([
    ['vi', 'Timeout, retry và deadline'],
    ['en', 'Timeouts, retries and deadlines'],
  ])('renders the %s home page with its modules, in that language', async (lang, brand) => {
    const { page } = await browser.open(`/${lang}/`);
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    await expect.poll(() => page.locator('.brand').innerText()).toContain(brand);
    expect(MODULE_COUNT).toBeGreaterThanOrEqual(8);
    expect(await page.locator('.module-card').count()).toBe(MODULE_COUNT);
    expect(await page.locator(`.module-card a[href="/${lang}/${FIRST_LESSON}/"]`).count()).toBe(1);
  });

  it.each(['vi', 'en'])('renders the first lesson in %s with sidebar, table of contents and next link', async (lang) => {
    const { page } = await browser.open(`/${lang}/${FIRST_LESSON}/`);
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect((await page.locator('main h1').innerText()).length).toBeGreaterThan(10);
    expect(await page.locator(`.sidebar a[aria-current="page"][href="/${lang}/${FIRST_LESSON}/"]`).count()).toBe(1);
    expect(await page.locator('.toc a').count()).toBeGreaterThan(2);
    expect(await page.locator('.prev-next a[rel="next"]').count()).toBe(1);
  });

  it('switches language onto the same lesson, both ways, and remembers the choice for "/"', async () => {
    const { page } = await browser.open(`/vi/${FIRST_LESSON}/`, { locale: 'vi-VN' });
    await page.click('.lang-switch');
    await page.waitForURL(`**/en/${FIRST_LESSON}/`);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await page.click('.lang-switch');
    await page.waitForURL(`**/vi/${FIRST_LESSON}/`);
    await page.click('.lang-switch'); // choose English explicitly, in a Vietnamese browser
    await page.waitForURL(`**/en/${FIRST_LESSON}/`);
    await page.goto('/');
    await page.waitForURL('**/en/');
  });

  it.each([
    ['vi-VN', '/vi/'],
    ['en-GB', '/en/'],
    ['de-DE', '/vi/'],
  ])('sends a first-time visitor with a %s browser from "/" to %s', async (locale, target) => {
    const { page } = await browser.open('/', { locale });
    await page.waitForURL(`**${target}`);
  });

  it('keeps every lesson link of the language switch within the same lesson', async () => {
    const page = await (await browser.context()).newPage();
    for (const path of [...lessonPages('en'), ...lessonPages('vi')]) {
      await page.goto(path);
      const href = await page.getAttribute('.lang-switch', 'href');
      expect(href, path).toBe(path.replace(/^\/(vi|en)\//, (_, lang) => (lang === 'en' ? '/vi/' : '/en/')));
    }
  });

  it('is cross-origin isolated on a lesson page, so WebContainers can boot', async () => {
    const { page } = await browser.open(`/en/${FIRST_LESSON}/`);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  });

  it.each([
    ['/vi/khong-co-trang-nay/', 'vi', 'Không tìm thấy trang'],
    ['/en/no-such-page/', 'en', 'Page not found'],
  ])('answers %s with a 404 page in its language', async (path, lang, heading) => {
    const { page } = await browser.open(path);
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    const first = page.locator(`main section[lang="${lang}"] :is(h1, h2)`);
    expect(await first.innerText()).toBe(heading);
    expect(await first.isVisible()).toBe(true);
    // The address's language leads: shown first, with the larger heading and the primary button.
    const look = (l: string) =>
      page.locator(`main section[lang="${l}"]`).evaluate((section) => ({
        top: section.getBoundingClientRect().top,
        size: parseFloat(getComputedStyle(section.querySelector('h1, h2')!).fontSize),
        button: getComputedStyle(section.querySelector('a.button')!).backgroundColor,
      }));
    const mine = await look(lang);
    const other = await look(lang === 'en' ? 'vi' : 'en');
    expect(mine.top).toBeLessThan(other.top);
    expect(mine.size).toBeGreaterThan(other.size);
    expect(mine.button).not.toBe(other.button);
  });

  it('follows the system colour scheme, code blocks included', async () => {
    const background = async (scheme: 'light' | 'dark') => {
      const { page } = await browser.open(`/en/${FIRST_LESSON}/`, { colorScheme: scheme });
      return page.evaluate(() => {
        const code = document.querySelector('pre.astro-code');
        return [getComputedStyle(document.body).backgroundColor, code ? getComputedStyle(code).backgroundColor : ''];
      });
    };
    const [lightBody, lightCode] = await background('light');
    const [darkBody, darkCode] = await background('dark');
    expect(lightBody).not.toBe(darkBody);
    expect(lightCode).not.toBe(darkCode);
  });

  it('fits a phone screen without sideways scrolling, with the course contents folded', async () => {
    const { page } = await browser.open(`/vi/${FIRST_LESSON}/`, { viewport: { width: 375, height: 740 } });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await page.locator('.sidebar-toggle').getAttribute('open')).toBeNull();
  });

  it('copies a code block with its copy button', async () => {
    const context = await browser.context();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    await page.goto(`/en/${FIRST_LESSON}/`);
    const block = page.locator('.code-block').first();
    await block.locator('.copy-button').click();
    await expect.poll(() => block.locator('.copy-button').innerText()).toBe('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.trim()).toBe((await block.locator('pre').innerText()).trim());
  });
});
