import { afterEach, describe, expect, test, vi } from 'vitest';
import { FilesModel } from './files-model.ts';
import type { KeyValueStore } from '../storage/key-value-store.ts';
import { saveCode, savedCodeKey } from '../storage/saved-code.ts';

afterEach(() => vi.useRealTimers());

function memoryStore(): KeyValueStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

const starter = { 'retry.ts': 'starter', 'types.ts': 'visible' };
const model = (store: KeyValueStore) => new FilesModel({ exerciseId: 'retry-helper', starter, editable: ['retry.ts'], store, debounceMs: 300 });

describe('FilesModel', () => {
  test('edits are saved after a pause, as the contract says, and only editable files', () => {
    vi.useFakeTimers();
    const store = memoryStore();
    const m = model(store);
    m.edit('retry.ts', 'a');
    m.edit('retry.ts', 'ab');
    m.edit('types.ts', 'hacked');
    expect(store.map.size).toBe(0);
    vi.advanceTimersByTime(300);
    const saved = JSON.parse(store.map.get(savedCodeKey('retry-helper'))!);
    expect(saved).toMatchObject({ version: 1, files: { 'retry.ts': 'ab' } });
    expect(Object.keys(saved.files)).toEqual(['retry.ts']);
    expect(m.get('types.ts')).toBe('visible');
  });

  test('saved code is restored (whatever language page saved it); unreadable entries fall back to the starter', () => {
    const store = memoryStore();
    saveCode(store, 'retry-helper', { 'retry.ts': 'mine' });
    const m = model(store);
    expect(m.get('retry.ts')).toBe('mine');
    expect(m.restored?.files['retry.ts']).toBe('mine');
    store.setItem(savedCodeKey('retry-helper'), '{broken');
    expect(model(store).get('retry.ts')).toBe('starter');
  });

  test('reset keeps the previous code for one undo; an edit after it drops the undo', () => {
    const store = memoryStore();
    const m = model(store);
    m.edit('retry.ts', 'work');
    m.replace(starter);
    expect(m.get('retry.ts')).toBe('starter');
    expect(JSON.parse(store.map.get(savedCodeKey('retry-helper'))!).files['retry.ts']).toBe('starter');
    expect(m.undo()).toBe(true);
    expect(m.get('retry.ts')).toBe('work');
    expect(JSON.parse(store.map.get(savedCodeKey('retry-helper'))!).files['retry.ts']).toBe('work');
    expect(m.undo()).toBe(false);
    m.replace(starter);
    m.edit('retry.ts', 'new');
    expect(m.canUndo()).toBe(false);
  });

  test('a full storage keeps the code in memory', () => {
    const store = memoryStore();
    store.setItem = () => {
      throw new DOMException('quota', 'QuotaExceededError');
    };
    const m = model(store);
    m.edit('retry.ts', 'kept');
    expect(m.flush()).toBe(false);
    expect(m.editableFiles()).toEqual({ 'retry.ts': 'kept' });
  });
});
