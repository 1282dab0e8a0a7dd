/**
 * What `npm start` serves to a browser: text compressed (brotli), the hashed /_astro/ assets cached for a
 * year as immutable, pages revalidated. Measured on a lesson in Chromium: the bytes on the wire.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser } from './fixtures.ts';
import { serveSite, withRunnerToken, type ServedSite } from '../tools/serve-site.ts';
import { DIST } from '../tools/site-pages.ts';

let site: ServedSite | undefined;
beforeAll(async () => {
  if (!skipBrowser()) site = await serveSite(DIST, 'local-runner');
});
afterAll(() => site?.stop());

describe.skipIf(skipBrowser())('serving the built site', () => {
  const browser = useBrowser();

  it('compresses text with brotli and lets the browser keep hashed assets for good', async () => {
    const context = await browser.context({ baseURL: site!.url });
    const page = await context.newPage();
    const seen: { url: string; headers: Record<string, string>; wire: number; size: number }[] = [];
    page.on('requestfinished', (request) => {
      void (async () => {
        const response = await request.response();
        if (!response) return;
        const sizes = await request.sizes();
        seen.push({
          url: request.url(),
          headers: await response.allHeaders(),
          wire: sizes.responseBodySize,
          size: (await response.body().catch(() => Buffer.alloc(0))).length,
        });
      })();
    });
    await page.goto(withRunnerToken(site!, '/vi/when-to-retry/one-layer/'), { waitUntil: 'networkidle' });
    await expect.poll(() => seen.length).toBeGreaterThan(3);

    const html = seen.find((r) => r.url.endsWith('/one-layer/'))!;
    expect(html.headers['content-encoding']).toBe('br');
    expect(html.headers['cache-control']).toBe('no-cache');
    const assets = seen.filter((r) => new URL(r.url).pathname.startsWith('/_astro/'));
    expect(assets.length).toBeGreaterThan(0);
    for (const a of assets) expect(a.headers['cache-control'], a.url).toBe('public, max-age=31536000, immutable');
    const scripts = assets.filter((a) => /\.(js|css)$/.test(a.url));
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect(s.headers['content-encoding'], s.url).toBe('br');
    const fonts = assets.filter((a) => a.url.endsWith('.woff2'));
    for (const f of fonts) expect(f.headers['content-encoding'], f.url).toBeUndefined(); // already compressed
    const text = [html, ...scripts];
    const wire = text.reduce((n, r) => n + r.wire, 0);
    const size = text.reduce((n, r) => n + r.size, 0);
    console.log(`lesson page text: ${Math.round(size / 1024)} KiB uncompressed, ${Math.round(wire / 1024)} KiB on the wire`);
    expect(wire).toBeLessThan(size / 2);
  });
});
