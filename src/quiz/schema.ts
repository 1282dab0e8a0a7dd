// zod/mini, like the i18n/langs.ts schemas it is built from (one schema cannot mix classic and mini).
import { z } from 'zod/mini';
import { bilingual } from '../i18n/index.ts';

const key = z.string().check(z.regex(/^[a-z0-9-]+$/));

const choice = z.strictObject({
  id: key,
  text: bilingual,
  correct: z.boolean(),
  /** Why this choice is right or wrong: shown when the learner picks it. */
  explanation: bilingual,
});

const base = { id: key, prompt: bilingual };

const single = z.strictObject({ ...base, type: z.literal('single'), choices: z.array(choice).check(z.minLength(2)) }).check(
  z.refine((q) => q.choices.filter((c) => c.correct).length === 1, {
    message: 'a single-choice question needs exactly one correct choice',
  }),
);

const multiple = z
  .strictObject({ ...base, type: z.literal('multiple'), choices: z.array(choice).check(z.minLength(3)) })
  .check(z.refine((q) => q.choices.some((c) => c.correct), { message: 'a multiple-choice question needs a correct choice' }));

const numeric = z.strictObject({
  ...base,
  type: z.literal('numeric'),
  answer: z.number(),
  tolerance: z._default(z.number().check(z.minimum(0)), 0),
  unit: z.optional(bilingual),
  explanation: bilingual,
});

/** Items are listed in the correct order; the component shuffles them. */
const order = z.strictObject({
  ...base,
  type: z.literal('order'),
  items: z.array(z.strictObject({ id: key, text: bilingual })).check(z.minLength(3)),
  explanation: bilingual,
});

export const questionSchema = z.union([single, multiple, numeric, order]);
export type Question = z.infer<typeof questionSchema>;

export const quizSchema = z
  .strictObject({
    module: key,
    title: bilingual,
    questions: z.array(questionSchema).check(z.minLength(1)),
  })
  .check(
    z.refine((q) => new Set(q.questions.map((x) => x.id)).size === q.questions.length, {
      message: 'question ids must be unique within a quiz',
    }),
  );
export type QuizData = z.infer<typeof quizSchema>;
