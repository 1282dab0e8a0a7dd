/**
 * Three browser engines behind one narrow page interface (types.ts), for the end-to-end tests
 * (e2e/engines.ts gives them one describe block per engine) and the benchmarks that drive a page:
 * - chromium: Debian's Chromium through playwright-core (chromium.ts),
 * - firefox: Firefox ESR through puppeteer-core over WebDriver BiDi (firefox.ts),
 * - webkit: WebKitGTK's MiniBrowser through WebKitWebDriver, classic WebDriver over HTTP (webkit.ts).
 *
 * `E2E_ENGINES=chromium,firefox` picks engines for a local run (all three by default); an engine whose
 * binaries are missing names the Debian package to install (`missingPackages`).
 */
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from '../browser.ts';
import { launchChromium } from './chromium.ts';
import { FIREFOX_PATH, launchFirefox } from './firefox.ts';
import type { Engine, EngineName } from './types.ts';
import { launchWebKit, MINIBROWSER, WEBKIT_DRIVER, XVFB_RUN } from './webkit.ts';

export type { Engine, EngineName, EnginePage, OpenOptions, Viewport } from './types.ts';
export { DESKTOP, PHONE } from './types.ts';

const ENGINES: Record<EngineName, { needs: Array<{ path: string; apt: string }>; launch: () => Promise<Engine> }> = {
  chromium: { needs: [{ path: CHROMIUM_PATH, apt: 'chromium' }], launch: launchChromium },
  firefox: { needs: [{ path: FIREFOX_PATH, apt: 'firefox-esr' }], launch: launchFirefox },
  webkit: {
    needs: [
      { path: WEBKIT_DRIVER, apt: 'webkit2gtk-driver' },
      { path: MINIBROWSER, apt: 'webkit2gtk-driver' },
      { path: XVFB_RUN, apt: 'xvfb' },
    ],
    launch: launchWebKit,
  },
};
export const ENGINE_NAMES = Object.keys(ENGINES) as EngineName[];

/** The engines this run is for: `E2E_ENGINES` (comma-separated), or all three. */
export function selectedEngines(): EngineName[] {
  const wanted = process.env.E2E_ENGINES?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!wanted?.length) return ENGINE_NAMES;
  const unknown = wanted.filter((w) => !(w in ENGINES));
  if (unknown.length) throw new Error(`E2E_ENGINES names no engine called ${unknown.join(', ')} (there are ${ENGINE_NAMES.join(', ')})`);
  return ENGINE_NAMES.filter((n) => wanted.includes(n));
}

/** The Debian packages an engine still needs on this machine (none when it can run). */
export function missingPackages(name: EngineName): string[] {
  return [...new Set(ENGINES[name].needs.filter((n) => !existsSync(n.path)).map((n) => n.apt))];
}

/** The files an engine needs that this machine lacks. */
export const missingPaths = (name: EngineName): string[] => ENGINES[name].needs.filter((n) => !existsSync(n.path)).map((n) => n.path);

export const launchEngine = (name: EngineName): Promise<Engine> => ENGINES[name].launch();
