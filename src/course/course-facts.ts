/**
 * What the home page and the footer say about the course as a whole — how many modules, what each
 * teaches, how long it all takes — counted from the outline (content/modules.json and the lessons'
 * `minutes`) and the exercises' `estimateMinutes`, never written by hand. Pure.
 */
import type { Lang } from '../i18n/index.ts';
import type { Outline } from './outline.ts';

export interface ExerciseEstimate {
  id: string;
  module: string;
  estimateMinutes: number;
}

export interface CourseFacts {
  modules: number;
  lessons: number;
  exercises: number;
  lessonMinutes: number;
  exerciseMinutes: number;
  totalMinutes: number;
  /** Each module's exercises, in the order given, with their estimates. */
  exercisesOf: (module: string) => ExerciseEstimate[];
}

export function courseFacts(outline: Outline, exercises: readonly ExerciseEstimate[]): CourseFacts {
  const modules = new Set(outline.modules.map((m) => m.id));
  const inCourse = exercises.filter((e) => modules.has(e.module));
  const lessonMinutes = outline.lessons.reduce((sum, l) => sum + l.minutes, 0);
  const exerciseMinutes = inCourse.reduce((sum, e) => sum + e.estimateMinutes, 0);
  return {
    modules: outline.modules.length,
    lessons: outline.lessons.length,
    exercises: inCourse.length,
    lessonMinutes,
    exerciseMinutes,
    totalMinutes: lessonMinutes + exerciseMinutes,
    exercisesOf: (module) => inCourse.filter((e) => e.module === module),
  };
}

const WORDS: Record<Lang, readonly string[]> = {
  en: ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'],
  vi: ['không', 'một', 'hai', 'ba', 'bốn', 'năm', 'sáu', 'bảy', 'tám', 'chín', 'mười', 'mười một', 'mười hai'],
};

/** A count as a sentence's first word: "Nine" / "Chín" (digits past twelve). */
export function countWord(lang: Lang, n: number): string {
  const word = WORDS[lang][n] ?? String(n);
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** "a, b and c" in the language's own way (Intl.ListFormat: "a, b, and c" / "a, b và c"). */
export function listOf(lang: Lang, items: readonly string[]): string {
  return new Intl.ListFormat(lang, { type: 'conjunction' }).format(items);
}

/** Whole hours, rounded to the nearest half hour ("14", "6.5"), for "about … hours". */
export function roughHours(minutes: number, lang: Lang): string {
  const halves = Math.round(minutes / 30) / 2;
  return new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(halves);
}

/** Minutes as hours and minutes, through the catalogue's `{h}`/`{m}` templates. */
export function hoursAndMinutes(minutes: number, forms: { hm: string; h: string; m: string }): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const form = h === 0 ? forms.m : m === 0 ? forms.h : forms.hm;
  return form.replace('{h}', String(h)).replace('{m}', String(m));
}
