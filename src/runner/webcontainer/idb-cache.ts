/** node_modules snapshots in IndexedDB (a BytesCache); every failure reads as "not cached". */
import type { BytesCache } from './prepare-env.ts';

const DB = 'course-runner';
const STORE = 'snapshots';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function request<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  return open().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const tx = db.transaction(STORE, mode);
        const req = act(tx.objectStore(STORE));
        tx.oncomplete = () => (db.close(), resolve(req.result as T));
        tx.onerror = () => (db.close(), reject(tx.error));
      }),
  );
}

export const idbCache: BytesCache = {
  async get(key) {
    const value = await request<unknown>('readonly', (s) => s.get(key));
    return value instanceof Uint8Array ? value : undefined;
  },
  async put(key, bytes) {
    // Keep one snapshot: an old lockfile's node_modules is dead weight.
    await request('readwrite', (s) => s.clear());
    await request('readwrite', (s) => s.put(bytes, key));
  },
};
