/**
 * The page's half of the local runner's token: taken from the URL fragment the server printed, kept in
 * sessionStorage for this tab, and wiped from the address bar and history so it is not bookmarked,
 * shared in a screenshot of the URL or sent in a Referer (fragments never are, but copies of the URL are).
 */
import { TOKEN_PARAM, TOKEN_STORAGE_KEY } from './protocol.ts';

export type TokenStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** The token a fragment carries, and the fragment left once it is removed (`''` when nothing is left). */
export function splitTokenFragment(hash: string): { token?: string; rest: string } {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get(TOKEN_PARAM) ?? undefined;
  if (token === undefined) return { rest: hash };
  params.delete(TOKEN_PARAM);
  const left = params.toString();
  return { ...(/^[A-Za-z0-9_-]{20,200}$/.test(token) ? { token } : {}), rest: left ? `#${left}` : '' };
}

export interface TokenWindow {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  sessionStorage: TokenStorage;
}

/** Stores the fragment's token (if any) for this tab, removes it from the URL, returns the tab's token. */
export function captureRunnerToken(win: TokenWindow | undefined = browserWindow()): string | undefined {
  if (!win) return undefined;
  try {
    const { token, rest } = splitTokenFragment(win.location.hash);
    if (rest !== win.location.hash) win.history.replaceState(win.history.state, '', `${win.location.pathname}${win.location.search}${rest}`);
    if (token) win.sessionStorage.setItem(TOKEN_STORAGE_KEY, token);
    return win.sessionStorage.getItem(TOKEN_STORAGE_KEY) ?? undefined;
  } catch {
    return undefined; // storage disabled: no local runner for this tab
  }
}

function browserWindow(): TokenWindow | undefined {
  return typeof window === 'undefined' ? undefined : (window as unknown as TokenWindow);
}
