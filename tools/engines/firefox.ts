/**
 * Firefox: Debian's stock Firefox ESR driven by puppeteer-core over WebDriver BiDi (playwright-core
 * cannot: it needs Playwright's own patched Firefox). One browser per engine, one BiDi user context
 * (fresh storage) per page.
 */
import puppeteer, { type KeyInput } from 'puppeteer-core';
import { chord, pollUntil, refusingProxy } from './shared.ts';
import { DESKTOP, type Engine, type EnginePage } from './types.ts';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export async function launchFirefox(): Promise<Engine> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    protocol: 'webDriverBiDi',
    // A grade in the page can take minutes (the parity proof's long entries): puppeteer's default is 180 s.
    protocolTimeout: 15 * 60_000,
    // Loopback normally bypasses any proxy in Firefox; with this only the bypass list (the page's own host)
    // does, so `localhost` is refused like any other origin.
    extraPrefsFirefox: { 'network.proxy.allow_hijacking_localhost': true },
  });
  return {
    name: 'firefox',
    async open(url, options = {}) {
      const proxy = options.onlyOrigin ? await refusingProxy() : undefined;
      const context = await browser.createBrowserContext(
        proxy ? { proxyServer: new URL(proxy.url).host, proxyBypassList: [new URL(options.onlyOrigin!).hostname] } : {},
      );
      const page = await context.newPage();
      const viewport = options.viewport ?? DESKTOP;
      // Over BiDi only the viewport is emulated: isMobile is CDP-only, and asking for hasTouch still leaves
      // navigator.maxTouchPoints at 0 in Firefox ESR 153. So a phone in Firefox is its 390x844 viewport.
      await page.setViewport(viewport);
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e instanceof Error ? e.message : String(e)));
      page.on('dialog', (d) => void d.accept());
      const self: EnginePage = {
        engine: 'firefox',
        viewport,
        goto: async (to) => void (await page.goto(to, { waitUntil: 'load' })),
        reload: async () => void (await page.reload({ waitUntil: 'load' })),
        evaluate: (fn, arg) => page.evaluate(fn as never, arg ?? null) as never,
        waitFor: (what, fn, arg, timeoutMs) => pollUntil(self, what, fn, arg, timeoutMs),
        // A locator waits until the element is there, visible and enabled, and scrolls it into view.
        click: (selector) => page.locator(selector).setTimeout(10_000).click(),
        async press(keys) {
          const modifiers = chord(keys) as KeyInput[];
          const key = modifiers.pop()!;
          for (const m of modifiers) await page.keyboard.down(m);
          await page.keyboard.press(key);
          for (const m of modifiers.reverse()) await page.keyboard.up(m);
        },
        screenshot: async (path) => void (await page.screenshot({ path })),
        errors: async () => [...errors],
        foreignRequests: () => [...(proxy?.refused ?? [])],
        async close() {
          await context.close();
          proxy?.stop();
        },
      };
      await self.goto(url);
      return self;
    },
    close: () => browser.close(),
  };
}
