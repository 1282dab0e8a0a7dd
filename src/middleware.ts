/**
 * Every page under /[lang]/ gets its language and UI translator here, once, so pages and components
 * read `Astro.locals.lang` and `Astro.locals.t` instead of each working them out (Starlight's
 * locals.ts does the same). Pages are prerendered: this runs at build time, once per page.
 */
import { defineMiddleware } from 'astro:middleware';
import { isLang } from './i18n/index.ts';
import { ui } from './i18n/ui/index.ts';

export const onRequest = defineMiddleware((context, next) => {
  const lang = context.params['lang'];
  if (isLang(lang)) {
    context.locals.lang = lang;
    context.locals.t = ui.translator(lang);
  }
  return next();
});
