/** The pages of the built site, read from dist/, so every sweep covers every page that exists. */
import { readdirSync } from 'node:fs';
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
