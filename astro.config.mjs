// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import { isolationHeaders } from './src/site/isolation-headers.mjs';
import { pagefindIndex } from './src/integrations/pagefind-index.mjs';
import { localRunner } from './src/integrations/local-runner.mjs';

export default defineConfig({
  site: 'https://course.example.org',
  trailingSlash: 'always',
  // Every page must be cross-origin isolated (WebContainers need SharedArrayBuffer), in dev and preview alike.
  server: { headers: isolationHeaders },
  markdown: {
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
    build: {
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
