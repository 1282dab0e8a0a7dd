/**
 * What a suite gets in the page where Node would start a child process: a worker of its own, with
 * Node installed afresh (its own timers, loopback network and handles), the learner's files and a
 * main script. Like a Node process, it ends by itself once nothing keeps it alive (no ref'd timer,
 * server or socket left), or at process.exit(); its stdout and stderr come back as text. A suite
 * reaches it through globalThis[CHILD_PROCESS_GLOBAL] (suite-paths.ts).
 *
 * The grading worker never starts that worker itself: it asks the page to (childRelay below, and
 * child-host.ts on the page's side). Firefox ESR sometimes blocks a worker for good in `new Worker()`
 * of a nested worker, under load, with no error: the run then stood still until its hard limit
 * (docs/in-page-node.md).
 */
import type { ChildReply, WorkerMessage } from './protocol.ts';

export interface ChildJob {
  /** The main script: an ES module, imports linked like a learner file's (`node:http`, `../src/deadline.ts`). */
  main: string;
  /** The learner's files, already plain JavaScript. */
  code: Record<string, string>;
}

/** What the child worker says. */
export type ChildMessage = { type: 'stdout' | 'stderr'; text: string } | { type: 'exit'; code: number };

export interface ChildProcess {
  onOutput(listener: (stream: 'stdout' | 'stderr', text: string) => void): void;
  /** The exit code, or null when it was killed. */
  exited: Promise<number | null>;
  kill(): void;
}

/** What spawnChild needs of the child's worker: a Worker, or the page's, reached through childRelay. */
export interface ChildWorker {
  onmessage: ((e: { data: ChildMessage }) => void) | null;
  onerror: ((e: { message?: string; preventDefault?(): void }) => void) | null;
  postMessage(job: ChildJob): void;
  terminate(): void;
}

export function spawnChild(createWorker: () => ChildWorker, job: ChildJob): ChildProcess {
  const worker = createWorker();
  const listeners: Array<(stream: 'stdout' | 'stderr', text: string) => void> = [];
  let exit!: (code: number | null) => void;
  const exited = new Promise<number | null>((resolve) => (exit = resolve));
  const end = (code: number | null) => {
    worker.terminate();
    exit(code);
  };
  worker.onmessage = ({ data }) => {
    if (data.type === 'exit') end(data.code);
    else for (const l of listeners) l(data.type, data.text);
  };
  worker.onerror = (e) => {
    e.preventDefault?.();
    for (const l of listeners) l('stderr', String(e.message ?? 'the child worker failed to start'));
    end(1);
  };
  worker.postMessage(job);
  return { onOutput: (l) => void listeners.push(l), exited, kill: () => end(null) };
}

/**
 * The grading worker's side of its children: each ChildWorker it hands out is a worker the page
 * starts on request (`post`), whose messages come back through `receive`.
 */
export function childRelay(post: (m: WorkerMessage) => void) {
  let next = 0;
  const open = new Map<number, ChildWorker>();
  return {
    create(): ChildWorker {
      const child = next++;
      const worker: ChildWorker = {
        onmessage: null,
        onerror: null,
        postMessage: (job) => {
          open.set(child, worker);
          post({ type: 'child-start', child, job });
        },
        terminate: () => {
          if (open.delete(child)) post({ type: 'child-kill', child });
        },
      };
      return worker;
    },
    receive(reply: ChildReply) {
      const worker = open.get(reply.child);
      if (!worker) return; // killed meanwhile: what it said after is dropped, as a killed process's output is
      if (reply.type === 'child-message') worker.onmessage?.({ data: reply.message });
      else worker.onerror?.({ message: reply.message });
    },
  };
}
