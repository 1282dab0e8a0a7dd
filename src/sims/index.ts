// The public surface of sims/: the course's pure, seeded simulations, their parameters and their text output, for the labs and the sim command.
export type * from './types.ts';
export { SIMS, DEFAULT_SEED, getSim, runSim, validateSimParams, parseSimParams, normalizeSeed, SimParamError, learnerUnusable } from './registry.ts';
export { learnerPolicyId, LearnerCodeError, type LearnerCode, type LearnerOutcome } from './learner.ts';
export type { AnySim, SimName } from './registry.ts';
export { defaults, validateParams, parseParamValue, parseAssignments, toAssignments, type Validation } from './params.ts';
export { formatTable, formatValue, formatSummary } from './text-table.ts';
export { mulberry32, substream, type Rng } from './random.ts';
export { percentile, percentileSorted } from './stats.ts';
export { backoffDelay, backoffBounds, JITTER_STRATEGIES, type JitterStrategy } from './jitter.ts';
export type { CallRecord, ChainMode, Hop } from './deadline-chain.ts';
export { jitterWaves, type JitterWavesParams, type JitterWavesRow } from './jitter-waves.ts';
export { retryStorm, TICK_MS, type RetryStormParams, type RetryStormRow, type StormPolicyId } from './retry-storm.ts';
export { hedging, type HedgingParams, type HedgingRow } from './hedging.ts';
export { deadlineChain, type DeadlineChainParams, type DeadlineChainRow } from './deadline-chain.ts';
export { amplification, type AmplificationParams, type AmplificationRow } from './amplification.ts';
export { timeoutChoice, type TimeoutChoiceParams, type TimeoutChoiceRow } from './timeout-choice.ts';
export { overloadRecovery, OVERLOAD_POLICIES, type OverloadParams, type OverloadRow, type OverloadPolicyId } from './overload-recovery.ts';
export {
  reconnectStorm,
  RECONNECT_TICK_MS,
  type ReconnectParams,
  type ReconnectRow,
  type ReconnectPolicyId,
} from './reconnect-storm.ts';
