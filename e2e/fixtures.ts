import { afterAll, beforeAll, inject } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, ConsoleMessage, Page } from 'playwright-core';
import { launchBrowser } from '../tools/browser.ts';

export const baseURL = () => inject('baseURL');
export const skipBrowser = () => inject('skipBrowser');

/** One browser per test file; each test opens its own context (fresh storage) through `open`. */
/**
 * The page's errors without the requests a navigation cut short (net::ERR_ABORTED): the icon's, and
 * those of the paths named (a test that leaves a page while it still loads them).
 */
export function withoutCutShort(errors: string[], paths: readonly string[] = []): string[] {
  const cut = ['favicon.svg', ...paths];
  return errors.filter((e) => !cut.some((path) => e.includes(`${path} net::ERR_ABORTED`)));
}

export function useBrowser() {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    if (!skipBrowser()) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  return {
    async context(options: BrowserContextOptions = {}) {
      const context = await browser!.newContext({ baseURL: baseURL(), locale: options.locale ?? 'en-US', ...options });
      contexts.push(context);
      return context;
    },
    /** Opens a page and collects its console errors and failed requests. */
    async open(path: string, options?: BrowserContextOptions) {
      const context = await this.context(options);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m: ConsoleMessage) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      // This sandbox has no internet: a page that tries a WebContainer (StackBlitz) is expected to fail
      // to reach it and fall back; that is tested in workspace.e2e.ts, not an error of the page under test.
      page.on('requestfailed', (r) => {
        if (new URL(r.url()).hostname.endsWith('stackblitz.com')) return;
        errors.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`);
      });
      await page.goto(path, { waitUntil: 'load' });
      return { page, errors };
    },
  };
}

export type { Page };
