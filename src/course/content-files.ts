/**
 * Reads the course's content folder straight from disk (no Astro), so tests and scripts can
 * check it with the same schemas the site builds with.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { prettifyError, z } from 'zod/mini';
import '../i18n/zod-english.ts'; // the problems quote zod's messages
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { mdxToJs } from 'satteri';
import { lessonSchema, moduleSchema, type CourseModule, type LessonData } from './schema.ts';
import { quizSchema, type QuizData } from '../quiz/index.ts';

export interface LessonFile {
  path: string;
  entryId: string;
  data: LessonData;
  body: string;
}

export interface ContentProblem {
  file: string;
  message: string;
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)]));
}

export function splitFrontMatter(source: string): { frontMatter: unknown; body: string; bodyLine: number } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!match) return { frontMatter: undefined, body: source, bodyLine: 1 };
  const bodyLine = match[0].split('\n').length - (match[0].endsWith('\n') ? 0 : 1);
  return { frontMatter: parseYaml(match[1] ?? ''), body: source.slice(match[0].length), bodyLine };
}

/** The same MDX compiler the site builds with, so a lesson that would break the build is caught here. */
function mdxError(body: string, bodyLine: number): string | undefined {
  try {
    mdxToJs(body);
    return undefined;
  } catch (error) {
    // Report the line in the file, not in the body after the front matter.
    return (error as Error).message.replace(/^(\d+):(\d+)/, (_, line: string, col: string) => `line ${Number(line) + bodyLine - 1}, column ${col}`);
  }
}

export interface LoadedContent {
  modules: CourseModule[];
  lessons: LessonFile[];
  quizzes: Map<string, QuizData>;
  problems: ContentProblem[];
}

export function loadContent(root = 'content'): LoadedContent {
  const problems: ContentProblem[] = [];
  const modulesPath = join(root, 'modules.json');
  const parsedModules = z.array(moduleSchema).safeParse(JSON.parse(readFileSync(modulesPath, 'utf8')));
  if (!parsedModules.success) problems.push({ file: modulesPath, message: prettifyError(parsedModules.error) });
  const modules = parsedModules.success ? parsedModules.data : [];

  const lessons: LessonFile[] = [];
  const lessonRoot = join(root, 'lessons');
  for (const path of walk(lessonRoot).filter((p) => p.endsWith('.mdx'))) {
    const { frontMatter, body, bodyLine } = splitFrontMatter(readFileSync(path, 'utf8'));
    const parsed = lessonSchema.safeParse(frontMatter);
    if (!parsed.success) {
      problems.push({ file: path, message: prettifyError(parsed.error) });
      continue;
    }
    const compileError = mdxError(body, bodyLine);
    if (compileError) problems.push({ file: path, message: `MDX does not compile: ${compileError}` });
    const entryId = relative(lessonRoot, path)
      .replace(/\\/g, '/')
      .replace(/\.mdx$/, '');
    lessons.push({ path, entryId, data: parsed.data, body });
  }

  const quizzes = new Map<string, QuizData>();
  for (const path of walk(join(root, 'quizzes')).filter((p) => p.endsWith('.json'))) {
    const id = path.replace(/^.*[\\/]/, '').replace(/\.json$/, '');
    try {
      const parsed = quizSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
      if (parsed.success) quizzes.set(id, parsed.data);
      else problems.push({ file: path, message: prettifyError(parsed.error) });
    } catch (error) {
      problems.push({ file: path, message: `not valid JSON: ${(error as Error).message}` });
    }
  }
  return { modules, lessons, quizzes, problems };
}
