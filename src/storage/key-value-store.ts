/**
 * Where the browser keeps the learner's work (progress and saved code): localStorage when the
 * browser lets us use it, otherwise (private mode, storage disabled, quota of 0) an in-memory
 * stand-in so every page still works; the work then lasts as long as the page. Its own folder,
 * because progress and the workspace both read it and neither may depend on the other.
 */

/** The part of Storage the course needs, so tests can pass a Map-backed fake. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

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
