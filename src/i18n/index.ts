// The public surface of i18n/: the two course languages, the UI string catalogues and the helpers that fill and pick them.
export * from './langs.ts';
export { fillPlaceholders } from './fill.ts';
export { elementLang, elementStrings } from './element-lang.ts';
export { defineCatalog, stringsWithPrefix, type Catalog, type CatalogKey, type KeysWithPrefix, type Translator, type Vars } from './catalog.ts';
export { ui, type UiKey, type UiStrings, type UiTranslator } from './ui/index.ts';
export { pageLocals, type PageLocals } from './locals.ts';
