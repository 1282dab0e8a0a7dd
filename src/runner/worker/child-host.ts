/**
 * The page's side of the grading worker's "child processes" (child-process.ts): the page starts
 * each one as a worker of its own when the grading worker asks, passes on what it says, and stops
 * every one of them with the run. Started from the page, not from inside the grading worker,
 * because a nested `new Worker()` can block Firefox's grading worker for good.
 */
import type { ChildJob, ChildWorker } from './child-process.ts';
import type { ChildReply } from './protocol.ts';

/** What the host needs of a Worker (a fake in unit tests): what the grading worker's side needs of its children. */
export type HostedWorker = ChildWorker;

/**
 * At most this many at once. A suite starts one; the learner's code runs in the grading worker and
 * can post a start of its own, and must not fill the tab with workers.
 */
export const MAX_CHILDREN = 8;

export function hostChildren(createWorker: (() => HostedWorker) | undefined, reply: (m: ChildReply) => void) {
  const running = new Map<number, HostedWorker>();
  const kill = (child: number) => {
    running.get(child)?.terminate();
    running.delete(child);
  };
  return {
    start(child: number, job: ChildJob) {
      if (!createWorker) return reply({ type: 'child-error', child, message: 'this page cannot start a process of its own' });
      if (running.size >= MAX_CHILDREN || running.has(child))
        return reply({ type: 'child-error', child, message: `no more than ${MAX_CHILDREN} processes at once` });
      let worker: HostedWorker;
      try {
        worker = createWorker();
      } catch (err) {
        return reply({ type: 'child-error', child, message: String(err) });
      }
      running.set(child, worker);
      worker.onmessage = ({ data }) => running.has(child) && reply({ type: 'child-message', child, message: data });
      worker.onerror = (e) => {
        e.preventDefault?.();
        if (!running.has(child)) return;
        kill(child);
        reply({ type: 'child-error', child, message: e.message || 'the child worker failed to start' });
      };
      worker.postMessage(job);
    },
    kill,
    /** The run is over: no child outlives it. */
    stopAll() {
      for (const child of [...running.keys()]) kill(child);
    },
  };
}
