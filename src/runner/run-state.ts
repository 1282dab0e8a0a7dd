/**
 * The runner's state as the learner sees it. A pure reducer, so every transition is testable and the
 * view only renders what it is given.
 */
import type { Report } from '../grading/core/index.ts';
import type { RunnerKind, UnavailableReason } from './runner-types.ts';

export type RunnerState =
  | { phase: 'preparing'; kind?: RunnerKind }
  /** A WebContainer that boots on the first Run; on iOS only once the learner has agreed to it. */
  | { phase: 'standby'; kind: 'webcontainer'; consent: boolean }
  | { phase: 'installing'; kind: 'webcontainer' }
  | { phase: 'ready'; kind: RunnerKind }
  | { phase: 'running'; kind: RunnerKind; startedAt: number }
  | { phase: 'done'; kind: RunnerKind; report: Report; elapsedMs: number }
  | { phase: 'failed'; kind: RunnerKind; message: string }
  /** `retry`: the WebContainer failed to start this time; the learner may try again. */
  | { phase: 'unavailable'; reason: UnavailableReason; retry?: boolean };

export type RunnerEvent =
  | { type: 'booting'; kind?: RunnerKind }
  | { type: 'installing' }
  | { type: 'ready'; kind: RunnerKind }
  | { type: 'standby'; consent: boolean }
  | { type: 'unavailable'; reason: UnavailableReason; retry?: boolean }
  | { type: 'run'; at: number }
  | { type: 'graded'; report: Report; at: number }
  | { type: 'error'; message: string };

export const initialState: RunnerState = { phase: 'preparing' };

/** A runner that has a kind can run (again), a standby WebContainer boots first; unavailable and preparing ones cannot. */
export function canRun(state: RunnerState): boolean {
  return state.phase === 'ready' || state.phase === 'done' || state.phase === 'failed' || state.phase === 'standby';
}

export function next(state: RunnerState, event: RunnerEvent): RunnerState {
  switch (event.type) {
    case 'booting':
      return { phase: 'preparing', kind: event.kind };
    case 'installing':
      return { phase: 'installing', kind: 'webcontainer' };
    case 'ready':
      return { phase: 'ready', kind: event.kind };
    case 'standby':
      return { phase: 'standby', kind: 'webcontainer', consent: event.consent };
    case 'unavailable':
      return event.retry ? { phase: 'unavailable', reason: event.reason, retry: true } : { phase: 'unavailable', reason: event.reason };
    case 'run':
      return canRun(state) && state.phase !== 'standby' && 'kind' in state ? { phase: 'running', kind: state.kind!, startedAt: event.at } : state;
    case 'graded':
      return state.phase === 'running' ? { phase: 'done', kind: state.kind, report: event.report, elapsedMs: Math.max(0, event.at - state.startedAt) } : state;
    case 'error':
      return state.phase === 'running' ? { phase: 'failed', kind: state.kind, message: event.message } : state;
  }
}
