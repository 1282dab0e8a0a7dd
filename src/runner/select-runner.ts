/**
 * Picks where the page grades an exercise, in this order: the local runner when the site is served by
 * one (`npm start`, `npm run dev`); else the worker runner in the page when the exercise's suite can run
 * there; else a WebContainer when the page can host one (started on the first Run, never on load);
 * else nothing, with the reason. Reports each step as a RunnerEvent.
 *
 * A page served by the local runner never turns to a third party: a tab it refuses (opened without the
 * printed URL) grades in the worker runner, saying how to reach the local runner, or, for a suite the
 * worker cannot run, grades nowhere and says the same; `?runner=webcontainer` is ignored there.
 */
import { findLocalRunner } from './local/local-client.ts';
import type { RunnerEvent } from './run-state.ts';
import type { Runner, UnavailableReason } from './runner-types.ts';
import { InstallError } from './webcontainer/prepare-env.ts';

export interface BrowserTraits {
  isSecureContext: boolean;
  crossOriginIsolated: boolean;
  hasSharedArrayBuffer: boolean;
  hasWebAssembly: boolean;
  hasWorker: boolean;
  /** iPhone or iPad (iPadOS reports itself as a Mac with touch): WebContainers may crash the tab there. */
  isIOS: boolean;
}

export interface SelectDeps {
  fetch: typeof fetch;
  traits: BrowserTraits;
  /** Where the exercise can be graded in a browser (its exercise.json `inBrowser`). */
  inBrowser: 'worker' | 'webcontainer';
  createWorkerRunner: () => Runner;
  onEvent: (event: RunnerEvent) => void;
  /**
   * Skip the others and use this in-browser runner (the page's `?runner=` parameter): to try the
   * WebContainer path on an exercise the page would grade in a worker (scripts/webcontainer-real-run.ts).
   */
  force?: 'worker' | 'webcontainer';
}

/**
 * What the page can grade with: a runner now (`tokenMissing`: the worker runner, in a tab the local runner
 * serving the page refused), a WebContainer to start on demand, or nothing.
 */
export type Selection = { runner: Runner; tokenMissing?: true } | { webcontainer: 'on-demand' } | { unavailable: UnavailableReason };

export function browserTraits(win: Window & typeof globalThis): BrowserTraits {
  const nav = win.navigator;
  return {
    isSecureContext: win.isSecureContext,
    crossOriginIsolated: win.crossOriginIsolated === true,
    hasSharedArrayBuffer: typeof win.SharedArrayBuffer === 'function',
    hasWebAssembly: typeof win.WebAssembly === 'object',
    hasWorker: typeof win.Worker === 'function',
    isIOS: /iPhone|iPad|iPod/.test(nav.userAgent) || (nav.platform === 'MacIntel' && nav.maxTouchPoints > 1),
  };
}

export function webContainerBlocker(t: BrowserTraits): UnavailableReason | undefined {
  if (!t.isSecureContext || !t.crossOriginIsolated) return 'not-isolated';
  if (!t.hasSharedArrayBuffer || !t.hasWebAssembly) return 'unsupported';
  return undefined;
}

export async function selectRunner(deps: SelectDeps): Promise<Selection> {
  deps.onEvent({ type: 'booting' });
  const local = await findLocalRunner({ fetch: deps.fetch });
  const unavailable = (reason: UnavailableReason): Selection => {
    deps.onEvent({ type: 'unavailable', reason });
    return { unavailable: reason };
  };
  if ('runner' in local && deps.force !== 'worker') {
    deps.onEvent({ type: 'ready', kind: 'local' });
    return { runner: local.runner };
  }
  const servedLocally = !('absent' in local);
  const tokenMissing = 'tokenMissing' in local;
  // Served by the local runner, the page may grade in itself (a suite the worker can run), never elsewhere.
  const inPage = servedLocally
    ? (deps.force ?? deps.inBrowser) === 'worker' || deps.inBrowser === 'worker'
      ? 'worker'
      : undefined
    : (deps.force ?? deps.inBrowser);
  if (inPage === 'worker') {
    if (!deps.traits.hasWorker) return unavailable(tokenMissing ? 'token-missing' : 'unsupported');
    deps.onEvent({ type: 'ready', kind: 'worker' });
    return { runner: deps.createWorkerRunner(), ...(tokenMissing ? { tokenMissing: true as const } : {}) };
  }
  if (servedLocally) return unavailable('token-missing');
  const blocker = webContainerBlocker(deps.traits);
  if (blocker) return unavailable(blocker);
  deps.onEvent({ type: 'standby', consent: deps.traits.isIOS });
  return { webcontainer: 'on-demand' };
}

/** What a starting WebContainer tells the page besides its phase. */
export interface WebContainerHooks {
  installing(): void;
  /** Which install command ran (`npm ci`, or `npm install` when ci failed). */
  installed(command: string): void;
  /** A message from the WebContainer's `on('error')` (cookie or privacy blockers report there). */
  error(message: string): void;
}

export interface OnDemandDeps {
  /** Boots and prepares a WebContainer runner (loaded lazily: only exercises that need Node use it). */
  start(hooks: WebContainerHooks): Promise<Runner>;
  onEvent(event: RunnerEvent): void;
  onInstalled(command: string): void;
  onError(message: string): void;
}

/** Starts the WebContainer on the first Run (or a retry); any failure leaves the page able to try again. */
export async function startWebContainerOnDemand(deps: OnDemandDeps): Promise<Runner | undefined> {
  deps.onEvent({ type: 'booting', kind: 'webcontainer' });
  try {
    const runner = await deps.start({
      installing: () => deps.onEvent({ type: 'installing' }),
      installed: deps.onInstalled,
      error: deps.onError,
    });
    deps.onEvent({ type: 'ready', kind: 'webcontainer' });
    return runner;
  } catch (err) {
    // No typed errors from boot(): a timeout or any rejection means StackBlitz cannot be used now.
    deps.onEvent({ type: 'unavailable', reason: err instanceof InstallError ? 'install-failed' : 'unreachable', retry: true });
    return undefined;
  }
}
