/** Chromium: Debian's build driven by playwright-core, with tools/browser.ts's flags (as every other e2e test). */
import { launchBrowser } from '../browser.ts';
import { pollUntil } from './shared.ts';
import { DESKTOP, type Engine, type EnginePage } from './types.ts';

export async function launchChromium(): Promise<Engine> {
  const browser = await launchBrowser();
  return {
    name: 'chromium',
    async open(url, options = {}) {
      const viewport = options.viewport ?? DESKTOP;
      const context = await browser.newContext({ viewport, locale: 'en-US', ...(options.phone ? { isMobile: true, hasTouch: true } : {}) });
      const foreign: string[] = [];
      const origin = options.onlyOrigin;
      if (origin)
        await context.route(
          (u) => u.origin !== origin,
          (route) => (foreign.push(route.request().url()), route.abort()),
        );
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('dialog', (d) => void d.accept());
      const self: EnginePage = {
        engine: 'chromium',
        viewport,
        goto: async (to) => void (await page.goto(to, { waitUntil: 'load' })),
        reload: async () => void (await page.reload({ waitUntil: 'load' })),
        evaluate: (fn, arg) => page.evaluate(fn as never, arg ?? null),
        waitFor: (what, fn, arg, timeoutMs) => pollUntil(self, what, fn, arg, timeoutMs),
        click: (selector) => page.locator(selector).first().click({ timeout: 10_000 }),
        press: (keys) => page.keyboard.press(keys),
        screenshot: async (path) => void (await page.screenshot({ path })),
        errors: async () => [...errors],
        foreignRequests: () => [...foreign],
        close: () => context.close(),
      };
      await self.goto(url);
      return self;
    },
    close: () => browser.close(),
  };
}
