/**
 * The messages between a lab and its Web Worker, and the bookkeeping that makes "latest wins" hold:
 * every request has an id, at most one request is in flight, a newer one waits in a single slot
 * (so a fast slider drag never queues up runs), and a result that is not for the latest request is
 * dropped. If the worker is stuck on an old, heavy run, the caller is told to restart it.
 */
import type { ParamValues, Text } from '../sims/index.ts';
import type { LearnerFiles } from './learner-code.ts';
import type { LabView } from './prepare.ts';

export interface RunRequest {
  type: 'run';
  id: number;
  sim: string;
  params: ParamValues;
  seed: number;
  /** Upper bound on the points sent per chart (thinned in the worker, peaks kept). */
  maxPoints: number;
  /** Upper bound on the rows of each chart's data table. */
  tableRows: number;
  /** The learner's own code to run as more policies ("use my code"). */
  learner?: LearnerFiles[];
}

export type RunResponse = { type: 'result'; id: number; view: LabView; computeMs: number } | { type: 'error'; id: number; errors: Text[] };

export interface Outgoing<P> {
  id: number;
  payload: P;
}

export interface SubmitAction<P> {
  /** Send this now (absent: it waits for the current run). */
  send?: Outgoing<P>;
  /** Terminate the worker first: it is busy with a run nobody wants any more. */
  restart?: boolean;
}

export interface ReceiveAction<P> {
  /** Show this response: it answers the latest request. */
  accept: boolean;
  send?: Outgoing<P>;
}

export class LatestOnly<P> {
  #nextId = 1;
  #latest = 0;
  #inFlight: { id: number; since: number } | null = null;
  #pending: Outgoing<P> | null = null;

  /** @param restartAfterMs how long a superseded run may keep the worker busy before it is abandoned. */
  constructor(private readonly restartAfterMs = 250) {}

  get latestId(): number {
    return this.#latest;
  }

  get busy(): boolean {
    return this.#inFlight !== null;
  }

  submit(payload: P, now: number): SubmitAction<P> {
    const out = { id: this.#nextId++, payload };
    this.#latest = out.id;
    if (!this.#inFlight) {
      this.#inFlight = { id: out.id, since: now };
      return { send: out };
    }
    if (now - this.#inFlight.since > this.restartAfterMs) {
      this.#inFlight = { id: out.id, since: now };
      this.#pending = null;
      return { send: out, restart: true };
    }
    this.#pending = out;
    return {};
  }

  /** A result or an error came back for `id`. */
  receive(id: number, now: number): ReceiveAction<P> {
    if (!this.#inFlight || this.#inFlight.id !== id) return { accept: false }; // from a worker we already replaced
    this.#inFlight = null;
    const accept = id === this.#latest;
    const pending = this.#pending;
    this.#pending = null;
    if (!pending) return { accept };
    this.#inFlight = { id: pending.id, since: now };
    return { accept, send: pending };
  }

  /** The latest state was answered some other way (a cache): whatever is in flight or waiting is now stale. */
  supersede(): void {
    this.#latest = this.#nextId++;
    this.#pending = null;
  }

  /** The worker died: forget what was in flight, resend the latest request if there is one waiting. */
  reset(): void {
    this.#inFlight = null;
    this.#pending = null;
  }
}
