/**
 * Picks where the page grades: the local runner when the site is served by one, else a WebContainer
 * when the page can host one, else nothing, with the reason. Reports each step as a RunnerEvent.
 */
import { findLocalRunner } from './local-client.ts';
import type { RunnerEvent } from './run-state.ts';
import type { Runner, UnavailableReason } from './runner-types.ts';
import { InstallError } from './webcontainer/prepare-env.ts';

export interface BrowserTraits {
  isSecureContext: boolean;
  crossOriginIsolated: boolean;
  hasSharedArrayBuffer: boolean;
  hasWebAssembly: boolean;
}

export interface SelectDeps {
  fetch: typeof fetch;
  traits: BrowserTraits;
  /** Boots and prepares a WebContainer runner (loaded lazily: it is only needed on static hosts). */
  startWebContainer: (onInstalling: () => void) => Promise<Runner>;
  onEvent: (event: RunnerEvent) => void;
}

export function browserTraits(win: Window & typeof globalThis): BrowserTraits {
  return {
    isSecureContext: win.isSecureContext,
    crossOriginIsolated: win.crossOriginIsolated === true,
    hasSharedArrayBuffer: typeof win.SharedArrayBuffer === 'function',
    hasWebAssembly: typeof win.WebAssembly === 'object',
  };
}

export function webContainerBlocker(t: BrowserTraits): UnavailableReason | undefined {
  if (!t.isSecureContext || !t.crossOriginIsolated) return 'not-isolated';
  if (!t.hasSharedArrayBuffer || !t.hasWebAssembly) return 'unsupported';
  return undefined;
}

export async function selectRunner(deps: SelectDeps): Promise<Runner | undefined> {
  deps.onEvent({ type: 'booting' });
  const local = await findLocalRunner({ fetch: deps.fetch });
  if (local) {
    deps.onEvent({ type: 'ready', kind: 'local' });
    return local;
  }
  const blocker = webContainerBlocker(deps.traits);
  if (blocker) {
    deps.onEvent({ type: 'unavailable', reason: blocker });
    return undefined;
  }
  deps.onEvent({ type: 'booting', kind: 'webcontainer' });
  try {
    const runner = await deps.startWebContainer(() => deps.onEvent({ type: 'installing' }));
    deps.onEvent({ type: 'ready', kind: 'webcontainer' });
    return runner;
  } catch (err) {
    // No typed errors from boot(): a timeout or any rejection means StackBlitz cannot be used here.
    deps.onEvent({ type: 'unavailable', reason: err instanceof InstallError ? 'install-failed' : 'unreachable' });
    return undefined;
  }
}
