// G1-G2: readiness flips the moment shutdown() is called, and the server keeps serving through the
// pre-stop window. Each describe is one rule; its tests, and the two
// rules, run concurrently (they wait on real timers, each test on its own server).
import { describe, expect } from 'vitest';
import { showReply, showStop, since, test, type Reply } from './harness.ts';

/**
 * What a load balancer's health check takes for "not ready": a 503, or no answer at all (a server
 * that has stopped listening is out either way; whether it should still listen is G2's business).
 */
const notReady = (r: Reply) => r.status === 503 || r.status === undefined;

describe.concurrent('G1 readiness flips first', () => {
  test.concurrent('G1 GET /ready answers 200 before shutdown, and the handler gets every other request', async ({ h }) => {
    const rig = await h.start();
    expect(rig.graceful.ready(), 'before shutdown() was called, ready() returned false').toBe(true);
    const ready = await rig.fresh('/ready');
    expect(ready.status, `before shutdown(), GET /ready got: ${showReply(ready)}; expected 200`).toBe(200);
    const orders = await rig.fresh('/orders?id=7');
    const home = await rig.fresh('/');
    // Only GET /ready is the probe's: a POST to /ready is a request of the application's.
    const post = await rig.fresh('/ready', 'POST');
    expect(
      [orders.status, home.status, post.status],
      `GET /orders?id=7 got: ${showReply(orders)}; GET / got: ${showReply(home)}; POST /ready got: ${showReply(post)}; the handler answers them with 200`,
    ).toEqual([200, 200, 200]);
    expect(
      rig.handled,
      'the paths the handler received, for GET /orders?id=7, GET / and POST /ready (only GET /ready is answered by serveGracefully itself; every other request, POST /ready included, goes to the handler)',
    ).toEqual(['/orders', '/', '/ready']);
  });

  test.concurrent('G1 ready() and GET /ready say not ready from the moment shutdown() is called', async ({ h }) => {
    const rig = await h.start({ preStopMs: 500, drainMs: 1000 });
    const keep = rig.client();
    const before = await keep.get('/ready');
    expect(before.status, `before shutdown(), GET /ready got: ${showReply(before)}`).toBe(200);
    const stop = rig.shutdown();
    const right = rig.graceful.ready();
    expect(stop.threw, showStop(stop)).toBeUndefined();
    expect(right, 'ready() still returned true right after shutdown() was called: the load balancer must learn first that this instance is going').toBe(false);
    const [fresh, kept] = await Promise.all([rig.fresh('/ready'), keep.get('/ready')]);
    expect(
      notReady(fresh),
      `GET /ready on a new connection, right after shutdown() (the pre-stop window is 500 ms), got: ${showReply(fresh)}; expected 503, so the load balancer takes this instance out while it still serves`,
    ).toBe(true);
    expect(notReady(kept), `GET /ready on a kept-alive connection, right after shutdown(), got: ${showReply(kept)}; expected 503`).toBe(true);
    await h.at(stop.t0, 250);
    const later = await rig.fresh('/ready');
    expect(notReady(later), `GET /ready 250 ms after shutdown() (still in the pre-stop window) got: ${showReply(later)}; expected 503`).toBe(true);
    expect(rig.graceful.ready(), 'ready() returned true again during the pre-stop window').toBe(false);
    expect(rig.handled, 'the handler received GET /ready; serveGracefully answers it itself').not.toContain('/ready');
    await h.settled(stop, 3000);
    expect(rig.graceful.ready(), `ready() returned true once the shutdown had finished (${showStop(stop)})`).toBe(false);
  });
});

describe.concurrent('G2 the pre-stop window keeps serving', () => {
  test.concurrent('G2 new connections are accepted and served during the pre-stop window', async ({ h }) => {
    const rig = await h.start({ preStopMs: 1000, drainMs: 1000 });
    const stop = rig.shutdown();
    const first = await rig.fresh('/orders');
    await h.at(stop.t0, 150);
    const second = await rig.fresh('/orders');
    for (const [when, reply] of [
      ['right after shutdown()', first],
      ['150 ms after shutdown()', second],
    ] as const) {
      expect(
        reply.status === 200 && reply.complete,
        `a request on a new connection ${when}, with preStopMs 1000, got: ${showReply(reply)}. Until the pre-stop window is over the load balancer still sends traffic here: keep listening and serve it through the handler.`,
      ).toBe(true);
    }
    expect(rig.handled, 'the paths the handler received during the pre-stop window').toEqual(['/orders', '/orders']);
  });

  test.concurrent('G2 a kept-alive connection still serves its next request during the pre-stop window', async ({ h }) => {
    const rig = await h.start({ preStopMs: 1000, drainMs: 1000 });
    const keep = rig.client();
    const before = await keep.get('/orders');
    expect(before.status, `the request before shutdown() got: ${showReply(before)}`).toBe(200);
    rig.shutdown();
    const during = await keep.get('/orders');
    expect(
      during.status === 200 && during.complete,
      `the next request on the same kept-alive connection, sent right after shutdown() (preStopMs 1000), got: ${showReply(during)}. Closing idle kept-alive connections while the load balancer still routes here races the client's next request (a reset, a 502 at the load balancer): keep them until the pre-stop window is over.`,
    ).toBe(true);
    expect(
      during.conn,
      `the request right after shutdown() arrived on connection ${during.conn}, not on the kept-alive connection ${before.conn}: that connection was closed at the start of the pre-stop window`,
    ).toBe(before.conn);
  });

  test.concurrent('G2 a kept-alive connection whose answer ends during the pre-stop window stays open', async ({ h }) => {
    const rig = await h.start({ preStopMs: 1000, drainMs: 1000 });
    const keep = rig.client();
    // Its head (Connection: keep-alive) goes out before shutdown(), its end during the pre-stop window.
    const stream = keep.get('/stream/150');
    await h.until(() => rig.handled.length === 1, 1000);
    await h.sleep(20);
    const stop = rig.shutdown();
    const first = await stream;
    expect(first.status === 200 && first.complete, `an answer in two parts 150 ms apart, begun before shutdown(), got: ${showReply(first)}`).toBe(true);
    const conn = rig.connOf(first);
    await h.sleep(100);
    const closedAt = conn?.closedAt;
    const next = await keep.get('/orders');
    expect(
      conn !== undefined && closedAt === undefined && next.status === 200 && next.complete && next.conn === first.conn,
      `with preStopMs 1000, a kept-alive connection whose answer (its head sent before shutdown()) ended ${since(stop, first.at)} ${closedAt === undefined ? 'was still open 100 ms later' : `was closed ${since(stop, closedAt)}`}, and the next request on it, sent ${since(stop, next.sentAt)}, got: ${showReply(next)} on connection ${next.conn} (the kept-alive one is ${first.conn}). During the pre-stop window kept-alive connections stay open: close them only once the server has stopped accepting.`,
    ).toBe(true);
  });
});
