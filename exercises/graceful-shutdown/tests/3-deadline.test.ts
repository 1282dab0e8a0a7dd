// G6-G7: at the drain deadline whatever is still open is closed, and shutdown() resolves once the
// server has closed and its last connection has gone, no sooner and not needlessly later. Each
// describe is one rule; every test of the file runs concurrently, each on its own server.
import { describe, expect } from 'vitest';
import { showReply, showStop, since, test, type Rig, type Stop } from './harness.ts';

/** Whether shutdown() settled before the server emitted 'close' (which comes once its last connection has gone). */
const resolvedEarly = (stop: Stop, rig: Rig) => stop.settled !== undefined && (rig.closedAt === undefined || stop.settled.at < rig.closedAt);

/** A loaded machine may fire a timer late; a missing deadline never fires at all. */
const LATE_MS = 1000;

describe.concurrent('G6 the drain deadline closes what is still open', () => {
  test.concurrent('G6 a request that never ends is cut at the drain deadline', async ({ h }) => {
    const rig = await h.start({ preStopMs: 100, drainMs: 400 });
    const hung = rig.fresh('/hang');
    await h.until(() => rig.handled.length === 1, 1000);
    const stop = rig.shutdown();
    const reply = await Promise.race([hung, h.at(stop.t0, 500 + LATE_MS).then(() => undefined)]);
    expect(
      reply,
      `with preStopMs 100 and drainMs 400, a request that never ends was still open ${500 + LATE_MS} ms after shutdown(): at the drain deadline (500 ms after shutdown() here), close every connection still open (server.closeAllConnections())`,
    ).toBeDefined();
    // The deadline is drainMs after the server stopped accepting (when close() was called; a server
    // that stopped at once, which is G2's business, has its deadline sooner).
    const from = rig.stoppedAt ?? stop.t0 + 100;
    expect(
      reply!.at - from >= 400 - 60,
      `with preStopMs 100 and drainMs 400, the request that never ends was cut ${since(stop, reply!.at)} (${showReply(reply!)}), but the server stopped accepting ${since(stop, rig.stoppedAt)}: it was cut before the drain deadline, drainMs after that`,
    ).toBe(true);
  });

  test.concurrent('G6 every connection still open at the deadline is closed, busy or not', async ({ h }) => {
    const rig = await h.start({ preStopMs: 100, drainMs: 400 });
    const keep = rig.client();
    const stream = keep.get('/stream/60000');
    const hung = [rig.fresh('/hang'), rig.fresh('/hang')];
    await h.until(() => rig.handled.length === 3, 1000);
    const stop = rig.shutdown();
    // One more that never ends, on a connection accepted during the pre-stop window (refused, it is
    // G2's business).
    hung.push(rig.fresh('/hang'));
    await h.until(() => rig.handled.length === 4, 90);
    const giveUp = h.at(stop.t0, 500 + LATE_MS).then(() => undefined);
    const ends = await Promise.all([stream, ...hung].map((r) => Promise.race([r, giveUp])));
    // The clients may hear of a closed connection a moment before the server's sockets report it.
    await h.until(() => rig.conns.every((c) => c.closedAt !== undefined), Math.max(50, stop.t0 + 500 + LATE_MS - performance.now()));
    const open = rig.conns.filter((c) => c.closedAt === undefined).length;
    expect(
      open,
      `with preStopMs 100 and drainMs 400, ${open} of the ${rig.conns.length} connections (three requests that never end, one of them sent during the pre-stop window, and one answer streaming for a minute) were still open ${500 + LATE_MS} ms after shutdown(): at the drain deadline close all of them, not only the idle ones (${ends
        .map((r) => (r ? showReply(r) : 'still waiting'))
        .join('; ')})`,
    ).toBe(0);
  });
});

describe.concurrent('G7 shutdown() resolves once everything is closed', () => {
  test.concurrent('G7 shutdown() stays pending while a request is in flight, and resolves soon after it ends', async ({ h }) => {
    const rig = await h.start({ preStopMs: 100, drainMs: 3000 });
    const slow = rig.fresh('/slow/700');
    await h.until(() => rig.handled.length === 1, 1000);
    const stop = rig.shutdown();
    await h.at(stop.t0, 400);
    expect(
      resolvedEarly(stop, rig),
      `a request ending about 700 ms after shutdown() was still in flight 400 ms after it, and ${showStop(stop)} although the server had not closed yet: stay pending until it has (server.close()'s callback, or its 'close' event)`,
    ).toBe(false);
    const reply = await slow;
    await h.settled(stop, LATE_MS);
    expect(
      stop.settled?.ok === true && stop.settled.at - reply.at < LATE_MS,
      `the only request in flight ended ${since(stop, reply.at)} (${showReply(reply)}) and the drain deadline is 3100 ms after shutdown(); ${showStop(stop)}. Once the last connection has gone, resolve at once: do not wait for the deadline.`,
    ).toBe(true);
  });

  test.concurrent('G7 shutdown() resolves only after the server has emitted close', async ({ h }) => {
    // The server's 'close' comes 150 ms after its last connection has gone (harness.ts says why).
    const rig = await h.start({ preStopMs: 100, drainMs: 3000, closeLagMs: 150 });
    // On a connection of its own (the client asks for Connection: close), so that a connection kept
    // alive past its answer, which is G5's business, cannot hold the shutdown here.
    const stream = rig.fresh('/stream/400');
    await h.until(() => rig.handled.length === 1, 1000);
    await h.sleep(20);
    const stop = rig.shutdown();
    await h.settled(stop, 400 + LATE_MS);
    const reply = await stream;
    expect(stop.settled?.ok, `${showStop(stop)}; the only request in flight got ${showReply(reply)}`).toBe(true);
    expect(
      resolvedEarly(stop, rig),
      `${showStop(stop)}, but the server emitted 'close' ${since(stop, rig.closedAt)}: the shutdown is over only when close() has called back, after the last connection has gone`,
    ).toBe(false);
  });

  test.concurrent('G7 shutdown() resolves once the drain deadline has closed what was left', async ({ h }) => {
    const rig = await h.start({ preStopMs: 100, drainMs: 300 });
    const hung = rig.fresh('/hang');
    await h.until(() => rig.handled.length === 1, 1000);
    const stop = rig.shutdown();
    await h.settled(stop, 400 + LATE_MS);
    const reply = await Promise.race([hung, h.sleep(0).then(() => undefined)]);
    // The request still open: the deadline did not cut it, and the server rightly has not closed
    // (that is G6's business).
    if (reply === undefined && stop.settled === undefined && stop.threw === undefined) return;
    expect(
      stop.settled?.ok,
      `with preStopMs 100 and drainMs 300 and one request that never ends, ${showStop(stop)} ${400 + LATE_MS} ms after it was called (the request: ${reply ? showReply(reply) : 'still open'})`,
    ).toBe(true);
  });
});
