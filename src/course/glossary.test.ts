// The course speaks one terminology: content/glossary.json. These tests hold every lesson, quiz,
// exercise brief, rule text and Vietnamese test name and every UI string to it, and check that lessons
// link to it.
import { describe, expect, it } from 'vitest';
import { mdxToJs } from 'satteri';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { loadContent } from './content-files.ts';
import { LANGS } from '../i18n/langs.ts';
import { loadGlossary } from '../glossary/load.ts';
import { findAvoided, phrasePattern } from '../glossary/match.ts';
import { glossaryLinks } from '../glossary/satteri-plugin.ts';
import { courseTextSources } from '../glossary/testing/sources.ts';

const root = process.cwd();
const glossary = loadGlossary(root);
const content = loadContent();
const sources = courseTextSources(root);

/** Fenced code blocks, with their info string. */
const fences = (body: string) => [...body.matchAll(/^```([^\n]*)\n([\s\S]*?)^```/gm)].map((m) => ({ info: m[1]!.trim(), code: m[2]! }));
const prose = (body: string) => body.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');

/**
 * Variants left in place on purpose, each with its reason. Keep this list empty when you can: the
 * test below fails when an exception no longer matches anything, so a fixed one must be removed.
 */
const PENDING: { where: string; found: string; why: string }[] = [];

describe('the glossary', () => {
  it('covers every lesson, quiz, brief, rule text, test name and UI string it is meant to hold', () => {
    const where = sources.map((s) => s.where.split('.json')[0]);
    expect(where.filter((w) => w.startsWith('content/lessons/')).length).toBe(content.lessons.length);
    for (const expected of [
      'content/quizzes/',
      'content/glossary',
      'content/modules',
      'exercises/retry-helper/brief.vi.md',
      'exercises/retry-helper/exercise',
      'exercises/retry-helper/test-names.vi',
      'src/i18n/ui/vi.ts',
      'src/sims/',
      'scripts/cli-messages.ts',
      'src/grading/core/messages.ts',
    ]) {
      expect(
        where.some((w) => w.startsWith(expected)),
        expected,
      ).toBe(true);
    }
  });

  it('is followed everywhere: no text uses a variant the glossary gave up on', () => {
    const pending = new Set<(typeof PENDING)[number]>();
    const problems = sources.flatMap((s) =>
      (s.lang ? [s.lang] : LANGS).flatMap((lang) =>
        findAvoided(s.text, glossary, lang)
          .filter((a) => {
            const known = PENDING.find((p) => p.where === s.where && p.found === a.found.toLowerCase());
            if (known) pending.add(known);
            return !known;
          })
          .map(
            (a) => `${s.where}${s.where.includes('.json') ? '' : `:${a.line}`} (${lang}): "${a.found}", write "${a.preferred}" (glossary entry ${a.entryId})`,
          ),
      ),
    );
    expect(problems).toEqual([]);
    expect(
      PENDING.filter((p) => !pending.has(p)).map((p) => p.where),
      'exceptions that no longer match: remove them',
    ).toEqual([]);
  });

  it('links no term that the lessons never use', () => {
    for (const lang of LANGS) {
      const text = content.lessons
        .filter((l) => l.data.lang === lang)
        .map((l) => prose(l.body))
        .join('\n');
      const unused = glossary.entries.filter((e) => e[lang].match.length > 0 && !phrasePattern(e[lang].match)!.test(text));
      expect(
        unused.map((e) => e.id),
        `${lang} entries whose forms no lesson uses`,
      ).toEqual([]);
    }
  });

  it('is linked from every lesson where its terms first appear, and every link has an entry', async () => {
    const ids = new Set(glossary.entries.map((e) => e.id));
    for (const lesson of content.lessons) {
      const { code } = await mdxToJs(lesson.body, { mdastPlugins: [glossaryLinks(glossary)], fileURL: pathToFileURL(join(root, lesson.path)) });
      const linked = [...code.matchAll(/\/(vi|en)\/glossary\/#([a-z0-9-]+)/g)];
      expect(linked.length, `${lesson.path}: glossary links`).toBeGreaterThan(0);
      expect(
        linked.filter((m) => m[1] !== lesson.data.lang || !ids.has(m[2]!)).map((m) => m[0]),
        lesson.path,
      ).toEqual([]);
      expect(new Set(linked.map((m) => m[2])).size, `${lesson.path}: each term is linked once`).toBe(linked.length);
    }
  });
});

describe('code in lessons', () => {
  it('is the same in both languages: comments stay in English, only ```text worked figures are translated', () => {
    for (const en of content.lessons.filter((l) => l.data.lang === 'en')) {
      const vi = content.lessons.find((l) => l.data.lang === 'vi' && l.entryId.replace(/^vi\//, '') === en.entryId.replace(/^en\//, ''));
      expect(vi, `${en.path} has a Vietnamese twin`).toBeDefined();
      const code = (body: string) => fences(body).filter((f) => f.info !== 'text');
      expect(code(vi!.body), `${vi!.path}: code blocks differ from ${en.path}`).toEqual(code(en.body));
    }
  });
});
