export * from './langs.ts';
export { fillPlaceholders } from './fill.ts';
export { defineCatalog, stringsWithPrefix, type Catalog, type CatalogKey, type Translator, type Vars } from './catalog.ts';
export { ui, type UiKey, type UiTranslator } from './ui/index.ts';

import { ui } from './ui/index.ts';
import type { Lang } from './langs.ts';
/** A translator for one language (pages and components move to Astro.locals.t). */
export const useTranslations = (lang: Lang) => ui.translator(lang);
