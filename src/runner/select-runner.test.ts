import { describe, expect, test, vi } from 'vitest';
import type { RunnerEvent } from './run-state.ts';
import type { Runner } from './runner-types.ts';
import { selectRunner, type BrowserTraits } from './select-runner.ts';
import { bootOnce } from './webcontainer/boot.ts';
import { InstallError } from './webcontainer/prepare-env.ts';

const isolated: BrowserTraits = { isSecureContext: true, crossOriginIsolated: true, hasSharedArrayBuffer: true, hasWebAssembly: true };
const noLocal: typeof fetch = async () => new Response('<h1>404</h1>', { status: 404, headers: { 'content-type': 'text/html' } });
const local: typeof fetch = async () => Response.json({ runner: 'local' });
const wcRunner: Runner = { kind: 'webcontainer', grade: async () => Promise.reject(new Error('unused')) };

async function select(fetchImpl: typeof fetch, traits: BrowserTraits, start: (i: () => void) => Promise<Runner> = async () => wcRunner) {
  const events: RunnerEvent[] = [];
  const runner = await selectRunner({ fetch: fetchImpl, traits, startWebContainer: start, onEvent: (e) => events.push(e) });
  return { runner, events };
}

describe('selectRunner', () => {
  test('the local runner wins when the page is served by one (no WebContainer is started)', async () => {
    // This tab was opened from the URL the runner printed: its token is in the URL fragment.
    const url = new URL('http://localhost:4321/en/#runner-token=tttttttttttttttttttttttttttttttttttttttttt');
    const store = new Map<string, string>();
    vi.stubGlobal('window', { location: url, history: { state: null, replaceState: () => (url.hash = '') }, sessionStorage: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v) } });
    let started = false;
    const { runner, events } = await select(local, isolated, async () => ((started = true), wcRunner));
    expect(runner?.kind).toBe('local');
    expect(started).toBe(false);
    expect(events.at(-1)).toEqual({ type: 'ready', kind: 'local' });
    vi.unstubAllGlobals();
  });

  test('a static host that is isolated gets a WebContainer, installing on the way', async () => {
    const { runner, events } = await select(noLocal, isolated, async (installing) => (installing(), wcRunner));
    expect(runner).toBe(wcRunner);
    expect(events.map((e) => e.type)).toEqual(['booting', 'booting', 'installing', 'ready']);
  });

  test.each([
    [{ ...isolated, crossOriginIsolated: false }, 'not-isolated'],
    [{ ...isolated, isSecureContext: false }, 'not-isolated'],
    [{ ...isolated, hasSharedArrayBuffer: false }, 'unsupported'],
  ] as const)('no WebContainer possible (%o): %s', async (traits, reason) => {
    const { runner, events } = await select(noLocal, traits);
    expect(runner).toBeUndefined();
    expect(events.at(-1)).toEqual({ type: 'unavailable', reason });
  });

  test('StackBlitz unreachable: a boot that never settles ends as "unreachable" after the boot timeout', async () => {
    const holder = bootOnce(() => new Promise(() => {}), 50);
    const started = Date.now();
    const { runner, events } = await select(noLocal, isolated, async () => {
      await holder.get();
      return wcRunner;
    });
    expect(runner).toBeUndefined();
    expect(events.at(-1)).toEqual({ type: 'unavailable', reason: 'unreachable' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('a failed install is reported as such', async () => {
    const { events } = await select(noLocal, isolated, async () => Promise.reject(new InstallError('npm ci exited with 1')));
    expect(events.at(-1)).toEqual({ type: 'unavailable', reason: 'install-failed' });
  });

  test('a session answer without a secret is not a local runner', async () => {
    const { events } = await select(async () => Response.json({}), { ...isolated, crossOriginIsolated: false });
    expect(events.at(-1)).toEqual({ type: 'unavailable', reason: 'not-isolated' });
  });
});
