/**
 * The runner's state as the learner sees it. A pure reducer, so every transition is testable and the
 * view only renders what it is given.
 */
import type { Report } from '../grading/types.ts';
import type { RunnerKind, UnavailableReason } from './runner-types.ts';

export type RunnerState =
  | { phase: 'preparing'; kind?: RunnerKind }
  | { phase: 'installing'; kind: 'webcontainer' }
  | { phase: 'ready'; kind: RunnerKind }
  | { phase: 'running'; kind: RunnerKind; startedAt: number }
  | { phase: 'done'; kind: RunnerKind; report: Report; elapsedMs: number }
  | { phase: 'failed'; kind: RunnerKind; message: string }
  | { phase: 'unavailable'; reason: UnavailableReason };

export type RunnerEvent =
  | { type: 'booting'; kind?: RunnerKind }
  | { type: 'installing' }
  | { type: 'ready'; kind: RunnerKind }
  | { type: 'unavailable'; reason: UnavailableReason }
  | { type: 'run'; at: number }
  | { type: 'graded'; report: Report; at: number }
  | { type: 'error'; message: string };

export const initialState: RunnerState = { phase: 'preparing' };

/** A runner that has a kind can run (again); unavailable and preparing ones cannot. */
export function canRun(state: RunnerState): boolean {
  return state.phase === 'ready' || state.phase === 'done' || state.phase === 'failed';
}

export function next(state: RunnerState, event: RunnerEvent): RunnerState {
  switch (event.type) {
    case 'booting':
      return { phase: 'preparing', kind: event.kind };
    case 'installing':
      return { phase: 'installing', kind: 'webcontainer' };
    case 'ready':
      return { phase: 'ready', kind: event.kind };
    case 'unavailable':
      return { phase: 'unavailable', reason: event.reason };
    case 'run':
      return canRun(state) && 'kind' in state ? { phase: 'running', kind: state.kind!, startedAt: event.at } : state;
    case 'graded':
      return state.phase === 'running'
        ? { phase: 'done', kind: state.kind, report: event.report, elapsedMs: Math.max(0, event.at - state.startedAt) }
        : state;
    case 'error':
      return state.phase === 'running' ? { phase: 'failed', kind: state.kind, message: event.message } : state;
  }
}
