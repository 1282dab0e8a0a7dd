// Every message catalog (defineCatalog) is checked here, in one place: both languages have the same
// keys and {placeholders}, no text is empty, and Vietnamese text carries its diacritics.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineCatalog, type Catalog } from './catalog.ts';
import { hasVietnameseDiacritics } from './langs.ts';
import { ui } from './ui/index.ts';
import { gradingMessages } from '../grading/core/messages.ts';
import { classMessages } from '../class-grading/messages.ts';
import { cliMessages } from '../../scripts/cli-messages.ts';

/** What the checks read of a catalog, whatever its keys. */
type Checked = Pick<Catalog<string>, 'keys' | 'sameInBoth' | 'entries'>;

/** Every catalog, by the file that defines it. A new defineCatalog call fails the last test until listed here. */
const CATALOGS: Record<string, Checked> = {
  'src/i18n/ui/index.ts': ui,
  'src/grading/core/messages.ts': gradingMessages,
  'src/class-grading/messages.ts': classMessages,
  'scripts/cli-messages.ts': cliMessages,
};

const placeholders = (text: string) =>
  [...text.matchAll(/\{(\w+)\}/g)]
    .map((m) => m[1])
    .sort()
    .join();

/** What is wrong with a catalog, one line per problem (empty when it is sound). */
function problems(catalog: Checked): string[] {
  const found: string[] = [];
  for (const { key, vi, en } of catalog.entries()) {
    if (en === undefined || vi === undefined) found.push(`${key}: missing in ${en === undefined ? 'en' : 'vi'}`);
    else if (!en.trim() || !vi.trim()) found.push(`${key}: empty text`);
    else {
      if (placeholders(vi) !== placeholders(en)) found.push(`${key}: placeholders {${placeholders(vi)}} in vi, {${placeholders(en)}} in en`);
      const bare = !hasVietnameseDiacritics(vi);
      if (bare && !catalog.sameInBoth.has(key)) found.push(`${key}: Vietnamese text without diacritics: "${vi}"`);
      // A listed key that has since been translated leaves the list, so the list stays short and true.
      if (!bare && catalog.sameInBoth.has(key)) found.push(`${key}: listed as the same in both, but its Vietnamese has diacritics`);
    }
  }
  return found;
}

describe('message catalogs', () => {
  it.each(Object.entries(CATALOGS))('%s: same keys and placeholders, no empty text, Vietnamese with diacritics', (_file, catalog) => {
    expect(problems(catalog)).toEqual([]);
    expect(catalog.sameInBoth.size, 'few entries are the same in both languages').toBeLessThanOrEqual(Math.max(6, catalog.keys.length / 10));
  });

  it('finds a missing or extra key, changed placeholders, bare Vietnamese, a stale allowlist entry and empty text', () => {
    const en = { a: 'Start {n}', b: 'Next', c: 'Done', d: 'Lab', f: 'Quiz' };
    const vi = { a: 'Bắt đầu {count}', b: 'Tiep theo', c: ' ', d: 'Phòng lab', e: 'Thêm' };
    const broken = defineCatalog({ en, vi } as never, { sameInBoth: ['d'] as never }) as Checked;
    expect(problems(broken)).toEqual([
      'a: placeholders {count} in vi, {n} in en',
      'b: Vietnamese text without diacritics: "Tiep theo"',
      'c: empty text',
      'd: listed as the same in both, but its Vietnamese has diacritics',
      'f: missing in vi',
      'e: missing in en',
    ]);
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(ui.t('vi', 'home.lessonCount', { count: 3 })).toBe('3 bài');
    expect(ui.translator('vi')('home.lessonCount')).toBe('{count} bài');
    expect(gradingMessages.t('en', 'grade.stopped', { ms: 200, test: 'x', rule: 'R1' })).toContain('after 200 ms: test "x"');
  });

  it('checks every file of src/ and scripts/ that defines a catalog', () => {
    const root = resolve(import.meta.dirname, '../..');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : files(full);
        return /\.(ts|mts|astro)$/.test(name) && !name.endsWith('.test.ts') ? [full] : [];
      });
    // A call on a line that is not a comment: `export const x = defineCatalog({ vi, en })`.
    const defining = [...files(join(root, 'src')), ...files(join(root, 'scripts'))]
      .filter((file) => /^[^*/\n]*\bdefineCatalog\s*\(/m.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file).split('\\').join('/'));
    expect(defining.sort()).toEqual(Object.keys(CATALOGS).sort());
  });
});
