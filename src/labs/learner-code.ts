/**
 * "Use my code" in a lab, the page's side: the code a learner saved for an exercise (the workspace
 * keeps it in localStorage, src/storage/saved-code.ts), and whether it passed its tests. Code whose
 * last graded run did not pass, or that changed since, still runs, marked "not yet passing its tests".
 * Pure apart from the store it is given.
 */
import type { Progress } from '../progress/schema.ts';
import type { KeyValueStore } from '../storage/key-value-store.ts';
import { loadSavedCode } from '../storage/saved-code.ts';

/** What the lab's worker gets of one exercise's code (never put in a link). */
export interface LearnerFiles {
  exercise: string;
  files: Record<string, string>;
  notPassing: boolean;
}

export function learnerFiles(store: KeyValueStore, progress: Progress, exercise: string): LearnerFiles | undefined {
  const saved = loadSavedCode(store, exercise);
  if (!saved || Object.keys(saved.files).length === 0) return undefined;
  const last = progress.exercises[exercise]?.last;
  const passing = last?.status === 'pass' && Date.parse(last.at) >= Date.parse(saved.savedAt);
  return { exercise, files: saved.files, notPassing: !passing };
}

/** A short fingerprint of the code, for the lab's cache key (FNV-1a over the files). */
export function codeKey(code: readonly LearnerFiles[]): string {
  let h = 0x811c9dc5;
  for (const c of code) {
    for (const s of [c.exercise, String(c.notPassing), ...Object.entries(c.files).flat()]) {
      for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
      h = Math.imul(h ^ 0, 0x01000193) >>> 0;
    }
  }
  return h.toString(36);
}
