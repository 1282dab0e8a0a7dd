/**
 * Serves the built site with `astro preview` (a static host, as on a deployed site) and hands its
 * address to the tests. Without Chromium the run fails loudly, unless E2E_SKIP=1 says to skip.
 */
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { chromiumAvailable, CHROMIUM_PATH } from '../tools/browser.ts';
import { serveSite } from '../tools/serve-site.ts';
import { DIST } from '../tools/site-pages.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    skipBrowser: boolean;
  }
}

export default async function setup(project: TestProject) {
  if (!chromiumAvailable()) {
    const banner = `\n${'!'.repeat(78)}\n  No Chromium at ${CHROMIUM_PATH}: the end-to-end tests cannot run.\n  Install it (apt-get install chromium) or set CHROMIUM_PATH.\n  To skip them on purpose, set E2E_SKIP=1.\n${'!'.repeat(78)}\n`;
    if (process.env.E2E_SKIP === '1') {
      console.warn(banner);
      project.provide('skipBrowser', true);
      project.provide('baseURL', '');
      return;
    }
    throw new Error(banner);
  }
  if (!existsSync(`${DIST}/index.html`)) throw new Error(`${DIST}/ is missing: run \`npm run build\` before the end-to-end tests.`);

  const site = await serveSite(DIST);
  const baseURL = site.url;
  project.provide('baseURL', baseURL);
  project.provide('skipBrowser', false);

  return () => site.stop();
}
