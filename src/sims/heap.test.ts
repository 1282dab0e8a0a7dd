import { describe, expect, it } from 'vitest';
import { EventHeap } from './heap.ts';
import { mulberry32 } from './random.ts';

describe('EventHeap', () => {
  it('pops events in time order, ties in insertion order', () => {
    const rng = mulberry32(2);
    const heap = new EventHeap();
    const pushed: [number, number][] = [];
    for (let i = 0; i < 2000; i++) {
      const t = Math.floor(rng() * 50); // many ties
      heap.push(t, i);
      pushed.push([t, i]);
      if (i % 7 === 0) heap.pop(); // interleave pops so both paths run on a changing heap
    }
    const out: [number, number][] = [];
    while (heap.size > 0) {
      const id = heap.pop();
      out.push([heap.lastTime, id]);
    }
    for (let i = 1; i < out.length; i++) {
      const [ta, ia] = out[i - 1]!;
      const [tb, ib] = out[i]!;
      expect(ta < tb || (ta === tb && ia < ib)).toBe(true);
    }
    expect(out.length).toBe(2000 - Math.ceil(2000 / 7));
  });
});
