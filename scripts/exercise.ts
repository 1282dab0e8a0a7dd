// npm run exercise -- list | start <id> [--force] | import <progress file> [--force] | test-list <id>   (--lang vi|en)
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { EXERCISES_DIR, fsExerciseSource, gradeWith, NodeSandbox, REPO_ROOT, TEST_LIST } from '../src/grading/index.ts';
import { msg, type Lang } from './cli-messages.ts';
import { runCli } from './run-cli.ts';
import { planImport } from './workbook-import.ts';

const WORKBOOK = join(REPO_ROOT, 'workbook');

runCli({
  usage: { vi: msg('vi', 'usage.exercise'), en: msg('en', 'usage.exercise') },
  options: { force: { type: 'boolean' } },
  main: ({ values, positionals, lang, usageError }) => exercise(positionals, values.force === true, lang, usageError),
});

async function exercise(positionals: string[], force: boolean, lang: Lang, usage: (message: string) => number): Promise<number> {
  const [command, id, ...extra] = positionals;
  if (!command) {
    process.stdout.write(`${msg(lang, 'usage.exercise')}\n`);
    return 2;
  }
  const source = fsExerciseSource();

  if (command === 'list') {
    if (id) return usage(msg(lang, 'usage.unknownOption', { option: [id, ...extra].join(' ') }));
    const lines = [msg(lang, 'list.header')];
    // In course order: by module (content/modules.json), then by id.
    const moduleOrder = (JSON.parse(await readFile(join(REPO_ROOT, 'content', 'modules.json'), 'utf8')) as Array<{ id: string }>).map((m) => m.id);
    const exercises = await Promise.all((await source.ids()).map(async (exId) => (await source.load(exId))!.exercise));
    exercises.sort((a, b) => moduleOrder.indexOf(a.module) - moduleOrder.indexOf(b.module) || a.id.localeCompare(b.id));
    for (const exercise of exercises) {
      const exId = exercise.id;
      const dir = join(WORKBOOK, exId);
      const state = existsSync(dir) ? msg(lang, 'list.started', { dir: relative(process.cwd(), dir) }) : msg(lang, 'list.notStarted');
      lines.push(`  ${exId.padEnd(22)} ${exercise.title[lang]}  [${exercise.module}] (${state})`);
    }
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  }

  if (command === 'start') {
    if (!id) return usage(msg(lang, 'usage.missingId'));
    if (extra.length) return usage(msg(lang, 'usage.unknownOption', { option: extra.join(' ') }));
    const bundle = await source.load(id);
    if (!bundle) return usage(msg(lang, 'usage.unknownExercise', { id, known: (await source.ids()).join(', ') }));
    const dir = join(WORKBOOK, id);
    const shown = relative(process.cwd(), dir) || dir;
    const paths = bundle.exercise.files.map((f) => f.path);
    const existing = paths.filter((p) => existsSync(join(dir, p)));
    if (existing.length && !force) {
      process.stderr.write(msg(lang, 'start.exists', { dir: shown, files: existing.join(', ') }) + '\n');
      return 2;
    }
    for (const f of bundle.exercise.files) {
      const target = join(dir, f.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, bundle.starter[f.path] ?? '');
    }
    for (const l of ['vi', 'en']) {
      const brief = join(EXERCISES_DIR, id, `brief.${l}.md`);
      if (existsSync(brief)) await copyFile(brief, join(dir, `BRIEF.${l}.md`));
    }
    const editable = bundle.exercise.files.filter((f) => f.editable).map((f) => join(shown, f.path));
    process.stdout.write(msg(lang, 'start.done', { id, dir: shown, brief: join(shown, `BRIEF.${lang}.md`), files: editable.join(', ') }) + '\n');
    return 0;
  }

  if (command === 'test-list') {
    if (!id) return usage(msg(lang, 'usage.missingId'));
    if (extra.length) return usage(msg(lang, 'usage.unknownOption', { option: extra.join(' ') }));
    const bundle = await source.load(id);
    if (!bundle) return usage(msg(lang, 'usage.unknownExercise', { id, known: (await source.ids()).join(', ') }));
    return writeTestList(
      id,
      bundle.exercise.files.filter((f) => f.editable).map((f) => f.path),
      lang,
    );
  }

  if (command === 'import') {
    if (!id) return usage(msg(lang, 'import.missingFile'));
    if (extra.length) return usage(msg(lang, 'usage.unknownOption', { option: extra.join(' ') }));
    return importProgress(id, force, lang);
  }

  return usage(msg(lang, 'usage.unknownCommand', { command }));
}

