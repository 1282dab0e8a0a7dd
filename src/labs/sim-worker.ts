/// <reference lib="webworker" />
/**
 * Runs simulations off the main thread, so a 100,000-request hedging run never freezes the page.
 * Answers each request with its id; the lab drops answers to requests it no longer cares about.
 */
import { runSim, SimParamError } from '../sims/index.ts';
import { prepareView } from './prepare.ts';
import type { RunRequest, RunResponse } from './protocol.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.addEventListener('message', async (event: MessageEvent<RunRequest>) => {
  const req = event.data;
  if (req?.type !== 'run') return;
  let response: RunResponse;
  try {
    const started = performance.now();
    // The learner's code, only when asked for: its loader (types stripped, Node's modules) stays out otherwise.
    const learner = req.learner?.length ? await (await import('./learner-modules.ts')).loadLearnerCode(req.learner, req.sim, req.seed) : undefined;
    const result = runSim(req.sim, req.params, req.seed, learner?.code ?? []);
    for (const { exercise, error } of learner?.errors ?? []) {
      (result.learner ??= []).push({ exercise, policy: `yours-${exercise}`, label: { vi: exercise, en: exercise }, notPassing: false, error });
    }
    const view = prepareView(result, { maxPoints: req.maxPoints, tableRows: req.tableRows });
    response = { type: 'result', id: req.id, view, computeMs: performance.now() - started };
  } catch (error) {
    const errors = error instanceof SimParamError ? error.errors : [{ vi: `Simulation lỗi: ${String(error)}`, en: `The simulation failed: ${String(error)}` }];
    response = { type: 'error', id: req.id, errors };
  }
  scope.postMessage(response);
});
