/**
 * The file-system and sandbox side of grading a class: reading the assignment and the course items
 * it names, listing and reading submission files, running the hidden suites in a sandbox made by the
 * given factory, writing the gradebook and report. Everything else in this folder is pure.
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { prettifyError } from 'zod/mini';
import '../i18n/zod-english.ts'; // an invalid assignment file is reported with zod's messages
import { assignmentSchema, MAX_SUBMISSION_BYTES, type Assignment } from '../assignments/index.ts';
import { fsExerciseSource, gradeWith, REPO_ROOT, sandboxesStopping, type ExerciseSource } from '../grading/index.ts';
import { quizSchema, type QuizData } from '../quiz/index.ts';
import type { ClassGradingIO } from './grade-class.ts';
import type { Message } from './messages.ts';
import type { ClassContext } from './results.ts';
import type { SandboxFactory } from './sandbox.ts';
import { UnreadableSubmission } from './submission.ts';
import { readSubmissionsZip, type NotRead } from './zip-submissions.ts';

export type Outcome<T> = { ok: true; value: T } | { ok: false; problem: Message };

const firstLine = (text: string) => text.split('\n', 1)[0] ?? '';

export function readAssignmentFile(path: string): Outcome<Assignment> {
  if (!existsSync(path) || !statSync(path).isFile()) return { ok: false, problem: { key: 'usage.noAssignmentFile', params: { file: path } } };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return { ok: false, problem: { key: 'usage.assignmentNotJson', params: { file: path, detail: firstLine((error as Error).message) } } };
  }
  const parsed = assignmentSchema.safeParse(data);
  if (!parsed.success)
    return { ok: false, problem: { key: 'usage.assignmentInvalid', params: { file: path, detail: prettifyError(parsed.error).replace(/\n/g, ' ') } } };
  return { ok: true, value: parsed.data };
}

/** The exercises and quizzes the assignment names, from this course; one it does not have is a usage error. */
export async function loadClassContext(
  assignment: Assignment,
  source: ExerciseSource = fsExerciseSource(),
  quizDir = join(REPO_ROOT, 'content', 'quizzes'),
  solutionsDir = join(REPO_ROOT, 'solutions'),
): Promise<Outcome<ClassContext>> {
  const exercises: ClassContext['exercises'] = {};
  const published: NonNullable<ClassContext['published']> = {};
  for (const id of assignment.exercises) {
    const bundle = await source.load(id);
    if (!bundle) return { ok: false, problem: { key: 'usage.unknownExercise', params: { id, known: (await source.ids()).join(', ') } } };
    exercises[id] = bundle.exercise;
    // What /exercise-bundles/<id>.json publishes: the starter, and solutions/<id>/<file> ("Show solution").
    const editable = bundle.exercise.files.filter((f) => f.editable).map((f) => f.path);
    const solution = (path: string) => join(solutionsDir, id, path);
    if (editable.every((path) => existsSync(solution(path)))) {
      published[id] = {
        reference: Object.fromEntries(editable.map((path) => [path, readFileSync(solution(path), 'utf8')])),
        starter: Object.fromEntries(editable.map((path) => [path, bundle.starter[path] ?? ''])),
      };
    }
  }
  const quizzes: Record<string, QuizData> = {};
  for (const id of assignment.quizzes) {
    const path = join(quizDir, `${id}.json`);
    const parsed = /^[a-z0-9-]+$/.test(id) && existsSync(path) ? quizSchema.safeParse(JSON.parse(readFileSync(path, 'utf8'))) : undefined;
    if (!parsed?.success) return { ok: false, problem: { key: 'usage.unknownQuiz', params: { id } } };
    quizzes[id] = parsed.data;
  }
  return { ok: true, value: { assignment, exercises, quizzes, published } };
}

function notRegular(st: Stats): UnreadableSubmission | undefined {
  if (st.isFile()) return undefined;
  if (st.isSymbolicLink()) return new UnreadableSubmission({ key: 'reject.symlink', params: {} });
  const kind = st.isFIFO() ? 'FIFO' : st.isSocket() ? 'socket' : st.isCharacterDevice() || st.isBlockDevice() ? 'device' : 'directory';
  return new UnreadableSubmission({ key: 'reject.special', params: { kind } });
}

/**
 * Reads one submission as a regular file only: opened without following a symbolic link (O_NOFOLLOW)
 * and without blocking (O_NONBLOCK: a FIFO would otherwise wait forever for a writer), checked with
 * fstat on the open descriptor (no swap between check and read), and never more than the size limit.
 */