/** Writes the code saved in a browser's progress export into workbook/<id>/ (see workbook-import.ts). */
async function importProgress(file: string, force: boolean, lang: Lang): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    process.stderr.write(msg(lang, 'import.unreadable', { file, reason: (e as Error).message }) + '\n');
    return 1;
  }
  const source = fsExerciseSource();
  const editable = new Map(
    await Promise.all(
      (await source.ids()).map(async (exId) => [exId, (await source.load(exId))!.exercise.files.filter((f) => f.editable).map((f) => f.path)] as const),
    ),
  );
  const planned = planImport(text, editable, (p) => (existsSync(join(WORKBOOK, p)) ? readFileSync(join(WORKBOOK, p), 'utf8') : undefined), force);
  if (!planned.ok) {
    process.stderr.write(msg(lang, 'import.notProgress', { file, problem: planned.problem.kind }) + '\n');
    return 1;
  }
  for (const w of planned.plan.write) {
    await mkdir(dirname(join(WORKBOOK, w.path)), { recursive: true });
    await writeFile(join(WORKBOOK, w.path), w.text);
  }
  const shown = relative(process.cwd(), WORKBOOK) || WORKBOOK;
  const lines = [...new Set(planned.plan.write.map((w) => w.id))].map((exId) => msg(lang, 'import.wrote', { id: exId, dir: join(shown, exId) }));
  for (const s of planned.plan.skipped) lines.push(msg(lang, `import.${s.reason}`, { id: s.id, dir: join(shown, s.id) }));
  if (!lines.length) lines.push(msg(lang, 'import.nothing', { file }));
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

/** exercises/<id>/test-list.json: the tests a run of the reference reports, in order (see src/grading/core/source.ts). */
async function writeTestList(id: string, editable: string[], lang: Lang): Promise<number> {
  const files = Object.fromEntries(await Promise.all(editable.map(async (p) => [p, await readFile(join(REPO_ROOT, 'solutions', id, p), 'utf8')] as const)));
  const sandbox = await NodeSandbox.create();
  try {
    // Graded without the old list, so a test the suite gained or lost shows.
    const source = fsExerciseSource();
    const bundle = (await source.load(id))!;
    delete bundle.testList;
    const report = await gradeWith({ exerciseId: id, files, lang }, sandbox, { source: { ids: source.ids, load: async () => bundle }, typecheck: false });
    if (report.status !== 'pass') {
      process.stderr.write(msg(lang, 'testList.failed', { id, status: report.status, message: report.message ?? '' }) + '\n');
      return 1;
    }
    const file = join(EXERCISES_DIR, id, TEST_LIST);
    const comment = `Every test of the hidden suite, in the order the reference run reports them. A test missing from a run counts as failed (never reached). Kept in step by src/grading/node/proof.test.ts; regenerate with: npm run exercise -- test-list ${id}`;
    await writeFile(file, `${JSON.stringify({ $comment: comment, tests: report.tests.map((t) => t.name) }, null, 2)}\n`);
    process.stdout.write(msg(lang, 'testList.done', { file: relative(process.cwd(), file), count: report.tests.length, id }) + '\n');
    return 0;
  } finally {
    await sandbox.dispose();
  }
}
