import { describe, expect, test } from 'vitest';
import { captureRunnerToken, splitTokenFragment, type TokenWindow } from './local-token.ts';
import { TOKEN_STORAGE_KEY, tokenURL } from './protocol.ts';

const token = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v';

function fakeWindow(href: string) {
  const url = new URL(href);
  const store = new Map<string, string>();
  const win: TokenWindow & { url: URL } = {
    url,
    location: url,
    history: { state: null, replaceState: (_s: unknown, _t: string, next?: string | URL | null) => void (url.href = new URL(String(next), url).href) },
    sessionStorage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
  };
  return win;
}

describe('the runner token in the URL fragment', () => {
  test('the printed URL carries the token only in the fragment, which browsers never send', () => {
    const url = new URL(tokenURL('http://localhost:4321/', token));
    expect(url.pathname).toBe('/');
    expect(url.search).toBe('');
    expect(splitTokenFragment(url.hash)).toEqual({ token, rest: '' });
  });

  test('other fragment parameters are kept; a malformed token is dropped', () => {
    expect(splitTokenFragment(`#runner-token=${token}&x=1`)).toEqual({ token, rest: '#x=1' });
    expect(splitTokenFragment('#section-2')).toEqual({ rest: '#section-2' });
    expect(splitTokenFragment('#runner-token=<script>')).toEqual({ rest: '' });
  });

  test('the tab keeps the token, the address bar loses it, and later pages of the tab still have it', () => {
    const win = fakeWindow(`http://localhost:4321/vi/?q=1#runner-token=${token}`);
    expect(captureRunnerToken(win)).toBe(token);
    expect(win.url.href).toBe('http://localhost:4321/vi/?q=1');
    expect(win.sessionStorage.getItem(TOKEN_STORAGE_KEY)).toBe(token);
    win.url.href = 'http://localhost:4321/en/'; // the next page, same tab
    expect(captureRunnerToken(win)).toBe(token);
  });

  test('a tab opened without the token has none', () => {
    expect(captureRunnerToken(fakeWindow('http://localhost:4321/en/'))).toBeUndefined();
  });
});
