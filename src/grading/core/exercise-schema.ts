// zod/mini, not zod: the workspace parses exercise.json in the browser.
import { z } from 'zod/mini';

/** Vietnamese text must carry its diacritics (a stripped "Ban da thu lai" is a bug, not a translation). */
const VIETNAMESE_MARKS = /[àáảãạăắằẳẵặâấầẩẫậđèéẻẽẹêếềểễệìíỉĩịòóỏõọôốồổỗộơớờởỡợùúủũụưứừửữựỳýỷỹỵ]/i;

const text = z.object({
  vi: z.string().check(z.trim(), z.minLength(1), z.regex(VIETNAMESE_MARKS, 'Vietnamese text without diacritics')),
  en: z.string().check(z.trim(), z.minLength(1)),
});

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
export const RULE_ID = /^[A-Z]\d{1,3}$/;

/** A relative path inside the exercise: `/`-separated, no `..`, no leading dot segments. */
export const exerciseFilePath = z.string().check(z.refine((p) => p.split('/').every((seg) => SEGMENT.test(seg) && seg !== '..'), 'not a safe relative path'));

const rule = z.strictObject({ title: text, message: text, hint: text });
const ms = (min: number, max: number) => z.number().check(z.int(), z.minimum(min), z.maximum(max));

export const exerciseSchema = z.strictObject({
  id: z.string().check(z.regex(SLUG)),
  module: z.string().check(z.regex(SLUG)),
  title: text,
  files: z.array(z.strictObject({ path: exerciseFilePath, editable: z.boolean() })).check(
    z.minLength(1),
    z.refine((files) => files.some((f) => f.editable), 'at least one editable file'),
    z.refine((files) => new Set(files.map((f) => f.path)).size === files.length, 'file paths must be unique'),
  ),
  limits: z
    .strictObject({ testTimeoutMs: ms(100, 60_000), runTimeoutMs: ms(1000, 300_000) })
    .check(z.refine((l) => l.runTimeoutMs > l.testTimeoutMs, 'runTimeoutMs must exceed testTimeoutMs')),
  /**
   * Where a browser grades it without a local runner: `worker` (the hidden suite runs in a Web Worker in
   * the page: no sockets, no child processes) or `webcontainer` (it needs Node: real HTTP servers).
   */
  inBrowser: z.enum(['worker', 'webcontainer']),
  /** About how long a learner takes, brief to passing run, in minutes: the home page adds them to the lessons' time. */
  estimateMinutes: z.number().check(z.int(), z.minimum(5), z.maximum(240)),
  rules: z.record(z.string().check(z.regex(RULE_ID)), rule).check(z.refine((r) => Object.keys(r).length > 0, 'at least one rule')),
});

export type Exercise = z.infer<typeof exerciseSchema>;
export type ExerciseRule = Exercise['rules'][string];
export type LocalText = z.infer<typeof text>;

export function parseExercise(json: unknown): Exercise {
  return exerciseSchema.parse(json);
}
