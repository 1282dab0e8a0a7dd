/**
 * Grading a class on several machines: `grade-class --shard K/N` grades the learners whose key
 * (e-mail, lower case) hashes to share K of N, after every machine has read and checked every file
 * the same way; `grade-class merge` joins the N shard files into the one grading a single machine
 * would have made (same results in the same order, same rejected files). Pure.
 */
import { createHash } from 'node:crypto';
import type { ClassGrading } from './grade-class.ts';
import type { LearnerResult } from './results.ts';
import type { Rejected } from './submission.ts';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** "K/N" with 1 <= K <= N, or undefined. */
export function parseShard(text: string): Shard | undefined {
  const m = /^(\d{1,4})\/(\d{1,4})$/.exec(text.trim());
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return index >= 1 && index <= count ? { index, count } : undefined;
}

/** The share (1-based) a learner belongs to: stable across machines, runs and Node versions. */
export function shardOf(learnerKey: string, count: number): number {
  const h = createHash('sha256').update(learnerKey).digest();
  return (h.readUInt32BE(0) % count) + 1;
}

export const SHARD_FORMAT = 'grade-class-shard';

export interface ShardFile {
  format: typeof SHARD_FORMAT;
  version: 1;
  assignmentId: string;
  shard: Shard;
  files: number;
  /** Every machine reads every file: the rejected files are the same in every shard. */
  rejected: Rejected[];
  results: LearnerResult[];
  durationMs: number;
}

export function toShardFile(assignmentId: string, shard: Shard, grading: ClassGrading): ShardFile {
  return {
    format: SHARD_FORMAT,
    version: 1,
    assignmentId,
    shard,
    files: grading.files,
    rejected: grading.rejected,
    results: grading.results,
    durationMs: grading.durationMs,
  };
}

export type MergeProblem =
  | { kind: 'not-a-shard'; file: string }
  | { kind: 'other-assignment'; file: string; assignmentId: string }
  | { kind: 'shard-count'; file: string; count: number; expected: number }
  | { kind: 'duplicate-shard'; index: number }
  | { kind: 'missing-shard'; index: number }
  | { kind: 'different-files'; file: string };

function isShardFile(v: unknown): v is ShardFile {
  const s = v as ShardFile;
  return (
    !!s &&
    s.format === SHARD_FORMAT &&
    s.version === 1 &&
    typeof s.assignmentId === 'string' &&
    Number.isInteger(s.shard?.index) &&
    Number.isInteger(s.shard?.count) &&
    Array.isArray(s.results) &&
    Array.isArray(s.rejected) &&
    typeof s.files === 'number'
  );
}

/** The one grading the shards add up to, or what is wrong with them (every shard once, one assignment, the same files). */
export function mergeShards(
  assignmentId: string,
  parts: Array<{ file: string; data: unknown }>,
): { ok: true; grading: ClassGrading } | { ok: false; problem: MergeProblem } {
  const shards: ShardFile[] = [];
  for (const { file, data } of parts) {
    if (!isShardFile(data)) return { ok: false, problem: { kind: 'not-a-shard', file } };
    if (data.assignmentId !== assignmentId) return { ok: false, problem: { kind: 'other-assignment', file, assignmentId: data.assignmentId } };
    const expected = shards[0]?.shard.count ?? data.shard.count;
    if (data.shard.count !== expected) return { ok: false, problem: { kind: 'shard-count', file, count: data.shard.count, expected } };
    if (shards.some((s) => s.shard.index === data.shard.index)) return { ok: false, problem: { kind: 'duplicate-shard', index: data.shard.index } };
    if (shards[0] && (data.files !== shards[0].files || JSON.stringify(data.rejected) !== JSON.stringify(shards[0].rejected))) {
      return { ok: false, problem: { kind: 'different-files', file } };
    }
    shards.push(data);
  }
  const count = shards[0]?.shard.count ?? 1;
  for (let i = 1; i <= count; i++) if (!shards.some((s) => s.shard.index === i)) return { ok: false, problem: { kind: 'missing-shard', index: i } };
  // One machine grades in the order of the listing, which is the sorted file names.
  const results = shards.flatMap((s) => s.results).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return {
    ok: true,
    grading: { results, rejected: shards[0]!.rejected, files: shards[0]!.files, durationMs: Math.max(...shards.map((s) => s.durationMs)) },
  };
}
