import { describe, expect, test } from 'vitest';
import { collected, end, lines, result, tinyBundle } from '../../grading/testing/test-fixtures.ts';
import { EVENTS_FILE, PROGRESS_FILE } from '../../grading/core/source.ts';
import type { ClientBundle } from '../bundle.ts';
import { RunnerInputError } from '../runner-types.ts';
import { FakeWebContainer } from './testing/fake-webcontainer.ts';
import { startWebContainerRunner } from './wc-runner.ts';

const T = '/exercise/tests/add.test.ts';
const bundle: ClientBundle = { ...tinyBundle, lockfile: '{}', solution: { 'add.ts': 'export const add = (a: number, b: number) => a + b;\n' } };
const fetchBundle: typeof fetch = async () => new Response(JSON.stringify(bundle));
const noCache = { get: async () => undefined, put: async () => undefined };

async function runner(wc: FakeWebContainer, more: Partial<Parameters<typeof startWebContainerRunner>[0]> = {}) {
  return startWebContainerRunner({ boot: async () => wc, reboot: async () => wc, bundle, cache: noCache, onInstalling: () => {}, fetch: fetchBundle, ...more });
}

describe('WebContainer runner (fake WebContainer, real grading core)', () => {
  test('installs once, then grades: failing rules come back with their message and hint in the language asked', async () => {
    const wc = new FakeWebContainer();
    wc.onSpawn = (spawn, fake) => {
      if (spawn.command === 'node') {
        fake.files.set(
          EVENTS_FILE,
          lines(collected(T, ['R1 adds', 'R2 ends']), result(`${T}_0`, 'failed', 'expected 3, got 0'), result(`${T}_1`, 'passed'), end()),
        );
      }
      return { exitCode: spawn.command === 'node' ? 1 : 0 };
    };
    const r = await runner(wc);
    const report = await r.grade({ exerciseId: 'tiny', files: { 'add.ts': 'export const add = () => 0;' }, lang: 'vi' });
    expect(r.kind).toBe('webcontainer');
    expect(wc.spawns.filter((s) => s.command === 'npm')).toHaveLength(1);
    expect(wc.files.get('src/add.ts')).toBe('export const add = () => 0;');
    expect(report.status).toBe('fail');
    expect(report.counts).toEqual({ passed: 1, failed: 1, total: 2 });
    expect(report.tests[0]).toMatchObject({ rule: 'R1', status: 'fail', message: 'Phép cộng của bạn sai.', hint: 'Dùng toán tử +.' });
  });

  test('an endless loop is stopped by the watchdog and reported as a hung test; the next run works', async () => {
    const wc = new FakeWebContainer();
    let loop = true;
    wc.onSpawn = (spawn, fake) => {
      if (spawn.command !== 'node') return {};
      fake.files.set(EVENTS_FILE, lines(collected(T, ['R1 adds', 'R2 ends'])));
      if (loop) {
        fake.files.set(PROGRESS_FILE, lines({ type: 'start', id: `${T}_0`, name: 'R1 adds' }));
        return { hang: true };
      }
      fake.files.set(EVENTS_FILE, lines(collected(T, ['R1 adds', 'R2 ends']), result(`${T}_0`, 'passed'), result(`${T}_1`, 'passed'), end()));
      return { exitCode: 0 };
    };
    const r = await runner(wc);
    const hung = await r.grade({ exerciseId: 'tiny', files: { 'add.ts': 'while (true) {}' }, lang: 'en' });
    expect(hung.status).toBe('error');
    expect(hung.tests[0]).toMatchObject({ rule: 'R1', status: 'error', timedOut: true });
    expect(wc.killed.length).toBeGreaterThan(0);
    loop = false;
    const next = await r.grade({ exerciseId: 'tiny', files: { 'add.ts': 'export const add = (a: number, b: number) => a + b;' }, lang: 'en' });
    expect(next.status).toBe('pass');
  }, 10_000);

  test('a file the exercise does not have is refused with a message in the language asked', async () => {
    const r = await runner(new FakeWebContainer());
    await expect(r.grade({ exerciseId: 'tiny', files: { 'add.ts': '', 'evil.ts': '' }, lang: 'en' })).rejects.toBeInstanceOf(RunnerInputError);
  });

  test('a test process that will not die after the watchdog kill: the next run tears down and boots afresh', async () => {
    const first = new FakeWebContainer();
    const fresh = new FakeWebContainer();
    first.onSpawn = (spawn, fake) => {
      if (spawn.command !== 'node') return {};
      fake.files.set(EVENTS_FILE, lines(collected(T, ['R1 adds', 'R2 ends'])));
      fake.files.set(PROGRESS_FILE, lines({ type: 'start', id: `${T}_0`, name: 'R1 adds' }));
      return { hang: true }; // never exits, even when killed
    };
    fresh.onSpawn = (spawn, fake) => {
      if (spawn.command === 'node')
        fake.files.set(EVENTS_FILE, lines(collected(T, ['R1 adds', 'R2 ends']), result(`${T}_0`, 'passed'), result(`${T}_1`, 'passed'), end()));
      return { exitCode: 0 };
    };
    let reboots = 0;
    const r = await runner(first, {
      killGraceMs: 20,
      reboot: async () => {
        reboots++;
        first.teardown();
        return fresh;
      },
    });
    const hung = await r.grade({ exerciseId: 'tiny', files: { 'add.ts': 'while (true) {}' }, lang: 'en' });
    expect(hung.status).toBe('error');
    await new Promise((res) => setTimeout(res, 60));
    const next = await r.grade({ exerciseId: 'tiny', files: { 'add.ts': 'export const add = (a: number, b: number) => a + b;' }, lang: 'en' });
    expect(reboots).toBe(1);
    expect(first.tornDown).toBe(true);
    expect(next.status).toBe('pass');
    expect(
      fresh.spawns.some((s) => s.command === 'npm'),
      'the fresh container installs its env',
    ).toBe(true);
  }, 10_000);

  test("the container's on('error') messages reach the page", async () => {
    const wc = new FakeWebContainer();
    const messages: string[] = [];
    await runner(wc, { onError: (m) => messages.push(m) });
    for (const listener of wc.errorListeners) listener({ message: 'third-party cookies are blocked' });
    expect(messages).toEqual(['third-party cookies are blocked']);
  });
});
