// Builds the full-text search index (one per language, from each page's <html lang>) after `astro build`,
// and writes the deploy header files so hosts serve the site cross-origin isolated too.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { isolationHeaders } from '../site/isolation-headers.mjs';

/** @returns {import('astro').AstroIntegration} */
export function pagefindIndex() {
  return {
    name: 'course:pagefind-and-headers',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        const pagefind = await import('pagefind');
        const { index, errors } = await pagefind.createIndex({});
        if (!index) throw new Error(`Pagefind could not start: ${errors.join('; ')}`);
        const added = await index.addDirectory({ path: out });
        if (added.errors.length) throw new Error(`Pagefind: ${added.errors.join('; ')}`);
        await index.writeFiles({ outputPath: `${out}/pagefind` });
        await pagefind.close();
        logger.info(`search index: ${added.page_count} pages`);

        const headerLines = Object.entries(isolationHeaders).map(([k, v]) => `  ${k}: ${v}`);
        await writeFile(`${out}/_headers`, `/*\n${headerLines.join('\n')}\n`);
        const vercel = {
          headers: [{ source: '/(.*)', headers: Object.entries(isolationHeaders).map(([key, value]) => ({ key, value })) }],
        };
        await writeFile(`${out}/vercel.json`, `${JSON.stringify(vercel, null, 2)}\n`);
      },
    },
  };
}
