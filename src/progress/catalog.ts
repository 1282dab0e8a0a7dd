/**
 * The course as the progress pages need it (modules, their lessons, quizzes, exercises and labs, in one
 * language), and the summaries computed from it and the learner's progress. Pure.
 */
import type { Progress } from './schema.ts';

export interface CatalogItem {
  id: string;
  title: string;
  href: string;
}
export interface CatalogQuiz extends CatalogItem {
  questions: number;
  /** The end-of-module quiz (`<module>-quiz`), the one module cards show. */
  moduleQuiz: boolean;
}
export interface CatalogExercise extends CatalogItem {
  /** The files a learner edits and submits. */
  files: string[];
}
export interface CatalogModule {
  id: string;
  order: number;
  title: string;
  href: string;
  lessons: CatalogItem[];
  quizzes: CatalogQuiz[];
  exercises: CatalogExercise[];
  /** The module's labs, by simulation id, each linked to where its lesson embeds it. */
  labs: CatalogItem[];
}
export interface Catalog {
  lang: 'vi' | 'en';
  modules: CatalogModule[];
}

export interface ModuleSummary {
  lessonsRead: number;
  lessonsTotal: number;
  /** Best score of the module quiz, if taken. */
  quiz?: { score: number; total: number };
  exercisesPassed: number;
  exercisesTotal: number;
  complete: boolean;
}

export function summarizeModule(module: Pick<CatalogModule, 'lessons' | 'quizzes' | 'exercises'>, progress: Progress): ModuleSummary {
  const lessonsRead = module.lessons.filter((l) => progress.lessons[l.id]?.read).length;
  const moduleQuiz = module.quizzes.find((q) => q.moduleQuiz);
  const best = moduleQuiz ? progress.quizzes[moduleQuiz.id]?.best : undefined;
  const exercisesPassed = module.exercises.filter((e) => progress.exercises[e.id]?.passed).length;
  return {
    lessonsRead,
    lessonsTotal: module.lessons.length,
    ...(best ? { quiz: { score: best.score, total: best.total } } : {}),
    exercisesPassed,
    exercisesTotal: module.exercises.length,
    complete: lessonsRead === module.lessons.length && exercisesPassed === module.exercises.length && (!moduleQuiz || !!best),
  };
}

export function summarizeCourse(catalog: Catalog, progress: Progress) {
  const modules = catalog.modules.map((m) => ({ id: m.id, ...summarizeModule(m, progress) }));
  const sum = (f: (m: ModuleSummary) => number) => modules.reduce((n, m) => n + f(m), 0);
  return {
    modules,
    lessonsRead: sum((m) => m.lessonsRead),
    lessonsTotal: sum((m) => m.lessonsTotal),
    quizzesTaken: catalog.modules.flatMap((m) => m.quizzes).filter((q) => progress.quizzes[q.id]).length,
    quizzesTotal: catalog.modules.flatMap((m) => m.quizzes).length,
    exercisesPassed: sum((m) => m.exercisesPassed),
    exercisesTotal: sum((m) => m.exercisesTotal),
  };
}

/** The module of every item id, for an assignment page that shows items by module. */
export function findItem(catalog: Catalog, kind: 'quizzes' | 'exercises', id: string): CatalogQuiz | CatalogExercise | undefined {
  for (const m of catalog.modules) {
    const found = (m[kind] as (CatalogQuiz | CatalogExercise)[]).find((i) => i.id === id);
    if (found) return found;
  }
  return undefined;
}
