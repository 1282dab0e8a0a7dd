import { describe, expect, test } from 'vitest';
import { latestWinsQueue, serialQueue } from './run-queue.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('serialQueue', () => {
  test('runs one task at a time, in order, and a failure does not block the next', async () => {
    const enqueue = serialQueue();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([enqueue(task('a')), enqueue(task('b', true)), enqueue(task('c'))]);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});

describe('latestWinsQueue', () => {
  test('while a run is in progress only the newest request waits; replaced ones resolve undefined', async () => {
    const ran: number[] = [];
    const request = latestWinsQueue(async (n: number) => {
      ran.push(n);
      await tick();
      return n * 10;
    });
    const results = await Promise.all([request(1), request(2), request(3), request(4)]);
    expect(ran).toEqual([1, 4]);
    expect(results).toEqual([10, undefined, undefined, 40]);
  });

  test('a failing run rejects its caller and the queue keeps working', async () => {
    const request = latestWinsQueue(async (n: number) => {
      if (n === 1) throw new Error('boom');
      return n;
    });
    await expect(request(1)).rejects.toThrow('boom');
    expect(await request(2)).toBe(2);
  });
});
