/**
 * How the tests' side reaches the learner's code in strict grading: the tests' process connects to
 * a Unix socket in its own workspace, and the grader hands that connection, unread, to a fresh
 * learner's process it starts in the learner's sandbox (as the process's fd 3). Each connection (the
 * test worker, or a child process a suite starts to load the learner's module on its own) gets its
 * own learner's process. From then on the bytes go straight from one process to the other; the
 * grader keeps no copy of the connection. The learner's sandbox has no path to the tests' socket:
 * it cannot connect again, or to anything else of the tests.
 */
import { chmod, mkdir, rm } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';

export const CHANNEL_DIR = '.channel';
export const TESTS_SOCKET = `${CHANNEL_DIR}/tests.sock`;

export interface StrictHandoff {
  /** Stops accepting connections (those already handed over stay with their learner's process). */
  close(): Promise<void>;
}

/**
 * Listens in the tests' workspace; `startLearner(socket)` must start a process that takes `socket`
 * over (ConfinedSandbox.runWithSocket) before it returns, since the grader's copy is closed then.
 */
export async function startHandoff(testsRoot: string, startLearner: (socket: net.Socket) => void): Promise<StrictHandoff> {
  await rm(join(testsRoot, CHANNEL_DIR), { recursive: true, force: true });
  await mkdir(join(testsRoot, CHANNEL_DIR), { recursive: true, mode: 0o755 });
  // Paused: not a byte of the tests' first message is read here; it waits in the socket for the learner.
  const server = net.createServer({ pauseOnConnect: true });
  server.on('connection', (socket) => {
    try {
      startLearner(socket);
    } finally {
      // Closes the grader's descriptor only (no shutdown): the learner's process holds its own.
      socket.destroy();
    }
  });
  const path = join(testsRoot, TESTS_SOCKET);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  // A sandbox run as another user (the grader started as root) must be able to connect.
  await chmod(path, 0o777);
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
