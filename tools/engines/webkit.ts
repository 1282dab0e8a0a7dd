/**
 * WebKit: WebKitGTK's MiniBrowser driven by WebKitWebDriver (classic WebDriver over HTTP) through the
 * small fetch client below. The engine family of Safari, not Safari itself.
 *
 * A WebKitWebDriver serves one session at a time ("Maximum number of active sessions"), so every page
 * gets its own driver, display and MiniBrowser: fresh storage, as a new browser context elsewhere.
 * MiniBrowser has no headless mode, hence `xvfb-run -a`. The driver is spawned with its output ignored
 * (inherited pipes, held open by Xvfb and the driver, keep the test run from ever ending) and in its own
 * process group: close() stops the driver, then kills whatever is left of the group (xvfb-run, Xvfb,
 * MiniBrowser and its web processes).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { freePort } from '../free-port.ts';
import { chord, pollUntil, refusingProxy } from './shared.ts';
import { DESKTOP, type Engine, type EnginePage, type OpenOptions, type Viewport } from './types.ts';

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const XVFB_RUN = '/usr/bin/xvfb-run';

/** WebDriver's key codes for the keys the tests press (anything else is sent as its own character). */
const KEYS: Record<string, string> = {
  Control: '\uE009',
  Shift: '\uE008',
  Alt: '\uE00A',
  Meta: '\uE03D',
  Enter: '\uE007',
  Tab: '\uE004',
  Escape: '\uE00C',
  Backspace: '\uE003',
  Home: '\uE011',
  End: '\uE010',
  PageUp: '\uE00E',
  PageDown: '\uE00F',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
};
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
/**
 * How long a new session may take: MiniBrowser's start and its connection to the driver. One that
 * never connects would keep the request open until the test's own timeout; openPage starts afresh.
 */
const SESSION_TIMEOUT_MS = 60_000;
/** A script may run this long in the page (a grade in the page can take minutes: the parity proof's long entries). */
const SCRIPT_TIMEOUT_MS = 15 * 60_000;
/**
 * Every other command's bound: a page load may take 60 s (the session's pageLoad timeout). A command
 * that never answers then fails naming itself, not as the test's own timeout with no word of where.
 */
const COMMAND_TIMEOUT_MS = 90_000;
/** Errors a click may meet while the page is still settling: try again until the deadline. */
const NOT_YET = new Set(['no such element', 'stale element reference', 'element not interactable', 'element click intercepted']);

class WebDriverError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Classic WebDriver has no console or error events, and no way to run a script before the page's own.
 * So after every load this collector records console.error, uncaught errors, unhandled rejections and
 * elements that failed to load, from then on; what goes wrong while a page is still loading is not
 * seen in WebKit (Chromium and Firefox see it, and the tests check the page works, which it would not).
 */
function installCollector() {
  const w = window as unknown as { __e2eErrors?: string[] };
  if (w.__e2eErrors) return;
  const errors: string[] = (w.__e2eErrors = []);
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    errors.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(' '));
    original(...args);
  };
  addEventListener(
    'error',
    (e) => {
      const el = e.target as HTMLElement & { src?: string; href?: string };
      errors.push(e instanceof ErrorEvent ? e.message : `failed to load ${el.src ?? el.href ?? el.tagName}`);
    },
    true,
  );
  addEventListener('unhandledrejection', (e) => errors.push(`unhandled rejection: ${e.reason instanceof Error ? e.reason.message : String(e.reason)}`));
}

/** One xvfb-run at a time: `-a` picks the first free display, and two starting at once may pick the same. */
let starting: Promise<unknown> = Promise.resolve();
/**
 * Where `-a` starts looking for a free display: its own range for each vitest worker
 * (VITEST_POOL_ID is 1, 2, …), so end-to-end files running side by side never race for one.
 */
const FIRST_DISPLAY = String(99 + 50 * Number(process.env.VITEST_POOL_ID ?? 0));

