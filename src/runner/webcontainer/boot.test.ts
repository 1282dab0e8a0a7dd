import { afterEach, describe, expect, test, vi } from 'vitest';
import { bootOnce, BootTimeoutError } from './boot.ts';
import { FakeWebContainer } from './fake-webcontainer.ts';

afterEach(() => vi.useRealTimers());

describe('bootOnce', () => {
  test('a boot() that never settles (StackBlitz unreachable) fails with a timeout', async () => {
    vi.useFakeTimers();
    const holder = bootOnce(() => new Promise(() => {}), 20_000);
    const booting = holder.get();
    const assertion = expect(booting).rejects.toBeInstanceOf(BootTimeoutError);
    await vi.advanceTimersByTimeAsync(19_999);
    let settled = false;
    booting.catch(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await assertion;
  });

  test('boots once per document, however many exercises ask', async () => {
    const boot = vi.fn(async () => new FakeWebContainer());
    const holder = bootOnce(boot, 1000);
    const [a, b] = await Promise.all([holder.get(), holder.get()]);
    expect(a).toBe(b);
    expect(boot).toHaveBeenCalledTimes(1);
  });

  test('a rejected boot is shared too (a second boot() in one document would throw)', async () => {
    const boot = vi.fn(async () => {
      throw new Error('SharedArrayBuffer transfer requires self.crossOriginIsolated');
    });
    const holder = bootOnce(boot, 1000);
    await expect(holder.get()).rejects.toThrow(/crossOriginIsolated/);
    await expect(holder.get()).rejects.toThrow(/crossOriginIsolated/);
    expect(boot).toHaveBeenCalledTimes(1);
  });
});
