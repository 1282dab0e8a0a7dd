/**
 * The one progress store of a page, shared by every script on it (ES modules are instantiated once
 * per page), on localStorage or, when the browser refuses it, on memory.
 */
import { browserStorage, type KeyValueStore } from '../storage/key-value-store.ts';
import { ProgressStore } from './store.ts';

let instance: { store: ProgressStore; storage: KeyValueStore; persistent: boolean } | undefined;

export function pageProgress() {
  if (!instance) {
    const { store: storage, persistent } = browserStorage();
    instance = { store: new ProgressStore(storage), storage, persistent };
  }
  return instance;
}
