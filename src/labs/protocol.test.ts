import { describe, expect, it } from 'vitest';
import { LatestOnly } from './protocol.ts';

describe('latest request wins', () => {
  it('sends at once when idle and shows the answer', () => {
    const q = new LatestOnly<string>();
    expect(q.submit('a', 0)).toEqual({ send: { id: 1, payload: 'a' } });
    expect(q.receive(1, 10)).toEqual({ accept: true });
    expect(q.busy).toBe(false);
  });

  it('while busy keeps only the newest change, drops the stale answer and sends the newest', () => {
    const q = new LatestOnly<string>();
    q.submit('a', 0);
    expect(q.submit('b', 5)).toEqual({});
    expect(q.submit('c', 6)).toEqual({});
    const r = q.receive(1, 20);
    expect(r.accept).toBe(false);
    expect(r.send).toEqual({ id: 3, payload: 'c' });
    expect(q.receive(3, 40)).toEqual({ accept: true });
  });

  it('asks for a restart when a superseded run has kept the worker busy too long', () => {
    const q = new LatestOnly<string>(100);
    q.submit('heavy', 0);
    expect(q.submit('next', 500)).toEqual({ send: { id: 2, payload: 'next' }, restart: true });
    expect(q.receive(1, 600)).toEqual({ accept: false }); // a late answer from the old worker
    expect(q.receive(2, 610)).toEqual({ accept: true });
  });

  it('treats whatever is in flight as stale once a cache answered', () => {
    const q = new LatestOnly<string>();
    q.submit('a', 0);
    q.submit('b', 1);
    q.supersede();
    expect(q.receive(1, 5)).toEqual({ accept: false });
    expect(q.busy).toBe(false);
  });

  it('starts afresh after the worker died', () => {
    const q = new LatestOnly<string>();
    q.submit('a', 0);
    q.reset();
    expect(q.submit('b', 1).send?.payload).toBe('b');
  });
});