async function startDriver(args: string[]) {
  const port = await freePort();
  const driver = spawn(XVFB_RUN, ['-a', '-n', FIRST_DISPLAY, '-s', '-screen 0 1920x1200x24', WEBKIT_DRIVER, `--port=${port}`, '--host=127.0.0.1'], {
    stdio: 'ignore',
    detached: true,
    // MiniBrowser's navigator.language comes from the process locale, and this machine's C.UTF-8 makes it
    // "C", which Intl rejects (uPlot builds a NumberFormat from it, so no lab could start). en-US, as the
    // other engines get.
    env: { ...process.env, LANG: 'en_US.UTF-8', LANGUAGE: 'en_US' },
  });
  const exited = new Promise((resolve) => driver.once('exit', resolve));
  const kill = () => {
    try {
      process.kill(-driver.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  };
  /**
   * The driver first, with SIGTERM: xvfb-run then stops its Xvfb and removes its lock file and
   * temporary folder (killed itself, it would leave them behind, and `-a` would skip one more display
   * number each time). Whatever is left of the group after that, or after 5 s, is killed.
   */
  const stop = async () => {
    const children = readFileSync(`/proc/${driver.pid}/task/${driver.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    for (const pid of children) {
      try {
        process.kill(Number(pid), 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    kill();
  };
  // A test worker that ends without closing its pages must not leave displays and browsers behind.
  process.once('exit', kill);
  const base = `http://127.0.0.1:${port}`;
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    timeoutMs = path.endsWith('/execute/async') ? SCRIPT_TIMEOUT_MS + 30_000 : COMMAND_TIMEOUT_MS,
  ) => {
    const res = await fetch(base + path, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    }).catch((err: unknown) => {
      if (err instanceof DOMException && err.name === 'TimeoutError') throw new Error(`WebKit: ${method} ${path} did not answer within ${timeoutMs / 1000} s`);
      throw err;
    });
    const json = (await res.json()) as { value: { error?: string; message?: string } & Record<string, unknown> };
    if (!res.ok) throw new WebDriverError(json.value.error ?? String(res.status), `WebKit: ${method} ${path}: ${json.value.error}: ${json.value.message}`);
    return json.value as never;
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (driver.exitCode !== null) throw new Error(`WebKit: xvfb-run ${WEBKIT_DRIVER} ended with ${driver.exitCode} before it answered`);
    try {
      if ((await fetch(`${base}/status`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw (kill(), new Error(`WebKit: ${WEBKIT_DRIVER} did not answer within 20 s`));
    await new Promise((r) => setTimeout(r, 100));
  }
  const session = await call(
    'POST',
    '/session',
    {
      capabilities: {
        alwaysMatch: {
          'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation', ...args] },
          // The solution button asks confirm(): accept it, as the other engines' dialog handlers do.
          unhandledPromptBehavior: 'accept',
          // WebDriver's default script timeout is 30 s.
          timeouts: { script: SCRIPT_TIMEOUT_MS, pageLoad: 60_000, implicit: 0 },
        },
      },
    },
    SESSION_TIMEOUT_MS,
  ).catch((err: unknown) => {
    kill();
    throw err;
  });
  const id = (session as { sessionId: string }).sessionId;
  return {
    call: (method: string, path: string, body?: unknown) => call(method, `/session/${id}${path}`, body),
    async quit() {
      await call('DELETE', `/session/${id}`).catch(() => undefined);
      await stop().catch(kill);
      process.removeListener('exit', kill);
    },
  };
}

async function openPage(url: string, options: OpenOptions): Promise<EnginePage> {
  const proxy = options.onlyOrigin ? await refusingProxy() : undefined;
  const args = proxy ? [`--proxy=${proxy.url}`, `--ignore-host=${new URL(options.onlyOrigin!).hostname}`] : [];
  // Once more with a fresh driver and browser when the first does not start (see SESSION_TIMEOUT_MS).
  const launch = starting.then(() => startDriver(args).catch(() => startDriver(args)));
  starting = launch.catch(() => undefined);
  const wd = await launch;

  const execute = async <R>(script: string, args: unknown[]): Promise<R> => {
    const { value, error } = (await wd.call('POST', '/execute/async', { script, args })) as { value?: R; error?: string };
    if (error !== undefined) throw new Error(`WebKit: evaluate: ${error}`);
    return value as R;
  };
  const evaluate = <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A) =>
    execute<Awaited<R>>(
      // The function travels as its source, called with its argument; what it returns (or throws) comes back as JSON.
      `const [arg, done] = arguments;
       Promise.resolve().then(() => (${fn.toString()})(arg)).then(
         (value) => done({ value }),
         (e) => done({ error: String((e && e.stack) || e) }),
       );`,
      [arg ?? null],
    );
  let earlier: string[] = [];
  const harvest = async () => {
    earlier = [...earlier, ...((await evaluate(() => (window as unknown as { __e2eErrors?: string[] }).__e2eErrors ?? []).catch(() => [])) as string[])];
  };
  const loaded = async () => void (await evaluate(installCollector));

  // The window, not the viewport, is what WebDriver sizes: add what MiniBrowser's toolbar and frame take.
  // Its toolbar keeps the window at least 447 px wide, so a phone's 390 px is 447 px in WebKit (still
  // below the site's 40rem phone layout); `viewport` says what the page really got.
  const want: Viewport = options.viewport ?? DESKTOP;
  const outer = (await wd.call('GET', '/window/rect')) as Viewport;
  const inner = await evaluate(() => ({ width: innerWidth, height: innerHeight }));
  await wd.call('POST', '/window/rect', { width: want.width + outer.width - inner.width, height: want.height + outer.height - inner.height });
  const viewport = await evaluate(() => ({ width: innerWidth, height: innerHeight }));

  const self: EnginePage = {
    engine: 'webkit',
    viewport,
    async goto(to) {
      await harvest();
      await wd.call('POST', '/url', { url: to });
      await loaded();
    },
    async reload() {
      await harvest();
      await wd.call('POST', '/refresh', {});
      await loaded();
    },
    evaluate,
    waitFor: (what, fn, arg, timeoutMs) => pollUntil(self, what, fn, arg, timeoutMs),
    async click(selector) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        try {
          const element = (await wd.call('POST', '/element', { using: 'css selector', value: selector })) as Record<string, string>;
          await wd.call('POST', `/element/${element[ELEMENT]}/click`, {});
          return;
        } catch (err) {
          if (!(err instanceof WebDriverError && NOT_YET.has(err.code)) || Date.now() > deadline) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    },
    async press(keys) {
      const codes = chord(keys).map((k) => KEYS[k] ?? k);
      const actions = [...codes.map((value) => ({ type: 'keyDown', value })), ...codes.reverse().map((value) => ({ type: 'keyUp', value }))];
      await wd.call('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
    },
    async screenshot(path) {
      await writeFile(path, Buffer.from((await wd.call('GET', '/screenshot')) as string, 'base64'));
    },
    async errors() {
      const now = (await evaluate(() => (window as unknown as { __e2eErrors?: string[] }).__e2eErrors ?? []).catch(() => [])) as string[];
      return [...earlier, ...now];
    },
    foreignRequests: () => [...(proxy?.refused ?? [])],
    async close() {
      await wd.quit();
      proxy?.stop();
    },
  };
  await self.goto(url);
  return self;
}

export async function launchWebKit(): Promise<Engine> {
  const pages = new Set<EnginePage>();
  return {
    name: 'webkit',
    async open(url, options = {}) {
      const page = await openPage(url, options);
      pages.add(page);
      const close = page.close;
      return Object.assign(page, { close: () => (pages.delete(page), close()) });
    },
    close: async () => void (await Promise.all([...pages].map((p) => p.close()))),
  };
}
