/** Titles of the exercises, read from exercises/<id>/exercise.json for the lesson embeds. */
import type { Bilingual } from '../i18n/langs.ts';

interface ExerciseMeta {
  id: string;
  title: Bilingual;
}

const files = import.meta.glob<ExerciseMeta>('/exercises/*/exercise.json', { eager: true, import: 'default' });

export function exerciseMeta(id: string): ExerciseMeta | undefined {
  return files[`/exercises/${id}/exercise.json`];
}
