/**
 * The late policy of an assignment applied to one export time. Pure (Date.parse only).
 *
 * - exported at or before `due`: on time;
 * - within `graceMinutes` after `due`: late, but nothing off ("within grace");
 * - after that and not after `cutoff`: `penaltyPercent` off per hour or day begun after the end of
 *   the grace period, never below `floorPercent` of the earned points ("penalised");
 * - after `cutoff`: not accepted, 0 points.
 * Without a policy, late work is marked late and loses nothing.
 */
import type { LatePolicy } from './file-schemas.ts';

export type LateStatus = 'on-time' | 'late' | 'grace' | 'penalised' | 'cut-off';

export interface LateVerdict {
  status: LateStatus;
  /** Milliseconds after `due` (0 when on time). */
  lateMs: number;
  /** Hours or days begun after the grace period (0 unless penalised). */
  periods: number;
  /** What the earned points are multiplied by, in percent: 100 on time or within grace, 0 past the cut-off. */
  keptPercent: number;
}

const PERIOD_MS = { hour: 3_600_000, day: 86_400_000 } as const;

export function lateVerdict(due: string, exportedAt: string, policy?: LatePolicy): LateVerdict {
  const lateMs = Math.max(0, Date.parse(exportedAt) - Date.parse(due));
  if (lateMs === 0) return { status: 'on-time', lateMs, periods: 0, keptPercent: 100 };
  if (!policy) return { status: 'late', lateMs, periods: 0, keptPercent: 100 };
  if (policy.cutoff !== undefined && Date.parse(exportedAt) > Date.parse(policy.cutoff)) return { status: 'cut-off', lateMs, periods: 0, keptPercent: 0 };
  const afterGrace = lateMs - policy.graceMinutes * 60_000;
  if (afterGrace <= 0) return { status: 'grace', lateMs, periods: 0, keptPercent: 100 };
  const periods = Math.ceil(afterGrace / PERIOD_MS[policy.per]);
  // In hundredths of a percent, so 3 × 33.33 does not drift in floating point.
  const kept = Math.max(policy.floorPercent * 100, 10_000 - Math.round(policy.penaltyPercent * 100) * periods) / 100;
  return { status: 'penalised', lateMs, periods, keptPercent: Math.min(100, kept) };
}
