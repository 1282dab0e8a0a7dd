export * from './langs.ts';
export { fillPlaceholders } from './fill.ts';
export { defineCatalog, stringsWithPrefix, type Catalog, type CatalogKey, type KeysWithPrefix, type Translator, type Vars } from './catalog.ts';
export { ui, type UiKey, type UiStrings, type UiTranslator } from './ui/index.ts';
export { pageLocals, type PageLocals } from './locals.ts';
