import { expect, test } from 'vitest';
import { readWrap, WRAP_KEY, writeWrap } from './wrap-preference.ts';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
};

test('wrapping is off until chosen, then kept as chosen', () => {
  const store = memory();
  expect(readWrap(store)).toBe(false);
  writeWrap(store, true);
  expect(store.m.get(WRAP_KEY)).toBe('on');
  expect(readWrap(store)).toBe(true);
  writeWrap(store, false);
  expect(readWrap(store)).toBe(false);
});

test('storage that throws (disabled) is no wrapping, and choosing does not throw', () => {
  const broken = {
    getItem: () => {
      throw new Error('denied');
    },
    setItem: () => {
      throw new Error('denied');
    },
  };
  expect(readWrap(broken)).toBe(false);
  expect(() => writeWrap(broken, true)).not.toThrow();
  expect(readWrap(undefined)).toBe(false);
});
