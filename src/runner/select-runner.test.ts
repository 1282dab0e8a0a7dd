import { afterEach, describe, expect, test, vi } from 'vitest';
import type { RunnerEvent } from './run-state.ts';
import type { Runner } from './runner-types.ts';
import { selectRunner, startWebContainerOnDemand, type BrowserTraits, type WebContainerHooks } from './select-runner.ts';
import { bootOnce } from './webcontainer/boot.ts';
import { InstallError } from './webcontainer/prepare-env.ts';

const isolated: BrowserTraits = {
  isSecureContext: true,
  crossOriginIsolated: true,
  hasSharedArrayBuffer: true,
  hasWebAssembly: true,
  hasWorker: true,
  isIOS: false,
};
const plainHost: BrowserTraits = { ...isolated, crossOriginIsolated: false };
const noLocal: typeof fetch = async () => new Response('<h1>404</h1>', { status: 404, headers: { 'content-type': 'text/html' } });
const local: typeof fetch = async () => Response.json({ runner: 'local' });
const workerRunner: Runner = { kind: 'worker', grade: async () => Promise.reject(new Error('unused')) };
const wcRunner: Runner = { kind: 'webcontainer', grade: async () => Promise.reject(new Error('unused')) };

async function select(fetchImpl: typeof fetch, traits: BrowserTraits, inBrowser: 'worker' | 'webcontainer') {
  const events: RunnerEvent[] = [];
  let workersMade = 0;
  const selection = await selectRunner({
    fetch: fetchImpl,
    traits,
    inBrowser,
    createWorkerRunner: () => (workersMade++, workerRunner),
    onEvent: (e) => events.push(e),
  });
  return { selection, events, workersMade };
}

async function onDemand(start: (hooks: WebContainerHooks) => Promise<Runner>) {
  const events: RunnerEvent[] = [];
  const notes: string[] = [];
  const runner = await startWebContainerOnDemand({
    start,
    onEvent: (e) => events.push(e),
    onInstalled: (c) => notes.push(`installed with ${c}`),
    onError: (m) => notes.push(`error: ${m}`),
  });
  return { runner, events, notes };
}

/** This tab was opened from the URL the local runner printed: its token is in the URL fragment. */
function openedFromRunnerUrl() {
  const url = new URL('http://localhost:4321/en/#runner-token=tttttttttttttttttttttttttttttttttttttttttt');
  const store = new Map<string, string>();
  vi.stubGlobal('window', {
    location: url,
    history: { state: null, replaceState: () => (url.hash = '') },
    sessionStorage: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v) },
  });
}
afterEach(() => vi.unstubAllGlobals());

