/** The catalog as Astro's content layer sees it (build time only). */
import { getCollection } from 'astro:content';
import type { Lang } from '../i18n/index.ts';
import { loadOutline } from '../course/load.ts';
import { lessonHref } from '../course/outline.ts';
import { splitEntryId } from '../course/schema.ts';
import type { Catalog, CatalogItem } from './catalog.ts';
import { getSim } from '../sims/index.ts';
import pkg from '../../package.json';

interface ExerciseFile {
  id: string;
  module: string;
  title: { vi: string; en: string };
  files: { path: string; editable: boolean }[];
}
const exerciseFiles = import.meta.glob<ExerciseFile>('/exercises/*/exercise.json', { eager: true, import: 'default' });

export async function loadCatalog(lang: Lang): Promise<Catalog> {
  const [outline, quizzes, lessons] = await Promise.all([loadOutline(lang), getCollection('quizzes'), getCollection('lessons')]);
  // Where each quiz and exercise is embedded, so the progress page can link to it.
  const home = new Map<string, string>();
  // Each module's labs in lesson order, linked to the lab itself (`#lab-<sim>`, the id Lab.astro gives it).
  const labs = new Map<string, CatalogItem[]>();
  for (const l of lessons.filter((l) => l.data.lang === lang)) {
    const { lessonId, module: moduleId } = splitEntryId(l.id);
    const href = lessonHref(lang, lessonId);
    for (const id of [...l.data.quizzes, ...l.data.exercises]) home.set(id, href);
    for (const sim of l.data.labs) {
      const title = getSim(sim)?.title[lang] ?? sim;
      labs.set(moduleId, [...(labs.get(moduleId) ?? []), { id: sim, title, href: `${href}#lab-${sim}` }]);
    }
  }
  const exercises = Object.values(exerciseFiles).filter((e) => e && typeof e.id === 'string');
  return {
    lang,
    modules: outline.modules.map((m) => ({
      id: m.id,
      order: m.order,
      title: m.title,
      href: m.href,
      lessons: m.lessons.map((l) => ({ id: l.lessonId, title: l.title, href: l.href })),
      quizzes: quizzes
        .filter((q) => q.data.module === m.id)
        .map((q) => ({
          id: q.id,
          title: q.data.title[lang],
          href: home.get(q.id) ?? m.href,
          questions: q.data.questions.length,
          moduleQuiz: q.id === `${m.id}-quiz`,
        }))
        // The module quiz last, after the checks in lesson order.
        .sort((a, b) => Number(a.moduleQuiz) - Number(b.moduleQuiz) || lessonIndex(m.lessons, a.href) - lessonIndex(m.lessons, b.href)),
      exercises: exercises
        .filter((e) => e.module === m.id)
        .map((e) => ({ id: e.id, title: e.title[lang], href: home.get(e.id) ?? m.href, files: e.files.filter((f) => f.editable).map((f) => f.path) })),
      labs: [...(labs.get(m.id) ?? [])].sort((a, b) => lessonIndex(m.lessons, a.href.split('#')[0]!) - lessonIndex(m.lessons, b.href.split('#')[0]!)),
    })),
  };
}

const lessonIndex = (lessons: { href: string }[], href: string) => lessons.findIndex((l) => l.href === href);

/** The site's version, written into submissions. */
export const COURSE_VERSION: string = pkg.version;