export function readRegularFile(path: string, maxBytes = MAX_SUBMISSION_BYTES): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'ELOOP' || code === 'EMLINK') throw new UnreadableSubmission({ key: 'reject.symlink', params: {} });
    throw new UnreadableSubmission({ key: 'reject.unreadable', params: { code } });
  }
  try {
    const wrong = notRegular(fstatSync(fd));
    if (wrong) throw wrong;
    const buffer = Buffer.alloc(maxBytes + 1);
    let size = 0;
    for (let n = -1; n !== 0 && size <= maxBytes; size += n) n = readSync(fd, buffer, size, buffer.length - size, null);
    if (size > maxBytes) throw new UnreadableSubmission({ key: 'reject.tooBig', params: { size: fstatSync(fd).size, max: maxBytes } });
    return buffer.subarray(0, size).toString('utf8');
  } catch (error) {
    if (error instanceof UnreadableSubmission) throw error;
    throw new UnreadableSubmission({ key: 'reject.unreadable', params: { code: (error as NodeJS.ErrnoException).code ?? 'error' } });
  } finally {
    closeSync(fd);
  }
}

/** Submission files are read from `dir`; each exercise is graded in a fresh sandbox from `factory`. */
export function nodeClassIO(dir: string, factory: SandboxFactory, source: ExerciseSource = fsExerciseSource()): ClassGradingIO {
  return {
    async listSubmissions() {
      // Links, FIFOs and devices named *.json are listed too, so each is reported (and refused) by name.
      const names = (await readdir(dir, { withFileTypes: true }))
        .filter((d) => !d.isDirectory() && d.name.toLowerCase().endsWith('.json'))
        .map((d) => d.name)
        .sort();
      const size = (name: string) => {
        try {
          return lstatSync(join(dir, name)).size; // the link itself, never what it points to
        } catch {
          return 0; // gone since the listing: reading it says so
        }
      };
      return names.map((name) => ({ name, size: size(name) }));
    },
    readSubmission: (name) => readRegularFile(join(dir, name)),
    async gradeExercise(exerciseId, files, lang) {
      const sandbox = await factory();
      try {
        // No type check: the gradebook counts tests, and tsc would double the time per learner.
        return await gradeWith({ exerciseId, files, lang }, sandbox, { source, typecheck: false });
      } finally {
        await sandbox.dispose?.();
      }
    },
  };
}

/** Beside the submissions folder, never inside it: `class/subs/` -> `class/subs-graded/`. */
export function defaultOutDir(submissionsDir: string): string {
  const full = resolve(submissionsDir);
  return join(dirname(full), `${basename(full)}-graded`);
}

/** Whatever else is in the submissions folder (`notes.txt`, a folder): listed in the report as not read, never opened. */
export async function filesNotRead(dir: string): Promise<NotRead[]> {
  return (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isDirectory() || !d.name.toLowerCase().endsWith('.json'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((d) =>
      d.isDirectory()
        ? { file: `${d.name}/`, reason: { key: 'notRead.folder', params: {} } }
        : { file: d.name, reason: { key: 'notRead.notJson', params: {} } },
    );
}

/**
 * `--submissions class.zip`: the zip's submission files written into a fresh folder (zip-submissions.ts),
 * with what was not extracted; the caller removes the folder when done.
 */
export async function extractSubmissionsZip(zipPath: string): Promise<Outcome<{ dir: string; notRead: NotRead[] }>> {
  const read = readSubmissionsZip(readFileSync(zipPath));
  if (!read.ok) return { ok: false, problem: read.problem };
  const dir = await mkdtemp(join(tmpdir(), 'grade-class-zip-'));
  for (const [name, bytes] of Object.entries(read.value.files)) await writeFile(join(dir, name), bytes, { flag: 'wx' });
  return { ok: true, value: { dir, notRead: read.value.notRead } };
}

/** `previous-2026-12-01T19-30-05Z`: where the outputs a run replaces are kept (a name every system accepts). */
export const previousFolderName = (at: Date) =>
  `previous-${at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-')}`;

/**
 * Writes the outputs (names may hold one folder: `feedback/an.html`). A file an earlier run wrote
 * under the same name is moved, not overwritten, into `previous-<time of this run>/`, so re-grading
 * keeps the previous run's gradebook, report and feedback beside the new ones.
 */
export async function writeOutputs(outDir: string, files: Record<string, string>, now = new Date()): Promise<Record<string, string>> {
  // Stopped by Ctrl-C or SIGTERM: the learners graded after the signal failed, and a gradebook of them
  // must not replace a good one. The process ends from the signal's handler, once the sandboxes are gone.
  if (sandboxesStopping()) await new Promise<never>(() => undefined);
  await mkdir(outDir, { recursive: true });
  const previous = join(outDir, previousFolderName(now));
  const written: Record<string, string> = {};
  for (const [name, text] of Object.entries(files)) {
    written[name] = join(outDir, name);
    await mkdir(dirname(written[name]), { recursive: true });
    if (existsSync(written[name])) {
      const kept = join(previous, name);
      await mkdir(dirname(kept), { recursive: true });
      await rename(written[name], kept);
    }
    await writeFile(written[name], text);
  }
  return written;
}
