/**
 * Reading whatever is stored under the progress key, however it got there: a current value, an older
 * or hand-edited one (keep every entry that still makes sense), or something unreadable. The caller
 * sets the original aside under a backup key whenever anything was not kept as is. Pure.
 */
import type { z } from 'zod/mini'; // in the browser: see schema.ts
import {
  emptyProgress,
  exerciseEntrySchema,
  itemId,
  labEntrySchema,
  lastLessonSchema,
  lessonEntrySchema,
  lessonId,
  PROGRESS_VERSION,
  progressSchema,
  progressSchemaV1,
  quizEntrySchema,
  type Progress,
  type ProgressV1,
} from './schema.ts';

/** What went wrong, if anything: the page shows a notice for each of these. */
export type ReadProblem =
  /** Not JSON, or not an object: nothing could be kept. */
  | { kind: 'unreadable' }
  /** An older or damaged value: `kept` entries were carried over, `dropped` could not be. */
  | { kind: 'migrated'; kept: number; dropped: number }
  /** Written by a newer version of the site: kept aside untouched rather than guessed at. */
  | { kind: 'newer'; version: number };

export interface ReadResult {
  progress: Progress;
  problem?: ReadProblem;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keeps the entries of a record section whose key and value pass their schemas. */
function salvageSection<T>(value: unknown, key: z.ZodMiniType<string>, entry: z.ZodMiniType<T>, tally: { kept: number; dropped: number }): Record<string, T> {
  const out: Record<string, T> = {};
  if (value === undefined) return out;
  if (!isRecord(value)) {
    tally.dropped += 1;
    return out;
  }
  for (const [k, v] of Object.entries(value)) {
    const parsedKey = key.safeParse(k);
    const parsed = entry.safeParse(v);
    if (parsedKey.success && parsed.success) {
      out[k] = parsed.data;
      tally.kept += 1;
    } else tally.dropped += 1;
  }
  return out;
}

/**
 * Lessons were a plain list of ids in early drafts of the store (`lessons: ["timeouts/why-timeouts"]`);
 * such a list still says which lessons were read, so it is carried over with an unknown time.
 */
function salvageLessons(value: unknown, tally: { kept: number; dropped: number }, now: string): Progress['lessons'] {
  if (!Array.isArray(value)) return salvageSection(value, lessonId, lessonEntrySchema, tally);
  const out: Progress['lessons'] = {};
  for (const id of value) {
    if (lessonId.safeParse(id).success) {
      out[id as string] = { read: true, at: now, by: 'button' };
      tally.kept += 1;
    } else tally.dropped += 1;
  }
  return out;
}

/** Version 1 → 2: labs were not recorded yet, so none is opened; everything else carries over as it is. */
export const upgradeV1 = (v1: ProgressV1): Progress => ({ ...v1, version: PROGRESS_VERSION, labs: {} });

/**
 * A value of the current version, or of an older one upgraded without loss (no notice, no backup
 * needed: nothing was dropped); undefined for anything else.
 */
export function currentProgress(data: unknown): Progress | undefined {
  const current = progressSchema.safeParse(data);
  if (current.success) return current.data;
  const v1 = progressSchemaV1.safeParse(data);
  return v1.success ? upgradeV1(v1.data) : undefined;
}

export function readStoredProgress(raw: string | null, now: Date = new Date()): ReadResult {
  if (raw === null || raw === '') return { progress: emptyProgress() };
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return { progress: emptyProgress(), problem: { kind: 'unreadable' } };
  }
  const current = currentProgress(data);
  if (current) return { progress: current };
  if (!isRecord(data)) return { progress: emptyProgress(), problem: { kind: 'unreadable' } };
  if (typeof data.version === 'number' && data.version > PROGRESS_VERSION) {
    return { progress: emptyProgress(), problem: { kind: 'newer', version: data.version } };
  }

  const tally = { kept: 0, dropped: 0 };
  const stamp = now.toISOString();
  const progress: Progress = {
    ...emptyProgress(),
    lessons: salvageLessons(data.lessons, tally, stamp),
    exercises: salvageSection(data.exercises, itemId, exerciseEntrySchema, tally),
    quizzes: salvageSection(data.quizzes, itemId, quizEntrySchema, tally),
    labs: salvageSection(data.labs, itemId, labEntrySchema, tally),
  };
  const last = lastLessonSchema.safeParse(data.lastLesson);
  if (last.success) progress.lastLesson = last.data;
  else if (data.lastLesson !== undefined) tally.dropped += 1;
  // A value with nothing recognisable in it is as good as unreadable.
  if (tally.kept === 0 && !progress.lastLesson) return { progress, problem: { kind: 'unreadable' } };
  return { progress, problem: { kind: 'migrated', kept: tally.kept, dropped: tally.dropped } };
}
