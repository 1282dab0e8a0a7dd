import { describe, expect, it } from 'vitest';
import { defineCatalog, stringsWithPrefix } from './catalog.ts';

const catalog = defineCatalog({
  en: { 'ws.run': 'Run', 'ws.took': 'Took {ms} ms', 'lesson.copy': 'Copy', 'lesson.copied': 'Copied', other: '{count} {count|lesson|lessons}' },
  vi: { 'ws.run': 'Chạy', 'ws.took': 'Mất {ms} ms', 'lesson.copy': 'Sao chép', 'lesson.copied': 'Đã chép', other: '{count} bài' },
});

describe('defineCatalog', () => {
  it('translates in either language, filling placeholders and English plural forms', () => {
    expect(catalog.t('vi', 'ws.took', { ms: 12 })).toBe('Mất 12 ms');
    const en = catalog.translator('en');
    expect([en.lang, en('other', { count: 1 }), en('other', { count: 2 })]).toEqual(['en', '1 lesson', '2 lessons']);
    expect(catalog.translator('en')).toBe(en);
  });

  it('hands over every key with a prefix, unfilled, in the catalog order; a whole key selects itself', () => {
    const vi = catalog.translator('vi');
    expect(stringsWithPrefix(vi, 'ws.')).toEqual({ 'ws.run': 'Chạy', 'ws.took': 'Mất {ms} ms' });
    expect(Object.keys(stringsWithPrefix(vi, 'lesson.copied', 'ws.run'))).toEqual(['ws.run', 'lesson.copied']);
  });
});
