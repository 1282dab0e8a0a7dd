/** Titles and estimates of the exercises, read from exercises/<id>/exercise.json for the lesson embeds and the home page. */
import type { Bilingual } from '../i18n/index.ts';

interface ExerciseMeta {
  id: string;
  module: string;
  title: Bilingual;
  /** exercise.json's estimate (checked by its schema, src/grading/core/exercise-schema.ts). */
  estimateMinutes: number;
}

const files = import.meta.glob<ExerciseMeta>('/exercises/*/exercise.json', { eager: true, import: 'default' });

export function exerciseMeta(id: string): ExerciseMeta | undefined {
  return files[`/exercises/${id}/exercise.json`];
}

/** Every exercise, by id. */
export function allExercises(): ExerciseMeta[] {
  return Object.values(files)
    .filter((e) => e && typeof e.id === 'string')
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}
