import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser } from './fixtures.ts';
import { builtPages } from '../tools/site-pages.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Where to open a built page: "/" redirects, and the 404 page is what an unknown address gets. */
const urlFor = (path: string) => (path === '/' ? '/?stay' : path === '/404.html' ? '/en/missing-page/' : path);

describe.skipIf(skipBrowser())('every page, in both languages and both colour schemes', () => {
  const browser = useBrowser();
  const pages = builtPages();

  it('has pages to check', () => {
    expect(pages).toContain('/vi/');
    expect(pages).toContain('/en/');
  });

  // Light: every axe rule. Dark: only what the colour scheme changes (contrast), to keep the sweep short.
  it.each([
    ['light', undefined],
    ['dark', ['color-contrast']],
  ] as const)('has no serious or critical accessibility violations and no console errors (%s)', { timeout: 900_000 }, async (colorScheme, rules) => {
    const problems: string[] = [];
    const context = await browser.context({ colorScheme });
    const check = async (page: Awaited<ReturnType<typeof context.newPage>>, path: string) => {
      const errors: string[] = [];
      const onConsole = (m: { type(): string; text(): string }) => m.type() === 'error' && !m.text().includes('404') && errors.push(m.text());
      const onError = (e: Error) => errors.push(e.message);
      page.on('console', onConsole);
      page.on('pageerror', onError);
      await page.goto(urlFor(path), { waitUntil: 'load' });
      // Through DevTools, not a <script> tag: the site's CSP refuses inline scripts, as it should.
      await page.evaluate(axeSource);
      const violations = (await page.evaluate(async (only) => {
        // @ts-expect-error axe is injected above
        const result = await window.axe.run(document, { resultTypes: ['violations'], ...(only ? { runOnly: [...only] } : {}) });
        return result.violations;
      }, rules)) as AxeViolation[];
      for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
        problems.push(
          `${path}: ${v.id} (${v.impact}): ${v.help} at ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
        );
      }
      for (const e of errors) problems.push(`${path}: console error: ${e}`);
      page.off('console', onConsole);
      page.off('pageerror', onError);
    };
    // Two tabs at a time: the machine has two cores.
    const queue = [...pages];
    await Promise.all(
      [0, 1].map(async () => {
        const page = await context.newPage();
        for (let path = queue.shift(); path; path = queue.shift()) await check(page, path);
        await page.close();
      }),
    );
    expect(problems).toEqual([]);
  });
});
