/**
 * The page's language and UI translator, as src/middleware.ts set them. A component rendered where
 * they are missing (a page outside /[lang]/) fails the build by name rather than guessing a language:
 * a silent default once showed Vietnamese text on English pages.
 */
import type { Lang } from './langs.ts';
import type { UiTranslator } from './ui/index.ts';

export interface PageLocals {
  lang: Lang;
  t: UiTranslator;
}

export function pageLocals(astro: { locals: App.Locals; url: URL }): PageLocals {
  const { lang, t } = astro.locals;
  if (!lang || !t) {
    throw new Error(
      `${astro.url.pathname}: Astro.locals has no page language. src/middleware.ts sets it from the [lang] route parameter; ` +
        'a component that speaks a language must render on a page under src/pages/[lang]/.',
    );
  }
  return { lang, t };
}
