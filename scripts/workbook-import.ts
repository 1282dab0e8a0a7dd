/**
 * `npm run exercise -- import <file>`: the code a learner saved in the browser, from an exported
 * progress file, written into workbook/<id>/ so they carry on in their own editor. Only an exercise's
 * editable files are written, and a file already in the workbook with other content is kept unless
 * --force says to replace it. The planning is pure (tested in workbook-import.test.ts); the command
 * does the reading and writing.
 */
import { parseProgressFile, type FileProblem } from '../src/progress/transfer.ts';

export interface ImportPlan {
  /** Files to write: workbook-relative path (`<id>/<file>`) and content. */
  write: { id: string; path: string; text: string }[];
  /** Exercises left alone, and why. */
  skipped: { id: string; reason: 'unknown-exercise' | 'same' | 'kept' }[];
}

export type ParsedImport = { ok: true; plan: ImportPlan; exportedAt: string } | { ok: false; problem: FileProblem };

/**
 * @param editable each exercise's editable files (the ones a learner may change)
 * @param existing what the workbook holds at a path (`<id>/<file>`), or undefined
 */
export function planImport(
  text: string,
  editable: ReadonlyMap<string, readonly string[]>,
  existing: (path: string) => string | undefined,
  force: boolean,
): ParsedImport {
  const parsed = parseProgressFile(text);
  if (!parsed.ok) return parsed;
  const plan: ImportPlan = { write: [], skipped: [] };
  for (const [id, saved] of Object.entries(parsed.file.code).sort(([a], [b]) => a.localeCompare(b))) {
    const files = editable.get(id);
    if (!files) {
      plan.skipped.push({ id, reason: 'unknown-exercise' });
      continue;
    }
    // A saved file the exercise does not have (a hand-edited export) is never written.
    const wanted = files.filter((f) => typeof saved.files[f] === 'string').map((f) => ({ id, path: `${id}/${f}`, text: saved.files[f]! }));
    const changed = wanted.filter((w) => existing(w.path) !== w.text);
    if (!changed.length) plan.skipped.push({ id, reason: 'same' });
    else if (!force && changed.some((w) => existing(w.path) !== undefined)) plan.skipped.push({ id, reason: 'kept' });
    else plan.write.push(...changed);
  }
  return { ok: true, plan, exportedAt: parsed.file.exportedAt };
}
