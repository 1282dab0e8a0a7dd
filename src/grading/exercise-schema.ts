import { z } from 'zod';

/** Vietnamese text must carry its diacritics (a stripped "Ban da thu lai" is a bug, not a translation). */
const VIETNAMESE_MARKS = /[àáảãạăắằẳẵặâấầẩẫậđèéẻẽẹêếềểễệìíỉĩịòóỏõọôốồổỗộơớờởỡợùúủũụưứừửữựỳýỷỹỵ]/i;

const text = z.object({
  vi: z.string().trim().min(1).regex(VIETNAMESE_MARKS, 'Vietnamese text without diacritics'),
  en: z.string().trim().min(1),
});

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
export const RULE_ID = /^[A-Z]\d{1,3}$/;

/** A relative path inside the exercise: `/`-separated, no `..`, no leading dot segments. */
export const exerciseFilePath = z
  .string()
  .refine((p) => p.split('/').every((seg) => SEGMENT.test(seg) && seg !== '..'), 'not a safe relative path');

const rule = z.object({ title: text, message: text, hint: text }).strict();

export const exerciseSchema = z
  .object({
    id: z.string().regex(SLUG),
    module: z.string().regex(SLUG),
    title: text,
    files: z
      .array(z.object({ path: exerciseFilePath, editable: z.boolean() }).strict())
      .min(1)
      .refine((files) => files.some((f) => f.editable), 'at least one editable file')
      .refine((files) => new Set(files.map((f) => f.path)).size === files.length, 'file paths must be unique'),
    limits: z
      .object({
        testTimeoutMs: z.number().int().min(100).max(60_000),
        runTimeoutMs: z.number().int().min(1000).max(300_000),
      })
      .strict()
      .refine((l) => l.runTimeoutMs > l.testTimeoutMs, 'runTimeoutMs must exceed testTimeoutMs'),
    rules: z.record(z.string().regex(RULE_ID), rule).refine((r) => Object.keys(r).length > 0, 'at least one rule'),
  })
  .strict();

export type Exercise = z.infer<typeof exerciseSchema>;
export type ExerciseRule = Exercise['rules'][string];
export type LocalText = z.infer<typeof text>;

export function parseExercise(json: unknown): Exercise {
  return exerciseSchema.parse(json);
}
