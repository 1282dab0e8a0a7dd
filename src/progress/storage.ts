/**
 * The browser side of storage: localStorage when the browser lets us use it, otherwise (private
 * mode, storage disabled, quota of 0) an in-memory stand-in so every page still works; progress then
 * lasts as long as the page.
 */
import type { KeyValueStore } from '../workspace/saved-code.ts';

export type { KeyValueStore };

/** A Map-backed store: the fallback in the browser and the fake in tests. */
export class MemoryStore implements KeyValueStore {
  readonly #data = new Map<string, string>();
  getItem(key: string) {
    return this.#data.has(key) ? this.#data.get(key)! : null;
  }
  setItem(key: string, value: string) {
    this.#data.set(key, String(value));
  }
  removeItem(key: string) {
    this.#data.delete(key);
  }
  keys(): string[] {
    return [...this.#data.keys()];
  }
}

/** localStorage if it works (reading and writing a probe), else a MemoryStore. */
export function browserStorage(): { store: KeyValueStore; persistent: boolean } {
  try {
    const probe = '__course_probe__';
    window.localStorage.setItem(probe, '1');
    window.localStorage.removeItem(probe);
    return { store: window.localStorage, persistent: true };
  } catch {
    return { store: new MemoryStore(), persistent: false };
  }
}
