import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser } from './fixtures.ts';
import { builtPages } from './site-pages.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describe.skipIf(skipBrowser())('every page, in both languages and both colour schemes', () => {
  const browser = useBrowser();
  const pages = builtPages();

  it('has pages to check', () => {
    expect(pages).toContain('/vi/');
    expect(pages).toContain('/en/');
  });

  it.each(['light', 'dark'] as const)('has no serious or critical accessibility violations and no console errors (%s)', { timeout: 600_000 }, async (colorScheme) => {
    const problems: string[] = [];
    const context = await browser.context({ colorScheme });
    const check = async (path: string) => {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && !m.text().includes('404') && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      // "/" redirects; the 404 page is served for an unknown address.
      const url = path === '/' ? '/?stay' : path === '/404.html' ? '/en/missing-page/' : path;
      await page.goto(url, { waitUntil: 'load' });
      await page.addScriptTag({ content: axeSource });
      const violations = (await page.evaluate(async () => {
        // @ts-expect-error axe is injected above
        const result = await window.axe.run(document, { resultTypes: ['violations'] });
        return result.violations;
      })) as AxeViolation[];
      for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
        problems.push(`${path}: ${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
      }
      for (const e of errors) problems.push(`${path}: console error: ${e}`);
      await page.close();
    };
    // Two pages at a time: the machine has two cores.
    const queue = [...pages];
    await Promise.all([0, 1].map(async () => {
      for (let path = queue.shift(); path; path = queue.shift()) await check(path);
    }));
    expect(problems).toEqual([]);
  });
});
