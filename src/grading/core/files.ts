// What a learner may send: exactly the exercise's editable files, by their declared paths. Anything
// else is a GradeInputError (a usage error, reported in the reader's language), never a failed grade.
import type { Exercise } from './exercise-schema.ts';
import { exerciseFilePath } from './exercise-schema.ts';
import { t, type MessageKey } from './messages.ts';
import type { Lang } from './types.ts';

export type InputErrorCode = 'unknown-exercise' | 'missing-file' | 'extra-file' | 'bad-path';

const KEYS: Record<InputErrorCode, MessageKey> = {
  'unknown-exercise': 'input.unknownExercise',
  'missing-file': 'input.missingFile',
  'extra-file': 'input.extraFile',
  'bad-path': 'input.badPath',
};

/** The request cannot be graded (a usage error, not a failing learner). */
export class GradeInputError extends Error {
  readonly code: InputErrorCode;
  readonly params: Record<string, string>;
  constructor(code: InputErrorCode, params: Record<string, string>) {
    super(t('en', KEYS[code], params));
    this.name = 'GradeInputError';
    this.code = code;
    this.params = params;
  }
  localized(lang: Lang): string {
    return t(lang, KEYS[this.code], this.params);
  }
}

export function editablePaths(exercise: Exercise): string[] {
  return exercise.files.filter((f) => f.editable).map((f) => f.path);
}

/** The learner may send exactly the exercise's editable files, by their declared names. */
export function validateLearnerFiles(exercise: Exercise, files: Record<string, string>): void {
  const editable = editablePaths(exercise);
  const expected = editable.join(', ');
  for (const name of Object.keys(files)) {
    if (!exerciseFilePath.safeParse(name).success) throw new GradeInputError('bad-path', { file: JSON.stringify(name) });
    if (!editable.includes(name)) throw new GradeInputError('extra-file', { file: name, expected });
    if (typeof files[name] !== 'string') throw new GradeInputError('missing-file', { file: name, expected });
  }
  for (const name of editable) {
    if (!(name in files)) throw new GradeInputError('missing-file', { file: name, expected });
  }
}
