import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headersFile } from '../src/site/headers.mjs';
import { builtPages, DIST } from '../tools/site-pages.ts';

/** Does this internal address resolve to a file of the built site? */
function resolves(pathname: string): boolean {
  const clean = decodeURIComponent(pathname);
  const file = join(DIST, clean);
  return clean.endsWith('/') ? existsSync(join(file, 'index.html')) : existsSync(file);
}

describe('the built site', () => {
  it('has no broken internal link, and every #fragment exists on its page', () => {
    const broken: string[] = [];
    const idsOf = new Map<string, Set<string>>();
    const ids = (page: string) => {
      if (!idsOf.has(page)) {
        const html = readFileSync(join(DIST, page.endsWith('/') ? `${page}index.html` : page), 'utf8');
        idsOf.set(page, new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!)));
      }
      return idsOf.get(page)!;
    };
    for (const page of builtPages()) {
      const html = readFileSync(join(DIST, page.endsWith('/') ? `${page}index.html` : page), 'utf8');
      for (const [, href] of html.matchAll(/\s(?:href|src)="([^"]+)"/g)) {
        if (!href || /^(https?:|mailto:|data:)/.test(href)) continue;
        const url = new URL(href, `http://site${page}`);
        if (!resolves(url.pathname)) broken.push(`${page} -> ${href}`);
        else if (url.hash && url.pathname.endsWith('/') && !ids(url.pathname).has(decodeURIComponent(url.hash.slice(1)))) {
          broken.push(`${page} -> ${href} (no such anchor)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('ships both language trees, the search index and the deploy header files', () => {
    for (const path of ['vi/index.html', 'en/index.html', 'pagefind/pagefind.js', '_headers', 'vercel.json', '404.html']) {
      expect(existsSync(join(DIST, path)), path).toBe(true);
    }
    const headers = readFileSync(join(DIST, '_headers'), 'utf8');
    expect(headers).toMatch(/Cross-Origin-Opener-Policy: same-origin/);
    expect(headers).toMatch(/Cross-Origin-Embedder-Policy: require-corp/);
    expect(headers).toBe(headersFile()); // CSP, nosniff, Referrer-Policy too: the one source, src/site/headers.mjs
    const vercel = JSON.parse(readFileSync(join(DIST, 'vercel.json'), 'utf8'));
    expect(JSON.stringify(vercel)).toContain('require-corp');
  });
});