describe('selectRunner', () => {
  test.each(['worker', 'webcontainer'] as const)('the local runner wins when the page is served by one (%s exercise)', async (inBrowser) => {
    openedFromRunnerUrl();
    const { selection, events, workersMade } = await select(local, isolated, inBrowser);
    expect('runner' in selection && selection.runner.kind).toBe('local');
    expect(workersMade).toBe(0);
    expect(events.at(-1)).toEqual({ type: 'ready', kind: 'local' });
  });

  test('a static host grades a worker exercise in the page, isolated or not, with nothing to boot', async () => {
    for (const traits of [plainHost, isolated]) {
      const { selection, events } = await select(noLocal, traits, 'worker');
      expect(selection).toEqual({ runner: workerRunner });
      expect(events.map((e) => e.type)).toEqual(['booting', 'ready']);
      expect(events.at(-1)).toEqual({ type: 'ready', kind: 'worker' });
    }
  });

  test('an exercise that needs Node waits on an isolated static host: the WebContainer boots on the first Run', async () => {
    const { selection, events } = await select(noLocal, isolated, 'webcontainer');
    expect(selection).toEqual({ webcontainer: 'on-demand' });
    expect(events.at(-1)).toEqual({ type: 'standby', consent: false });
  });

  test('on iPhone and iPad the WebContainer waits for an explicit start', async () => {
    const { events } = await select(noLocal, { ...isolated, isIOS: true }, 'webcontainer');
    expect(events.at(-1)).toEqual({ type: 'standby', consent: true });
  });

  test.each([
    [{ ...isolated, crossOriginIsolated: false }, 'webcontainer', 'not-isolated'],
    [{ ...isolated, isSecureContext: false }, 'webcontainer', 'not-isolated'],
    [{ ...isolated, hasSharedArrayBuffer: false }, 'webcontainer', 'unsupported'],
    [{ ...isolated, hasWorker: false }, 'worker', 'unsupported'],
  ] as const)('nothing can grade here (%o, %s exercise): %s', async (traits, inBrowser, reason) => {
    const { selection, events } = await select(noLocal, traits, inBrowser);
    expect(selection).toEqual({ unavailable: reason });
    expect(events.at(-1)).toEqual({ type: 'unavailable', reason });
  });

  test("a session answer that is not the local runner's is not a local runner", async () => {
    openedFromRunnerUrl();
    const { events } = await select(async () => Response.json({}), plainHost, 'webcontainer');
    expect(events.at(-1)).toEqual({ type: 'unavailable', reason: 'not-isolated' });
  });

  test('?runner=worker grades in the page even where the local runner serves it; ?runner=webcontainer never leaves it', async () => {
    openedFromRunnerUrl();
    const events: RunnerEvent[] = [];
    const base = { fetch: local, traits: isolated, createWorkerRunner: () => workerRunner, onEvent: (e: RunnerEvent) => events.push(e) };
    expect(await selectRunner({ ...base, inBrowser: 'webcontainer', force: 'worker' })).toEqual({ runner: workerRunner });
    const forced = await selectRunner({ ...base, inBrowser: 'worker', force: 'webcontainer' });
    expect('runner' in forced && forced.runner.kind).toBe('local');
  });

  test('?runner=webcontainer boots a WebContainer on a static host', async () => {
    const events: RunnerEvent[] = [];
    const base = { fetch: noLocal, traits: isolated, createWorkerRunner: () => workerRunner, onEvent: (e: RunnerEvent) => events.push(e) };
    expect(await selectRunner({ ...base, inBrowser: 'worker', force: 'webcontainer' })).toEqual({ webcontainer: 'on-demand' });
  });

  // npm start, and a tab opened from a bookmark (no token) or kept from an earlier run (another token).
  const refusing: typeof fetch = async () => Response.json({ ok: false, error: 'token missing or wrong', runner: 'local' }, { status: 401 });

  test('a tab the local runner refuses grades in the page and says so, never in a WebContainer', async () => {
    for (const force of [undefined, 'webcontainer', 'worker'] as const) {
      const events: RunnerEvent[] = [];
      const selection = await selectRunner({
        fetch: refusing,
        traits: isolated,
        inBrowser: 'worker',
        force,
        createWorkerRunner: () => workerRunner,
        onEvent: (e) => events.push(e),
      });
      expect(selection, String(force)).toEqual({ runner: workerRunner, tokenMissing: true });
      expect(events.at(-1)).toEqual({ type: 'ready', kind: 'worker' });
    }
  });

  test('a suite the worker cannot run, in a tab the local runner refuses: no runner, and the reason is the token', async () => {
    for (const traits of [isolated, { ...isolated, hasWorker: false }]) {
      const { selection, events } = await select(refusing, traits, traits.hasWorker ? 'webcontainer' : 'worker');
      expect(selection).toEqual({ unavailable: 'token-missing' });
      expect(events.map((e) => e.type)).not.toContain('standby');
      expect(events.at(-1)).toEqual({ type: 'unavailable', reason: 'token-missing' });
    }
  });
});

describe('startWebContainerOnDemand', () => {
  test('boots, installs (saying with what), and is ready', async () => {
    const { runner, events, notes } = await onDemand(async (hooks) => {
      hooks.installing();
      hooks.installed('npm install');
      hooks.error('third-party cookies are blocked');
      return wcRunner;
    });
    expect(runner).toBe(wcRunner);
    expect(events.map((e) => e.type)).toEqual(['booting', 'installing', 'ready']);
    expect(notes).toEqual(['installed with npm install', 'error: third-party cookies are blocked']);
  });

  test('StackBlitz unreachable: a boot that never settles ends as "unreachable" after the boot timeout, with a retry', async () => {
    const holder = bootOnce(() => new Promise(() => {}), 50);
    const started = Date.now();
    const { runner, events } = await onDemand(async () => {
      await holder.get();
      return wcRunner;
    });
    expect(runner).toBeUndefined();
    expect(events.at(-1)).toEqual({ type: 'unavailable', reason: 'unreachable', retry: true });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('a failed install is reported as such, with a retry', async () => {
    const { events } = await onDemand(async () => Promise.reject(new InstallError('npm ci exited with 1')));
    expect(events.at(-1)).toEqual({ type: 'unavailable', reason: 'install-failed', retry: true });
  });
});
