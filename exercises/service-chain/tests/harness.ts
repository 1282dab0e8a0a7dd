// Shared by the hidden tests: the learner's three services (and stand-ins for B or C) on loopback
// ports, a user client that can hang up, and counters of what reached each server. All the tests
// run concurrently (they mostly wait on real deadlines; see service-chain.test.ts), so each gets its own
// scope (the `h` fixture) and everything it opened is closed when that test finishes, however it
// ended: a service that never answers cannot hang the run or leak into another test.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scopedTest, TestScope } from '../test-support/scope.ts';

/** The scopes of the tests running now. */
const open = new Set<Scope>();

// The wrapper counts calls by URL: a call started with a few milliseconds left may be aborted
// before its connection is even accepted, and must still count as a call. Every server's port is
// new when it starts listening, and its count starts at zero then.
const fetched = new Map<string, number>();
const realFetch = globalThis.fetch;
globalThis.fetch = ((input: any, init?: any) => {
  // Node 20 holds the sources of AbortSignal.any() weakly, so AbortSignal.any([x, AbortSignal.timeout(ms)])
  // can be garbage collected before the timeout fires (nodejs/node#57736, fixed in later Node lines).
  // That is a runtime bug, not the learner's: fetch is wrapped (before the services load) so that the
  // signals it is given, and their sources, stay reachable until the tests running now have ended
  // (the test whose services made the call is one of them).
  const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
  for (const scope of open) scope.retain(signal);
  const url = input instanceof Request ? input.url : String(input);
  fetched.set(url, (fetched.get(url) ?? 0) + 1);
  return realFetch(input, init);
}) as typeof fetch;

/** Calls to `url` that a server received or that were started with fetch, whichever is more. */
export function callsTo(server: { url: string; seen: unknown[] }): number {
  return Math.max(server.seen.length, fetched.get(server.url) ?? 0);
}

/**
 * The services run in this very process, so on a loaded machine they are slowed down exactly as
 * much as the tests' own clock readings. A meter of event-loop stalls (gaps well beyond a 5 ms
 * interval) tells how much time the process lost; time limits add it, up to a cap, so a busy
 * machine does not fail correct code and a fixed 1000 ms timeout still fails.
 */
export interface StallMeter {
  /** ms lost to stalls since the meter started */
  readonly stalled: number;
  stop(): number;
}
export const MAX_STALL_ALLOWANCE = 400;

/** One request as a server saw it. */
export interface Seen {
  headers: http.IncomingHttpHeaders;
  at: number;
  /** when the connection closed before an answer was finished (the caller gave up) */
  abandonedAt?: number;
}

export interface Listening {
  url: string;
  seen: Seen[];
}

export interface Reply {
  status: number;
  body: string;
  /** ms from sending the request to the end of the answer */
  ms: number;
}

/** What one test opened (servers, sockets, timers), closed when it finishes. */
export class Scope extends TestScope {
  override close(): void {
    open.delete(this);
    super.close();
  }

  /** Starts a meter of event-loop stalls (see StallMeter). */
  stallMeter(): StallMeter {
    let last = performance.now();
    let stalled = 0;
    const interval = setInterval(() => {
      const now = performance.now();
      stalled += Math.max(0, now - last - 15);
      last = now;
    }, 5);
    this.defer(() => clearInterval(interval));
    return {
      get stalled() {
        return stalled;
      },
      stop() {
        clearInterval(interval);
        return stalled;
      },
    };
  }

  /** Sleeps until `ms` after `started`, plus what the meter says the process lost (capped). */
  async sleepUntil(started: number, ms: number, meter?: StallMeter): Promise<void> {
    for (;;) {
      const extra = Math.min(meter?.stalled ?? 0, MAX_STALL_ALLOWANCE);
      const wait = started + ms + extra - performance.now();
      if (wait <= 0) return;
      await this.sleep(wait);
    }
  }

  /** Listens on a loopback port and records every request the server receives, beside its own handler. */
  async listen(server: unknown, what: string): Promise<Listening> {
    if (!(server instanceof http.Server)) throw new Error(`${what} did not return an http.Server (it returned ${typeOf(server)})`);
    const seen: Seen[] = [];
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      const entry: Seen = { headers: req.headers, at: performance.now() };
      seen.push(entry);
      res.once('close', () => {
        if (!res.writableFinished) entry.abandonedAt = performance.now();
      });
    });
    this.defer(() => {
      server.closeAllConnections();
      server.close();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    fetched.delete(url);
    return { url, seen };
  }

  /** A stand-in for B or C: `respond` gets the nth request (0-based); it may answer, hang or hang up. */
  stub(respond: (res: http.ServerResponse, n: number) => void): Promise<Listening> {
    let n = 0;
    return this.listen(
      http.createServer((_req, res) => respond(res, n++)),
      'the test stub',
    );
  }

  /** A user request on its own connection. `reply` resolves undefined if the user hung up or gave up waiting. */
  send(url: string, headers: Record<string, string> = {}, opts: { hangUpAfterMs?: number; waitMs?: number } = {}) {
    const started = performance.now();
    const client = http.request(url, { method: 'GET', agent: false, headers: { connection: 'close', ...headers } });
    this.defer(() => client.destroy());
    const reply = new Promise<Reply | undefined>((resolve) => {
      const giveUp = setTimeout(() => resolve(undefined), opts.waitMs ?? 3000);
      this.defer(() => clearTimeout(giveUp));
      client.on('error', () => resolve(undefined));
      client.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('error', () => resolve(undefined));
        res.on('end', () => {
          clearTimeout(giveUp);
          resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - started });
        });
      });
    });
    client.end();
    if (opts.hangUpAfterMs !== undefined) {
      const timer = setTimeout(() => client.destroy(), opts.hangUpAfterMs);
      this.defer(() => clearTimeout(timer));
    }
    return { reply, started, hangUp: () => client.destroy() };
  }
}

/** vitest's test with an `h` fixture: a fresh Scope per test (known to `open` until closed). */
export const test = scopedTest(() => {
  const scope = new Scope();
  open.add(scope);
  return scope;
});

export const answer =
  (status: number, body: unknown = { from: 'stub', status }) =>
  (res: http.ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
export const hang = () => {};
export const hangUp = (res: http.ServerResponse) => res.socket?.destroy();

function typeOf(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (typeof v === 'object') return `an object (${Object.prototype.toString.call(v)})`;
  return typeof v;
}

export const showReply = (r: Reply | undefined) => (r === undefined ? 'no answer' : `${r.status} ${r.body.slice(0, 120)} after ${Math.round(r.ms)} ms`);

/** The x-deadline-ms a server received on its nth request, as a string (or "none"). */
export const budgetSeen = (l: Listening, n = 0) => {
  const v = l.seen[n]?.headers['x-deadline-ms'];
  return v === undefined ? undefined : String(v);
};

// The first fetch and the first server in a process are slow (Node loads undici lazily): pay for
// that once, before any test measures time.
{
  const warm = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => warm.listen(0, '127.0.0.1', resolve));
  try {
    await (await fetch(`http://127.0.0.1:${(warm.address() as AddressInfo).port}/`)).text();
  } catch {
    // a broken network shows up in the tests themselves
  }
  warm.closeAllConnections();
  warm.close();
}
