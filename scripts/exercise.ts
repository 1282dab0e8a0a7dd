// npm run exercise -- list | start <id> [--force]   (--lang vi|en)
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { EXERCISES_DIR, fsExerciseSource, REPO_ROOT } from '../src/grading/index.ts';
import { msg, type Lang } from './cli-messages.ts';
import { runCli } from './run-cli.ts';

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

  return usage(msg(lang, 'usage.unknownCommand', { command }));
}
