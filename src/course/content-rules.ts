/**
 * Cross-file rules a schema alone cannot see: both languages of every lesson, embedded pieces that
 * match the front matter, and references to modules and quizzes that exist.
 */
import type { ContentProblem, LoadedContent, LessonFile } from './content-files.ts';
import { splitEntryId } from './schema.ts';
import { LANGS, hasVietnameseDiacritics } from '../i18n/index.ts';

/** Embedded pieces of a lesson body: <Exercise id="…" />, <Quiz id="…" />, <Lab sim="…" />. */
export function embeddedIn(body: string): { exercises: string[]; quizzes: string[]; labs: string[] } {
  const all = (re: RegExp) => [...new Set([...body.matchAll(re)].map((m) => m[1] ?? ''))].sort();
  return {
    exercises: all(/<Exercise\s+id="([^"]+)"/g),
    quizzes: all(/<Quiz\s+id="([^"]+)"/g),
    labs: all(/<Lab\s+sim="([^"]+)"/g),
  };
}

const sameSet = (a: string[], b: string[]) => [...a].sort().join() === [...b].sort().join();

/** Names the content may refer to that live in code, e.g. the simulations of src/sims. */
export interface KnownNames {
  sims?: readonly string[];
}

export function checkContent(content: LoadedContent, known: KnownNames = {}): ContentProblem[] {
  const problems: ContentProblem[] = [...content.problems];
  const moduleIds = new Set(content.modules.map((m) => m.id));
  const byLesson = new Map<string, LessonFile[]>();

  for (const lesson of content.lessons) {
    const { lang, module, lessonId } = splitEntryId(lesson.entryId);
    const report = (message: string) => problems.push({ file: lesson.path, message });
    if (lang !== lesson.data.lang) report(`file is under ${lang}/ but says lang: ${lesson.data.lang}`);
    if (module !== lesson.data.module) report(`file is under ${module}/ but says module: ${lesson.data.module}`);
    if (!moduleIds.has(lesson.data.module)) report(`unknown module "${lesson.data.module}"`);
    if (lang === 'vi' && !hasVietnameseDiacritics(lesson.body)) report('Vietnamese lesson without diacritics');

    const embedded = embeddedIn(lesson.body);
    for (const kind of ['exercises', 'quizzes', 'labs'] as const) {
      if (!sameSet(embedded[kind], lesson.data[kind])) {
        report(`front matter ${kind} [${lesson.data[kind]}] differs from what the body embeds [${embedded[kind]}]`);
      }
    }
    if (known.sims) {
      const sims = [...lesson.body.matchAll(/<(?:Lab|SimTable)\s+sim="([^"]+)"/g)].map((m) => m[1] ?? '');
      for (const sim of sims.filter((s) => !known.sims!.includes(s))) report(`embeds simulation "${sim}", which src/sims does not have`);
    }
    for (const quiz of embedded.quizzes) {
      if (!content.quizzes.has(quiz)) report(`embeds quiz "${quiz}", which has no file content/quizzes/${quiz}.json`);
    }
    byLesson.set(lessonId, [...(byLesson.get(lessonId) ?? []), lesson]);
  }

  for (const [lessonId, versions] of byLesson) {
    const langs = versions.map((v) => v.data.lang);
    for (const lang of LANGS) {
      if (!langs.includes(lang)) problems.push({ file: versions[0]!.path, message: `lesson ${lessonId} has no ${lang} version` });
    }
    const [a, b] = versions;
    if (a && b) {
      for (const key of ['order', 'exercises', 'quizzes', 'labs'] as const) {
        if (JSON.stringify(a.data[key]) !== JSON.stringify(b.data[key])) {
          problems.push({ file: b.path, message: `${key} differs between the two languages of ${lessonId}` });
        }
      }
    }
  }

  for (const [id, quiz] of content.quizzes) {
    if (!moduleIds.has(quiz.module)) problems.push({ file: `content/quizzes/${id}.json`, message: `unknown module "${quiz.module}"` });
  }
  return problems;
}
