/**
 * Where a learner's code for an exercise lives in the browser: one localStorage entry per exercise,
 * the same in both languages. The workspace writes it; progress export and assignment submissions read it.
 */
import { z } from 'zod/mini'; // in the browser, where full zod would add to every page (docs/benchmarks.md#benchpage)
import type { KeyValueStore } from './key-value-store.ts';

export const SAVED_CODE_PREFIX = 'course.code.';

export const savedCodeSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), z.string()),
  savedAt: z.string(),
});
export type SavedCode = z.infer<typeof savedCodeSchema>;

export const savedCodeKey = (exerciseId: string) => `${SAVED_CODE_PREFIX}${exerciseId}`;

/** The saved files, or undefined when there are none or they cannot be read (never throws). */
export function loadSavedCode(store: KeyValueStore, exerciseId: string): SavedCode | undefined {
  try {
    const raw = store.getItem(savedCodeKey(exerciseId));
    if (!raw) return undefined;
    const parsed = savedCodeSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function saveCode(store: KeyValueStore, exerciseId: string, files: Record<string, string>, now = new Date()): void {
  const entry: SavedCode = { version: 1, files, savedAt: now.toISOString() };
  store.setItem(savedCodeKey(exerciseId), JSON.stringify(entry));
}
