import { describe, expect, it } from 'vitest';
import { pageLocals } from './locals.ts';
import { ui } from './ui/index.ts';

describe('pageLocals', () => {
  it('gives the language and translator the middleware set', () => {
    const t = ui.translator('en');
    expect(pageLocals({ locals: { lang: 'en', t }, url: new URL('https://x.test/en/') })).toEqual({ lang: 'en', t });
  });

  it('fails by page, instead of falling back to a language, when they are missing', () => {
    expect(() => pageLocals({ locals: {}, url: new URL('https://x.test/404.html') })).toThrow(/\/404\.html: Astro\.locals has no page language/);
  });
});
