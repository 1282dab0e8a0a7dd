/**
 * The worker thread of `npm run sim -- <sim> --policy <folder>` (see sim-policy.ts): imports the
 * learner's .ts files, runs the simulation with them and posts the result back. Math.random is
 * replaced by a generator seeded from the simulation, the seed and the exercise (seededRandom, as
 * in the graders), so the same seed and code give the same figures even for code that ignores the
 * random function it is handed. Each policy draws from its own generator: every call into one of its
 * exports switches Math.random to it (the simulations run one policy after another), so a policy's
 * figures do not depend on which other policies run beside it.
 */
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { seededRandom } from '../exercises/_env/grader-random.mjs';
import type { LearnerCode } from '../src/sims/learner.ts';
import { runSim } from '../src/sims/registry.ts';
import type { SimJob, SimReply } from './sim-policy.ts';

let current: () => number = seededRandom('');
Math.random = () => current();

/** The module's exports, each function wrapped so that calling (or constructing) it selects `random`. */
function withRandom(exports: Record<string, unknown>, random: () => number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(exports)) {
    if (typeof value !== 'function') {
      out[name] = value;
      continue;
    }
    const fn = value as (...args: unknown[]) => unknown;
    const wrapped: typeof fn = new Proxy(fn, {
      apply(target, self, args) {
        current = random;
        return Reflect.apply(target, self, args);
      },
      construct(target, args, newTarget) {
        current = random;
        return Reflect.construct(target as unknown as new (...a: unknown[]) => object, args, newTarget === wrapped ? target : newTarget);
      },
    });
    out[name] = wrapped;
  }
  return out;
}

async function run(job: SimJob): Promise<SimReply> {
  const codes: LearnerCode[] = [];
  for (const policy of job.policies) {
    const random = seededRandom(`${job.sim}/${job.seed}/${policy.exercise}`);
    current = random;
    const exports: Record<string, unknown> = {};
    for (const file of policy.files) {
      try {
        Object.assign(exports, (await import(pathToFileURL(file).href)) as Record<string, unknown>);
      } catch (err) {
        return { kind: 'load', file, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
      }
    }
    codes.push({ exercise: policy.exercise, exports: withRandom(exports, random) });
  }
  return { kind: 'ok', result: runSim(job.sim, job.params, job.seed, codes) };
}

if (parentPort) {
  const port = parentPort;
  // Exit at once: a timer the learner's code left running must not keep the worker (and the command) alive.
  void run(workerData as SimJob).then((reply) => {
    port.postMessage(reply);
    process.exit(0);
  });
}
