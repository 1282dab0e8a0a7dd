// Usage: npm run bench:lighthouse  (after `npm run build`)
// Lighthouse's performance audit of a lesson, an exercise page and the home page, mobile and desktop
// presets, against the README's server (scripts/serve.ts: compression and cache headers) with Debian's
// Chromium. Prints one line per page and preset: score, CLS, LCP, TBT, bytes transferred.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/browser.ts';
import { serveSite } from '../e2e/serve-site.ts';

const PAGES = { lesson: '/vi/timeouts/why-timeouts/', exercise: '/vi/when-to-retry/one-layer/', home: '/vi/' } as const;
const PRESETS = { mobile: undefined, desktop: desktopConfig } as const;

const site = await serveSite('dist', 'local-runner');
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: [...CHROMIUM_ARGS.filter((f) => f !== '--headless'), '--headless=new'] });
try {
  console.log('page      preset   score  CLS    LCP (s)  TBT (ms)  transferred (KiB)');
  for (const [name, path] of Object.entries(PAGES)) {
    for (const [preset, config] of Object.entries(PRESETS)) {
      const result = await lighthouse(`${site.url}${path}`, { port: chrome.port, output: 'json', onlyCategories: ['performance'], logLevel: 'error' }, config);
      const lhr = result!.lhr;
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      const score = Math.round((lhr.categories.performance?.score ?? 0) * 100);
      console.log(
        `${name.padEnd(9)} ${preset.padEnd(8)} ${String(score).padStart(5)}  ${audit('cumulative-layout-shift').toFixed(3)}  ${(audit('largest-contentful-paint') / 1000).toFixed(2).padStart(7)}  ${Math.round(audit('total-blocking-time')).toString().padStart(8)}  ${Math.round(
          audit('total-byte-weight') / 1024,
        )
          .toString()
          .padStart(17)}`,
      );
    }
  }
} finally {
  chrome.kill();
  site.stop();
}
