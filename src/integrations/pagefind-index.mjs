// Builds the full-text search index (one per language, from each page's <html lang>) after `astro build`,
// and writes the deploy header files so hosts serve the site with the same headers (src/site/headers.mjs).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { headersFile, vercelConfig } from '../site/headers.mjs';

/** Parts of a lesson the search index leaves out (with the data-pagefind-ignore ones). */
export const EXCLUDED = ['course-workspace', '.quiz-key', '.quiz-actions', '[data-answer-key]'];

/** @returns {import('astro').AstroIntegration} */
export function pagefindIndex() {
  return {
    name: 'course:pagefind-and-headers',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        const pagefind = await import('pagefind');
        // Only what a reader reads: each lesson's <main data-pagefind-body>, without the exercise's
        // editor and starter code, or a quiz's answer key (an excerpt would give the answers away).
        // Pagefind ignores diacritics itself; src/site/search-query.ts adds "đ" (docs/search.md).
        const { index, errors } = await pagefind.createIndex({ excludeSelectors: EXCLUDED });
        if (!index) throw new Error(`Pagefind could not start: ${errors.join('; ')}`);
        const added = await index.addDirectory({ path: out });
        if (added.errors.length) throw new Error(`Pagefind: ${added.errors.join('; ')}`);
        await index.writeFiles({ outputPath: `${out}/pagefind` });
        await pagefind.close();
        logger.info(`search index: ${added.page_count} pages`);

        // For hosts that serve the built folder as it is (Netlify, Cloudflare Pages, `vercel deploy dist`).
        await writeFile(`${out}/_headers`, headersFile());
        await writeFile(`${out}/vercel.json`, vercelConfig(undefined, { build: false }));
      },
    },
  };
}
