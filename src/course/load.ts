/** The outline and lessons as Astro's content layer sees them (build time only). */
import { getCollection } from 'astro:content';
import type { Lang } from '../i18n/index.ts';
import { LANGS } from '../i18n/index.ts';
import { buildOutline, homeHref, lessonHref, moduleHref, type Outline } from './outline.ts';
import { splitEntryId } from './schema.ts';

export async function loadOutline(lang: Lang): Promise<Outline> {
  const [modules, lessons] = await Promise.all([getCollection('modules'), getCollection('lessons')]);
  return buildOutline(
    lang,
    modules.map((m) => m.data),
    lessons,
  );
}

/** Every page address the site builds, so a language switch never links to a page that does not exist. */
export async function existingPaths(): Promise<Set<string>> {
  const [modules, lessons] = await Promise.all([getCollection('modules'), getCollection('lessons')]);
  const paths = new Set<string>();
  for (const lang of LANGS) {
    paths.add(homeHref(lang));
    for (const m of modules) paths.add(moduleHref(lang, m.data.id));
  }
  for (const l of lessons) paths.add(lessonHref(l.data.lang, splitEntryId(l.id).lessonId));
  return paths;
}
