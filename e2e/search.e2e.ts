import { describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser, type Page } from './fixtures.ts';

async function search(page: Page, query: string) {
  await page.click('course-search [data-open]');
  await page.fill('course-search [data-input]', query);
  await expect.poll(() => page.locator('course-search [data-status]').innerText(), { timeout: 10_000 }).not.toBe('');
  return page.locator('course-search [data-results] a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
}

/** A page's readable text, lower case, one space between words. */
const plainText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .normalize('NFC')
    .toLowerCase();

describe.skipIf(skipBrowser())('search', () => {
  const browser = useBrowser();

  it('finds an English lesson from an English page, and only English lessons', async () => {
    const { page } = await browser.open('/en/');
    const hrefs = await search(page, 'connection pool');
    expect(hrefs).toContain('/en/timeouts/why-timeouts/');
    expect(hrefs.every((h) => h?.startsWith('/en/'))).toBe(true);
  });

  it.each([
    ['with diacritics', 'lời gọi đang chờ'],
    ['without diacritics', 'loi goi dang cho'],
  ])('finds a Vietnamese lesson %s', async (_, query) => {
    const { page } = await browser.open('/vi/');
    const hrefs = await search(page, query);
    expect(hrefs).toContain('/vi/timeouts/why-timeouts/');
    expect(hrefs.every((h) => h?.startsWith('/vi/'))).toBe(true);
  });

  it.each(['thoi gian cho', 'thời gian chờ'])('ranks first the lessons with the whole phrase "%s", not pages full of "cho" and "gian" apart', async (query) => {
    const { page } = await browser.open('/vi/');
    const hrefs = (await search(page, query)) as string[];
    // Whether each result's page has the phrase in its text: all those that do come first.
    const hasPhrase = await Promise.all(
      hrefs.map(async (href) => {
        const html = await (await page.request.get(href)).text();
        const text = plainText(html);
        return query === 'thời gian chờ'
          ? text.includes(query)
          : text
              .normalize('NFD')
              .replace(/\p{M}+/gu, '')
              .replace(/đ/g, 'd')
              .includes(query);
      }),
    );
    expect(hasPhrase[0], hrefs.join(' ')).toBe(true);
    expect(hasPhrase, hrefs.join(' ')).toEqual([...hasPhrase].sort((a, b) => Number(b) - Number(a)));
  });

  it.each(['en', 'vi'] as const)('finds nothing for a word that is nowhere (no one-letter partial match) (%s)', async (lang) => {
    const { page } = await browser.open(`/${lang}/`);
    expect(await search(page, 'xyzzyplugh')).toEqual([]);
    expect(await page.locator('course-search [data-status]').innerText()).toContain('xyzzyplugh');
  });

  it('counts its results with a real plural', async () => {
    const { page } = await browser.open('/en/');
    const hrefs = await search(page, 'connection pool');
    const status = await page.locator('course-search [data-status]').innerText();
    // All of them, or the first ten of more (the next test).
    expect(status).toMatch(hrefs.length === 1 ? /^1 result$/ : new RegExp(`^(${hrefs.length} results|The first ${hrefs.length} of \\d+ results)$`));
  });

  // Issue 28, item 9: excerpts from the page as read, the count as what it is, a typo forgiven.
  it.each([
    ['vi', 'jitter'],
    ['vi', 'thoi gian cho'],
    ['en', 'retry budget'],
  ] as const)('(%s) shows excerpts of the text as read, with its accents and no markup, for "%s"', async (lang, query) => {
    const { page } = await browser.open(`/${lang}/`);
    expect((await search(page, query)).length).toBeGreaterThan(0);
    const excerpts = await page.locator('course-search [data-results] p').allTextContents();
    console.log(`${lang} "${query}": ${excerpts[0]}`);
    // Code blocks are lesson text too (braces and all); the lesson's source markup is not.
    for (const text of excerpts) {
      expect(text, text).not.toMatch(/\bhref=|SimTable|Callout|<\/?[a-z]|\s\/a\b|\bsim=/);
      if (lang === 'vi') expect(/[ăâđêôơưàáảãạèéẻẽẹìíỉĩịòóỏõọùúủũụỳýỷỹỵ]/i.test(text), text).toBe(true);
    }
  });

  it('says the results shown are the first of more, with the total', async () => {
    const { page } = await browser.open('/en/');
    const hrefs = await search(page, 'timeout');
    const status = await page.locator('course-search [data-status]').innerText();
    console.log(`"timeout": ${status}`);
    const m = /^The first (\d+) of (\d+) results$/.exec(status);
    expect(m, status).not.toBeNull();
    expect(Number(m![1])).toBe(hrefs.length);
    expect(Number(m![2])).toBeGreaterThan(hrefs.length);
  });

  it.each([
    ['en', 'jiter', 'jitter', '/en/backoff-jitter/'],
    ['vi', 'jiter', 'jitter', '/vi/backoff-jitter/'],
    ['en', 'retyr budget', 'retry budget', '/en/retry-budgets/'],
  ] as const)('(%s) corrects a typo to the course’s nearest word: "%s"', async (lang, typo, meant, module) => {
    const { page } = await browser.open(`/${lang}/`);
    const hrefs = await search(page, typo);
    const status = await page.locator('course-search [data-status]').innerText();
    console.log(`${lang} "${typo}": ${status}`);
    expect(status).toContain(lang === 'en' ? `Showing results for “${meant}” instead of “${typo}”.` : `Đang hiện kết quả cho “${meant}” thay vì “${typo}”.`);
    expect(hrefs.length).toBeGreaterThan(0);
    expect(
      hrefs.some((h) => h?.startsWith(module)),
      hrefs.join(' '),
    ).toBe(true);
  });

  it('says so when nothing matches', async () => {
    const { page } = await browser.open('/en/');
    expect(await search(page, 'zzqxv')).toEqual([]);
    expect(await page.locator('course-search [data-status]').innerText()).toContain('zzqxv');
  });
});
