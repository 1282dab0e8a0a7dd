// G3-G5: once the pre-stop window is over the server stops accepting and closes its idle
// connections, requests in flight get their whole answer, and every answer from shutdown() on says
// Connection: close. Each describe is one rule; every test of the file runs
// concurrently (they wait on real timers, each on its own server).
import { describe, expect } from 'vitest';
import { ms, showReply, since, test, type Reply } from './harness.ts';

/** Long enough for the server to close a connection after its answer, on a loaded machine. */
const CLOSES_WITHIN_MS = 800;

describe.concurrent('G3 then the server stops accepting and closes idle connections', () => {
  test.concurrent('G3 new connections are refused once preStopMs has passed, while a request is still in flight', async ({ h }) => {
    const rig = await h.start({ preStopMs: 200, drainMs: 5000 });
    rig.fresh('/slow/3000');
    await h.until(() => rig.handled.length === 1, 1000);
    const stop = rig.shutdown();
    const probes: Array<{ at: number; reply: Reply }> = [];
    for (;;) {
      const reply = await rig.fresh('/probe');
      probes.push({ at: reply.at - stop.t0, reply });
      if (reply.error === 'ECONNREFUSED' || performance.now() - stop.t0 > 1000) break;
      await h.sleep(40);
    }
    const last = probes.at(-1)!;
    expect(
      last.reply.error,
      `with preStopMs 200 and a request in flight for 3000 ms, a new connection ${ms(last.at)} after shutdown() got: ${showReply(last.reply)}; it should have been refused: once the pre-stop window is over, stop listening (server.close()) at once, without waiting for the requests in flight`,
    ).toBe('ECONNREFUSED');
  });

  test.concurrent('G3 an idle kept-alive connection is closed as soon as the server stops accepting', async ({ h }) => {
    const rig = await h.start({ preStopMs: 200, drainMs: 5000 });
    const keep = rig.client();
    const before = await keep.get('/orders');
    const idle = rig.connOf(before);
    expect(idle, `the request before shutdown() got: ${showReply(before)}`).toBeDefined();
    rig.fresh('/slow/3000');
    await h.until(() => rig.handled.length === 2, 1000);
    const stop = rig.shutdown();
    await h.until(() => idle!.closedAt !== undefined, 1000);
    expect(
      idle!.closedAt !== undefined && idle!.closedAt - stop.t0 < 1000,
      `with preStopMs 200 and a request in flight on another connection, the idle kept-alive connection closed ${since(stop, idle!.closedAt)}: once the server stops accepting, close idle connections at once (server.closeIdleConnections()) instead of waiting for keepAliveTimeout or for the requests in flight`,
    ).toBe(true);
  });
});

describe.concurrent('G4 requests in flight get their whole answer', () => {
  test.concurrent('G4 a request in flight when shutdown() is called gets its whole answer', async ({ h }) => {
    const rig = await h.start({ preStopMs: 200, drainMs: 2000 });
    const slow = rig.fresh('/slow/600');
    await h.until(() => rig.handled.length === 1, 1000);
    rig.shutdown();
    const reply = await slow;
    expect(
      reply.status === 200 && reply.complete && reply.body === 'done after 600 ms',
      `a request that takes 600 ms, in flight when shutdown() was called (preStopMs 200, drainMs 2000), got: ${showReply(reply)}. Stopping the server must not cut the requests it is serving.`,
    ).toBe(true);
  });

  test.concurrent('G4 a request that arrives during the pre-stop window gets its whole answer', async ({ h }) => {
    const rig = await h.start({ preStopMs: 400, drainMs: 2000 });
    rig.shutdown();
    const reply = await rig.fresh('/slow/600');
    // Refused, or answered without the handler: the pre-stop window did not serve it (G2's business).
    if (!rig.handled.includes('/slow/600')) return;
    expect(
      reply.status === 200 && reply.complete && reply.body === 'done after 600 ms',
      `a request that takes 600 ms, sent right after shutdown() (preStopMs 400, drainMs 2000), got: ${showReply(reply)}. It was accepted during the pre-stop window, so it is in flight like any other.`,
    ).toBe(true);
  });

  test.concurrent('G4 an answer whose head was sent before shutdown() gets its whole body', async ({ h }) => {
    const rig = await h.start({ preStopMs: 200, drainMs: 2000 });
    const keep = rig.client();
    const stream = keep.get('/stream/600');
    await h.until(() => rig.handled.length === 1, 1000);
    await h.sleep(20);
    rig.shutdown();
    const reply = await stream;
    expect(
      reply.status === 200 && reply.complete && reply.body === 'part 1;part 2',
      `an answer sent in two parts 600 ms apart, its head and first part sent before shutdown() (preStopMs 200, drainMs 2000), got: ${showReply(reply)}`,
    ).toBe(true);
  });

  test.concurrent('G4 the drain deadline counts from when the server stops accepting, not from shutdown()', async ({ h }) => {
    const rig = await h.start({ preStopMs: 300, drainMs: 600 });
    const slow = rig.fresh('/slow/750');
    await h.until(() => rig.handled.length === 1, 1000);
    const stop = rig.shutdown();
    const reply = await slow;
    // Cut, it must have had drainMs from the moment the server stopped accepting (when close() was
    // called: a server that stopped at once, which is G2's business, has its deadline sooner).
    const from = rig.stoppedAt ?? stop.t0 + 300;
    expect(
      (reply.status === 200 && reply.complete) || reply.at - from >= 600 - 60,
      `with preStopMs 300 and drainMs 600, the drain deadline is 900 ms after shutdown(); a request that ends about 750 ms after shutdown() got: ${showReply(reply)} (${since(stop, reply.at)}; the server stopped accepting ${since(stop, rig.stoppedAt)}). drainMs starts when the server stops accepting, after the pre-stop window.`,
    ).toBe(true);
  });
});

