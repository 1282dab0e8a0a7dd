/**
 * Code is drawn in our own monospace font (JetBrains Mono, Latin and Vietnamese subsets, from our
 * origin), so Vietnamese in code keeps its marks in place; and the copy button leaves the code readable.
 */
import { describe, expect, it } from 'vitest';
import { baseURL, skipBrowser, useBrowser, type Page } from './fixtures.ts';

/** The fonts Chromium actually drew the element's text with (family → glyph count). */
async function platformFonts(page: Page, selector: string): Promise<Record<string, number>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  // The text sits in the element or its highlighted spans: ask for each descendant element too.
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId, selector: '*' });
  const fonts: Record<string, number> = {};
  for (const id of [nodeId, ...nodeIds]) {
    for (const f of (await cdp.send('CSS.getPlatformFontsForNode', { nodeId: id })).fonts) fonts[f.familyName] = (fonts[f.familyName] ?? 0) + f.glyphCount;
  }
  return fonts;
}

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe.skipIf(skipBrowser())('code font and code blocks', () => {
  const browser = useBrowser();

  it('Vietnamese in the exercise editor is drawn only with our JetBrains Mono, loaded from our own origin', async () => {
    const context = await browser.context();
    const fontURLs: string[] = [];
    context.on('request', (r) => r.resourceType() === 'font' && fontURLs.push(r.url()));
    const page = await context.newPage();
    await page.goto('/vi/when-to-retry/one-layer/');
    await page.locator('course-workspace textarea[data-code]').first().click();
    await page.waitForFunction(() => document.querySelector<HTMLElement>('course-workspace')?.dataset.editor === 'ready');
    // The starter's Vietnamese line, in a probe styled as the editor's text (CodeMirror redraws its own
    // lines at any moment, so a mark on one of them may be gone by the time it is read).
    await page.evaluate(() => {
      const line = [...document.querySelectorAll('.cm-line')].find((l) => l.textContent!.includes('đề bài đều'))!;
      const probe = document.createElement('div');
      probe.dataset.probe = '';
      probe.style.font = getComputedStyle(line).font;
      probe.textContent = line.textContent;
      document.body.append(probe);
    });
    await page.evaluate(() => document.fonts.ready);
    const fonts = await platformFonts(page, '[data-probe]');
    expect(Object.keys(fonts), JSON.stringify(fonts)).toEqual(['JetBrains Mono']);
    expect(fontURLs.length).toBeGreaterThan(0);
    expect(
      fontURLs.every((u) => u.startsWith(`${baseURL()}/_astro/jetbrains-mono-`)),
      fontURLs.join(' '),
    ).toBe(true);
    expect(fontURLs.some((u) => u.includes('-vietnamese-'))).toBe(true);
  });

  it.each([
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const)('the copy button covers no code and the code is in our font (%s)', async (_, viewport) => {
    const { page } = await browser.open('/vi/when-to-retry/one-layer/', { viewport });
    const blocks = page.locator('.code-block');
    await blocks.first().waitFor();
    const count = await blocks.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      const block = blocks.nth(i);
      await block.scrollIntoViewIfNeeded();
      const button = (await block.locator('.copy-button').boundingBox())!;
      for (const line of await block.locator('.line').all()) {
        const text = await line.evaluate((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          const r = range.getBoundingClientRect();
          return { x: r.x, y: r.y + scrollY, width: r.width, height: r.height };
        });
        if (text.width === 0) continue;
        const b = { ...button, y: button.y + (await page.evaluate(() => scrollY)) };
        expect(overlaps(text, b), `block ${i}`).toBe(false);
      }
    }
    await page.evaluate(() => document.fonts.ready);
    await page.evaluate(() => document.querySelector('pre.astro-code')!.setAttribute('data-probe', ''));
    expect(Object.keys(await platformFonts(page, '[data-probe]'))).toEqual(['JetBrains Mono']);
  });
});
