// @ts-check
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import { satteri } from '@astrojs/markdown-satteri';
import { siteHeaders } from './src/site/headers.mjs';
import { pagefindIndex } from './src/integrations/pagefind-index.mjs';
import { localRunner } from './src/integrations/local-runner.mjs';
import { glossaryLinks } from './src/glossary/satteri-plugin.ts';
import { loadGlossary } from './src/glossary/load.ts';

/** Resolves `process` and `process/` (readable-stream's import) to the page's shim, in worker bundles. */
function processShim() {
  const shim = fileURLToPath(new URL('./src/runner/worker/node/process-shim.ts', import.meta.url));
  return {
    name: 'course-process-shim',
    enforce: /** @type {const} */ ('pre'),
    resolveId: (/** @type {string} */ id) => (id === 'process' || id === 'process/' ? shim : null),
  };
}

export default defineConfig({
  site: 'https://course.example.org',
  trailingSlash: 'always',
  // Every page is cross-origin isolated (WebContainers need SharedArrayBuffer) and sent with the site's
  // CSP and other security headers, in dev and preview alike: one source, src/site/headers.mjs.
  server: { headers: siteHeaders },
  markdown: {
    // Astro's default processor, plus one step: a lesson's first mention of each glossary term
    // links to the glossary page (content/glossary.json, src/glossary/).
    processor: satteri({ mdastPlugins: [glossaryLinks(loadGlossary())] }),
    shikiConfig: {
      // The high-contrast variants keep every token readable (WCAG AA) on both backgrounds.
      themes: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' },
      defaultColor: false,
      // A fence without a language is TypeScript: it is what the course is written in.
      langAlias: { plaintext: 'typescript' },
    },
  },
  integrations: [mdx(), pagefindIndex(), localRunner()],
  vite: {
    // The grading workers run readable-stream (Node's stream code): its `process` is a shim whose
    // nextTick is a microtask, as in Node (src/runner/worker/node/process-shim.ts).
    worker: { format: 'es', plugins: () => [processShim()] },
    build: {
      // No inline <script>: Astro inlines a script chunk under this limit, which the CSP (script-src 'self')
      // refuses. Scripts only: small stylesheets and other assets keep Vite's default.
      assetsInlineLimit: (file) => (/\.m?js$/.test(file) ? false : undefined),
      rolldownOptions: {
        // Astro marks every MDX page's propagated assets with a "use astro:head-inject" directive that
        // it handles itself; the bundler warns about each (about 40 warnings of 10 lines per build).
        // Only that warning is dropped: every other one still prints.
        onLog(level, log, handler) {
          if (log.code === 'MODULE_LEVEL_DIRECTIVE' && log.message.includes('astro:head-inject')) return;
          handler(level, log);
        },
      },
    },
  },
  devToolbar: { enabled: false },
});
