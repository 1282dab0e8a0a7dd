/** The site's UI strings, one catalog: src/i18n/catalogs.test.ts checks both tables against each other. */
import { defineCatalog, type CatalogKey, type KeysWithPrefix, type Translator } from '../catalog.ts';
import { en } from './en.ts';
import { vi } from './vi.ts';

export const ui = defineCatalog({ vi, en }, { sameInBoth: ['lang.switch', 'lang.switchLabel', 'module.label', 'embed.lab', 'embed.quiz', 'lesson.inModule'] });

export type UiKey = CatalogKey<typeof ui>;
export type UiTranslator = Translator<UiKey>;
/** What `stringsWithPrefix(t, 'ws.')` hands a custom element: every key with the prefix, so the browser reads them typed. */
export type UiStrings<P extends string> = Record<KeysWithPrefix<UiKey, P>, string>;
