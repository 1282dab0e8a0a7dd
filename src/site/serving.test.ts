import { describe, expect, it } from 'vitest';
import { cacheControl, pickEncoding } from './serving.ts';

describe('pickEncoding', () => {
  it('prefers brotli, then gzip, for text; never for fonts and images; honours q=0', () => {
    expect(pickEncoding('gzip, deflate, br, zstd', 'text/javascript; charset=utf-8')).toBe('br');
    expect(pickEncoding('gzip', 'text/html; charset=utf-8')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5', 'text/css')).toBe('gzip');
    expect(pickEncoding(undefined, 'text/css')).toBeUndefined();
    expect(pickEncoding('br', 'font/woff2')).toBeUndefined();
    expect(pickEncoding('br', 'image/png')).toBeUndefined();
    expect(pickEncoding('br', 'image/svg+xml')).toBe('br');
  });
});

describe('cacheControl', () => {
  it('keeps hashed build assets for a year, revalidates pages, caches the rest briefly', () => {
    expect(cacheControl('/_astro/page.B9CIFXIH.js', '.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControl('/en/', '.html')).toBe('no-cache');
    expect(cacheControl('/pagefind/pagefind.js', '.js')).toBe('public, max-age=300');
  });
});
