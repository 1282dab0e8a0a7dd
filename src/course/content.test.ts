import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from './content-files.ts';
import { checkContent, embeddedIn } from './content-rules.ts';
import { sharedRuns } from '../content-lint/seed-overlap.ts';
import { seedDir } from '../content-lint/seeds.ts';
import { hasVietnameseDiacritics } from '../i18n/langs.ts';
import { SIMS } from '../sims/index.ts';

const content = loadContent();

describe('the course content', () => {
  it('passes every schema and cross-file rule (both languages, embedded pieces, quizzes and simulations that exist)', () => {
    expect(checkContent(content, { sims: SIMS.map((s) => s.name) }).map((p) => `${p.file}: ${p.message}`)).toEqual([]);
  });

  it('has every module with 2 to 5 lessons, each 8 to 15 minutes, in both languages', () => {
    for (const m of content.modules) {
      for (const lang of ['vi', 'en'] as const) {
        const lessons = content.lessons.filter((l) => l.data.module === m.id && l.data.lang === lang);
        expect(lessons.length, `${m.id} (${lang})`).toBeGreaterThanOrEqual(2);
        expect(lessons.length, `${m.id} (${lang})`).toBeLessThanOrEqual(5);
        for (const l of lessons) expect(l.data.minutes, l.path).toBeGreaterThanOrEqual(8);
        for (const l of lessons) expect(l.data.minutes, l.path).toBeLessThanOrEqual(15);
      }
    }
  });

  it('keeps code comments in English in both languages (the written rule in docs/writing-lessons.md)', () => {
    const vietnameseComments = content.lessons.flatMap((l) =>
      [...l.body.matchAll(/```\w*\n([\s\S]*?)```/g)]
        .flatMap((m) => m[1]!.split('\n'))
        .filter((line) => /(\/\/|\/\*|^\s*\*|#)\s/.test(line) && hasVietnameseDiacritics(line.replace(/^.*?(\/\/|\/\*|#)/, '')))
        .map((line) => `${l.path}: ${line.trim()}`),
    );
    expect(vietnameseComments).toEqual([]);
  });

  it('ends every module with a quiz of at least 6 questions and 3 question types', () => {
    for (const m of content.modules) {
      const quiz = content.quizzes.get(`${m.id}-quiz`);
      expect(quiz, `${m.id}-quiz`).toBeDefined();
      expect(quiz!.questions.length).toBeGreaterThanOrEqual(6);
      expect(new Set(quiz!.questions.map((q) => q.type)).size).toBeGreaterThanOrEqual(3);
      const last = content.lessons.filter((l) => l.data.module === m.id).sort((a, b) => b.data.order - a.data.order)[0]!;
      expect(embeddedIn(last.body).quizzes, last.path).toContain(`${m.id}-quiz`);
    }
  });

  it('writes Vietnamese lessons in Vietnamese: most paragraphs carry diacritics', () => {
    for (const lesson of content.lessons.filter((l) => l.data.lang === 'vi')) {
      const prose = lesson.body
        .replace(/```[\s\S]*?```/g, '')
        .split(/\n\s*\n/)
        .filter((p) => p.trim().split(/\s+/).length >= 12 && !/^\s*[|<-]/.test(p));
      const plain = prose.filter((p) => !hasVietnameseDiacritics(p));
      expect(plain.length / prose.length, `${lesson.path}: ${plain[0]?.slice(0, 80)}`).toBeLessThan(0.1);
    }
  });

  it('ends every lesson with key points and further reading', () => {
    for (const lesson of content.lessons) {
      const headings = [...lesson.body.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());
      const expected = lesson.data.lang === 'vi' ? ['Điểm chính', 'Đọc thêm'] : ['Key points', 'Further reading'];
      for (const h of expected) expect(headings, lesson.path).toContain(h);
    }
  });
});

describe('the seed articles are not copied', () => {
  const dir = seedDir();
  const seeds = dir ? readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')) : [];
  // The seeds sit outside the repository (../shared/seeds); CI always has them.
  it.skipIf(!dir && !process.env.CI)('no lesson or quiz shares a run of 8 or more words with a seed', () => {
    expect(dir, 'seed folder ../shared/seeds not found').toBeDefined();
    const files = [...content.lessons.map((l) => l.path), ...[...content.quizzes.keys()].map((id) => `content/quizzes/${id}.json`)];
    const found = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return seeds.flatMap((seed) => sharedRuns(text, seed).map((r) => `${file}: "${r.words}"`));
    });
    expect(found).toEqual([]);
  });

  it('the overlap check itself catches a copied sentence, even re-punctuated', () => {
    const seed = 'Timeout còn là cách duy nhất để chuyển "không biết" thành một quyết định cụ thể.';
    expect(sharedRuns('Mở đầu. Timeout còn là cách duy nhất để chuyển KHÔNG BIẾT thành một quyết định!', seed)).toHaveLength(1);
    expect(sharedRuns('Timeout biến điều chưa biết thành một quyết định rõ ràng.', seed)).toHaveLength(0);
  });
});
