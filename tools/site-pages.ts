/**
 * The pages of the built site, read from dist/, so every sweep covers every page that exists, and the
 * lesson that embeds an exercise, read from content/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The built site; COURSE_DIST lets a second build (say, from another worktree) be tested alongside. */
export const DIST = process.env.COURSE_DIST ?? 'dist';

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'pagefind' || d.name === '_astro' ? [] : htmlFiles(path);
    return d.name.endsWith('.html') ? [path] : [];
  });
}

/** URL paths of every built page, e.g. "/vi/timeouts/why-timeouts/". */
export function builtPages(): string[] {
  return htmlFiles(DIST)
    .map((file) => `/${relative(DIST, file).replace(/\\/g, '/')}`)
    .map((path) => path.replace(/index\.html$/, ''))
    .sort();
}

export function lessonPages(lang?: 'vi' | 'en'): string[] {
  return builtPages().filter((p) => /^\/(vi|en)\/[^/]+\/[^/]+\/$/.test(p) && (!lang || p.startsWith(`/${lang}/`)));
}

/** `<module>/<slug>` of the English lesson that embeds the exercise. */
export function lessonEmbedding(id: string): string {
  for (const module of readdirSync('content/lessons/en')) {
    for (const file of readdirSync(`content/lessons/en/${module}`)) {
      if (readFileSync(`content/lessons/en/${module}/${file}`, 'utf8').includes(`<Exercise id="${id}"`)) return `${module}/${file.replace(/\.mdx$/, '')}`;
    }
  }
  throw new Error(`no lesson embeds the exercise ${id}`);
}
