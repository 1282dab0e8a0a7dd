/**
 * Boots the one WebContainer a document may have. `boot()` never settles when StackBlitz cannot be
 * reached (offline, blocked iframe), so it races a timeout; any rejection or timeout means unavailable.
 */
import type { WebContainerLike } from './wc-api.ts';

export const BOOT_TIMEOUT_MS = 20_000;

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
 * the same promise, including its failure, since a second `boot()` in one document throws.
 */
export function bootOnce(boot: () => Promise<WebContainerLike>, timeoutMs = BOOT_TIMEOUT_MS) {
  let booted: Promise<WebContainerLike> | undefined;
  return {
    get(): Promise<WebContainerLike> {
      booted ??= withTimeout(
        Promise.resolve().then(boot),
        timeoutMs,
        () => new BootTimeoutError(`WebContainer did not boot within ${timeoutMs} ms`),
      );
      return booted;
    },
  };
}
