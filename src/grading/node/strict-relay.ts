/**
 * The only link between the tests' sandbox and the learner's: Unix sockets in each workspace,
 * joined by the grader. Each connection from the tests' side (the test worker, or a child process
 * a suite starts to run the learner's module on its own) is paired with a fresh learner's process
 * that the grader starts for it. Bytes pass as they are; a line over the limit from a learner's
 * process, or a second connection to one learner's socket, is recorded as a violation and ends that
 * channel (the tests that still need the learner's code then fail). Neither side sees the other's
 * files or processes.
 */
import { chmod, mkdir, rm } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';

export const CHANNEL_DIR = '.channel';
export const TESTS_SOCKET = `${CHANNEL_DIR}/tests.sock`;
export const learnerSocket = (n: number) => `${CHANNEL_DIR}/learner-${n}.sock`;
const MAX_LINE = 16 * 1024 * 1024;

export interface StrictRelay {
  /** Why a channel was cut, when a learner's process broke the protocol. */
  readonly violations: string[];
  /** A learner's process hung up while its tests' side was still connected (or before it connected). */
  readonly learnerLeftFirst: boolean;
  close(): Promise<void>;
}

async function listen(path: string): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  // A sandbox run as another user (the grader started as root) must be able to connect.
  await chmod(path, 0o777);
  return server;
}

/**
 * Listens in both workspaces. `startLearner(socket)` starts a learner's process that connects to
 * `socket` (relative to the learner's workspace); the first is started at once, each other one when
 * the tests' side connects again.
 */
export async function startRelay(
  testsRoot: string,
  learnerRoot: string,
  startLearner: (socket: string) => void,
  opts: { spare?: boolean } = {},
): Promise<StrictRelay> {
  for (const root of [testsRoot, learnerRoot]) {
    await rm(join(root, CHANNEL_DIR), { recursive: true, force: true });
    await mkdir(join(root, CHANNEL_DIR), { recursive: true, mode: 0o755 });
  }
  const violations: string[] = [];
  const servers: net.Server[] = [];
  const sockets = new Set<net.Socket>();
  let learnerLeftFirst = false;
  let closing = false;

  /** One learner's process and the one tests' connection it serves. */
  const pairing = async (n: number) => {
    const server = await listen(join(learnerRoot, learnerSocket(n)));
    servers.push(server);
    const ends: { tests?: net.Socket; learner?: net.Socket; testsGone: boolean; learnerGone: boolean } = { testsGone: false, learnerGone: false };
    const toTests: Buffer[] = [];
    const toLearner: Buffer[] = [];
    const cut = () => {
      ends.tests?.end();
      ends.learner?.destroy();
    };
    const pass = (from: net.Socket, to: () => net.Socket | undefined, queue: Buffer[], capped: boolean, onClose: () => void) => {
      sockets.add(from);
      let lineBytes = 0;
      from.on('data', (chunk: Buffer) => {
        const nl = chunk.lastIndexOf(10);
        lineBytes = nl >= 0 ? chunk.length - nl - 1 : lineBytes + chunk.length;
        if (capped && lineBytes > MAX_LINE) {
          violations.push("a message over 16 MB from the learner's process");
          cut();
          return;
        }
        const target = to();
        if (target) target.write(chunk);
        else queue.push(chunk);
      });
      from.on('error', () => undefined);
      from.on('close', onClose);
    };
    server.on('connection', (sock) => {
      if (ends.learner) {
        violations.push('a second connection to the grading channel');
        return sock.destroy();
      }
      ends.learner = sock;
      for (const chunk of toLearner.splice(0)) sock.write(chunk);
      pass(
        sock,
        () => ends.tests,
        toTests,
        true,
        () => {
          ends.learnerGone = true;
          if (!ends.testsGone && !closing) learnerLeftFirst = true;
          ends.tests?.end();
        },
      );
    });
    startLearner(learnerSocket(n));
    return {
      attach(sock: net.Socket) {
        ends.tests = sock;
        if (ends.learnerGone) return void sock.end();
        for (const chunk of toTests.splice(0)) sock.write(chunk);
        pass(
          sock,
          () => ends.learner,
          toLearner,
          false,
          () => {
            ends.testsGone = true;
            ends.learner?.destroy();
          },
        );
      },
    };
  };

  // A learner's socket path taken by something else (the learner's code can write its workspace)
  // is a violation, never a crash of the grader.
  const prepare = (n: number) =>
    pairing(n).catch((error: unknown) => {
      violations.push(`the grading channel could not be opened: ${String((error as Error)?.message ?? error).slice(0, 200)}`);
      return undefined;
    });
  // The first learner's process starts at once, while vitest starts its test worker. With `spare`
  // (a suite that loads the learner's module again in a child process of its own, such as
  // deadline-middleware's D8, whose child must exit in time), each connection starts the next one
  // ahead; otherwise a further one starts only if the tests do connect again: a spare for every
  // grade cost a whole Node start-up that was almost never used, on two cores.
  let next = 0;
  const first = prepare(next++);
  let ready: typeof first | undefined = first;
  const tests = await listen(join(testsRoot, TESTS_SOCKET));
  servers.push(tests);
  tests.on('connection', (sock) => {
    const mine = ready ?? prepare(next++);
    ready = opts.spare ? prepare(next++) : undefined;
    void mine.then((p) => (p ? p.attach(sock) : sock.destroy()));
  });
  await first;

  return {
    violations,
    get learnerLeftFirst() {
      return learnerLeftFirst;
    },
    async close() {
      closing = true;
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}
