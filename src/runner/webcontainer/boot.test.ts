import { afterEach, describe, expect, test, vi } from 'vitest';
import { bootOnce, BootTimeoutError } from './boot.ts';
import { FakeWebContainer } from './testing/fake-webcontainer.ts';

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

  test('retry() forgets a failed boot, so "Try again" really boots again; a live instance is kept', async () => {
    let fail = true;
    const boot = vi.fn(async () => {
      if (fail) throw new Error('blocked');
      return new FakeWebContainer();
    });
    const holder = bootOnce(boot, 1000);
    await expect(holder.get()).rejects.toThrow('blocked');
    fail = false;
    await holder.retry();
    const wc = await holder.get();
    await holder.retry();
    expect(await holder.get()).toBe(wc);
    expect(boot).toHaveBeenCalledTimes(2);
  });

  test('a boot that settles after its timeout is torn down before the next attempt', async () => {
    const late = new FakeWebContainer();
    let release: (wc: FakeWebContainer) => void = () => {};
    const boot = vi.fn(() => (boot.mock.calls.length === 1 ? new Promise<FakeWebContainer>((r) => (release = r)) : Promise.resolve(new FakeWebContainer())));
    const holder = bootOnce(boot, 20);
    await expect(holder.get()).rejects.toBeInstanceOf(BootTimeoutError);
    release(late);
    await new Promise((r) => setTimeout(r, 0));
    await holder.retry();
    expect(late.tornDown).toBe(true);
    expect(await holder.get()).not.toBe(late);
  });

  test('reboot() tears the live instance down and boots a fresh one', async () => {
    const boot = vi.fn(async () => new FakeWebContainer());
    const holder = bootOnce(boot, 1000);
    const first = (await holder.get()) as FakeWebContainer;
    const second = await holder.reboot();
    expect(first.tornDown).toBe(true);
    expect(second).not.toBe(first);
    expect(await holder.get()).toBe(second);
  });
});
