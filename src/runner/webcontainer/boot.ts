/**
 * Boots the one WebContainer a document may have. `boot()` never settles when StackBlitz cannot be
 * reached (offline, blocked iframe), so it races a timeout; any rejection or timeout means unavailable.
 */
import type { WebContainerLike } from './wc-api.ts';

/** Reported cold boots take about 10 s; slow networks and phones need more. */
export const BOOT_TIMEOUT_MS = 45_000;

export class BootTimeoutError extends Error {
  override name = 'BootTimeoutError';
}

export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A boot-once holder: the first `get()` boots, every later one (for any exercise on the page) shares
 * the same promise, including its failure, since a second `boot()` in one document throws while the
 * first instance lives. `retry()` forgets a failed boot so the next `get()` tries again, and
 * `reboot()` tears a live instance down first (`teardown()` then `boot()` is allowed).
 */
export function bootOnce(boot: () => Promise<WebContainerLike>, timeoutMs = BOOT_TIMEOUT_MS) {
  let booted: Promise<WebContainerLike> | undefined;
  let live: WebContainerLike | undefined;
  const get = (): Promise<WebContainerLike> => {
    if (!booted) {
      const attempt = Promise.resolve().then(boot);
      // A boot that settles after its timeout still owns the document's one instance: keep it to tear down.
      attempt.then(
        (wc) => (live = wc),
        () => undefined,
      );
      booted = withTimeout(attempt, timeoutMs, () => new BootTimeoutError(`WebContainer did not boot within ${timeoutMs} ms`));
    }
    return booted;
  };
  return {
    get,
    /** Before another attempt: a failed or timed-out boot is forgotten; a live instance is kept. */
    async retry(): Promise<void> {
      if (!booted) return;
      const ok = await booted.then(
        () => true,
        () => false,
      );
      if (ok) return;
      booted = undefined;
      if (live) {
        live.teardown();
        live = undefined;
      }
    },
    /** Tears the instance down (a process that would not die) and boots a fresh one. */
    async reboot(): Promise<WebContainerLike> {
      live?.teardown();
      live = undefined;
      booted = undefined;
      return get();
    },
  };
}
