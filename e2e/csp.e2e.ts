/**
 * The site's security headers in force: every kind of page, in both languages, is served with the one
 * policy (src/site/headers.mjs) by `astro preview` (a static host) and by `npm start` (scripts/serve.ts),
 * and using it (the editor and its TypeScript worker, search with its WebAssembly, a lab, a quiz, the
 * exercise graded in the page by its worker) causes no Content-Security-Policy violation.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, siteHeaders } from '../src/site/headers.mjs';
import { baseURL, skipBrowser, useBrowser, type Page } from './fixtures.ts';
import { serveSite, type ServedSite } from '../tools/serve-site.ts';
import { builtPages, DIST } from '../tools/site-pages.ts';

const html = (path: string) => readFileSync(join(DIST, path.replace(/^\//, ''), path.endsWith('/') ? 'index.html' : ''), 'utf8');
const lessons = (lang: string) => builtPages().filter((p) => new RegExp(`^/${lang}/[^/]+/[^/]+/$`).test(p));

/** One page of each kind per language, found in the build so new pages of a kind are covered by kind. */
function pageKinds(lang: 'vi' | 'en'): Record<string, string> {
  const find = (test: (text: string) => boolean) => lessons(lang).find((p) => test(html(p)));
  const kinds: Record<string, string | undefined> = {
    home: `/${lang}/`,
    module: builtPages().find((p) => new RegExp(`^/${lang}/[^/]+/$`).test(p) && lessons(lang).some((l) => l.startsWith(p))),
    // graded in the page: its grading worker imports the learner's code from a blob: URL
    exercise: find((t) => t.includes('data-in-browser="worker"')),
    lab: find((t) => t.includes('<course-lab')),
    quiz: find((t) => t.includes('<course-quiz') && !t.includes('<course-workspace') && !t.includes('<course-lab')),
    progress: `/${lang}/progress/`,
    assignment: `/${lang}/assignment/`,
    instructor: `/${lang}/instructor/`,
    notFound: `/${lang}/no-such-page/`,
  };
  for (const [kind, path] of Object.entries(kinds)) if (!path) throw new Error(`no ${kind} page in ${lang}`);
  return kinds as Record<string, string>;
}

/** What the page does on first use, so lazily loaded code runs under the policy too. */
async function use(page: Page, kind: string) {
  if (kind === 'exercise') {
    // A static host has no local runner: no token is missing, so no notice asks for one.
    expect(await page.locator('[data-runner-token-missing]').isHidden()).toBe(true);
    const worker = page.waitForEvent('worker', { timeout: 30_000 });
    await page.locator('course-workspace textarea[data-code], course-workspace .cm-content').first().click();
    const content = page.locator('course-workspace .cm-content').first();
    await content.waitFor({ timeout: 30_000 });
    await content.focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('const n: number = "five";\n');
    await worker; // the editor's TypeScript worker
    await page.locator('course-workspace .cm-lintRange-error').first().waitFor({ timeout: 60_000 });
    // Graded in the page: the grading worker, its suite and the learner's code (a blob: module) load under the policy.
    const root = page.locator('course-workspace').first();
    await root.locator('[data-action="run"]').click();
    await expect.poll(() => root.getAttribute('data-phase'), { timeout: 60_000 }).toBe('done');
    expect(await root.locator('[data-summary]').textContent()).toMatch(/graded in this page|chấm ngay trong trang này/);
  } else if (kind === 'lab') {
    const lab = page.locator('course-lab').first();
    await lab.scrollIntoViewIfNeeded(); // which loads its script and starts its simulation worker
    await expect.poll(() => lab.getAttribute('data-renders').then(Number), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  } else if (kind === 'quiz') {
    await page.locator('course-quiz [data-check]').first().click();
  } else if (kind === 'home') {
    await page.click('course-search [data-open]');
    await page.fill('course-search [data-input]', 'retry');
    await expect.poll(() => page.locator('course-search [data-results] a').count(), { timeout: 15_000 }).toBeGreaterThan(0);
  }
}

const violations = (page: Page) => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

describe('the built pages', () => {
  it('hold no inline script the policy would refuse: every <script> has a src, is JSON data, or has its hash in the policy', () => {
    const allowed = (text: string) => contentSecurityPolicy.includes(`'sha256-${createHash('sha256').update(text).digest('base64')}'`);
    const inline = builtPages().flatMap((path) =>
      [...html(path).matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
        .filter(([, attrs, text]) => !/\bsrc=/.test(attrs!) && !/type="application\/json"/.test(attrs!) && !allowed(text!))
        .map(([tag]) => `${path} ${tag.slice(0, 120)}`),
    );
    expect(inline).toEqual([]);
  });
});

describe.skipIf(skipBrowser())('Content-Security-Policy', () => {
  const browser = useBrowser();

  // (astro preview, which stands in for a static host here, leaves its own 404 answer bare; the hosts
  // apply _headers, vercel.json and netlify.toml to every path, and npm start is checked below.)
  it('the static host sends every security header with every page and asset', async () => {
    for (const path of ['/', '/vi/', '/en/when-to-retry/one-layer/', '/404.html', '/pagefind/pagefind.js', '/not-found-lang.js']) {
      const res = await fetch(`${baseURL()}${path}`);
      for (const [k, v] of Object.entries(siteHeaders)) expect(res.headers.get(k), `${path} ${k}`).toBe(v);
    }
  });

  it.each(['vi', 'en'] as const)(
    'no page kind in %s causes a violation, used as a reader would',
    async (lang) => {
      const context = await browser.context();
      await context.addInitScript(() => {
        const seen: string[] = ((window as unknown as { __csp: string[] }).__csp = []);
        document.addEventListener('securitypolicyviolation', (e) =>
          seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`),
        );
      });
      const found: string[] = [];
      for (const [kind, path] of Object.entries({ root: '/', ...pageKinds(lang) })) {
        const page = await context.newPage();
        page.on('console', (m) => {
          if (/Content Security Policy|Refused to/i.test(m.text())) found.push(`${kind} ${path}: console: ${m.text()}`);
        });
        await page.goto(path, { waitUntil: 'load' });
        await use(page, kind);
        await page.waitForTimeout(300); // a late violation (a deferred script, a worker) still counts
        for (const v of (await violations(page)) ?? []) found.push(`${kind} ${page.url()}: ${v}`);
        await page.close();
      }
      expect(found).toEqual([]);
    },
    240_000,
  );
});

describe.skipIf(skipBrowser())('npm start sends the same headers', () => {
  let site: ServedSite | undefined;
  beforeAll(async () => {
    site = await serveSite(DIST, 'local-runner');
  });
  afterAll(() => site?.stop());

  it('on pages, assets, the 404 and the runner API alike', async () => {
    for (const path of ['/vi/', '/en/no-such-page/', '/pagefind/pagefind.js', '/__runner/session.json']) {
      const res = await fetch(`${site!.url}${path}`);
      for (const [k, v] of Object.entries(siteHeaders)) expect(res.headers.get(k), `${path} ${k}`).toBe(v);
    }
  });
});