describe.concurrent('G5 every answer from shutdown() on says Connection: close', () => {
  /** The connection of a reply, closed within CLOSES_WITHIN_MS of the reply's end. */
  async function expectClosedAfter(
    h: { until(c: () => boolean, ms: number): Promise<boolean> },
    conn: { closedAt?: number } | undefined,
    reply: Reply,
    what: string,
  ) {
    await h.until(() => conn?.closedAt !== undefined, CLOSES_WITHIN_MS);
    expect(
      conn?.closedAt !== undefined && conn.closedAt - reply.at < CLOSES_WITHIN_MS,
      `${what}, and its connection was still open ${CLOSES_WITHIN_MS} ms after the answer had ended (${showReply(reply)}). A connection kept alive past its last answer holds server.close() until keepAliveTimeout or the drain deadline.`,
    ).toBe(true);
  }

  test.concurrent('G5 answers during the pre-stop window say Connection: close, and their connections close', async ({ h }) => {
    const rig = await h.start({ preStopMs: 2000, drainMs: 2000 });
    const kept = rig.client();
    await kept.get('/orders');
    rig.shutdown();
    // On the connection kept alive from before, on a new one that asks for keep-alive, and the probe's
    // own 503 on a kept-alive connection.
    const replies = await Promise.all([kept.get('/orders'), rig.client().get('/orders'), rig.client().get('/ready')]);
    const where = [
      'GET /orders on a connection kept alive from before shutdown()',
      'GET /orders on a new kept-alive connection',
      'GET /ready on a new kept-alive connection (its 503 too)',
    ];
    // A request refused or reset was not answered at all: that is G2's business.
    for (const [i, reply] of replies.entries()) {
      if (reply.status === undefined) continue;
      expect(
        reply.headers.connection,
        `${where[i]}, sent right after shutdown() (preStopMs 2000), got: ${showReply(reply)}. From shutdown() on, every answer carries Connection: close, so clients move their kept-alive connections elsewhere while this instance still listens.`,
      ).toBe('close');
      await expectClosedAfter(h, rig.connOf(reply), reply, `the answer to ${where[i]} during the pre-stop window said Connection: close`);
    }
  });

  test.concurrent('G5 a request in flight when shutdown() is called is answered with Connection: close', async ({ h }) => {
    const rig = await h.start({ preStopMs: 100, drainMs: 3000 });
    const keep = rig.client();
    const slow = keep.get('/slow/400');
    await h.until(() => rig.handled.length === 1, 1000);
    rig.shutdown();
    const reply = await slow;
    // Cut before it was answered: that is G4's business.
    if (reply.status === undefined) return;
    expect(
      reply.headers.connection,
      `a request on a kept-alive connection, in flight when shutdown() was called and answered 400 ms later, got: ${showReply(reply)}. Its head had not been sent yet when shutdown() was called: it must say Connection: close too (res.setHeader on the responses still open).`,
    ).toBe('close');
    await expectClosedAfter(h, rig.connOf(reply), reply, 'the answer said Connection: close');
  });

  test.concurrent('G5 a kept-alive connection whose answer began before shutdown() closes once that answer ends', async ({ h }) => {
    const rig = await h.start({ preStopMs: 100, drainMs: 3000 });
    const keep = rig.client();
    const stream = keep.get('/stream/500');
    await h.until(() => rig.handled.length === 1, 1000);
    await h.sleep(20);
    rig.shutdown();
    const reply = await stream;
    // Cut before it ended: that is G4's business.
    if (!reply.complete) return;
    await expectClosedAfter(h, rig.connOf(reply), reply, 'an answer whose head (Connection: keep-alive) went out before shutdown() ended during the drain');
  });
});
