import { describe, expect, test } from 'vitest';
import { findLocalRunner } from './local-client.ts';
import { GRADE_PATH, SESSION_PATH, TOKEN_HEADER } from './protocol.ts';
import { RunnerInputError } from '../runner-types.ts';

const input = { exerciseId: 'retry-helper', files: { 'retry.ts': 'x' }, lang: 'en' as const };

describe('findLocalRunner', () => {
  test.each([
    ['the static placeholder', async () => Response.json({ runner: null })],
    ['a 401 that is not the local runner’s', async () => Response.json({ ok: false }, { status: 401 })],
    ['a 404', async () => new Response('nope', { status: 404 })],
    ['an HTML fallback page', async () => new Response('<!doctype html>', { status: 200 })],
    ['a network failure', async () => Promise.reject(new TypeError('failed to fetch'))],
  ] as const)('finds no runner behind %s', async (_name, fetchImpl) => {
    expect(await findLocalRunner({ fetch: fetchImpl as typeof fetch, token: 't'.repeat(43) })).toEqual({ absent: true });
  });

  test('the local runner refusing the tab (no token, or an earlier run’s) is told apart from no local runner', async () => {
    const asked: Array<Record<string, string>> = [];
    const refusing = (async (_url: string, init?: RequestInit) => {
      asked.push(init!.headers as Record<string, string>);
      return Response.json({ ok: false, error: 'token missing or wrong', runner: 'local' }, { status: 401 });
    }) as unknown as typeof fetch;
    expect(await findLocalRunner({ fetch: refusing, token: 'stale'.repeat(9) })).toEqual({ tokenMissing: true });
    // Outside a browser there is no sessionStorage: the tab has no token, and asks without one.
    expect(await findLocalRunner({ fetch: refusing })).toEqual({ tokenMissing: true });
    expect(asked[1]).toEqual({});
    const placeholder = (async () => Response.json({ runner: 'local' })) as unknown as typeof fetch;
    expect(await findLocalRunner({ fetch: placeholder }), 'no token, no runner, whatever the answer').toEqual({ absent: true });
  });

  test('sends the tab’s token when it asks and grades with it; a 400 is the learner’s input error, other failures are runner errors', async () => {
    const calls: [string, RequestInit | undefined][] = [];
    let answer: Response = Response.json({ ok: true, report: { status: 'pass' } });
    const fetchImpl = (async (url: string, init?: RequestInit) => {
      calls.push([url, init]);
      return url === SESSION_PATH ? Response.json({ runner: 'local' }) : answer;
    }) as typeof fetch;
    const probe = await findLocalRunner({ fetch: fetchImpl, token: 'abc' });
    if (!('runner' in probe)) throw new Error('no runner');
    const runner = probe.runner;
    expect(runner.kind).toBe('local');
    expect(await runner.grade(input)).toEqual({ status: 'pass' });
    expect((calls[0]![1]!.headers as Record<string, string>)[TOKEN_HEADER]).toBe('abc');
    expect(calls[1]![0]).toBe(GRADE_PATH);
    expect((calls[1]![1]!.headers as Record<string, string>)[TOKEN_HEADER]).toBe('abc');
    answer = Response.json({ ok: false, error: 'Unexpected file evil.ts' }, { status: 400 });
    await expect(runner.grade(input)).rejects.toBeInstanceOf(RunnerInputError);
    answer = Response.json({ ok: false, error: 'boom' }, { status: 500 });
    await expect(runner.grade(input)).rejects.toThrow('boom');
  });
});
