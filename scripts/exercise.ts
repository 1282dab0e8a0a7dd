// npm run exercise -- list | start <id> [--force]   (--lang vi|en)
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { EXERCISES_DIR, fsExerciseSource, REPO_ROOT } from '../src/grading/index.ts';
import { parseArgs } from './cli-args.ts';
import { msg, pickLang, type Lang } from './cli-messages.ts';

const WORKBOOK = join(REPO_ROOT, 'workbook');

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['lang'], ['force', 'help']);
  const picked = pickLang(typeof args.flags['lang'] === 'string' ? args.flags['lang'] : undefined);
  const lang: Lang = typeof picked === 'string' ? picked : 'vi';
  const usage = (text: string) => {
    process.stderr.write(`${text}\n\n${msg(lang, 'usage.exercise')}\n`);
    return 2;
  };
  if (typeof picked !== 'string') return usage(`${msg('vi', 'usage.badLang', { lang: picked.bad })}\n${msg('en', 'usage.badLang', { lang: picked.bad })}`);
  if (args.unknown.length) return usage(msg(lang, 'usage.unknownOption', { option: args.unknown.join(' ') }));
  const [command, id, ...extra] = args.positional;
  if (args.flags['help'] || !command) {
    process.stdout.write(msg(lang, 'usage.exercise') + '\n');
    return args.flags['help'] ? 0 : 2;
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
    if (existing.length && !args.flags['force']) {
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
    process.stdout.write(
      msg(lang, 'start.done', { id, dir: shown, brief: join(shown, `BRIEF.${lang}.md`), files: editable.join(', ') }) + '\n',
    );
    return 0;
  }

  return usage(msg(lang, 'usage.unknownCommand', { command }));
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
