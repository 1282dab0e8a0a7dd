import { describe, expect, test } from 'vitest';
import { childRelay, spawnChild } from './child-process.ts';
import type { WorkerMessage } from './protocol.ts';

describe("the grading worker's child processes, relayed through the page", () => {
  test('a spawned child asks the page to start it, hears what the page passes on, and ends at its exit', async () => {
    const sent: WorkerMessage[] = [];
    const relay = childRelay((m) => sent.push(m));
    const child = spawnChild(relay.create, { main: 'main', code: { 'a.ts': '' } });
    const out: string[] = [];
    child.onOutput((stream, text) => out.push(`${stream}:${text}`));
    expect(sent).toEqual([{ type: 'child-start', child: 0, job: { main: 'main', code: { 'a.ts': '' } } }]);
    relay.receive({ type: 'child-message', child: 0, message: { type: 'stdout', text: 'hello' } });
    relay.receive({ type: 'child-message', child: 0, message: { type: 'exit', code: 3 } });
    expect(await child.exited).toBe(3);
    expect(out).toEqual(['stdout:hello']);
    // Ended: the page is told to stop its worker, and anything said later is dropped.
    expect(sent.at(-1)).toEqual({ type: 'child-kill', child: 0 });
    relay.receive({ type: 'child-message', child: 0, message: { type: 'stdout', text: 'late' } });
    expect(out).toEqual(['stdout:hello']);
  });

  test('killed, a child exits with null; one the page could not start exits with 1 and says why on stderr', async () => {
    const sent: WorkerMessage[] = [];
    const relay = childRelay((m) => sent.push(m));
    const killed = spawnChild(relay.create, { main: '', code: {} });
    const broken = spawnChild(relay.create, { main: '', code: {} });
    const err: string[] = [];
    broken.onOutput((_, text) => err.push(text));
    killed.kill();
    relay.receive({ type: 'child-error', child: 1, message: 'this page cannot start a process of its own' });
    expect(await killed.exited).toBeNull();
    expect(await broken.exited).toBe(1);
    expect(err).toEqual(['this page cannot start a process of its own']);
    expect(sent.filter((m) => m.type === 'child-kill')).toEqual([
      { type: 'child-kill', child: 0 },
      { type: 'child-kill', child: 1 },
    ]);
  });
});
