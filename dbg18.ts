import { launchBrowser } from './e2e/browser.ts';
import { serveSite } from './e2e/serve-site.ts';
const site = await serveSite('dist');
const b = await launchBrowser();
const ctx = await b.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
const page = await ctx.newPage();
await page.goto(site.url + '/vi/when-to-retry/one-layer/', { waitUntil: 'networkidle' });
console.log(await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 391 && !e.closest('pre, table, .cm-editor')).slice(0, 8).map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)));
await page.locator('course-workspace textarea').first().click();
await page.waitForFunction(() => document.querySelector<HTMLElement>('course-workspace')?.dataset.editor === 'ready');
console.log(await page.evaluate(() => {
  const c = document.querySelector('.cm-content')!; const line = document.querySelector('.cm-line')!;
  const cw = (document.querySelector('.cm-scroller') as HTMLElement).clientWidth; const gut = document.querySelector('.cm-gutters')!.getBoundingClientRect().width;
  const probe = document.createElement('span'); probe.textContent = 'x'.repeat(100); line.append(probe); const w = probe.getBoundingClientRect().width / 100; probe.remove();
  return { scroller: cw, gutters: gut, charW: w, chars: Math.floor((cw - gut) / w), help: getComputedStyle(document.querySelector('.ws-help')!).display, pointer: matchMedia('(pointer: coarse)').matches };
}));
await b.close(); site.stop();
