// D8 in the page (the worker build takes this file for process-check.ts): the check of
// process-outcome.ts in a worker of its own, where Node is installed afresh. Like a Node process,
// that worker ends by itself once no ref'd timer, server or socket is left.
import { type ProcessCheck, type Started, SERVE_THREE, watchProcess } from './process-outcome.ts';

export { processProblem, type ProcessCheck } from './process-outcome.ts';

const MAIN = `
import http from 'node:http';
import { deadlineMiddleware } from '../src/deadline.ts';
${SERVE_THREE}`;

export function startProcessCheck(): ProcessCheck {
  const spawn = (globalThis as unknown as { __courseSpawn?: (main: string) => Started }).__courseSpawn;
  if (!spawn) throw new Error('this runtime cannot start a process of its own');
  return watchProcess(() => spawn(MAIN));
}
