/**
 * Every piece of course text the glossary holds to its terms, each with its language when it has
 * one: lessons, quizzes, modules, exercise briefs, rule texts and Vietnamese test names, the glossary itself, and the UI
 * strings in src/ and scripts/ (the dictionaries, simulation labels, grader and CLI messages).
 * Files that mix both languages are checked against both lists; a Vietnamese variant cannot hide
 * in English text anyway.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isLang, type Lang } from '../../i18n/index.ts';

export interface TextSource {
  /** A repository path, with a JSON path or nothing after it. */
  where: string;
  lang?: Lang;
  text: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'node_modules' ? [] : walk(path);
    return [path];
  });
}

/** The strings of a JSON document; `{ "vi": …, "en": … }` pairs give each side its language. */
export function jsonStrings(value: unknown, where: string, lang?: Lang, skipKeys: readonly string[] = []): TextSource[] {
  if (typeof value === 'string') return [{ where, lang, text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => jsonStrings(v, `${where}[${i}]`, lang, skipKeys));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => (skipKeys.includes(k) ? [] : jsonStrings(v, `${where}.${k}`, isLang(k) ? k : lang, skipKeys)));
  }
  return [];
}

export function courseTextSources(root: string): TextSource[] {
  const rel = (p: string) => relative(root, p).replace(/\\/g, '/');
  const read = (p: string) => readFileSync(p, 'utf8');
  const out: TextSource[] = [];
  for (const file of walk(join(root, 'content'))) {
    const where = rel(file);
    const lesson = /^content\/lessons\/([a-z]+)\/.*\.mdx$/.exec(where);
    if (lesson && isLang(lesson[1])) out.push({ where, lang: lesson[1], text: read(file) });
    // The glossary's own `avoid` lists name the variants on purpose.
    else if (where.endsWith('.json')) out.push(...jsonStrings(JSON.parse(read(file)), where, undefined, ['avoid']));
  }
  for (const file of walk(join(root, 'exercises'))) {
    const where = rel(file);
    const brief = /^exercises\/[^/]+\/brief\.([a-z]+)\.md$/.exec(where);
    if (brief && isLang(brief[1])) out.push({ where, lang: brief[1], text: read(file) });
    else if (/^exercises\/[^/_][^/]*\/exercise\.json$/.test(where)) out.push(...jsonStrings(JSON.parse(read(file)), where));
    // The Vietnamese names of the hidden tests, shown in the results: the keys are the tests' own
    // English names (fixed by the suites), the values are what a Vietnamese learner reads.
    else if (/^exercises\/[^/_][^/]*\/test-names\.vi\.json$/.test(where)) {
      const names = JSON.parse(read(file)) as Record<string, string>;
      out.push(...Object.entries(names).map(([en, vi]) => ({ where: `${where}[${JSON.stringify(en)}]`, lang: 'vi' as const, text: vi })));
    }
  }
  for (const file of [...walk(join(root, 'src')), ...walk(join(root, 'scripts'))]) {
    const where = rel(file);
    if (!/\.(ts|astro|mjs)$/.test(where) || /\.test\.ts$|test-fixtures\.ts$/.test(where)) continue;
    const ui = /^src\/i18n\/ui\/([a-z]+)\.ts$/.exec(where);
    out.push({ where, lang: ui && isLang(ui[1]) ? ui[1] : undefined, text: read(file) });
  }
  return out;
}
