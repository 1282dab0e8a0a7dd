/**
 * A buggy variant is written as a patch against the reference: a header that names the rules it
 * breaks and the mistake, then a unified diff (`diff -u`, or `git diff`) of one or more of the
 * exercise's files. A reader sees the bug in a few lines instead of diffing two 200-line copies,
 * and a reference that moves on under a variant makes the patch fail to apply, loudly, rather
 * than leaving a stale copy that tests something else.
 *
 *     Breaks: R2, R3
 *     Bug: retries a 400 as if the server might change its mind.
 *     Why: "retry on error" is the first thing anyone writes; the status decides nothing yet.
 *
 *     --- a/retry.ts
 *     +++ b/retry.ts
 *     @@ -40,7 +40,7 @@
 *     ...
 */
import { applyPatch, parsePatch } from 'diff';

export interface VariantPatch {
  /** Rule ids the variant must break (`Breaks:`). */
  breaks: string[];
  /** What the variant gets wrong (`Bug:`). */
  bug: string;
  /** Why a learner would write it (`Why:`), when the header says. */
  why?: string;
  /** The unified diff after the header. */
  diff: string;
}

export class PatchError extends Error {}

/** Header fields, one per line (`Key: value`, continued on indented lines), then a blank line, then the diff. */
export function parseVariantPatch(text: string, where: string): VariantPatch {
  const start = text.search(/^(--- |diff --git )/m);
  if (start < 0) throw new PatchError(`${where}: no unified diff (a line starting with "--- ")`);
  const fields: Record<string, string> = {};
  let last: string | undefined;
  for (const line of text.slice(0, start).split('\n')) {
    const field = /^([A-Z][a-z]+):\s*(.*)$/.exec(line);
    if (field) fields[(last = field[1]!.toLowerCase())] = field[2]!.trim();
    else if (/^\s+\S/.test(line) && last) fields[last] += ` ${line.trim()}`;
    else if (line.trim()) throw new PatchError(`${where}: header line is not "Key: value": ${line}`);
  }
  const breaks = (fields.breaks ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!breaks.length) throw new PatchError(`${where}: the header names no rule (Breaks: R1, R2)`);
  if (!fields.bug) throw new PatchError(`${where}: the header does not say what the bug is (Bug: ...)`);
  return { breaks, bug: fields.bug, ...(fields.why ? { why: fields.why } : {}), diff: text.slice(start) };
}

/** `a/retry.ts` or `b/retry.ts` → `retry.ts`. */
const pathOf = (name: string | undefined) => name?.replace(/^[ab]\//, '');

/** Applies the diff to `reference` (path → text): every hunk must fit exactly, every file must exist. */
export function applyVariantPatch(patch: VariantPatch, reference: Record<string, string>, where: string): Record<string, string> {
  const out = { ...reference };
  const files = parsePatch(patch.diff);
  if (!files.length || files.every((f) => !f.hunks.length)) throw new PatchError(`${where}: the diff changes nothing`);
  for (const file of files) {
    const path = pathOf(file.newFileName) ?? pathOf(file.oldFileName);
    if (!path || out[path] === undefined) throw new PatchError(`${where}: patches ${path ?? 'no file'}, which the reference does not have`);
    const patched = applyPatch(out[path], file);
    if (patched === false) throw new PatchError(`${where}: no longer applies to the reference's ${path}; remake it against the reference`);
    out[path] = patched;
  }
  return out;
}
